"""The MtG house rule's odds explorer (`%explore library`, declared in the rule set's `RuleSet`): success by
colour x difficulty for a library's composition, without and with a boost (MTG-CHK-05..13), exact, from
the rules' own odds (mtg/rules/odds.py, foresight.py); the explorer widget only shows the tables and
sends the card counts back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gamekernel.display.numbers import percent
from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.lessons import Table, bounded, cell, fraction_text
from gamekernel.mtg.rules.facts import CardFacts
from gamekernel.mtg.rules.foresight import boosted_check_odds
from gamekernel.mtg.rules.kinds import DEFAULT_OPTIONS, KINDS, USUAL_DIFFICULTIES, MtgOptions
from gamekernel.mtg.rules.knowledge import LibraryKnowledge
from gamekernel.mtg.rules.odds import Groups, check_odds

if TYPE_CHECKING:
    from gamekernel.args import Args
    from gamekernel.rulesets import Core


@dataclass(frozen=True)
class LibraryCell:
    kind: str
    difficulty: int
    success: Fraction | None
    with_boost: Fraction | None


def boosted_odds(library: Sequence[CardFacts], kind: str, difficulty: int,
                 options: MtgOptions = DEFAULT_OPTIONS, *, known: Collection[int] = (),
                 unordered: Groups = ()) -> Fraction | None:
    """P(success) of a check when a failure is always boosted (MTG-CHK-13), given what the table knows
    of the order (mtg/rules/foresight.py `boosted_check_odds`)."""
    return boosted_check_odds(library, kind, difficulty, known=known, unordered=unordered, options=options)


def library_grid(library: Sequence[CardFacts], difficulties: Sequence[int] = USUAL_DIFFICULTIES,
                 options: MtgOptions = DEFAULT_OPTIONS, *, known: Collection[int] = (),
                 unordered: Groups = ()) -> tuple[tuple[LibraryCell, ...], ...]:
    """Rows: the check kinds; columns: the difficulties; each cell without and with a boost, exact
    given the known positions and groups (the odds model of `%odds check`, MTG-CHK-04, -12)."""
    return tuple(tuple(LibraryCell(kind, d, check_odds(library, kind, d, known=known, unordered=unordered,
                                                       options=options),
                                   boosted_odds(library, kind, d, options, known=known, unordered=unordered))
                       for d in difficulties)
                 for kind in KINDS)


def library_tables(grid: tuple[tuple[LibraryCell, ...], ...]) -> list[Table]:
    columns = [t("explore.library.corner")] + [str(c.difficulty) for c in grid[0]]
    rows = []
    for row in grid:
        cells = []
        for c in row:
            text = "—" if c.success is None or c.with_boost is None else \
                f"{percent(c.success)} / {percent(c.with_boost)}"
            title = t("explore.library.hover", plain=fraction_text(c.success), boost=fraction_text(c.with_boost))
            cells.append(cell(c.success, text=text, title=title))
        rows.append({"head": t(f"mtg.colour.{row[0].kind}"), "mark": False, "cells": cells})
    return [{"id": "library", "title": t("explore.library.grid"), "columns": columns, "rows": rows}]


class LibraryExplorer:
    """`%explore library @Mira`: the library's odds, given what the table knows of its order (MTG-CHK-04,
    -12); one count per card, and the counts edit only the cards whose place nobody knows
    (`LibraryKnowledge.with_counts`)."""

    mode = "library"

    def __init__(self, actor: str, cards: LibraryKnowledge | Sequence[CardFacts]):
        self.actor = actor
        self.base = cards if isinstance(cards, LibraryKnowledge) else LibraryKnowledge.of(cards)
        self.facts = {c.name: c for c in self.base.cards}
        self.counts = Counter(c.name for c in self.base.cards)
        self.fixed = self.base.fixed_copies()

    def knowledge(self) -> LibraryKnowledge:
        return self.base.with_counts(self.counts, self.facts)

    def library(self) -> list[CardFacts]:
        return list(self.knowledge().cards)

    def controls(self) -> list[dict[str, Any]]:
        """One count per card, named as printed in the current language (its Japanese name in ja); no fewer
        than the copies the table knows the place of."""
        items = []
        for name in sorted(self.facts):
            shown = self.facts[name].shown_name
            low = self.fixed[name]
            items.append({"name": name, "kind": "count", "min": low, "max": 60, "value": self.counts[name],
                          "label": shown, "hint": t("explore.hint.card", card=shown, low=low, high=60)})
        return items

    def set(self, name: str, value: Any) -> None:
        if name not in self.facts:
            raise UsageError(t("explore.err.card", name=name))
        self.counts[name] = bounded(value, self.fixed[name], 60, name)

    def tables(self) -> list[Table]:
        known = self.knowledge()
        return library_tables(library_grid(known.cards, known=known.known, unordered=known.unordered))

    def summary(self) -> str:
        return library_summary(self.actor, self.knowledge())


def library_summary(actor: str, known: LibraryKnowledge) -> str:
    """Says what the figures take into account: the known top cards a check exiles first (MTG-CHK-04)
    and the cards known at the bottom (MTG-CHK-12)."""
    from gamekernel.mtg.render import given_text

    exiled = t("mtg.odds.known", count=known.exiled_known) if known.exiled_known else ""
    return (t("explore.library.summary", actor=actor, size=known.size) + exiled
            + given_text(known.known_at_bottom))


def open_library(session: Core, args: Args) -> LibraryExplorer:
    """`%explore library [@Name]`: the named character's library (or the only one) as it is now."""
    from gamekernel.mtg.actions import Mtg

    actor = Mtg.of(session).actor(args.actor)
    return LibraryExplorer(actor, Mtg.of(session).knowledge(actor))
