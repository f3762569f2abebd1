"""Rollable tables drawn: a roll (its dice, the entry it read, what it rolled next, the entry's exact
odds), a table with its odds, the list of tables, and the one-line log text of their events. Words
from the i18n catalogs; a shipped table's entries in the current language."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from gamekernel.display import TEXT, renders, summarizes
from gamekernel.display.html import chip, dice_chip, esc, panel, table
from gamekernel.display.numbers import percent
from gamekernel.i18n import get_language, t
from gamekernel.rolltables.results import TableDefined, TableList, TableOdds, TableRoll
from gamekernel.rolltables.rules import Entry


def words(result: Any) -> str:
    """An entry's result in the current language (a shipped table's own translation, else as typed)."""
    if isinstance(result, Mapping):
        return str(result.get(get_language()) or result.get("en") or "")
    return str(result)


def title(name: str, titles: Mapping[str, str]) -> str:
    return str(titles.get(get_language()) or titles.get("en") or name) if titles else name


def _faces(roll: Mapping[str, Any]) -> list[Any]:
    return [face if isinstance(face, int) else face[0] for group in roll.get("dice", ()) for face in group["rolls"]]


def _names(entry: Mapping[str, Any]) -> str:
    named = []
    if entry.get("character") and entry["character"] not in words(entry.get("result", "")):
        named.append(t("rolltable.names_character", name=entry["character"]))
    if entry.get("card"):
        named.append(t("rolltable.names_card", name=entry["card"]))
    return " · ".join(named)


def roll_line(data: Mapping[str, Any], *, odds: bool = True) -> str:
    """One roll as a line: `reaction: 3d → [4 5 2] = 11 → Neutral: ... (odds 37.50%)`, then its chain."""
    roll = data["roll"]
    rule = f" ({data['rule']})" if data.get("rule") else ""
    faces = " ".join(str(f) for f in _faces(roll))
    line = (f"{title(data['table'], data.get('title') or {})}{rule}: {roll['text']} → [{faces}] = {roll['total']}"
            f" → {words(data['entry']['result'])}")
    named = _names(data["entry"])
    if named:
        line += f" · {named}"
    chance = data.get("odds")
    if odds and chance:
        line += " " + t("rolltable.odds_of", odds=percent(Fraction(chance[0], chance[1])))
    for follow in data.get("then", ()):
        line += " ⇒ " + roll_line(follow, odds=odds)
    return line


@renders(TableRoll, TEXT)
def table_roll_text(result: TableRoll) -> str:
    return roll_line(result.to_dict())


def _roll_html(data: Mapping[str, Any]) -> str:
    roll = data["roll"]
    rule = f' <span class="gk-rule">{esc(data["rule"])}</span>' if data.get("rule") else ""
    chance = data.get("odds")
    odds = f" {esc(t('rolltable.odds_of', odds=percent(Fraction(chance[0], chance[1]))))}" if chance else ""
    named = _names(data["entry"])
    body = (f"<b>{esc(title(data['table'], data.get('title') or {}))}</b>{rule} · {esc(roll['text'])} "
            f"{dice_chip(_faces(roll))}= <b>{esc(roll['total'])}</b> → {esc(words(data['entry']['result']))}"
            f"{' · ' + esc(named) if named else ''}{odds}")
    chain = "".join(f"<div style=\"margin-left:1em\">⇒ {_roll_html(f)}</div>" for f in data.get("then", ()))
    return body + chain


@renders(TableRoll)
def table_roll_html(result: TableRoll) -> str:
    return panel("rolltable", _roll_html(result.to_dict()))


def _rows(odds: TableOdds) -> list[tuple[str, str, str]]:
    return [(e.span(), _entry_words(e), percent(p)) for e, p in zip(odds.table.entries, odds.odds, strict=True)]


def _entry_words(entry: Entry) -> str:
    text = words(entry.text)
    extra = [_names(entry.to_dict())]
    if entry.then:
        extra.append(t("rolltable.again") if entry.then.lower() == "again" else t("rolltable.then", name=entry.then))
    return " · ".join([text, *(x for x in extra if x)])


def _odds_head(odds: TableOdds) -> str:
    dice = odds.table.dice if not odds.modifier else f"{odds.table.dice}{odds.modifier:+d}"
    rule = f" ({odds.table.rule})" if odds.table.rule else ""
    return f"{title(odds.table.name, odds.table.title)}{rule} · {dice}"


@renders(TableOdds, TEXT)
def table_odds_text(odds: TableOdds) -> str:
    return "\n".join([_odds_head(odds), *(f"{a:>6}  {c:>8}  {b}" for a, b, c in _rows(odds))])


@renders(TableOdds)
def table_odds_html(odds: TableOdds) -> str:
    rows = [(a, c, b) for a, b, c in _rows(odds)]
    body = table([t("rolltable.col.range"), t("rolltable.col.odds"), t("rolltable.col.result")], rows)
    return panel("rolltable", body, title_html=esc(_odds_head(odds)))


@renders(TableList, TEXT)
def table_list_text(found: TableList) -> str:
    return "\n".join(f"{n} · {d}" + (f" · {r}" if r else "") for n, d, r in found.rows) or t("rolltable.none")


@renders(TableList)
def table_list_html(found: TableList) -> str:
    rows = [(n, d, r) for n, d, r in found.rows]
    body = table([t("rolltable.col.name"), t("rolltable.col.dice"), t("rolltable.col.rule")], rows)
    return panel("rolltable", body if rows else esc(t("rolltable.none")))


@renders(TableDefined, TEXT)
def table_defined_text(done: TableDefined) -> str:
    return t("rolltable.defined", name=done.table.name, dice=done.table.dice, count=len(done.table.entries))


@renders(TableDefined)
def table_defined_html(done: TableDefined) -> str:
    return panel("rolltable", chip(t("rolltable.secret_chip"), "muted") + esc(table_defined_text(done)))


@summarizes("rolltable.define")
def define_summary(data: Mapping[str, object]) -> str:
    found = data["table"]
    assert isinstance(found, Mapping)
    return t("rolltable.defined", name=found["name"], dice=found["dice"], count=len(found["entries"]))


@summarizes("rolltable.roll")
def roll_summary(data: Mapping[str, object]) -> str:
    result = data["result"]
    assert isinstance(result, Mapping)
    line = roll_line(result)
    audience, to = data.get("audience", "public"), data.get("to") or []
    assert isinstance(to, list)
    if audience in ("player", "blind"):
        line += " " + t(f"rolltable.for_{audience}", users=", ".join(str(u) for u in to))
    return line


@summarizes("rolltable.rolled")
def rolled_summary(data: Mapping[str, object]) -> str:
    """What everyone reads of a roll for chosen players: that it was rolled, on which table, for whom."""
    to = data.get("to") or []
    assert isinstance(to, list)
    return t(f"rolltable.rolled_{data.get('audience', 'player')}", table=data["table"],
             users=", ".join(str(u) for u in to))
