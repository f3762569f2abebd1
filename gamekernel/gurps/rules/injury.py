"""GURPS injury: HP thresholds, shock, major wounds, knockdown and stun, consciousness and death
checks, mortal wounds, waking up, natural healing and first aid. [GURPS-INJ]

Every roll takes its three dice faces explicitly (the session draws them from its RNG) and every
result keeps them, so the event log replays without the RNG.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.rules.checks import SuccessRoll, success_roll
from gamekernel.i18n import t

Check = SuccessRoll  # every combat roll is a core success roll (GURPS-SR-02..08), faces kept


def roll_vs(
    label: str, base: int, faces: Sequence[int], modifiers: Sequence[tuple[int, str]] = (), *, actor: str = ""
) -> SuccessRoll:
    """A 3d roll against `base` + labelled modifiers with the core critical rules (GURPS-SR-03/07/08;
    attacks GURPS-CMB-27/28 and defenses GURPS-CMB-42 share them).

    Always rolled, whatever the target: survival, defense and recovery rolls are never refused
    (GURPS-SR-05); callers that must refuse below 3 check first.
    """
    return success_roll(base, modifiers, label=label, actor=actor, dice=tuple(faces), defense=True, kind="combat")


def is_crit_success(check: SuccessRoll) -> bool:
    return check.critical == "success"


def is_crit_failure(check: SuccessRoll) -> bool:
    return check.critical == "failure"


def halve_up(value: int) -> int:
    """Half, rounded up (GURPS-INJ-01, GURPS-FAT-01)."""
    return -((-value) // 2)


# ---------------------------------------------------------------- HP thresholds (GURPS-INJ-01..04)

HP_STATES = ("healthy", "reeling", "collapse", "dying1", "dying2", "dying3", "dying4", "dead", "destroyed")


@dataclass(frozen=True)
class InjuryConfig:
    """OPEN choices of GURPS-INJ as flags.

    `reeling_at_or_below`: the seed's rule line [004:1600] says "1/3 or less" (default, the
    authority); its recovery line [004:1635] and the Basic Set say "less than 1/3" (set False).
    """

    reeling_at_or_below: bool = True


DEFAULT = InjuryConfig()


def hp_applies(hp_max: int) -> bool:
    """Whether the HP rows apply at all: a maximum HP of 0 is how GCS writes the Basic Set's "N/A"
    (a specter). Read as for FP (`fatigue.fp_applies`): no row of the seed's injury table applies
    (reeling, collapse, death checks, dead; GURPS-INJ-01..04) and no injury is taken."""
    return hp_max > 0


def is_reeling(hp: int, hp_max: int, config: InjuryConfig = DEFAULT) -> bool:
    """HP at (or below) a third of max: Move and Dodge halved, round up (GURPS-INJ-01)."""
    if hp_max <= 0:
        return False
    return 3 * hp <= hp_max if config.reeling_at_or_below else 3 * hp < hp_max


def hp_state(hp: int, hp_max: int, config: InjuryConfig = DEFAULT) -> str:
    """The HP band: healthy, reeling, collapse (<= 0), dying1..4 (<= -1..-4 x HP), dead, destroyed;
    always healthy where HP do not apply (`hp_applies`)."""
    if not hp_applies(hp_max):
        return "healthy"
    if hp <= -10 * hp_max:
        return "destroyed"
    if hp <= -5 * hp_max:
        return "dead"
    if hp <= -hp_max:
        return f"dying{min(4, (-hp) // hp_max)}"
    if hp <= 0:
        return "collapse"
    return "reeling" if is_reeling(hp, hp_max, config) else "healthy"


def consciousness_penalty(hp: int, hp_max: int) -> int:
    """-1 per full multiple of max HP below zero (GURPS-INJ-02, OPEN reading of "minus HT")."""
    return -((-hp) // hp_max) if hp < 0 and hp_applies(hp_max) else 0


def death_checks_due(hp_before: int, hp_after: int, hp_max: int) -> tuple[int, ...]:
    """The -k x HP lines (k = 1..4) crossed by this loss; each asks for a death check (GURPS-INJ-03).

    From -5 x HP on death is automatic (GURPS-INJ-04), so no roll is due for k >= 5.
    """
    if not hp_applies(hp_max):
        return ()
    return tuple(k for k in range(1, 5) if hp_after <= -k * hp_max < hp_before)


# ---------------------------------------------------------------- shock and major wounds (INJ-05..07)


def shock_penalty(injury: int, *, high_pain_threshold: bool = False) -> int:
    """-(injury) to DX and IQ on the victim's next turn, at most 4; none with HPT (GURPS-INJ-05)."""
    if high_pain_threshold or injury <= 0:
        return 0
    return min(4, injury)


