"""GURPS damage, injury, fatigue and the end of a fight: what a hit or lost FP does to a fighter.
[GURPS-DMG, GURPS-INJ, GURPS-FAT]

Why a module of its own: injury and fatigue have many consequences (shock, knockdown, death
checks, collapse) that attacks, hazards and spells all reach through the same functions. The
package's __init__ re-exports every name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamekernel.errors import UsageError
from gamekernel.gurps.rules import attacks as atk
from gamekernel.gurps.rules import fatigue as fat
from gamekernel.gurps.rules import hazards as hz
from gamekernel.gurps.rules import injury as inj
from gamekernel.gurps.rules.checks import success_roll
from gamekernel.gurps.rules.combat.state import Combatant, CombatState, PendingAttack, Tape, copy_with
from gamekernel.gurps.rules.combat.turns import require_fight
from gamekernel.gurps.rules.damage import DamageRoll, DamageSpec, parse_damage, roll_damage
from gamekernel.gurps.rules.harm import InjuryReport, harm
from gamekernel.i18n import t

# ---------------------------------------------------------------- damage and injury (DMG, INJ)


@dataclass(frozen=True)
class DamageReport:
    damage: DamageRoll
    injury: InjuryReport


def resolve_hit(state: CombatState, p: PendingAttack, dice: Tape) -> tuple[CombatState, DamageReport]:
    a, victim = state.get(p.attacker), state.get(p.target)
    spec = parse_damage(p.damage, st=a.st)
    if p.strong_adds:
        spec = copy_with(spec, adds=spec.adds + p.strong_adds)
    return damage(state, victim.name, spec, dice, attacker=a.name, half=p.half_damage)


def damage(state: CombatState, target: str, spec: DamageSpec | str, dice: Tape, *, attacker: str = "",
           half: bool = False, dr: int | None = None) -> tuple[CombatState, DamageReport]:
    """Roll damage against the target's DR and apply the injury (GURPS-DMG-04..08)."""
    victim = state.get(target)
    if isinstance(spec, str):
        spec = parse_damage(spec, st=state.get(attacker).st if attacker else None)
    roll = roll_damage(spec, dr=victim.dr if dr is None else dr, dice=dice.d6(spec.dice), target=victim.name,
                       attacker=attacker, half=half)
    state, report = apply_injury(state, victim.name, roll.injury, dice)
    return state, DamageReport(roll, report)


def burn_second(state: CombatState, name: str, dice: Tape) -> tuple[CombatState, DamageReport]:
    """A second in burning clothes: 1d-4 burning for part of them, 1d-1 for all (GURPS-HAZ-11, HAZ-12,
    seed 004 lines 1726-1727), against DR, with shock like any injury (line 1728)."""
    c = state.get(name)
    fire = hz.fire_dice(hz.CLOTHING_FIRE[c.burning])
    return damage(state, name, DamageSpec(fire.dice, fire.adds, "burn", "", f"{fire} burn"), dice)


def shock_round_for(state: CombatState, victim_index: int) -> int:
    """The round of the victim's next turn: shock applies then and expires when it ends (GURPS-INJ-05)."""
    return state.round if victim_index > state.active else state.round + 1


