"""Luck: reroll a bad success roll twice and keep the best of the three. [GURPS-ADV-19..21]

The seed [004:803-821]: Luck (15 points) once per hour of play, Extraordinary Luck (30) every 30
minutes, Ridiculous Luck (60) every 10 minutes; declared right after the roll; only for the
character's own rolls. Play time is not in the event log, so a use stays spent until the GM says
enough time has passed (`luck_available` with the minutes the GM declares).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from gamekernel.display import Displayable
from gamekernel.errors import RuleError
from gamekernel.gurps.rules.checks import SuccessRoll, best_of, refused_text, success_roll
from gamekernel.i18n import t

if TYPE_CHECKING:  # characters imports this module
    from gamekernel.gurps.rules.characters import Character

LUCK_ORDER = ("ridiculous_luck", "extraordinary_luck", "luck")  # the best level first


@dataclass(frozen=True)
class LuckLevel:
    """One level of Luck from the trait data: how often it may be used and how many rolls it takes."""

    trait_id: str
    name: str
    every_minutes: int
    rolls: int = 3


def luck_level(character: Character) -> LuckLevel | None:
    """The best Luck trait the character has (Ridiculous > Extraordinary > Luck), or None."""
    for trait_id in LUCK_ORDER:
        trait = character.has_trait(trait_id)
        if trait is None or trait.definition is None:
            continue
        effect = next((e for e in trait.definition.effects if e.get("roll") == "luck"), None)
        if effect is not None:
            return LuckLevel(trait_id, trait.definition.name, int(effect["every_minutes"]), int(effect.get("rolls", 3)))
    return None


def require_luck(name: str, level: LuckLevel | None, spent: int, last_check: dict | None,
                 own_last_event: str | None) -> LuckLevel:
    """Luck may be used: the character has it, its use of this period is not spent, there is a roll
    of his own to reroll, not already rerolled, and nothing else he did came after it (declared right
    after the roll) (GURPS-ADV-19). Returns the level; RuleError naming what is missing otherwise."""
    if level is None:
        raise RuleError(t("gurps.err.no_luck", name=name))
    if spent >= 1:
        raise RuleError(t("gurps.err.luck_used", name=name, luck=level.name, minutes=level.every_minutes))
    if last_check is None:
        raise RuleError(t("gurps.err.luck_nothing", name=name))
    if last_check.get("luck"):
        raise RuleError(t("gurps.err.luck_again", name=name))
    if own_last_event != "gurps.check":
        raise RuleError(t("gurps.err.luck_late", name=name, since=own_last_event or t("gurps.err.nothing")))
    return level


def recovered_after(level: LuckLevel, minutes: int | None) -> bool:
    """A spent use comes back once the level's interval of play time has passed (None: the GM
    resets every Luck at once)."""
    return minutes is None or minutes >= level.every_minutes


@dataclass(frozen=True)
class LuckResult(Displayable):
    """The original roll, the rerolls and the one kept (the lowest total: best in every respect)."""

    actor: str
    level: LuckLevel
    original: SuccessRoll
    rerolls: tuple[SuccessRoll, ...]
    kept: SuccessRoll
    secret: bool = False

    @property
    def rolls(self) -> tuple[SuccessRoll, ...]:
        return (self.original, *self.rerolls)

    @property
    def kept_index(self) -> int:
        return next(i for i, r in enumerate(self.rolls) if r.dice == self.kept.dice)

    def to_dict(self) -> dict:
        return {"actor": self.actor, "level": [self.level.trait_id, self.level.name, self.level.every_minutes,
                                                self.level.rolls],
                "original": self.original.to_dict(), "rerolls": [r.to_dict() for r in self.rerolls],
                "kept": self.kept.to_dict(), "secret": self.secret}

    @classmethod
    def from_dict(cls, data: dict) -> LuckResult:
        trait_id, name, every, rolls = data["level"]
        return cls(data["actor"], LuckLevel(trait_id, name, int(every), int(rolls)),
                   SuccessRoll.from_dict(data["original"]),
                   tuple(SuccessRoll.from_dict(r) for r in data["rerolls"]),
                   SuccessRoll.from_dict(data["kept"]), bool(data.get("secret", False)))

    def __repr__(self) -> str:
        return f"<LuckResult {self.actor} kept {self.kept.total}>"


def luck_reroll(original: SuccessRoll, level: LuckLevel, faces: Sequence[Sequence[int]], *,
                note: str = "") -> LuckResult:
    """Reroll `original` (same target, same modifiers) with the given faces, one triple per reroll
    (level.rolls - 1 of them), and keep the best of all (GURPS-ADV-19)."""
    if not original.rolled:
        raise RuleError(t("gurps.err.luck_not_rolled", label=original.label or t("gurps.err.that_roll"),
                            reason=refused_text(original)))
    if len(faces) != level.rolls - 1:
        raise RuleError(t("gurps.err.luck_faces", luck=level.name, rerolls=level.rolls - 1, got=len(faces)))
    rerolls = tuple(
        success_roll(original.base, original.modifiers, label=original.label, actor=original.actor,
                     dice=tuple(f), defense=original.defense, kind=original.kind, notes=original.notes,
                     always_roll=True)
        for f in faces
    )
    kept = best_of((original, *rerolls))
    if note:
        kept = replace(kept, notes=(*kept.notes, note))
    return LuckResult(original.actor, level, original, rerolls, kept, original.secret)


__all__ = ["LUCK_ORDER", "LuckLevel", "LuckResult", "luck_level", "luck_reroll", "recovered_after"]
