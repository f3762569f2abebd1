"""The GM's own conditions on a fighter ("Blessed", "Pinned", "Smoke in eyes"), each with an optional
countdown that runs down at the end of each of his turns and ends with a line. [GURPS-CMB-01]

Why a module of its own: the seed names no such conditions, yet a GM tracks them every fight; they
are kept here as plain names and counts, never read by a rule (a condition's effect is the GM's, typed
as a modifier when it matters). A combat turn is one second (GURPS-CMB-01), so "3 turns" and "3 s"
are the same count: three of the fighter's own turns.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gamekernel.errors import NotFoundError, UsageError
from gamekernel.gurps.rules.combat.state import Combatant, CombatState, copy_with
from gamekernel.i18n import t
from gamekernel.text import find_name, visible

MOST_CONDITIONS = 8  # on one fighter: a row of badges, not a list
MOST_NAME = 40  # characters of one condition's name
MOST_SECONDS = 3600  # an hour of combat turns: longer is no countdown the tracker should keep

# "3", "3s", "3 sec", "3 seconds", "3t", "3 turns" (full width read as ASCII)
_COUNT = re.compile(r"(\d{1,6})\s*(s|secs?|seconds?|t|turns?|秒|ターン)?", re.IGNORECASE)
_UNIT = re.compile(r"(s|secs?|seconds?|t|turns?|秒|ターン)", re.IGNORECASE)


def condition_name(text: str) -> str:
    """A condition's name as kept: visible characters only (no bidi or zero-width controls), spaces
    trimmed, at most MOST_NAME; an empty one is refused."""
    name = " ".join(visible(str(text)).split())
    if not name:
        raise UsageError(t("combat.err.condition_name"))
    if len(name) > MOST_NAME:
        raise UsageError(t("combat.err.condition_long", limit=MOST_NAME))
    return name


def parse_condition(words: Sequence[str]) -> tuple[str, int]:
    """`["Blessed", "3s"]` -> ("Blessed", 3); `["Holy", "shield", "5", "turns"]` -> ("Holy shield", 5);
    `["Cursed"]` -> ("Cursed", 0): no countdown, it stays until lifted. The count is the last word (or
    the last two: "5 turns"); a name ending in a number is quoted (`"Poison 2" 3`)."""
    words = [str(w) for w in words]
    seconds = 0
    if len(words) >= 3 and _UNIT.fullmatch(words[-1]) and words[-2].isdigit():
        words, count = words[:-2], words[-2]
        seconds = _seconds(count)
    elif len(words) >= 2 and _COUNT.fullmatch(words[-1]):
        match = _COUNT.fullmatch(words[-1])
        assert match is not None
        words, seconds = words[:-1], _seconds(match.group(1))
    return condition_name(" ".join(words)), seconds


def _seconds(text: str) -> int:
    value = int(text)
    if not 1 <= value <= MOST_SECONDS:
        raise UsageError(t("combat.err.condition_count", value=value, limit=MOST_SECONDS))
    return value


def add_condition(state: CombatState, fighter: str, name: str, seconds: int = 0) -> CombatState:
    """`fighter` now has condition `name` for `seconds` of his turns (0: until lifted); the same name
    again (any case) starts it over."""
    c = state.get(fighter)
    name = condition_name(name)
    if not 0 <= int(seconds) <= MOST_SECONDS:
        raise UsageError(t("combat.err.condition_count", value=seconds, limit=MOST_SECONDS))
    kept = tuple(pair for pair in c.gm_conditions if find_name(name, [pair[0]]) is None)
    if len(kept) >= MOST_CONDITIONS:
        raise UsageError(t("combat.err.condition_many", name=c.name, limit=MOST_CONDITIONS))
    return state.put(copy_with(c, gm_conditions=(*kept, (name, int(seconds)))))


def lift_condition(state: CombatState, fighter: str, name: str) -> tuple[CombatState, str]:
    """`fighter`'s condition `name` ends now (the GM's call); refused when he has none of that name."""
    c = state.get(fighter)
    names = [pair[0] for pair in c.gm_conditions]
    found = find_name(condition_name(name), names)
    if found is None:
        raise NotFoundError(t("combat.err.no_condition", name=c.name, condition=name,
                              have=", ".join(names) or t("combat.none_word")))
    return state.put(copy_with(c, gm_conditions=tuple(p for p in c.gm_conditions if p[0] != found))), found


def tick_conditions(c: Combatant) -> tuple[Combatant, tuple[str, ...]]:
    """The end of `c`'s turn: each countdown runs down by one second; those at zero end (their names
    returned, in order). Conditions without a countdown stay."""
    if not c.gm_conditions:
        return c, ()
    kept: list[tuple[str, int]] = []
    ended: list[str] = []
    for name, left in c.gm_conditions:
        if left == 0:
            kept.append((name, 0))
        elif left > 1:
            kept.append((name, left - 1))
        else:
            ended.append(name)
    return copy_with(c, gm_conditions=tuple(kept)), tuple(ended)
