"""The results of rollable tables (gamekernel/rolltables): made by the session's operations
(actions.py), drawn by render.py; here so that neither imports the other."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gamekernel.display import Displayable
from gamekernel.rolltables import rules


@dataclass(frozen=True, repr=False)
class TableRoll(Displayable):
    """One roll on a table: the dice as rolled (`roll`: the dice machinery's record), the entry it
    read and, when that entry rolls again, the rolls that followed (`then`)."""

    table: str
    title: Mapping[str, str]
    rule: str
    roll: Mapping[str, Any]
    index: int
    entry: Mapping[str, Any]
    then: tuple[TableRoll, ...] = ()
    odds: Fraction | None = None

    @property
    def total(self) -> int:
        return int(self.roll["total"])

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"table": self.table, "roll": dict(self.roll), "index": self.index,
                               "entry": dict(self.entry), "then": [r.to_dict() for r in self.then]}
        if self.title:
            out["title"] = dict(self.title)
        if self.rule:
            out["rule"] = self.rule
        if self.odds is not None:
            out["odds"] = [self.odds.numerator, self.odds.denominator]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableRoll:
        odds = data.get("odds")
        return cls(str(data["table"]), dict(data.get("title") or {}), str(data.get("rule", "")), dict(data["roll"]),
                   int(data["index"]), dict(data["entry"]), tuple(cls.from_dict(r) for r in data.get("then", ())),
                   Fraction(odds[0], odds[1]) if odds else None)


@dataclass(frozen=True, repr=False)
class TableOdds(Displayable):
    """A table with the exact chance of each entry (`%rolltable odds NAME [+MOD]`)."""

    table: rules.RollTable
    modifier: int
    odds: tuple[Fraction, ...]


@dataclass(frozen=True, repr=False)
class TableList(Displayable):
    """The tables a GM can roll on now: their names, dice and where they come from."""

    rows: tuple[tuple[str, str, str], ...]  # (name, dice, rule id or "")


@dataclass(frozen=True, repr=False)
class TableDefined(Displayable):
    table: rules.RollTable