SHOCKED_ATTRIBUTES = ("DX", "IQ")


def shock_applies(attribute: str) -> bool:
    """Shock hits DX, IQ and the skills and spells based on them, not HT, Will, Per or active
    defenses (GURPS-INJ-05)."""
    return attribute.upper() in SHOCKED_ATTRIBUTES


def is_major_wound(injury: int, hp_max: int) -> bool:
    """One injury greater than half of max HP (GURPS-INJ-06): HP 10 -> 6 is major, 5 is not."""
    return hp_applies(hp_max) and 2 * injury > hp_max


@dataclass(frozen=True)
class KnockdownResult:
    """The knockdown/stun HT roll after a major wound (GURPS-INJ-07)."""

    check: Check
    outcome: str  # "ok" | "stunned" | "unconscious"

    @property
    def knocked_down(self) -> bool:
        return self.outcome != "ok"


def knockdown_check(ht: int, faces: Sequence[int], *, high_pain_threshold: bool = False) -> KnockdownResult:
    """HT (+3 with High Pain Threshold): fail = stunned and prone; fail by 5+ or crit fail = unconscious."""
    mods = [(3, "High Pain Threshold")] if high_pain_threshold else []
    check = roll_vs("knockdown", ht, faces, mods)
    if check.success:
        outcome = "ok"
    elif is_crit_failure(check) or check.margin_of_failure >= 5:
        outcome = "unconscious"
    else:
        outcome = "stunned"
    return KnockdownResult(check, outcome)


def stun_recovery(ht: int, faces: Sequence[int]) -> Check:
    """HT roll at the end of each stunned turn; success = act normally next turn (GURPS-INJ-08)."""
    return roll_vs("stun recovery", ht, faces)


def consciousness_check(ht: int, hp: int, hp_max: int, faces: Sequence[int]) -> Check:
    """At HP <= 0, the start-of-turn HT roll to stay conscious (GURPS-INJ-02)."""
    penalty = consciousness_penalty(hp, hp_max)
    return roll_vs("stay conscious", ht, faces, [(penalty, "per −HP")] if penalty else [])


@dataclass(frozen=True)
class DeathCheck:
    """An HT roll at a -k x HP line (GURPS-INJ-03, INJ-09; Hard to Kill GURPS-ADV-15)."""

    line: int
    check: Check
    outcome: str  # "alive" | "mortal" | "dead"
    saved_by_hard_to_kill: bool = False


def death_check(
    ht: int, faces: Sequence[int], *, line: int = 1, hard_to_kill: int = 0, mortally_wounded: bool = False
) -> DeathCheck:
    """Fail = death; fail by exactly 1 or 2 = mortal wound; a mortally wounded victim dies on any
    failure. With Hard to Kill, a success only the bonus made collapses the victim (unconscious)."""
    check = roll_vs(f"death check −{line}×HP", ht, faces, [(hard_to_kill, "Hard to Kill")] if hard_to_kill else [])
    if check.success:
        bare = roll_vs("", ht, faces)
        return DeathCheck(line, check, "alive", saved_by_hard_to_kill=hard_to_kill > 0 and not bare.success)
    if check.margin_of_failure <= 2 and not mortally_wounded:
        return DeathCheck(line, check, "mortal")
    return DeathCheck(line, check, "dead")


def mortal_wound_check(ht: int, faces: Sequence[int], *, hard_to_kill: int = 0) -> tuple[Check, str]:
    """Every 30 minutes: success = 30 more minutes; critical success = no longer mortally wounded;
    failure = death (GURPS-INJ-10, OPEN recommended reading)."""
    check = roll_vs("mortal wound", ht, faces, [(hard_to_kill, "Hard to Kill")] if hard_to_kill else [])
    if is_crit_success(check):
        return check, "recovered"
    return check, ("alive" if check.success else "dead")


