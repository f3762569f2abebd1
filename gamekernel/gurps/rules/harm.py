"""GURPS harm: the one injury path. Whatever takes HP or FP - a hit in a fight, `%damage`, a fall, fire,
poison, suffocation, a spell's energy - ends here, in a fight or outside one. [GURPS-INJ-02..09,
GURPS-FAT-02, FAT-03, GURPS-HAZ-17..20]

Why a module of its own: the consequences of lost HP/FP (knockdown, consciousness, death checks, -5 x HP
death, -10 x HP destruction, fatigue's HP cost and unconsciousness, suffocation's Will and HT rolls) must
not depend on which command took them; `harm` is the only place they are decided. The fight adds only
what needs turns (shock on the next turn, losing concentration: combat/injury.apply_injury).
"""

from __future__ import annotations

from dataclasses import dataclass

from gamekernel.gurps.rules import fatigue as fat
from gamekernel.gurps.rules import injury as inj
from gamekernel.gurps.rules.checks import SuccessRoll
from gamekernel.gurps.rules.combat.state import Combatant, Tape, copy_with

BRAIN_DAMAGE_AFTER_S = 120  # GURPS-HAZ-20: oxygen lack for more than 2 minutes
DEATH_WITHOUT_AIR_S = 240  # GURPS-HAZ-18: death after 4 minutes without oxygen


@dataclass(frozen=True)
class InjuryReport:
    """Everything one loss of HP/FP did (GURPS-INJ-01..09, FAT-02/03, HAZ-17..20): HP and FP before and
    after (`injury` = HP taken directly; `fatigue_hp` = HP lost because FP were at 0 or below), shock,
    the major wound's knockdown roll, the consciousness roll (outside a fight: at once, GURPS-INJ-02),
    the death checks, suffocation's Will rolls and brain-damage HT roll, and the states reached."""

    name: str
    injury: int
    hp_before: int
    hp_after: int
    shock: int
    major_wound: bool
    knockdown: inj.KnockdownResult | None
    death_checks: tuple[inj.DeathCheck, ...]
    concentration: SuccessRoll | None
    became: tuple[str, ...]
    fp_before: int = 0
    fp_after: int = 0
    fatigue_hp: int = 0
    consciousness: SuccessRoll | None = None
    will_rolls: tuple[SuccessRoll, ...] = ()
    brain_damage: SuccessRoll | None = None

    @property
    def fp_loss(self) -> int:
        return self.fp_before - self.fp_after


def _will_seconds(fp_before: int, fp_max: int, seconds: int) -> int:
    """Seconds without air spent at 0 FP or below but above -FP: one Will roll each (GURPS-HAZ-18);
    at -FP the victim is unconscious anyway (GURPS-FAT-03)."""
    if not fat.fp_applies(fp_max):
        return 0
    return sum(1 for s in range(1, seconds + 1) if -fp_max < fp_before - s <= 0)


def stay_conscious(c: Combatant, tape: Tape) -> tuple[Combatant, SuccessRoll | None]:
    """The one HP <= 0 step (GURPS-INJ-02): the HT roll to stay conscious, -1 per full -HP, once per turn
    (`consciousness_checked`), by whoever is still up; a failure leaves him unconscious, lying down, his
    concentration broken. The roll (None when none was due) is for the report. Used before a maneuver
    other than Do Nothing, before a defense roll, and after a loss outside a fight."""
    if c.hp > 0 or not inj.hp_applies(c.hp_max) or c.consciousness_checked or c.dead or c.destroyed \
            or c.unconscious or c.mortal:
        return c, None
    roll = inj.consciousness_check(c.ht, c.hp, c.hp_max, tape.roll3())
    c = copy_with(c, consciousness_checked=True)
    if not roll.success:
        c = copy_with(c, unconscious=True, posture="lying_down", concentrating="")
    return c, roll


