"""GURPS Fright Checks: a Will roll against fear, with the seed's outcomes.

    fright_check(will, modifiers=(), *, rng=None, dice=None, outcome_dice=None, rule_of_14=False)
        -> FrightCheck                                                  # GURPS-MEN-10, MEN-11

Failure: mentally stunned for (margin of failure + 2d) seconds. Critical failure: faint, unconscious
for (margin of failure + 1d) minutes. Combat Reflexes +2 and Fearlessness +level come from
Character.trait_modifiers("fright_check"). OPEN: the Basic Set "Rule of 14" (effective Will above
13 counts as 13) is a flag, off by default. A Fright Check is imposed by the GM, so it is rolled
even below effective 3.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from gamekernel.display import Displayable
from gamekernel.errors import UsageError
from gamekernel.gurps.rules.checks import Modifier, SuccessRoll, normalize_modifiers, success_roll
from gamekernel.i18n import t


@dataclass(frozen=True)
class FrightCheck(Displayable):
    """The Will roll and its outcome: "steady", "stunned" (seconds) or "faint" (minutes)."""

    roll: SuccessRoll
    outcome: str
    outcome_dice: tuple[int, ...] = ()
    duration: int = 0  # seconds when stunned, minutes when faint
    unit: str = ""
    secret: bool = False

    def to_dict(self) -> dict:
        return {"roll": self.roll.to_dict(), "outcome_dice": list(self.outcome_dice), "secret": self.secret}

    @classmethod
    def from_dict(cls, data: dict) -> FrightCheck:
        roll = SuccessRoll.from_dict(data["roll"])
        result = _outcome(roll, tuple(data.get("outcome_dice", ())), None)
        if data.get("secret"):
            from dataclasses import replace

            result = replace(result, secret=True)
        return result

    def __repr__(self) -> str:
        return f"<FrightCheck {self}>"


def _outcome(roll: SuccessRoll, outcome_dice: tuple[int, ...] | None, rng: random.Random | None) -> FrightCheck:
    if roll.success:
        return FrightCheck(roll, "steady")
    faint = roll.critical == "failure"
    count = 1 if faint else 2
    if outcome_dice:
        faces = tuple(int(d) for d in outcome_dice)
        if len(faces) != count or any(not 1 <= d <= 6 for d in faces):
            raise UsageError(t("gurps.err.fright_faces", count=count, faces=list(faces)))
    elif rng is not None:
        faces = tuple(rng.randint(1, 6) for _ in range(count))
    else:
        raise UsageError(t("gurps.err.fright_dice", count=count))
    duration = roll.margin_of_failure + sum(faces)
    if faint:
        return FrightCheck(roll, "faint", faces, duration, "minutes")
    return FrightCheck(roll, "stunned", faces, duration, "seconds")


def fright_check(
    will: int,
    modifiers: Iterable = (),
    *,
    actor: str = "",
    rng: random.Random | None = None,
    dice: Iterable[int] | None = None,
    outcome_dice: Iterable[int] | None = None,
    rule_of_14: bool = False,
) -> FrightCheck:
    """Roll a Fright Check vs Will + modifiers and read the outcome (GURPS-MEN-10/11)."""
    mods = normalize_modifiers(modifiers)
    if rule_of_14:
        effective = will + sum(m.value for m in mods)
        if effective > 13:
            mods = (*mods, Modifier(13 - effective, "Rule of 14"))
    roll = success_roll(will, mods, label="Fright Check", actor=actor, rng=rng, dice=dice,
                        kind="fright", always_roll=True)
    return _outcome(roll, tuple(outcome_dice) if outcome_dice is not None else None, rng)
