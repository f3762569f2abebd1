"""Deck building (GW-ALPHA-02) and readied counts by level (GW-ALPHA-06)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from gamekernel.display import Displayable
from gamekernel.errors import UsageError
from gamekernel.i18n import t

MIN_DECK = 7
MAX_COPIES = 2


def readied_count(level: int) -> int:
    """GW-ALPHA-06: readied alpha cards at `level` (1-3: 1, 4-7: 2, 8+: 3)."""
    if level < 1:
        raise UsageError(t("gammaworld.err.level", level=level))
    return 1 if level <= 3 else 2 if level <= 7 else 3


@dataclass(frozen=True)
class DeckProblem:
    """One broken deck-building rule: a message key and its fields (worded by the renderer)."""

    key: str
    fields: tuple[tuple[str, object], ...]


@dataclass(frozen=True, repr=False)
class DeckCheck(Displayable):
    """GW-ALPHA-02 verdict for one deck: size, copies per name, every problem found (drawn by
    gamekernel/gammaworld/render.py)."""

    owner: str
    size: int
    copies: tuple[tuple[str, int], ...]  # (card name, count), in deck order
    problems: tuple[DeckProblem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def validate_deck(owner: str, names: Iterable[str], *, player: bool = True) -> DeckCheck:
    """Check a deck (card names, one per physical card). GW-ALPHA-02's limits (at least 7, at most 2
    per name) are the players' deck-building rules: the GM deck (`player=False`) is not held to them."""
    names = list(names)
    counts = Counter(names)
    problems = []
    if not player:
        return DeckCheck(owner, len(names), tuple(counts.items()), ())
    if len(names) < MIN_DECK:
        problems.append(DeckProblem("gammaworld.deck.too_few", (("size", len(names)), ("minimum", MIN_DECK))))
    for name, count in counts.items():
        if count > MAX_COPIES:
            problems.append(
                DeckProblem("gammaworld.deck.too_many", (("count", count), ("name", name), ("maximum", MAX_COPIES)))
            )
    return DeckCheck(owner, len(names), tuple(counts.items()), tuple(problems))
