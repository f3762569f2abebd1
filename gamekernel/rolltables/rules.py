"""Rollable tables, pure: a dice expression whose total picks one entry by its range.

    parse_body(name, dice, text)        -> RollTable   # a cell body: `2-4: goblins` per line
    from_mapping(data, where)           -> RollTable   # JSON / YAML: {"name", "dice", "entries": [...]}
    from_rows(name, dice, rows, where)  -> RollTable   # CSV rows: range, result[, then, character, card]
    entry_odds(table, modifier)         -> [Fraction]  # exact, one per entry (the dice machinery's)
    entry_for(table, total)             -> index       # the entry a total reads

Every total the dice can make (before any modifier) lies in exactly one entry: a gap or an overlap
is refused with the line that made it. A modifier added when rolling may push a total past the
table's ends; it then reads the first or the last entry, as printed tables are read ("19 or more").
An entry may roll again (`then`: another table, or the same one) and may name a character or a card.
No IPython here; the dice come from the rng the caller hands in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from gamekernel.dice.limits import DEFAULT_LIMITS, Limits
from gamekernel.dice.odds import distribution
from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.text import half_width, visible

MAX_ENTRIES = 200  # a table a GM types or loads: bounded
MAX_TEXT = 300  # one entry's text
MAX_NAME = 60
MAX_DEPTH = 5  # a chain of "roll again" stops here (a table naming itself rolls at most this deep)
_RANGE = re.compile(r"^\s*(?:(?P<le><=|≤)\s*(?P<hi>[+-]?\d+)|(?P<lo>[+-]?\d+)\s*(?:(?P<plus>\+|以上)|"
                    r"(?:-|–|~|〜)\s*(?P<to>[+-]?\d+))?)\s*$")


@dataclass(frozen=True)
class Entry:
    """One row: totals `low..high` (None: an open end), its text (a string, or {"en", "ja"} for a
    shipped table), what it rolls next (`then`: a table's name, "" for nothing) and whom it names."""

    low: int | None
    high: int | None
    text: str | Mapping[str, str]
    then: str = ""
    character: str = ""
    card: str = ""

    def holds(self, total: int) -> bool:
        return (self.low is None or total >= self.low) and (self.high is None or total <= self.high)

    def span(self) -> str:
        if self.low is None:
            return f"≤{self.high}"
        if self.high is None:
            return f"{self.low}+"
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"range": self.span(), "result": dict(self.text) if isinstance(self.text, Mapping)
                               else self.text}
        out.update({k: v for k, v in (("then", self.then), ("character", self.character), ("card", self.card)) if v})
        return out


@dataclass(frozen=True)
class RollTable:
    """A named table: its dice, its entries in order, and the rule it comes from (shipped tables)."""

    name: str
    dice: str
    entries: tuple[Entry, ...]
    rule: str = ""
    title: Mapping[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "dice": self.dice, "entries": [e.to_dict() for e in self.entries]}
        if self.rule:
            out["rule"] = self.rule
        if self.title:
            out["title"] = dict(self.title)
        return out


def parse_range(text: str, where: str) -> tuple[int | None, int | None]:
    """`3`, `2-4`, `19+` (or more), `<=0` (or less); full-width digits are read as digits."""
    found = _RANGE.match(half_width(text))
    if found is None:
        raise UsageError(t("rolltable.err.range", range=repr(text.strip()), where=where))
    if found["le"]:
        return None, int(found["hi"])
    low = int(found["lo"])
    if found["plus"]:
        return low, None
    high = int(found["to"]) if found["to"] is not None else low
    if high < low:
        raise UsageError(t("rolltable.err.range", range=repr(text.strip()), where=where))
    return low, high


def _text(value: Any, what: str, where: str, *, limit: int = MAX_TEXT, empty: bool = False) -> str:
    text = visible(str(value if value is not None else "")).strip()
    if (not text and not empty) or len(text) > limit or "\n" in text:
        raise UsageError(t("rolltable.err.field", field=what, where=where, limit=limit))
    return text


def check_name(name: Any, where: str = "") -> str:
    """A table's name: one line of at most `MAX_NAME` visible characters, no spaces at its ends."""
    return _text(name, "name", where or repr(str(name)), limit=MAX_NAME)


def make_entry(span: str, result: Any, where: str, *, then: Any = "", character: Any = "", card: Any = "") -> Entry:
    low, high = parse_range(str(span), where)
    if isinstance(result, Mapping):
        text: str | Mapping[str, str] = {str(k): _text(v, "result", where) for k, v in result.items()}
        if "en" not in text:
            raise UsageError(t("rolltable.err.field", field="result.en", where=where, limit=MAX_TEXT))
    else:
        text = _text(result, "result", where)
    return Entry(low, high, text, _text(then, "then", where, limit=MAX_NAME, empty=True),
                 _text(character, "character", where, limit=MAX_NAME, empty=True),
                 _text(card, "card", where, limit=MAX_NAME, empty=True))


