"""Boost foresight: the exact chance that the scene's boost (MTG-CHK-13) would turn a failed check into
a success, from what the player knows right after the check.

The boost exiles the top `boost_cards` cards under the known top cards (the revealed pair is already at
the bottom) and adds 1 per card that counts as colourless for it. Cards whose position the player knows
are fixed; the others lie in a uniformly random order, so the number of counting cards among the unknown
slots is hypergeometric over the unknown cards. The result is a Fraction, like the check odds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from gamekernel.mtg.rules.facts import CardFacts
from gamekernel.mtg.rules.kinds import DEFAULT_OPTIONS, MtgOptions


def counts_colourless_for_boost(card: CardFacts, options: MtgOptions = DEFAULT_OPTIONS) -> bool:
    """MTG-CHK-13: colourless cards count, and basic lands too (seed 002: 基本土地は無色あつかい); a
    coloured non-basic land (Dryad Arbor) only with boost_colourless_lands="any"."""
    if card.is_colourless or card.is_basic_land:
        return True
    return card.is_land and options.boost_colourless_lands == "any"


def bonus_needed(achievement: int | float, target: int | float) -> int:
    """The smallest whole bonus with achievement + bonus >= target (0 when it already succeeds)."""
    return max(0, math.ceil(target - achievement))


def hypergeometric_at_least(population: int, successes: int, draws: int, need: int) -> Fraction:
    """P(at least `need` successes in `draws` draws without replacement)."""
    if need <= 0:
        return Fraction(1)
    total = math.comb(population, draws)
    favourable = sum(math.comb(successes, k) * math.comb(population - successes, draws - k)
                     for k in range(need, min(successes, draws) + 1))
    return Fraction(favourable, total)


def boost_chance(achievement: int | float, target: int | float, middle: Sequence[CardFacts],
                 known: Sequence[bool], options: MtgOptions = DEFAULT_OPTIONS) -> Fraction:
    """Chance that a boost reaches `target`. `middle` = the library after the check, under the known top
    cards and above the revealed pair, top first; `known[i]` = the player knows the card at middle[i]."""
    need = bonus_needed(achievement, target)
    taken = min(options.boost_cards, len(middle))
    counts = [counts_colourless_for_boost(card, options) for card in middle]
    fixed = sum(1 for i in range(taken) if known[i] and counts[i])
    slots = sum(1 for i in range(taken) if not known[i])
    pool = [counts[i] for i in range(len(middle)) if not known[i]]
    return hypergeometric_at_least(len(pool), sum(pool), slots, need - fixed)