def mortal_recovery_after(ht: int, faces: Sequence[int]) -> tuple[Check, str]:
    """After a mortal wound heals: fail = -1 HT for good; crit fail = a fitting disadvantage (GURPS-INJ-11)."""
    check = roll_vs("after mortal wound", ht, faces)
    if check.success:
        return check, "none"
    return check, ("lose_ht_and_disadvantage" if is_crit_failure(check) else "lose_ht")


# ---------------------------------------------------------------- waking up (GURPS-INJ-13..15)


def wake_rule(hp: int, hp_max: int) -> tuple[str, int]:
    """How an unconscious victim wakes: ("auto", 15) min at HP >= 1; ("hourly", 60) HT rolls at
    0 >= HP > -HP; ("twelve_hours", 720) at HP <= -1 x HP."""
    if hp >= 1:
        return "auto", 15
    if hp > -hp_max:
        return "hourly", 60
    return "twelve_hours", 720


def wake_check(ht: int, faces: Sequence[int]) -> Check:
    """The HT roll to wake up (hourly, or after 12 h) (GURPS-INJ-14, INJ-15)."""
    return roll_vs("wake up", ht, faces)


# ---------------------------------------------------------------- recovery (GURPS-INJ-16..19)


@dataclass(frozen=True)
class HealingResult:
    """A day of rest: +1 HP on a successful HT roll (GURPS-INJ-16)."""

    check: Check
    hp_gained: int


def natural_healing(ht: int, faces: Sequence[int], *, modifier: int = 0) -> HealingResult:
    check = roll_vs("natural healing", ht, faces, [(modifier, "conditions")] if modifier else [])
    return HealingResult(check, 1 if check.success else 0)


@cache
def _tables() -> dict:
    text = resources.files("gamekernel.gurps").joinpath("data/combat_tables.json").read_text("utf-8")
    return json.loads(text)


@dataclass(frozen=True)
class FirstAidRow:
    tl_min: int
    tl_max: int
    minutes: int
    dice: int
    adds: int

    @property
    def dice_text(self) -> str:
        adds = f"{self.adds:+d}" if self.adds else ""
        return f"{self.dice}d{adds}"


def first_aid_row(tl: int) -> FirstAidRow:
    """The first aid table row for a tech level (GURPS-INJ-19)."""
    if tl < 0:
        raise UsageError(t("gurps.err.tech_level", tl=tl))
    for row in _tables()["first_aid"]["rows"]:
        if row["tl_min"] <= tl <= row["tl_max"]:
            return FirstAidRow(row["tl_min"], row["tl_max"], row["minutes"], row["dice"], row["adds"])
    raise RuleError(t("gurps.err.first_aid_row", tl=tl))  # pragma: no cover - the table ends at 99


@dataclass(frozen=True)
class FirstAidResult:
    """Bandaging (1 min, 1 HP) then a First Aid roll after the table time (GURPS-INJ-17, INJ-18).

    `hp_change` is the net change from before bandaging: the table roll counts the bandaging HP,
    minimum 1; a critical success gives the maximum; a critical failure leaves the patient 2 HP
    below where he started (OPEN recommended reading).
    """

    tl: int
    row: FirstAidRow
    check: Check
    hp_faces: tuple[int, ...]
    hp_change: int

    @property
    def minutes(self) -> int:
        return 1 + self.row.minutes


def first_aid(tl: int, skill: int, faces: Sequence[int], hp_faces: Sequence[int]) -> FirstAidResult:
    row = first_aid_row(tl)
    check = roll_vs("First Aid", skill, faces)
    hp_faces = tuple(int(f) for f in hp_faces)
    if len(hp_faces) != row.dice or any(not 1 <= f <= 6 for f in hp_faces):
        raise UsageError(t("gurps.err.first_aid_faces", tl=tl, dice=row.dice, faces=list(hp_faces)))
    if is_crit_success(check):
        change = 6 * row.dice + row.adds
    elif is_crit_failure(check):
        change = -2
    elif check.success:
        change = max(1, sum(hp_faces) + row.adds)
    else:
        change = 1  # the bandaging HP stays
    return FirstAidResult(tl, row, check, hp_faces, change)
