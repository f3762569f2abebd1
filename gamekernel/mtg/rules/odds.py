"""Exact success odds of an action check given what the table knows of the library's order.

The table's knowledge is one model (`slot_groups`): each card whose place the player knows (peeked,
MTG-CHK-04) is a group of one; each set of cards put back together in random order (a check's two
revealed cards at the bottom, MTG-CHK-12; a boost's exiled cards when they return) is a group whose
cards are known but not their order; every other position holds the remaining cards in random order.
Given the cards seen, each group is a uniform random arrangement of its cards, independent of the
others, so the exact chance needs only the groups of the two positions a check reveals. The known
top cards are exiled first (MTG-CHK-04); a multicoloured achievement card picks each of its colours
with equal chance (MTG-CHK-10). Cards are grouped by (mana value, achievement colours) once per
library state (`Composition`), so a cell costs a few integer sums and one Fraction, and a 54-cell
table shares the counting.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from gamekernel.display import Displayable
from gamekernel.mtg.rules.facts import COLOURS, CardFacts
from gamekernel.mtg.rules.kinds import (
    DEFAULT_OPTIONS,
    KINDS,
    USUAL_DIFFICULTIES,
    MtgOptions,
    colour_modifier,
    parse_kind,
)


def known_prefix(known: Collection[int] | int) -> int:
    """How many top cards are exiled: the unbroken run of known positions from the top (0-based)."""
    if isinstance(known, int):
        return known
    count = 0
    while count in known:
        count += 1
    return count


Groups = Collection[Collection[int]]  # positions whose cards are known, in random order among them


def slot_groups(size: int, known: Collection[int] | int = (), unordered: Groups = ()) -> list[tuple[int, ...]]:
    """The library's positions (0 = top) split by what the table knows: each known position alone, each
    unordered group, and every other position together (the unknown cards); empty parts dropped."""
    known_set = set(range(known)) if isinstance(known, int) else set(known)
    parts: list[tuple[int, ...]] = [(i,) for i in sorted(known_set) if 0 <= i < size]
    taken = set(known_set)
    for group in unordered:
        kept = tuple(sorted(i for i in group if 0 <= i < size and i not in taken))
        if kept:
            parts.append(kept)
            taken.update(kept)
    rest = tuple(i for i in range(size) if i not in taken)
    return [*parts, rest] if rest else parts


def known_in_groups(unordered: Groups, size: int, known: Collection[int] | int = ()) -> int:
    """How many cards the table knows to lie in unordered groups (their cards known, not their order)."""
    known_set = set(range(known)) if isinstance(known, int) else set(known)
    return len({i for group in unordered for i in group if 0 <= i < size and i not in known_set})


def check_odds(library: Sequence[CardFacts], kind: str, difficulty: int, *,
               known: Collection[int] | int = (), unordered: Groups = (),
               options: MtgOptions = DEFAULT_OPTIONS) -> Fraction | None:
    """P(success) of the check before any card is revealed, given the table's knowledge; None when no
    check is possible."""
    kind = parse_kind(kind)
    return Composition(library, known, unordered).chances(kind, (difficulty,), options)[0]


class Composition:
    """The cards that may lie in the two revealed positions of one library state, counted once (by
    mana value, and by mana value and achievement colours) so that every cell of an odds table is a
    short exact sum over the counts.

    The first revealed card comes from its position's group (`slot_groups`), the second from its own.
    When both positions share a group of N cards, the first card of mana value f and the second card
    of key (m, colours) form n(f) * n(key) ordered pairs, minus n(key) when f == m (the same card
    cannot be both), out of N * (N - 1); from two groups they are independent (N1 * N2 pairs). The
    second card succeeds with a colour c when f + difficulty <= m + modifier(c), so summing over f
    needs only `at_most(t)`, the number of first-group cards of mana value <= t.
    """

    def __init__(self, library: Sequence[CardFacts], known: Collection[int] | int = (),
                 unordered: Groups = ()):
        exiled = known_prefix(known)
        self.possible = len(library) - exiled > 1
        self.same = True
        first: list[CardFacts] = []
        second: list[CardFacts] = []
        if self.possible:
            group_of = {i: part for part in slot_groups(len(library), known, unordered) for i in part}
            first_group, second_group = group_of[exiled], group_of[exiled + 1]
            self.same = first_group == second_group
            first = [library[i] for i in first_group]
            second = first if self.same else [library[i] for i in second_group]
        self.total, self.second_total = len(first), len(second)
        by_value = Counter(card.mana_value for card in first)
        self.values = sorted(by_value)
        self.cumulative = [0]
        for value in self.values:
            self.cumulative.append(self.cumulative[-1] + by_value[value])
        self.seconds = Counter((card.mana_value, card.achievement_colours) for card in second)

    def at_most(self, limit: int | float) -> int:
        """How many cards of the first position's group have mana value <= limit."""
        return self.cumulative[bisect_right(self.values, limit)]

    def chances(self, kind: str, difficulties: Sequence[int],
                options: MtgOptions = DEFAULT_OPTIONS) -> list[Fraction | None]:
        """P(success) of a `kind` check at each difficulty, exact; None when no check is possible."""
        if not self.possible:
            return [None] * len(difficulties)
        # per key: its count, mana value, colour count and the achievement with each colour
        keys = []
        for (value, colours), count in self.seconds.items():
            achievements = [value + colour_modifier(kind, colour, options) for colour in colours or (None,)]
            keys.append((count, value, len(achievements), achievements))
        common = lcm(*(size for _count, _value, size, _achievements in keys))
        at_most = self.at_most
        total = self.total
        out: list[Fraction | None] = []
        for difficulty in difficulties:
            favourable = 0
            for count, value, size, achievements in keys:
                wins = 0
                for achievement in achievements:
                    limit = achievement - difficulty
                    wins += at_most(limit)
                    if self.same and value <= limit:
                        wins -= 1  # the second card itself is not a possible first card
                favourable += count * wins * (common // size)
            pairs = total * (total - 1) if self.same else total * self.second_total
            out.append(Fraction(favourable, common * pairs))
        return out


@dataclass(frozen=True, repr=False)  # text and html: the render registry
class OddsTable(Displayable):
    """Success chance by check kind (rows) and difficulty (columns) for one library state."""

    kinds: tuple[str, ...]
    difficulties: tuple[int, ...]
    cells: tuple[tuple[Fraction | None, ...], ...]
    library_size: int
    exiled_known: int
    known_unordered: int = 0  # cards known to lie in groups of unknown order (e.g. at the bottom)

    def chance(self, kind: str, difficulty: int) -> Fraction | None:
        return self.cells[self.kinds.index(parse_kind(kind))][self.difficulties.index(difficulty)]



def odds_table(library: Sequence[CardFacts], *, known: Collection[int] | int = (), unordered: Groups = (),
               difficulties: Iterable[int] = USUAL_DIFFICULTIES,
               options: MtgOptions = DEFAULT_OPTIONS) -> OddsTable:
    difficulties = tuple(difficulties)
    composition = Composition(library, known, unordered)  # shared by all the cells
    cells = tuple(tuple(composition.chances(kind, difficulties, options)) for kind in KINDS)
    return OddsTable(KINDS, difficulties, cells, len(library), known_prefix(known),
                     known_in_groups(unordered, len(library), known))


def colour_distribution(library: Iterable[CardFacts]) -> dict[str, int]:
    """Cards counting as each colour for the achievement (a card may count for several), colourless,
    multicoloured, and lands."""
    counts = dict.fromkeys((*COLOURS, "colourless", "multicolour", "land"), 0)
    for card in library:
        colours = card.achievement_colours
        for colour in colours:
            counts[colour] += 1
        counts["colourless"] += not colours
        counts["multicolour"] += len(colours) > 1
        counts["land"] += card.is_land
    return counts
