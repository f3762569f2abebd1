"""Rollable tables on the session (`session.rolltables`): define, roll for an audience, odds.

A table the GM defines is a secret event (`rolltable.define`: its entries are the GM's to know); the
tables each rule set ships (`<rule set>/data/rolltables/*.json`, e.g. GURPS's reaction table,
GURPS-RR-04) need none. A roll is one event holding its faces and the entries it read, so replay needs
no dice and `%undo` takes it back. Who learns the result is the projection's business, as for every
other event (gamekernel/remote/projection.py):

- public: a public `rolltable.roll`, told in the players' story;
- secret: a secret one from the secret dice; nobody but the GM learns even that it was rolled;
- player (`to`): a secret one the named players read on their own page, and a public
  `rolltable.rolled` (its `cause` the secret roll) telling everyone else only that it was rolled;
- blind (`to`): as player, but the named players too only learn that it was rolled.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamekernel.errors import DataError, NotFoundError, UsageError
from gamekernel.events import register_event
from gamekernel.i18n import t
from gamekernel.limits import user_path
from gamekernel.rolltables import rules
from gamekernel.rolltables.results import TableDefined, TableList, TableOdds, TableRoll
from gamekernel.rulesets import RuleSetHandle
from gamekernel.state import register_part

if TYPE_CHECKING:  # the table it acts on (`table`): for the type checker only
    from gamekernel.rulesets import Core
    from gamekernel.table.seats import Seats

PART = "rolltables"
AUDIENCES = ("public", "secret", "player", "blind")
MAX_FILE_BYTES = 256 * 1024  # a table file read from the table folder: bounded


@dataclass
class RollTablesState:
    """The tables the GM defined at this table (by name, as plain data)."""

    tables: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"tables": {k: v for k, v in sorted(self.tables.items())}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RollTablesState:
        return cls({str(k): dict(v) for k, v in data.get("tables", {}).items()})


def _apply_define(state: Any, data: Mapping[str, Any]) -> None:
    state[PART].tables[data["table"]["name"]] = dict(data["table"])


register_part(PART, RollTablesState)
register_event("rolltable.define", apply=_apply_define, changes=(PART,))
register_event("rolltable.roll", changes=())
register_event("rolltable.rolled", changes=())


def _limits(table: Core) -> Any:
    """The session's dice limits (`%config GameKernel.max_dice`), which `Core` does not declare."""
    return table.dice_limits()  # type: ignore[attr-defined]  # the Session's (gamekernel/actions/core.py)


def shipped() -> dict[str, rules.RollTable]:
    """The tables every rule set ships in its `data/rolltables/` folder, by name."""
    from gamekernel.rulesets import rule_sets

    found: dict[str, rules.RollTable] = {}
    for rule_set in rule_sets():
        for path in sorted((rule_set.folder / "data" / "rolltables").glob("*.json")):
            table = rules.from_mapping(json.loads(path.read_text(encoding="utf-8")), path.name)
            found[table.name] = table
    return found


