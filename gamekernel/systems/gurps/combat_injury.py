"""GURPS damage, injury, fatigue and the end of a fight: what a hit or lost FP does to a fighter.
[GURPS-DMG, GURPS-INJ, GURPS-FAT]

Why a module of its own: injury and fatigue have many consequences (shock, knockdown, death
checks, collapse) that attacks, hazards and spells all reach through the same functions. Split
from combat.py, which re-exports every name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.systems.gurps import attacks as atk
from gamekernel.systems.gurps import fatigue as fat
from gamekernel.systems.gurps import injury as inj
from gamekernel.systems.gurps.checks import SuccessRoll, success_roll
from gamekernel.systems.gurps.combat_state import Combatant, CombatState, PendingAttack, Tape, copy_with
from gamekernel.systems.gurps.combat_turns import _require_fight
from gamekernel.systems.gurps.damage import DamageRoll, DamageSpec, parse_damage, roll_damage

# ---------------------------------------------------------------- damage and injury (DMG, INJ)


@dataclass(frozen=True)
class InjuryReport:
    """Everything one injury did (GURPS-INJ-01..09): HP before/after, shock, major wound and its
    knockdown roll, death checks, and the states reached."""

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


@dataclass(frozen=True)
class DamageReport:
    damage: DamageRoll
    injury: InjuryReport


def _hit(state: CombatState, p: PendingAttack, dice: Tape) -> tuple[CombatState, DamageReport]:
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


def shock_round_for(state: CombatState, victim_index: int) -> int:
    """The round of the victim's next turn: shock applies then and expires when it ends (GURPS-INJ-05)."""
    return state.round if victim_index > state.active else state.round + 1


def apply_injury(state: CombatState, name: str, injury: int, dice: Tape) -> tuple[CombatState, InjuryReport]:
    """Apply injury and every consequence, rolling what the rules ask for, in order: shock (next turn,
    cap 4, none with HPT); major wound (> HP/2) -> knockdown/stun HT roll; a death check at each
    -k x HP line crossed; -5 x HP dead, -10 x HP destroyed; concentration Will-3 (GURPS-CMB-23)."""
    if injury < 0:
        raise UsageError(t("combat.err.injury", injury=injury))
    i = state.index(name)
    c = state.combatants[i]
    before = c.hp
    after = before - injury
    became: list[str] = []
    shock = 0
    knock = None
    deaths: list[inj.DeathCheck] = []
    will = None
    c = copy_with(c, hp=after)
    if injury > 0:
        shock = inj.shock_penalty(injury, high_pain_threshold=c.high_pain_threshold)
        if shock:
            target_round = shock_round_for(state, i)
            total = c.shock + shock if c.shock_round == target_round else shock
            c = copy_with(c, shock=min(4, total), shock_round=target_round)
        if c.hp <= 0 < before:
            c = copy_with(c, consciousness_checked=False)
        alive = not (c.dead or c.destroyed)
        if alive and inj.is_major_wound(injury, c.hp_max) and not c.unconscious:
            knock = inj.knockdown_check(c.ht, dice.roll3(), high_pain_threshold=c.high_pain_threshold)
            if knock.outcome == "stunned":
                c = copy_with(c, stunned=True, posture="lying_down")
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
                check = inj.death_check(c.ht, dice.roll3(), line=line, hard_to_kill=c.hard_to_kill,
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
        if c.concentrating and not (c.dead or c.unconscious):
            will = success_roll(c.will, [(-3, "injured")], label="keep concentrating", actor=c.name,
                                dice=dice.roll3(), defense=True)
            if not will.success:
                c = copy_with(c, concentrating="")
                became.append("lost concentration")
        if c.dead or c.unconscious or c.mortal:
            c = copy_with(c, concentrating="", posture="lying_down" if not c.destroyed else c.posture)
        if c.reeling and not inj.is_reeling(before, c.hp_max) and c.hp > 0:
            became.insert(0, "reeling")
    state = copy_with(state, combatants=(*state.combatants[:i], c, *state.combatants[i + 1:]))
    return state, InjuryReport(c.name, injury, before, after, shock, inj.is_major_wound(injury, c.hp_max),
                               knock, tuple(deaths), will, tuple(became))


# ---------------------------------------------------------------- fatigue, healing, GM fixes


def _tire(c: Combatant, amount: int) -> tuple[Combatant, fat.FatigueLoss]:
    """Lose FP; below 0 each costs 1 HP too; at -FP unconscious (GURPS-FAT-02, 03)."""
    loss = fat.lose_fp(c.fp, c.fp_max, amount)
    c = copy_with(c, fp=loss.fp_after, hp=c.hp - loss.hp_loss)
    if c.fp <= -c.fp_max:
        c = copy_with(c, unconscious=True)
    return c, loss


def spend_fp(state: CombatState, name: str, amount: int) -> tuple[CombatState, fat.FatigueLoss]:
    """Lose FP in the fight (spells, exertion, hazards); someone who passes out falls (GURPS-FAT-02, 03)."""
    c, loss = _tire(state.get(name), amount)
    if c.fp <= -c.fp_max:
        c = copy_with(c, posture="lying_down")
    return state.put(c), loss


def suffer(c: Combatant, hp: int = 0, fp: int = 0) -> Combatant:
    """Injury and FP lost outside a fight (hazards, spells): HP off, then FP with their HP cost and
    unconsciousness at -FP (GURPS-FAT-02, 03)."""
    c, _ = _tire(copy_with(c, hp=c.hp - hp), fp)
    return c


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
    allowed = {"stunned", "unconscious", "collapsed", "posture", "mortal", "dead", "concentrating", "shock"}
    bad = set(flags) - allowed
    if bad:
        raise UsageError(t("combat.err.set_status", bad=", ".join(sorted(bad)), allowed=", ".join(sorted(allowed))))
    if "posture" in flags:
        atk.posture_row(flags["posture"])
    return state.put(copy_with(c, **flags))


@dataclass(frozen=True)
class EndReport:
    seconds: int
    fatigue: tuple[tuple[str, int], ...]


def end_combat(state: CombatState) -> tuple[CombatState, EndReport]:
    """Close the fight: those who attacked or defended in a fight of 11+ s lose 1 + encumbrance FP
    (GURPS-FAT-04)."""
    _require_fight(state)
    seconds = state.round
    costs = []
    for c in state.combatants:
        cost = fat.combat_fatigue(seconds, c.encumbrance, made_attack_or_defense=c.rolled)
        if cost and not c.dead:
            state, _ = spend_fp(state, c.name, cost)
            costs.append((c.name, cost))
    return copy_with(state, over=True, pending=None), EndReport(seconds, tuple(costs))
