"""Boost foresight: the exact chance that the scene's boost (MTG-CHK-13) would turn a failed check into
a success, from what the player knows right after the check.

The boost exiles the top `boost_cards` cards under the known top cards (the revealed pair is already at
the bottom) and adds 1 per card that counts as colourless for it. The table's knowledge is the odds
model's (`slot_groups`): known cards are fixed, each unordered group (an earlier check's pair) holds
its cards in random order, the unknown cards fill the other positions in random order. The number of
counting cards the boost takes from each group is hypergeometric, the groups independent, so the total
is their convolution. The result is a Fraction, like the check odds.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from fractions import Fraction

from gamekernel.mtg.rules.facts import CardFacts
from gamekernel.mtg.rules.kinds import DEFAULT_OPTIONS, MtgOptions
from gamekernel.mtg.rules.odds import Groups, known_prefix, slot_groups


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


def boost_chance(achievement: int | float, target: int | float, library: Sequence[CardFacts],
                 known: Collection[int] = (), unordered: Groups = (),
                 options: MtgOptions = DEFAULT_OPTIONS, *, exiled: int | None = None) -> Fraction:
    """Chance that a boost reaches `target`. `library` = the library right after the check, top first
    (the revealed pair at the bottom); `known` = the positions whose card the player knows; `unordered`
    = the groups of positions whose cards are known but not their order (the pair among them);
    `exiled` = the known top cards the check exiled (the boost takes the cards under them)."""
    need = bonus_needed(achievement, target)
    if need <= 0:
        return Fraction(1)
    exiled = known_prefix(known) if exiled is None else exiled
    taken = set(range(exiled, max(exiled, len(library) - 2))[: options.boost_cards])
    counts = [counts_colourless_for_boost(card, options) for card in library]
    total = [Fraction(1)]  # total[k] = P(k counting cards among the taken ones, so far)
    for part in slot_groups(len(library), known, unordered):
        draws = len(taken.intersection(part))
        if not draws:
            continue
        size, hits = len(part), sum(counts[i] for i in part)
        spread = [Fraction(math.comb(hits, k) * math.comb(size - hits, draws - k), math.comb(size, draws))
                  for k in range(draws + 1)]
        total = [sum((total[j] * spread[k - j] for j in range(len(total)) if 0 <= k - j < len(spread)),
                     Fraction(0)) for k in range(len(total) + draws)]
    return sum(total[need:], Fraction(0))
