"""GURPS self-control rolls for disadvantages marked * (GURPS-CH-28).

    self_control_roll(trait, modifiers=(), *, rng=None, dice=None, actor="", variable=False)
        -> SelfControlRoll

The seed fixes the target at 12: 12 or less resists, 13 or more suffers the effect; the player may
always give in without rolling. Trait-specific situations (Phobia threat +4, Truthfulness lie -5,
Greed -5, Lecherousness -5/-10) are in data/traits.json `situations`. OPEN: Basic Set's variable
self-control numbers (6/9/12/15) are used only with `variable=True` and a trait `cr`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from gamekernel.display import Displayable
from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.rules.checks import SuccessRoll, success_roll
from gamekernel.gurps.rules.traits import Trait, TraitDef, find_trait
from gamekernel.i18n import t
from gamekernel.text import match_key

SEED_SELF_CONTROL = 12
VARIABLE_NUMBERS = (6, 9, 12, 15)


@dataclass(frozen=True)
class SelfControlRoll(Displayable):
    """The roll and what it means for the trait."""

    trait: str
    trait_id: str
    roll: SuccessRoll
    failure_effect: str = ""
    secret: bool = False

    @property
    def resisted(self) -> bool:
        return self.roll.success

    def to_dict(self) -> dict:
        return {"trait": self.trait, "trait_id": self.trait_id, "roll": self.roll.to_dict(),
                "failure_effect": self.failure_effect, "secret": self.secret}

    @classmethod
    def from_dict(cls, data: dict) -> SelfControlRoll:
        return cls(data["trait"], data.get("trait_id", ""), SuccessRoll.from_dict(data["roll"]),
                   data.get("failure_effect", ""), bool(data.get("secret")))

    def __repr__(self) -> str:
        return f"<SelfControlRoll {self}>"


def situation_modifier(defn: TraitDef, situation: str) -> int:
    """The trait's modifier for a named situation ("mere threat" -> +4 for a Phobia)."""
    situations = defn.data.get("situations", {})
    for name, value in situations.items():
        if match_key(name).startswith(match_key(situation)):
            return int(value)
    known = ", ".join(situations) or t("gurps.err.none")
    raise UsageError(t("gurps.err.situation", trait=defn.name, situation=situation, known=known))


def self_control_roll(
    trait: Trait | TraitDef | str,
    modifiers: Iterable = (),
    *,
    rng: random.Random | None = None,
    dice: Iterable[int] | None = None,
    actor: str = "",
    variable: bool = False,
    cr: int | None = None,
) -> SelfControlRoll:
    """Roll 3d vs 12 (+ modifiers) for a * disadvantage (GURPS-CH-28)."""
    if isinstance(trait, str):
        defn = find_trait(trait)
        name, cr_value = defn.name, cr
    elif isinstance(trait, Trait):
        definition = trait.definition
        if definition is None:
            raise RuleError(t("gurps.err.not_cr_trait", trait=trait.name))
        defn, name, cr_value = definition, trait.name, cr if cr is not None else trait.cr
    else:
        defn, name, cr_value = trait, trait.name, cr
    if not defn.self_control:
        raise RuleError(t("gurps.err.no_cr", trait=defn.name))
    target = SEED_SELF_CONTROL
    if variable and cr_value is not None:
        if cr_value not in VARIABLE_NUMBERS:
            raise UsageError(t("gurps.err.cr_number", numbers=VARIABLE_NUMBERS, cr=cr_value))
        target = cr_value
    roll = success_roll(target, modifiers, label=f"Self-control ({name})", actor=actor, rng=rng, dice=dice,
                        kind="self_control", always_roll=True)
    return SelfControlRoll(name, defn.id, roll, defn.data.get("failure", ""))
