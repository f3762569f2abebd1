"""Fate's odds explorer, `%explore ladder`: the exact chance of each outcome (fail, tie, succeed, succeed
with style; FATE-OUTCOME) of a check at every rating on the ladder against one opposition, from the
81 outcomes of four Fudge dice (FATE-DICE). Declared in `RULESET.explorers`; gamekernel's explorer
widget shows it, as it shows the built-in ones."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gamekernel.display.html import sign
from gamekernel.display.numbers import percent
from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.lessons import Table, bounded, cell
from gk_fate.rules import FAIR, LADDER, SKILL_RANGE, chance_at_least

OUTCOMES = ("fail", "tie", "succeed", "style")


def outcome_chances(rating: int, opposition: int) -> dict[str, Fraction]:
    """The chance of each outcome of a check at `rating` against `opposition` (shifts = rating + dice -
    opposition: below 0 fails, 0 ties, 1-2 succeed, 3 or more succeed with style)."""
    need = opposition - rating  # the dice total that ties
    return {"fail": 1 - chance_at_least(need), "tie": chance_at_least(need) - chance_at_least(need + 1),
            "succeed": chance_at_least(need + 1) - chance_at_least(need + 3), "style": chance_at_least(need + 3)}


class LadderExplorer:
    """A rating and an opposition on the ladder; the table has every rating against that opposition."""

    mode = "ladder"

    def __init__(self, rating: int = 0, opposition: int = FAIR):
        self.rating, self.opposition = rating, opposition

    def controls(self) -> list[dict[str, Any]]:
        low, high = SKILL_RANGE
        return [{"name": "rating", "kind": "range", "min": low, "max": high, "value": self.rating,
                 "label": t("fate.explore.rating")},
                {"name": "opposition", "kind": "range", "min": low, "max": high, "value": self.opposition,
                 "label": t("fate.explore.opposition")}]

    def set(self, name: str, value: Any) -> None:
        if name not in ("rating", "opposition"):
            raise UsageError(t("explore.err.control", name=name))
        setattr(self, name, bounded(value, *SKILL_RANGE, name))

    def tables(self) -> list[Table]:
        rows = []
        for rating in LADDER:
            chances = outcome_chances(rating, self.opposition)
            rows.append({"head": self._word(rating), "mark": rating == self.rating,
                         "cells": [cell(chances[o], mark=rating == self.rating) for o in OUTCOMES]})
        return [{"id": "ladder", "title": t("fate.explore.title", opposition=self._word(self.opposition)),
                 "columns": [t("fate.explore.rating"), *(t(f"fate.outcome.{o}") for o in OUTCOMES)], "rows": rows}]

    def summary(self) -> str:
        chances = outcome_chances(self.rating, self.opposition)
        return t("fate.explore.summary", rating=self._word(self.rating), opposition=self._word(self.opposition),
                 p=percent(chances["succeed"] + chances["style"]))

    @staticmethod
    def _word(value: int) -> str:
        return f"{t(f'fate.ladder.{LADDER[value]}')} ({sign(value)})"


def open_ladder(session: object, args: object) -> LadderExplorer:
    """`%explore ladder`: a Mediocre (+0) rating against Fair (+2) opposition, both controls to move."""
    return LadderExplorer()
