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
from collections import Counter
from collections.abc import Collection, Sequence
from fractions import Fraction

from gamekernel.mtg.rules.facts import CardFacts
from gamekernel.mtg.rules.kinds import DEFAULT_OPTIONS, MtgOptions, colour_modifier, parse_kind
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


def boosted_check_odds(library: Sequence[CardFacts], kind: str, difficulty: int, *,
                       known: Collection[int] | int = (), unordered: Groups = (),
                       options: MtgOptions = DEFAULT_OPTIONS) -> Fraction | None:
    """P(success) of a check when a failure is always boosted (MTG-CHK-13), exact given the table's
    knowledge (the odds model's `slot_groups`); None when no check is possible (MTG-CHK-04).

    The check reveals the cards at positions e and e+1 (e = the known top cards it exiles first); the
    pair goes to the bottom, so the boost takes the cards at e+2 .. e+1+boost_cards (never the pair).
    For each first card (from position e's group) and second card (from e+1's group), and each colour of
    a multicoloured second card (MTG-CHK-10), a failure short by k succeeds when at least k of the taken
    cards count as colourless; given the two revealed cards, each group's remaining cards lie in random
    order, so the counting cards taken from each group are hypergeometric and the groups independent."""
    kind = parse_kind(kind)
    size = len(library)
    exiled = known_prefix(known)
    if size - exiled <= 1:
        return None
    parts = slot_groups(size, known, unordered)
    group_of = {i: index for index, part in enumerate(parts) for i in part}
    first_group, second_group = group_of[exiled], group_of[exiled + 1]
    taken = range(exiled + 2, min(size, exiled + 2 + options.boost_cards))
    draws = Counter(group_of[i] for i in taken)
    counts = [counts_colourless_for_boost(card, options) for card in library]
    hits = [sum(counts[i] for i in part) for part in parts]
    tails: dict[tuple[int, int], list[Fraction]] = {}

    def at_least(first_counts: int, second_counts: int) -> list[Fraction]:
        """P(the boost finds >= k counting cards), k = 0.., once the two revealed cards are out of their groups."""
        key = (first_counts, second_counts)
        if key not in tails:
            total = [Fraction(1)]
            for index, taken_here in sorted(draws.items()):
                out = (index == first_group) + (index == second_group)
                left = len(parts[index]) - out
                good = hits[index] - first_counts * (index == first_group) - second_counts * (index == second_group)
                spread = [Fraction(math.comb(good, k) * math.comb(left - good, taken_here - k),
                                   math.comb(left, taken_here)) for k in range(taken_here + 1)]
                total = [sum((total[j] * spread[k - j] for j in range(len(total)) if 0 <= k - j < len(spread)),
                             Fraction(0)) for k in range(len(total) + taken_here)]
            tails[key] = [sum(total[k:], Fraction(0)) for k in range(len(total))] + [Fraction(0)]
        return tails[key]

    def signature(group: int) -> Counter[tuple[int | float, tuple[str, ...], bool]]:
        return Counter((library[i].mana_value, library[i].achievement_colours, counts[i]) for i in parts[group])

    firsts, seconds = signature(first_group), signature(second_group)
    same = first_group == second_group
    favourable = Fraction(0)
    for first, n_first in firsts.items():
        for second, n_second in seconds.items():
            pairs = n_first * (n_second - (same and first == second))
            if not pairs:
                continue
            colours = second[1] or (None,)
            tail = at_least(int(first[2]), int(second[2]))
            chance = Fraction(0)
            for colour in colours:
                need = bonus_needed(second[0] + colour_modifier(kind, colour, options), first[0] + difficulty)
                chance += tail[min(need, len(tail) - 1)]
            favourable += pairs * chance / len(colours)
    total_pairs = (len(parts[first_group]) * (len(parts[first_group]) - 1) if same
                   else len(parts[first_group]) * len(parts[second_group]))
    return favourable / total_pairs