def parse_body(name: str, dice: str, body: str) -> RollTable:
    """A table typed in a cell, one entry a line: `RANGE: text`, then optional `-> TABLE` (roll
    again there; `-> again` this table), `@Name` (a character) and `[card Name]` (a card). Blank
    lines and lines starting with `#` are skipped."""
    entries = []
    for number, raw in enumerate(body.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = t("rolltable.where.line", line=number)
        span, colon, rest = line.partition(":")
        if not colon:
            raise UsageError(t("rolltable.err.colon", where=where))
        rest, arrow, then = rest.partition("->")
        card = re.search(r"\[card\s+([^\]]+)\]", rest)
        if card:
            rest = rest[: card.start()] + rest[card.end():]
        character = re.search(r"@(\S+)", rest)
        entries.append(make_entry(span, rest.replace("@" + character[1], character[1], 1).strip() if character
                                  else rest.strip(), where,
                                  then=then.strip() if arrow else "", character=character[1] if character else "",
                                  card=card[1].strip() if card else ""))
    return checked(RollTable(check_name(name), dice, tuple(entries)))


def from_mapping(data: Any, where: str, *, name: str = "") -> RollTable:
    """A table as JSON or YAML gives it: {"name", "dice", "entries": [{"range", "result", "then"?,
    "character"?, "card"?}], "rule"?, "title"?}; `name` overrides the file's."""
    if not isinstance(data, Mapping) or not isinstance(data.get("entries"), list):
        raise UsageError(t("rolltable.err.shape", where=where))
    entries = []
    for number, row in enumerate(data["entries"], start=1):
        at = t("rolltable.where.entry", where=where, entry=number)
        if not isinstance(row, Mapping) or "range" not in row or "result" not in row:
            raise UsageError(t("rolltable.err.shape", where=at))
        entries.append(make_entry(str(row["range"]), row["result"], at, then=row.get("then", ""),
                                  character=row.get("character", ""), card=row.get("card", "")))
    title = data.get("title") or {}
    return checked(RollTable(check_name(name or data.get("name"), where), _text(data.get("dice"), "dice", where),
                             tuple(entries), _text(data.get("rule", ""), "rule", where, empty=True),
                             {str(k): str(v) for k, v in title.items()} if isinstance(title, Mapping) else {}))


def from_rows(name: str, dice: str, rows: Iterable[Sequence[str]], where: str) -> RollTable:
    """CSV rows `range, result[, then, character, card]`; a first row naming `range` is a header."""
    entries = []
    for number, row in enumerate(rows, start=1):
        cells = [c.strip() for c in row]
        if not any(cells) or (number == 1 and cells and cells[0].lower() == "range"):
            continue
        at = t("rolltable.where.row", where=where, row=number)
        if len(cells) < 2:
            raise UsageError(t("rolltable.err.shape", where=at))
        extra = [*cells[2:5], "", "", ""]
        entries.append(make_entry(cells[0], cells[1], at, then=extra[0], character=extra[1], card=extra[2]))
    return checked(RollTable(check_name(name, where), _text(dice, "dice", where), tuple(entries)))


def totals(dice: str, modifier: int = 0, limits: Limits = DEFAULT_LIMITS) -> dict[int, int]:
    """Every total of `dice` + `modifier` with its number of ways (exact: the dice machinery's)."""
    counts = distribution(dice, limits).counts
    return {total + modifier: ways for total, ways in counts.items()}


def checked(table: RollTable, limits: Limits = DEFAULT_LIMITS) -> RollTable:
    """`table` when each total its dice can make is in exactly one entry; else one line naming the gap
    or the overlap."""
    if not table.entries or len(table.entries) > MAX_ENTRIES:
        raise UsageError(t("rolltable.err.count", name=table.name, limit=MAX_ENTRIES))
    possible = totals(table.dice, 0, limits)
    for total in sorted(possible):
        holding = [e.span() for e in table.entries if e.holds(total)]
        if not holding:
            raise UsageError(t("rolltable.err.gap", name=table.name, total=total, dice=table.dice))
        if len(holding) > 1:
            raise UsageError(t("rolltable.err.overlap", name=table.name, total=total, ranges=", ".join(holding)))
    return table


def entry_for(table: RollTable, total: int) -> int:
    """The index of the entry `total` reads; a total past the table's ends reads its nearest end."""
    for index, entry in enumerate(table.entries):
        if entry.holds(total):
            return index
    lows = [(e.low if e.low is not None else e.high, i) for i, e in enumerate(table.entries)]
    highs = [(e.high if e.high is not None else e.low, i) for i, e in enumerate(table.entries)]
    lowest = min(lows, key=lambda p: p[0] if p[0] is not None else 0)
    highest = max(highs, key=lambda p: p[0] if p[0] is not None else 0)
    return lowest[1] if total < (lowest[0] or 0) else highest[1]


def entry_odds(table: RollTable, modifier: int = 0, limits: Limits = DEFAULT_LIMITS) -> list[Fraction]:
    """The exact chance of each entry (in order) when rolling `table.dice` + `modifier`."""
    counts = totals(table.dice, modifier, limits)
    whole = sum(counts.values())
    ways = [0] * len(table.entries)
    for total, n in counts.items():
        ways[entry_for(table, total)] += n
    return [Fraction(w, whole) for w in ways]