def harm(c: Combatant, tape: Tape, *, injury: int = 0, fp: int = 0, in_fight: bool = False,
         airless_seconds: int = 0) -> tuple[Combatant, InjuryReport]:
    """Take `injury` HP and `fp` FP from `c` and roll everything the rules then ask for, in this order
    (dice from `tape`): FP lost, each below 0 costing 1 HP, unconscious at -FP (GURPS-FAT-02, 03);
    a major wound's knockdown HT roll (GURPS-INJ-06, 07); destroyed at -10 x HP, dead at -5 x HP
    (GURPS-INJ-04), else an HT death check at each -k x HP line newly crossed (exact multiples count,
    GURPS-INJ-03, INJ-09); outside a fight, dropping to HP <= 0 asks the HT roll to stay conscious at
    once, -1 per full -HP (GURPS-INJ-02; in a fight it comes at the start of each turn, `checks_due`);
    without air (`airless_seconds`), first a Will roll each second spent at 0 FP or below (above -FP)
    until one fails, later an HT roll after 2 minutes (failure -1 IQ for good) and death at 4 minutes
    (GURPS-HAZ-17..20)."""
    before, fp_before = c.hp, c.fp
    if not inj.hp_applies(c.hp_max):
        injury = 0  # no HP to lose (`injury.hp_applies`)
    loss = fat.lose_fp(c.fp, c.fp_max, fp)
    total = injury + loss.hp_loss
    after = before - total
    became: list[str] = []
    knock = None
    deaths: list[inj.DeathCheck] = []
    consciousness = None
    c = copy_with(c, hp=after, fp=loss.fp_after)
    alive = not (c.dead or c.destroyed)
    wills: list[SuccessRoll] = []
    for _ in range(_will_seconds(fp_before, c.fp_max, airless_seconds)):  # before the HP they cost
        if c.unconscious or not alive:
            break
        roll = inj.roll_vs("Will (no air, 0 FP)", c.will, tape.roll3())
        wills.append(roll)
        if not roll.success:
            c = copy_with(c, unconscious=True, posture="lying_down")
            became.append("unconscious")
    if total > 0:
        if c.hp <= 0 < before:
            c = copy_with(c, consciousness_checked=False)
        if alive and injury > 0 and inj.is_major_wound(injury, c.hp_max) and not c.unconscious:
            knock = inj.knockdown_check(c.ht, tape.roll3(), high_pain_threshold=c.high_pain_threshold)
            if knock.outcome == "stunned":  # stunned while concentrating: lost at once (GURPS-MAG-06)
                c = copy_with(c, stunned=True, posture="lying_down", concentrating="", concentration_injury=0)
                became += ["stunned", "knocked down"]
            elif knock.outcome == "unconscious":
                c = copy_with(c, unconscious=True, posture="lying_down")
                became += ["knocked down", "unconscious"]
        if after <= -10 * c.hp_max and not c.destroyed:
            c = copy_with(c, dead=True, destroyed=True, unconscious=False)
            became.append("destroyed")
        elif after <= -5 * c.hp_max and not c.dead:
            c = copy_with(c, dead=True)
            became.append("dead")
        elif alive:
            for line in inj.death_checks_due(before, after, c.hp_max):
                if line <= c.death_line:
                    continue
                check = inj.death_check(c.ht, tape.roll3(), line=line, hard_to_kill=c.hard_to_kill,
                                        mortally_wounded=c.mortal)
                deaths.append(check)
                c = copy_with(c, death_line=line)
                if check.outcome == "dead":
                    c = copy_with(c, dead=True)
                    became.append("dead")
                    break
                if check.outcome == "mortal":
                    c = copy_with(c, mortal=True)
                    became.append("mortally wounded")
                if check.saved_by_hard_to_kill:
                    c = copy_with(c, unconscious=True, posture="lying_down")
                    became.append("unconscious")
        if not in_fight:  # no turns outside a fight: every new loss at HP <= 0 asks the roll again
            c, consciousness = stay_conscious(copy_with(c, consciousness_checked=False), tape)
            if consciousness is not None and not consciousness.success:
                became.append("unconscious")
    if fat.fp_applies(c.fp_max) and c.fp <= -c.fp_max and not (c.unconscious or c.dead):
        c = copy_with(c, unconscious=True, posture="lying_down")
        became.append("unconscious")
    brain = None
    if airless_seconds > 0:
        if airless_seconds > BRAIN_DAMAGE_AFTER_S and not c.dead:
            brain = inj.roll_vs("HT (no air > 2 min)", c.ht, tape.roll3())
            if not brain.success:
                c = copy_with(c, iq=c.iq - 1)
                became.append("brain damage")
        if airless_seconds >= DEATH_WITHOUT_AIR_S and not c.dead:
            c = copy_with(c, dead=True, unconscious=False)
            became.append("dead")
    if c.dead or c.unconscious or c.mortal:
        c = copy_with(c, concentrating="", posture="lying_down" if not c.destroyed else c.posture)
    if c.reeling and not inj.is_reeling(before, c.hp_max) and c.hp > 0:
        became.insert(0, "reeling")
    report = InjuryReport(c.name, injury, before, after, 0, injury > 0 and inj.is_major_wound(injury, c.hp_max),
                          knock, tuple(deaths), None, tuple(became), fp_before, c.fp, loss.hp_loss, consciousness,
                          tuple(wills), brain)
    return c, report
