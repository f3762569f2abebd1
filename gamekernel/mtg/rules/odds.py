"""Exact success odds of an action check against the order-unknown part of a library.

The known top cards are exiled first (MTG-CHK-04); the two revealed cards are then drawn without
replacement from the cards whose position the player does not know (a known card in the second
slot is fixed); a multicoloured achievement card picks each of its colours with equal chance
(MTG-CHK-10). Cards are grouped by (mana value, achievement colours) once per library state
(`Composition`), so a cell costs a few integer sums and one Fraction, and a 54-cell table shares
the counting.
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


def check_odds(library: Sequence[CardFacts], kind: str, difficulty: int, *,
               known: Collection[int] | int = (), options: MtgOptions = DEFAULT_OPTIONS) -> Fraction | None:
    """P(success) of the check before any card is revealed; None when no check is possible."""
    kind = parse_kind(kind)
    return Composition(library, known).chances(kind, (difficulty,), options)[0]


class Composition:
    """The order-unknown cards of one library state, counted once (by mana value, and by mana value
    and achievement colours) so that every cell of an odds table is a short exact sum over the counts.

    With N unknown cards, the first card of mana value f and the second card of key (m, colours)
    form n(f) * n(key) ordered pairs, minus n(key) when f == m (the same card cannot be both). The
    second card succeeds with a colour c when f + difficulty <= m + modifier(c), so summing over f
    needs only `at_most(t)`, the number of unknown cards of mana value <= t.
    """

    def __init__(self, library: Sequence[CardFacts], known: Collection[int] | int = ()):
        exiled = known_prefix(known)
        self.possible = len(library) - exiled > 1
        known_set = set() if isinstance(known, int) else set(known)
        unknown = [library[i] for i in range(exiled, len(library)) if i not in known_set]
        self.total = len(unknown)
        # a known second card is fixed: only the first card is random
        self.fixed = library[exiled + 1] if self.possible and exiled + 1 in known_set else None
        by_value = Counter(card.mana_value for card in unknown)
        self.values = sorted(by_value)
        self.cumulative = [0]
        for value in self.values:
            self.cumulative.append(self.cumulative[-1] + by_value[value])
        if self.fixed is None:
            self.seconds = Counter((card.mana_value, card.achievement_colours) for card in unknown)
        else:
            self.seconds = Counter({(self.fixed.mana_value, self.fixed.achievement_colours): 1})

    def at_most(self, limit: int | float) -> int:
        """How many unknown cards have mana value <= limit."""
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
                    if self.fixed is None and value <= limit:
                        wins -= 1  # the second card itself is not a possible first card
                favourable += count * wins * (common // size)
            pairs = total if self.fixed is not None else total * (total - 1)
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

    def chance(self, kind: str, difficulty: int) -> Fraction | None:
        return self.cells[self.kinds.index(parse_kind(kind))][self.difficulties.index(difficulty)]



def odds_table(library: Sequence[CardFacts], *, known: Collection[int] | int = (),
               difficulties: Iterable[int] = USUAL_DIFFICULTIES,
               options: MtgOptions = DEFAULT_OPTIONS) -> OddsTable:
    difficulties = tuple(difficulties)
    composition = Composition(library, known)  # shared by all the cells
    cells = tuple(tuple(composition.chances(kind, difficulties, options)) for kind in KINDS)
    return OddsTable(KINDS, difficulties, cells, len(library), known_prefix(known))


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