class RollTables(RuleSetHandle):
    """Rollable tables on one table (`session.rolltables`): `define`, `load`, `roll`, `odds`, `names`."""

    name = "rolltables"
    table: Core

    @property
    def state(self) -> RollTablesState:
        return self.table.state[PART]

    def names(self) -> TableList:
        every = {**{n: t_ for n, t_ in shipped().items()},
                 **{n: rules.from_mapping(d, n) for n, d in self.state.tables.items()}}
        return TableList(tuple((n, tb.dice, tb.rule) for n, tb in sorted(every.items())))

    def get(self, name: str) -> rules.RollTable:
        """The table `name`: the GM's own first, else one a rule set ships."""
        from gamekernel.text import resolve_name

        own = self.state.tables
        every = sorted({*own, *shipped()})
        found, close = resolve_name(str(name).strip(), every)
        if found is None:
            hint = t("rolltable.hint.close", names=", ".join(close or every))
            raise NotFoundError(t("rolltable.err.no_table", name=repr(str(name).strip()), hint=hint))
        return rules.from_mapping(own[found], found) if found in own else shipped()[found]

    def define(self, table: rules.RollTable) -> TableDefined:
        """Keep `table` at this table (a secret event: its entries are the GM's). Each entry's
        character is one at the table (its spelling made the table's) and each `then` a table there
        is (or the table itself, `again`)."""
        limits = _limits(self.table)
        rules.checked(table, limits)
        entries = []
        for entry in table.entries:
            character = self._seats().character(entry.character) if entry.character else ""
            then = entry.then
            if then and then.lower() not in ("again", table.name.lower()):
                then = self.get(then).name
            entries.append(rules.Entry(entry.low, entry.high, entry.text, then, character, entry.card))
        kept = rules.RollTable(table.name, table.dice, tuple(entries), table.rule, table.title)
        self.table.record("rolltable.define", {"table": kept.to_dict()}, secret=True)
        return TableDefined(kept)

    def load(self, path: str | Path, *, name: str = "", dice: str = "") -> TableDefined:
        """A table from a CSV (`range,result[,then,character,card]`; its dice from `dice`), a JSON
        or a YAML file (its own `dice`); `name` defaults to the file's stem."""
        file = user_path(path)  # a name the file system cannot encode: one line, not an exception
        try:
            size = file.stat().st_size
            if size > MAX_FILE_BYTES:
                raise DataError(t("rolltable.err.file_size", path=file.name, size=size, limit=MAX_FILE_BYTES))
            text = file.read_text(encoding="utf-8")
        except OSError as error:
            raise DataError(t("rolltable.err.file", path=str(path), reason=error.strerror or str(error))) from None
        except UnicodeDecodeError:
            raise DataError(t("rolltable.err.file", path=str(path), reason="not UTF-8 text")) from None
        suffix = file.suffix.lower()
        if suffix == ".csv":
            import csv

            if not dice:
                raise UsageError(t("rolltable.err.csv_dice", path=file.name))
            return self.define(rules.from_rows(name or file.stem, dice, csv.reader(text.splitlines()), file.name))
        if suffix == ".json":
            try:
                data = json.loads(text)
            except json.JSONDecodeError as error:
                raise DataError(t("rolltable.err.parse", path=file.name, line=error.lineno, reason=error.msg)) from None
        elif suffix in (".yaml", ".yml"):
            try:
                import yaml  # type: ignore[import-untyped]  # PyYAML ships no type hints; safe_load only
            except ImportError:  # not a dependency of gamekernel: Jupyter's own installs bring it
                raise DataError(t("rolltable.err.file", path=file.name, reason="reading YAML needs PyYAML")) from None

            try:
                data = yaml.safe_load(text)
            except yaml.YAMLError as error:
                mark = getattr(error, "problem_mark", None)
                raise DataError(t("rolltable.err.parse", path=file.name, line=(mark.line + 1) if mark else 0,
                                  reason=str(getattr(error, "problem", "") or error))) from None
        else:
            raise UsageError(t("rolltable.err.kind", path=file.name))
        if isinstance(data, dict) and dice:
            data = {**data, "dice": dice}
        return self.define(rules.from_mapping(data, file.name, name=name or (file.stem if isinstance(data, dict)
                                                                              and not data.get("name") else "")))

    def odds(self, name: str, modifier: int = 0) -> TableOdds:
        table = self.get(name)
        return TableOdds(table, modifier, tuple(rules.entry_odds(table, modifier, _limits(self.table))))

    def roll(self, name: str, modifier: int = 0, *, audience: str = "public", to: Sequence[str] = ()) -> TableRoll:
        """Roll on the table `name` (+ `modifier`) for `audience` (`AUDIENCES`; `player` and `blind`
        name the seated players in `to`). Public rolls take the public dice, every other the secret
        dice: what a player may not read never follows from the public seed."""
        if audience not in AUDIENCES:
            raise UsageError(t("rolltable.err.audience", audience=repr(audience), choices=", ".join(AUDIENCES)))
        users = self._players(to) if audience in ("player", "blind") else []
        if audience in ("player", "blind") and not users:
            raise UsageError(t("rolltable.err.to", audience=audience))
        if to and audience not in ("player", "blind"):
            raise UsageError(t("rolltable.err.to_public", audience=audience))
        secret = audience != "public"
        result = self._roll(self.get(name), modifier, self.table.dice_for(secret), 0)
        data: dict[str, Any] = {"result": result.to_dict(), "audience": audience}
        if users:
            data["to"] = users
        event = self.table.record("rolltable.roll", data, secret=secret)
        if users:
            self.table.record("rolltable.rolled", {"table": result.table, "audience": audience, "to": users,
                                                   "cause": event.seq})
        return result

    def _seats(self) -> Seats:
        from gamekernel.table.seats import Seats

        return self.table.feature(Seats)

    def _players(self, to: Sequence[str]) -> list[str]:
        from gamekernel.table.seats import check_user

        users = []
        for user in to:
            name = check_user(user)
            if not self._seats().state.seat_of(name):
                raise NotFoundError(t("remote.err.not_seated", user=name))
            if name not in users:
                users.append(name)
        return users

    def _roll(self, table: rules.RollTable, modifier: int, rng: Any, depth: int) -> TableRoll:
        from gamekernel.dice.result import roll

        limits = _limits(self.table)
        text = table.dice if not modifier else f"{table.dice}{modifier:+d}"
        done = roll(text, rng, limits)
        index = rules.entry_for(table, done.total)
        entry = table.entries[index]
        chance = rules.entry_odds(table, modifier, limits)[index]
        follow: tuple[TableRoll, ...] = ()
        if entry.then and depth + 1 < rules.MAX_DEPTH:
            again = entry.then.lower() in ("again", table.name.lower())
            follow = (self._roll(table if again else self.get(entry.then), 0, rng, depth + 1),)
        return TableRoll(table.name, dict(table.title), table.rule, done.to_dict(breakdown=False), index,
                         entry.to_dict(), follow, chance)


def own_rolls(session: Any, user: str | None) -> list[dict[str, Any]]:
    """The rolls made for `user` alone (`player` audience) that the GM has not revealed, oldest first,
    as their page shows them: the GM's events read for this one player, as asks are."""
    if not user:
        return []
    revealed = set(session.state["seats"].revealed)
    return [{"table": e.data["result"]["table"], "result": e.data["result"]}
            for e in session.active if e.kind == "rolltable.roll" and e.data.get("audience") == "player"
            and user in e.data.get("to", ()) and e.seq not in revealed]
