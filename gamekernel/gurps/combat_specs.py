"""The one reader of fighters as typed (`Aiko "Sir Henryk" Orc{ST=12} Goblin*3`), of quick stats
and of durations, for `%combat start|add|npc|rest` and the tracker's Join.

Why a module of its own: the magics import it lazily to split a fighter list, without the rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.limits import real_number
from gamekernel.text import visible

_COUNT = re.compile(r"""^(?P<name>"[^"]*"|'[^']*'|[^*{}]+?)(?:\*(?P<n>\d+))?(?:\{(?P<stats>[^}]*)\})?$""")
# one fighter in a list: quoted runs, brace blocks (spaces allowed inside both) and other characters
_SPEC = re.compile(r"""(?:"[^"]*"|'[^']*'|\{[^}]*\}|[^\s"'{])+""")


@dataclass(frozen=True)
class FighterSpec:
    """One fighter as typed: a name (quotes removed), how many (`Goblin*3`) and the quick stats given
    (`Orc{ST=12,DX=11}` or after the name), None when none were."""

    name: str
    count: str | None = None
    stats: dict[str, Any] | None = None


def split_specs(text: str) -> list[str]:
    """`Aiko "Sir Henryk" Orc{ST=12, DX=11} Goblin*3` -> one text per fighter (quotes kept)."""
    return _SPEC.findall(text)


def parse_fighter(text: str, stats: str | Mapping[str, Any] = "") -> FighterSpec:
    """The one reader of a fighter spec, for `%combat start|add|npc` and the tracker's Join: `Name`,
    `"Two Words"`, `Name*3`, `Name{K=V,...}`; `stats` (text or a mapping) adds to the braces' values."""
    match = _COUNT.match(visible(text).strip())  # a name as read: no bidi or zero-width controls
    if not match or not match.group("name").strip(" \"'"):
        raise UsageError(t("combat.err.combatant_spec", spec=text))
    name = match.group("name").strip()
    if name[:1] in "\"'":
        name = name[1:-1].strip()
    given = None if match.group("stats") is None else parse_stats(match.group("stats").replace(",", " "))
    extra = parse_stats(stats) if isinstance(stats, str) else dict(stats)
    if extra:
        given = {**(given or {}), **extra}
    return FighterSpec(name, match.group("n"), given)


def parse_stats(text: str) -> dict[str, Any]:
    """"ST=9 DX=12 weapon=Spear:11:thr+2 imp" (or comma separated inside {...})."""
    out: dict[str, Any] = {}
    parts = re.split(r"[,\s]+(?=[A-Za-z]+=)", text.strip()) if text.strip() else []
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq:
            raise UsageError(t("combat.err.npc_pair", part=part))
        key = key.strip().lower()
        value = value.strip().strip('"')
        if key in ("weapon", "weapons"):
            out.setdefault("weapons", []).append(value)
        elif key in ("hpt", "cr", "pc"):
            out[key] = value.lower() in ("1", "yes", "true", "y")
        elif key == "speed":
            out[key] = real_number(value, key)
        elif key == "side":
            out[key] = value
        else:
            if not re.fullmatch(r"[+-]?\d{1,9}", value):
                raise UsageError(t("combat.err.npc_number", key=key, value=value))
            out[key] = int(value)
    return out


DURATION = re.compile(r"^(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>s|sec|secs|min|mins|m|h|hr|hrs|hours?)$", re.I)


def parse_minutes(text: str) -> int:
    match = DURATION.match(text.strip())
    if not match:
        raise UsageError(t("combat.err.duration", text=text))
    n = float(match.group("n"))
    unit = match.group("unit").lower()
    factor = 1 / 60 if unit.startswith("s") else 60 if unit.startswith("h") else 1
    return int(n * factor)


_DISTANCE = re.compile(r"^(?P<sign>[+-])?(?P<n>\d{1,6}(?:\.\d{1,3})?)\s*(?:m|metres?|meters?|yd|yards?|hex(?:es)?)?$",
                       re.I)


def parse_distance(text: str | float) -> tuple[float, bool]:
    """`12m` / `12` / `0.5` -> (12.0, False), a distance; `+1`, `-2m` -> (-2.0, True), a step closer or
    farther (one metre a hex, as the metric Lite reads a yard)."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return real_number(float(text), "range"), False
    match = _DISTANCE.match(str(text).strip())
    if not match:
        raise UsageError(t("combat.err.range", text=str(text)[:40]))
    value = float(match.group("n"))
    sign = match.group("sign")
    return (-value if sign == "-" else value), bool(sign)
