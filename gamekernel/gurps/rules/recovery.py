"""GURPS recovery of one person outside the turn sequence: waking up, mortal wound rolls, natural
healing, first aid, rest. [GURPS-INJ-10..19, GURPS-FAT-03, GURPS-FAT-10]

Each rule takes the person (a Combatant) and a Tape, draws dice only when the rule calls for a roll,
and returns the person afterwards with a small frozen outcome. The session resolves the name,
records the event and words the outcome.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamekernel.errors import RuleError
from gamekernel.gurps.rules import fatigue as fat
from gamekernel.gurps.rules import injury as inj
from gamekernel.gurps.rules.combat import Combatant, Tape, copy_with
from gamekernel.gurps.rules.injury import Check
from gamekernel.i18n import t

# ---------------------------------------------------------------- waking up (GURPS-INJ-13..15)


@dataclass(frozen=True)
class WakeOutcome:
    """One attempt to wake: the rule that applies (auto / hourly / twelve_hours), the minutes until the
    next attempt, the HT roll if one was made, and the result: awake, still, needs_care or dead."""

    rule: str
    minutes: int
    check: Check | None
    result: str


def wake(c: Combatant, tape: Tape, *, care: bool = False) -> tuple[Combatant, WakeOutcome]:
    """HP >= 1: awake after 15 minutes; 0 >= HP > -HP: an HT roll each hour; HP <= -HP: one HT roll
    after 12 hours, and after a failure no waking without medical care (an HT roll when care restores
    HP, `care`) and an HT roll every 12 hours where a failure is death (GURPS-INJ-13..15). Someone
    unconscious from fatigue wakes by rest instead (GURPS-FAT-03)."""
    if not c.unconscious:
        raise RuleError(t("combat.err.not_unconscious", name=c.name))
    if fat.fp_applies(c.fp_max) and c.fp <= -c.fp_max:
        raise RuleError(t("combat.err.fatigue_unconscious", name=c.name))
    rule, minutes = inj.wake_rule(c.hp, c.hp_max)
    check: Check | None = None
    if rule == "auto":
        result = "awake"
    elif c.needs_care and care:
        check = inj.roll_vs("wake up (medical care)", c.ht, tape.roll3())
        result = "awake" if check.success else "still"
    elif c.needs_care:
        check = inj.roll_vs("survive 12 hours", c.ht, tape.roll3())
        result = "needs_care" if check.success else "dead"
    else:
        check = inj.wake_check(c.ht, tape.roll3())
        result = "awake" if check.success else "needs_care" if rule == "twelve_hours" else "still"
    if result == "awake":
        c = copy_with(c, unconscious=False, needs_care=False, consciousness_checked=c.hp <= 0)
    elif result == "dead":
        c = copy_with(c, dead=True, unconscious=False, needs_care=False)
    elif result == "needs_care":
        c = copy_with(c, needs_care=True)
    return c, WakeOutcome(rule, minutes, check, result)


# ---------------------------------------------------------------- mortal wounds (GURPS-INJ-10, INJ-11)


@dataclass(frozen=True)
class MortalOutcome:
    """The 30-minute roll (result: dead, alive or recovered) and, on recovery, the HT roll that may
    cost 1 HT for good (effect: none, lose_ht, lose_ht_and_disadvantage)."""

    check: Check
    result: str
    after: Check | None = None
    effect: str = "none"


def mortal_roll(c: Combatant, tape: Tape, *, healed: bool = False) -> tuple[Combatant, MortalOutcome]:
    """HT (+ Hard to Kill) every 30 minutes: critical success = no longer mortally wounded, success =
    30 more minutes, failure = death; after healing by medicine or magic (`healed`) a success recovers
    (GURPS-INJ-10). On recovery an HT roll: failure = -1 HT for good, critical failure = also a fitting
    disadvantage at the GM's option (GURPS-INJ-11)."""
    if not c.mortal:
        raise RuleError(t("combat.err.not_mortal", name=c.name))
    if healed:
        check = inj.roll_vs("mortal wound (healed)", c.ht, tape.roll3())
        result = "recovered" if check.success else "alive"
    else:
        check, result = inj.mortal_wound_check(c.ht, tape.roll3(), hard_to_kill=c.hard_to_kill)
    if result == "dead":
        return copy_with(c, dead=True, mortal=False, unconscious=False), MortalOutcome(check, result)
    if result == "alive":
        return c, MortalOutcome(check, result)
    c = copy_with(c, mortal=False)
    after, effect = inj.mortal_recovery_after(c.ht, tape.roll3())
    if effect != "none":
        c = copy_with(c, ht=c.ht - 1, fp_max=c.fp_max - 1, fp=min(c.fp, c.fp_max - 1))
    return c, MortalOutcome(check, result, after, effect)


# ---------------------------------------------------------------- healing and rest (GURPS-INJ-16..19, FAT-10)


def natural_healing(c: Combatant, days: int, tape: Tape, *, modifier: int = 0
                    ) -> tuple[Combatant, tuple[inj.HealingResult, ...]]:
    """A day of rest each, then HT (GM modifier for conditions): +1 HP on a success, never above max;
    no roll once HP are full (GURPS-INJ-16)."""
    results = []
    for _ in range(days):
        if c.hp >= c.hp_max:
            break
        result = inj.natural_healing(c.ht, tape.roll3(), modifier=modifier)
        results.append(result)
        c = copy_with(c, hp=min(c.hp_max, c.hp + result.hp_gained))
    return c, tuple(results)


def first_aid(c: Combatant, tl: int, skill: int, tape: Tape) -> tuple[Combatant, inj.FirstAidResult]:
    """Bandaging and a First Aid roll with the table's dice (GURPS-INJ-17..19): a gain stops at max HP,
    a loss does not."""
    row = inj.first_aid_row(tl)
    result = inj.first_aid(tl, skill, tape.roll3(), tape.d6(row.dice))
    hp = min(c.hp_max, c.hp + result.hp_change) if result.hp_change > 0 else c.hp + result.hp_change
    return copy_with(c, hp=hp), result


def rest(c: Combatant, minutes: int) -> Combatant:
    """Quiet rest restores FP (GURPS-FAT-10); a collapse ends once FP are above 0 (GURPS-FAT-02) and
    fatigue unconsciousness once FP climb above -FP (GURPS-FAT-03)."""
    after = fat.rest(c.fp, c.fp_max, minutes)
    return copy_with(c, fp=after, collapsed=c.collapsed and after <= 0,
                     unconscious=c.unconscious and not (c.fp <= -c.fp_max < after))
