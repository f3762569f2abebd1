"""The MtG house rule's odds explorer (`%explore library`, declared in the rule set's `RuleSet`): success by
colour x difficulty for a library's composition, without and with a boost (MTG-CHK-05..13), exact, from
the rules' own odds (mtg/rules/odds.py, foresight.py); the explorer widget only shows the tables and
sends the card counts back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gamekernel.display.numbers import percent
from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.lessons import Table, bounded, cell, fraction_text
from gamekernel.mtg.rules.facts import CardFacts
from gamekernel.mtg.rules.foresight import bonus_needed, counts_colourless_for_boost, hypergeometric_at_least
from gamekernel.mtg.rules.kinds import DEFAULT_OPTIONS, KINDS, USUAL_DIFFICULTIES, MtgOptions, colour_modifier
from gamekernel.mtg.rules.odds import check_odds

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
                 options: MtgOptions = DEFAULT_OPTIONS) -> Fraction | None:
    """P(success) of a check from a shuffled library when a failure is always boosted (MTG-CHK-13):
    over every ordered pair (target card, achievement card) and the achievement card's colour, a
    failure short by k succeeds when at least k of the next `boost_cards` cards count as colourless."""
    total = len(library)
    if total <= 1:
        return None
    signature = Counter((c.mana_value, c.achievement_colours, counts_colourless_for_boost(c, options))
                        for c in library)
    colourless = sum(n for (_, _, boosts), n in signature.items() if boosts)
    favourable = Fraction(0)
    for first, n_first in signature.items():
        for second, n_second in signature.items():
            pairs = n_first * (n_second - (first == second))
            if not pairs:
                continue
            rest = total - 2
            rest_colourless = colourless - first[2] - second[2]
            colours = second[1] or (None,)
            chance = Fraction(0)
            for colour in colours:
                achievement = second[0] + colour_modifier(kind, colour, options)
                need = bonus_needed(achievement, first[0] + difficulty)
                chance += hypergeometric_at_least(rest, rest_colourless, min(options.boost_cards, rest), need)
            favourable += pairs * chance / len(colours)
    return favourable / (total * (total - 1))


def library_grid(library: Sequence[CardFacts], difficulties: Sequence[int] = USUAL_DIFFICULTIES,
                 options: MtgOptions = DEFAULT_OPTIONS) -> tuple[tuple[LibraryCell, ...], ...]:
    """Rows: the check kinds; columns: the difficulties; each cell without and with a boost."""
    return tuple(tuple(LibraryCell(kind, d, check_odds(library, kind, d, options=options),
                                   boosted_odds(library, kind, d, options)) for d in difficulties)
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
    """`%explore library @Mira`: the library's composition as one count per card."""

    mode = "library"

    def __init__(self, actor: str, cards: Sequence[CardFacts]):
        self.actor = actor
        self.facts = {c.name: c for c in cards}
        self.counts = Counter(c.name for c in cards)

    def library(self) -> list[CardFacts]:
        return [self.facts[name] for name in sorted(self.counts) for _ in range(self.counts[name])]

    def controls(self) -> list[dict[str, Any]]:
        """One count per card, named as printed in the current language (its Japanese name in ja)."""
        items = []
        for name in sorted(self.facts):
            shown = self.facts[name].shown_name
            items.append({"name": name, "kind": "count", "min": 0, "max": 60, "value": self.counts[name],
                          "label": shown, "hint": t("explore.hint.card", card=shown, low=0, high=60)})
        return items

    def set(self, name: str, value: Any) -> None:
        if name not in self.facts:
            raise UsageError(t("explore.err.card", name=name))
        self.counts[name] = bounded(value, 0, 60, name)

    def tables(self) -> list[Table]:
        return library_tables(library_grid(self.library()))

    def summary(self) -> str:
        return t("explore.library.summary", actor=self.actor, size=len(self.library()))


def open_library(session: Core, args: Args) -> LibraryExplorer:
    """`%explore library [@Name]`: the named character's library (or the only one) as it is now."""
    from gamekernel.mtg.actions import Mtg

    actor = Mtg.of(session).actor(args.actor)
    return LibraryExplorer(actor, session.state["mtg"].library(actor))
