"""Exact odds for teaching (fractions, no sampling): flux chance, overcharge success, deck draws."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from gamekernel.errors import UsageError
from gamekernel.i18n import t


def p_flux(d20_rolls: int) -> Fraction:
    """GW-ALPHA-10: chance of at least one natural 1 (one Alpha Flux) in `d20_rolls` d20 rolls."""
    if d20_rolls < 0:
        raise UsageError(t("gammaworld.err.d20_rolls", rolls=d20_rolls))
    return 1 - Fraction(19, 20) ** d20_rolls


def p_overcharge(bonus: int = 0, success_min: int = 10) -> Fraction:
    """GW-ALPHA-13/14: chance that d20 + bonus >= success_min (no automatic results)."""
    return Fraction(sum(1 for face in range(1, 21) if face + bonus >= success_min), 20)


@dataclass(frozen=True)
class DeckOdds:
    """Chance that `draws` cards from a deck of `deck_size` holding `copies` of a card include it."""

    deck_size: int
    copies: int
    draws: int
    at_least_one: Fraction
    exactly: tuple[Fraction, ...]  # exactly[k] = P(k copies drawn)


def p_card_in_draws(deck_size: int, copies: int, draws: int) -> DeckOdds:
    """Hypergeometric: P(at least one of `copies` among `draws` cards drawn without replacement)."""
    if not 0 <= copies <= deck_size or not 0 <= draws <= deck_size:
        raise UsageError(t("gammaworld.err.odds_sizes", copies=copies, draws=draws, size=deck_size))
    total = comb(deck_size, draws)
    exactly = tuple(
        Fraction(comb(copies, k) * comb(deck_size - copies, draws - k), total) for k in range(min(copies, draws) + 1)
    )
    return DeckOdds(deck_size, copies, draws, 1 - exactly[0], exactly)