def apply_injury(state: CombatState, name: str, injury: int, dice: Tape, *, fp: int = 0,
                 airless_seconds: int = 0) -> tuple[CombatState, InjuryReport]:
    """Apply injury (and FP lost) to a fighter: every consequence through the one injury path
    (`harm.harm`: knockdown, death checks, -5 x HP / -10 x HP, fatigue, suffocation), plus what needs
    the turn order: shock on the victim's next turn (cap 4, none with HPT; GURPS-INJ-05) and the
    Will-3 roll to keep concentrating (GURPS-CMB-23)."""
    if injury < 0:
        raise UsageError(t("combat.err.injury", injury=injury))
    i = state.index(name)
    c, report = harm(state.combatants[i], dice, injury=injury, fp=fp, in_fight=True,
                     airless_seconds=airless_seconds)
    shock = 0
    will = None
    became = list(report.became)
    if injury > 0:
        shock = inj.shock_penalty(injury, high_pain_threshold=c.high_pain_threshold)
        if shock:
            target_round = shock_round_for(state, i)
            total = c.shock + shock if c.shock_round == target_round else shock
            c = copy_with(c, shock=min(4, total), shock_round=target_round)
    if report.hp_after < report.hp_before and c.concentrating and not (c.dead or c.unconscious):
        will = success_roll(c.will, [(-3, "injured")], label="keep concentrating", actor=c.name,
                            dice=dice.roll3(), defense=True)
        if not will.success:
            c = copy_with(c, concentrating="", concentration_injury=0)
            became.append("lost concentration")
        else:  # kept: the spell roll will take -injury (GURPS-MAG-07, seed 004 line 1763)
            c = copy_with(c, concentration_injury=c.concentration_injury + report.hp_before - report.hp_after)
    state = copy_with(state, combatants=(*state.combatants[:i], c, *state.combatants[i + 1:]))
    return state, copy_with(report, shock=shock, concentration=will, became=tuple(became))


# ---------------------------------------------------------------- fatigue, healing, GM fixes


def spend_fp(state: CombatState, name: str, amount: int, dice: Tape | None = None) -> tuple[CombatState, InjuryReport]:
    """Lose FP in the fight (spells, exertion, hazards) through the one injury path: each FP below 0
    costs 1 HP with its death checks, -FP is unconsciousness (GURPS-FAT-02, 03)."""
    return apply_injury(state, name, 0, dice or Tape(), fp=amount)


def suffer(c: Combatant, hp: int = 0, fp: int = 0, dice: Tape | None = None) -> Combatant:
    """Injury and FP lost outside a fight, through the one injury path (`harm.harm`)."""
    return harm(c, dice or Tape(), injury=hp, fp=fp)[0]


def heal(state: CombatState, name: str, hp: int = 0, fp: int = 0) -> CombatState:
    """GM correction / healing: HP and FP up to max; waking from FP unconsciousness when FP > 0."""
    c = state.get(name)
    c = copy_with(c, hp=min(c.hp_max, c.hp + hp), fp=min(c.fp_max, c.fp + fp))
    if c.collapsed and c.fp > 0:
        c = copy_with(c, collapsed=False)
    return state.put(c)


def set_status(state: CombatState, name: str, **flags: Any) -> CombatState:
    """GM override of status flags (stunned, unconscious, posture ...), validated by field name."""
    c = state.get(name)
    allowed = {"stunned", "unconscious", "collapsed", "posture", "mortal", "dead", "concentrating", "shock",
               "burning"}
    bad = set(flags) - allowed
    if bad:
        raise UsageError(t("combat.err.set_status", bad=", ".join(sorted(bad)), allowed=", ".join(sorted(allowed))))
    if "posture" in flags:
        atk.posture_row(flags["posture"])
    if flags.get("burning", "") not in ("", *hz.CLOTHING_FIRE):
        raise UsageError(t("combat.err.burning", value=flags["burning"]))
    return state.put(copy_with(c, **flags))


@dataclass(frozen=True)
class EndReport:
    seconds: int
    fatigue: tuple[tuple[str, int], ...]


def end_combat(state: CombatState, dice: Tape | None = None) -> tuple[CombatState, EndReport]:
    """Close the fight: those who attacked or defended in a fight of 11+ s lose 1 + encumbrance FP
    (GURPS-FAT-04), through the one injury path (at FP <= 0 it costs HP, with its rolls)."""
    require_fight(state)
    seconds = state.round
    costs = []
    for c in state.combatants:
        cost = fat.combat_fatigue(seconds, c.encumbrance, made_attack_or_defense=c.rolled)
        if cost and not c.dead:
            state, _ = spend_fp(state, c.name, cost, dice)
            costs.append((c.name, cost))
    return copy_with(state, over=True, pending=None), EndReport(seconds, tuple(costs))
