"""Exact success odds of an action check against the order-unknown part of a library.

The known top cards are exiled first (MTG-CHK-04); the two revealed cards are then drawn without
replacement from the cards whose position the player does not know (a known card in the second
slot is fixed); a multicoloured achievement card picks each of its colours with equal chance
(MTG-CHK-10). Cards are grouped by (mana value, achievement colours), so a 60-card library costs a
few hundred Fraction operations, not 60 x 59 x colours.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from gamekernel.display import Displayable
from gamekernel.systems.mtg.facts import COLOURS, CardFacts
from gamekernel.systems.mtg.kinds import (
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


def second_card_chance(kind: str, card: CardFacts, need: int | float,
                       options: MtgOptions = DEFAULT_OPTIONS) -> Fraction:
    """Chance that `card` as the achievement card reaches `need`, over its random colour choice."""
    colours = card.achievement_colours or (None,)
    wins = sum(1 for colour in colours if card.mana_value + colour_modifier(kind, colour, options) >= need)
    return Fraction(wins, len(colours))


def check_odds(library: Sequence[CardFacts], kind: str, difficulty: int, *,
               known: Collection[int] | int = (), options: MtgOptions = DEFAULT_OPTIONS) -> Fraction | None:
    """P(success) of the check before any card is revealed; None when no check is possible."""
    kind = parse_kind(kind)
    exiled = known_prefix(known)
    positions = range(exiled, len(library))
    if len(positions) <= 1:
        return None
    known_set = set() if isinstance(known, int) else set(known)
    unknown = [library[i] for i in positions if i not in known_set]
    if exiled + 1 in known_set:  # the second card is known: only the first is random
        fixed = library[exiled + 1]
        return sum((Fraction(1, len(unknown)) * second_card_chance(kind, fixed, card.mana_value + difficulty,
                                                                   options) for card in unknown), Fraction(0))
    return _pair_odds(unknown, kind, difficulty, options)


def _pair_odds(unknown: Sequence[CardFacts], kind: str, difficulty: int, options: MtgOptions) -> Fraction:
    total = len(unknown)
    firsts = Counter(card.mana_value for card in unknown)
    seconds = Counter((card.mana_value, card.achievement_colours) for card in unknown)
    samples = {key: card for card in unknown
               for key in [(card.mana_value, card.achievement_colours)]}
    favourable = Fraction(0)
    for first_mv, n_first in firsts.items():
        for key, n_second in seconds.items():
            pairs = n_first * n_second - (n_second if key[0] == first_mv else 0)
            if pairs:
                favourable += pairs * second_card_chance(kind, samples[key], first_mv + difficulty, options)
    return favourable / (total * (total - 1))


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

    def best_kind(self, difficulty: int) -> str:
        column = self.difficulties.index(difficulty)
        return max(self.kinds, key=lambda k: self.cells[self.kinds.index(k)][column] or 0)


def odds_table(library: Sequence[CardFacts], *, known: Collection[int] | int = (),
               difficulties: Iterable[int] = USUAL_DIFFICULTIES,
               options: MtgOptions = DEFAULT_OPTIONS) -> OddsTable:
    difficulties = tuple(difficulties)
    cells = tuple(tuple(check_odds(library, kind, d, known=known, options=options) for d in difficulties)
                  for kind in KINDS)
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
