"""Fate's state, its event kinds and its handle on the session (`session.fate.character`, `.check`).

Importing this module registers all the rule set knows that is not drawing: its state part, its
event kinds, and (gk_fate.lessons) the working of its checks and its quiz.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import gk_fate.lessons  # noqa: F401  (registers the working of a check and the quiz)
from gamekernel.display import Displayable
from gamekernel.errors import NotFoundError, UsageError
from gamekernel.events import register_event
from gamekernel.i18n import t
from gamekernel.rulesets import RuleSetHandle
from gamekernel.state import register_part
from gamekernel.text import find_name, resolve_name, visible
from gk_fate.rules import FAIR, FateCheck, roll_fudge


@dataclass
class FateState:
    """Every Fate character's skills (name -> rating) and the outcome of their last check."""

    characters: dict[str, dict[str, int]] = field(default_factory=dict)
    last: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"characters": {n: dict(s) for n, s in self.characters.items()},
                "last": {n: dict(c) for n, c in self.last.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FateState:
        return cls({n: dict(s) for n, s in data["characters"].items()}, {n: dict(c) for n, c in data["last"].items()})


@dataclass(frozen=True, repr=False)
class FateCharacter(Displayable):
    name: str
    skills: tuple[tuple[str, int], ...]


@dataclass(frozen=True, repr=False)
class FateResult(Displayable):
    check: FateCheck


def _apply_character(state: Any, data: Mapping[str, Any]) -> None:
    state["fate"].characters[data["name"]] = dict(data["skills"])


def _apply_check(state: Any, data: Mapping[str, Any]) -> None:
    state["fate"].last[data["actor"]] = dict(data)


register_part("fate", FateState)
register_event("fate.character", apply=_apply_character, changes=("fate",))
register_event("fate.check", apply=_apply_check, changes=("fate",))


class Fate(RuleSetHandle):
    """Fate on one table, made by gamekernel from this rule set's declaration: `session.rules["fate"]`
    (`session.fate` at run time, `Fate.of(session)` typed); `self.table` is the session's core."""

    name = "fate"

    @property
    def state(self) -> FateState:
        part: FateState = self.table.state["fate"]
        return part

    def character(self, name: str, skills: Mapping[str, int]) -> FateCharacter:
        """Create a Fate character or set some of its skills (FATE-LADDER: each -2 to +8)."""
        name = visible(name).strip()
        if not name:
            raise UsageError(t("fate.err.name"))
        name = find_name(name, self.state.characters) or name
        merged = {**self.state.characters.get(name, {}), **skills}
        self.table.record("fate.character", {"name": name, "skills": merged}, actor=name)
        return FateCharacter(name, tuple(sorted(merged.items())))

    def check(self, skill: str, *, actor: str, opposition: int = FAIR, secret: bool = False) -> FateResult:
        """FATE-DICE, FATE-SKILL, FATE-OUTCOME: 4dF + the skill's rating against the opposition; a
        skill the character does not list is Mediocre (+0)."""
        found, close = resolve_name(actor, self.state.characters)
        if found is None:
            raise NotFoundError(t("fate.err.who", actor=actor, known=", ".join(close or sorted(self.state.characters))))
        skills = self.state.characters[found]
        skill = find_name(skill, skills) or skill
        with self.table.command():
            check = FateCheck(found, skill, skills.get(skill, 0), roll_fudge(self.table.dice_for(secret)), opposition)
            self.table.record("fate.check", check.to_dict(), actor=found, secret=secret)
        return FateResult(check)
