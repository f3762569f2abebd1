"""GURPS combat turns: initiative, the turn order, maneuvers and feints. [GURPS-CMB-01..24]

Why a module of its own: these are the transitions that move the fight from one fighter to the
next and fix what each may do this turn; attacks and injury build on them. The package's __init__
re-exports every name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.rules import attacks as atk
from gamekernel.gurps.rules import fatigue as fat
from gamekernel.gurps.rules import injury as inj
from gamekernel.gurps.rules.checks import SuccessRoll, success_roll
from gamekernel.gurps.rules.combat.conditions import tick_conditions
from gamekernel.gurps.rules.combat.state import (
    EVALUATE_MOST,
    Combatant,
    CombatState,
    InitiativeEntry,
    Tape,
    copy_with,
    maneuver_rules,
)
from gamekernel.gurps.rules.harm import stay_conscious
from gamekernel.gurps.rules.wording import badges, word
from gamekernel.i18n import t
from gamekernel.text import match_key

# ---------------------------------------------------------------- initiative (CMB-02, CMB-03)


def initiative_order(combatants: Sequence[Combatant], dice: Tape) -> tuple[tuple[Combatant, ...],
                                                                           tuple[InitiativeEntry, ...]]:
    """Highest Basic Speed first. Ties: same-side NPCs keep the GM's (given) order; otherwise higher
    DX first, then a 3d roll each (higher first), then the given order. Fixed for the fight."""
    groups: dict[float, list[tuple[int, Combatant]]] = {}
    for i, c in enumerate(combatants):
        groups.setdefault(c.basic_speed, []).append((i, c))
    order: list[tuple[Combatant, tuple[int, ...]]] = []
    for speed in sorted(groups, reverse=True):
        group = groups[speed]
        npc_same_side = all(not c.pc for _, c in group) and len({c.side for _, c in group}) == 1
        if len(group) == 1 or npc_same_side:
            order.extend((c, ()) for _, c in group)
            continue
        by_dx: dict[int, list[tuple[int, Combatant]]] = {}
        for i, c in group:
            by_dx.setdefault(c.dx, []).append((i, c))
        for dx in sorted(by_dx, reverse=True):
            tied = by_dx[dx]
            if len(tied) == 1:
                order.append((tied[0][1], ()))
                continue
            rolled = [(i, c, dice.roll3()) for i, c in tied]
            rolled.sort(key=lambda t: (-sum(t[2]), t[0]))
            order.extend((c, faces) for _, c, faces in rolled)
    ordered = tuple(c for c, _ in order)
    entries = tuple(InitiativeEntry(c.name, c.basic_speed, c.dx, faces) for c, faces in order)
    return ordered, entries


def fresh_for_fight(c: Combatant) -> Combatant:
    """Someone joining a new fight: on Do Nothing until his first turn (GURPS-CMB-05), with nothing
    carried over from an earlier fight (shock, feints, Aim, Evaluate, defenses used, the GM's
    countdowns); HP, FP and conditions stay, and so do the GM's conditions without a countdown."""
    return copy_with(c, maneuver="do_nothing", chosen=False, rolled=False, shock=0, shock_round=0, feint_on="",
                     feint_amount=0, feint_round=0, aim_target="", aim_turns=0, evaluate_target="",
                     evaluate_turns=0, parry_used=False, block_used=False,
                     gm_conditions=tuple(p for p in c.gm_conditions if not p[1]))  # a countdown was that fight's


def start_combat(combatants: Sequence[Combatant], dice: Tape) -> CombatState:
    """Order the fighters; everyone is on Do Nothing until his first turn (GURPS-CMB-05)."""
    if not combatants:
        raise UsageError(t("combat.err.no_combatants"))
    keys = [match_key(c.name) for c in combatants]
    dupes = sorted({c.name for c, key in zip(combatants, keys, strict=True) if keys.count(key) > 1})
    if dupes:
        raise UsageError(t("combat.err.same_name", name=dupes[0]))
    ordered, entries = initiative_order(combatants, dice)
    state = CombatState(combatants=ordered, initiative=entries)
    return begin_turn(state)


# ---------------------------------------------------------------- turns (CMB-01, 05, INJ-05, INJ-08)


@dataclass(frozen=True)
class TurnReport:
    ended: str
    stun_recovery: SuccessRoll | None
    expired: tuple[str, ...]
    skipped: tuple[str, ...]
    started: str
    round: int
    due: tuple[str, ...]
    burn: Any = None  # a second of burning clothes at the turn's start (combat.injury.DamageReport)
    ended_conditions: tuple[str, ...] = ()  # the GM's conditions whose countdown ran out (conditions.py)
    lost: tuple[str, ...] = ()  # "aim", "evaluate": built up, then left for another maneuver (CMB-12, B364)


def begin_turn(state: CombatState) -> CombatState:
    c = state.current
    c = copy_with(c, parry_used=False, block_used=False, maneuver="do_nothing", option="", chosen=False,
                maneuver_target="", attacks_left=0, consciousness_checked=False)
    return state.put(c)


def checks_due(c: Combatant) -> tuple[str, ...]:
    """What the active fighter must roll before acting: stay conscious at HP <= 0 (GURPS-INJ-02),
    Will to act at FP <= 0 (GURPS-FAT-02), forced Do Nothing when stunned (GURPS-INJ-08)."""
    due = []
    if c.stunned:
        due.append("stunned")
    if c.hp <= 0 and c.hp_applies and c.can_act and not c.consciousness_checked:
        due.append("consciousness")
    if c.fp <= 0 and c.fp_applies and c.can_act:
        due.append("will")
    return tuple(due)


def next_turn(state: CombatState, dice: Tape) -> tuple[CombatState, TurnReport]:
    """End the active fighter's turn (stun recovery roll, shock and feint expire) and start the next
    one's; fighters who cannot act are passed over (the second still passes for them)."""
    require_fight(state)
    if state.pending is not None:
        raise RuleError(t("combat.err.unanswered", target=state.pending.target, attacker=state.pending.attacker))
    c = state.current
    recovery = None
    expired: list[str] = []
    if c.stunned and not (c.dead or c.destroyed or c.unconscious):
        recovery = inj.stun_recovery(c.ht, dice.roll3())
        if recovery.success:
            c = copy_with(c, stunned=False)
            expired.append("stunned")
    if c.shock and c.shock_round <= state.round:
        c = copy_with(c, shock=0, shock_round=0)
        expired.append("shock")
    if c.feint_amount and c.feint_round <= state.round:
        c = copy_with(c, feint_on="", feint_amount=0, feint_round=0)
        expired.append("feint")
    lost: list[str] = []
    if c.maneuver != "aim":  # Aim builds up only turn after turn (GURPS-CMB-12, 13)
        if c.aim_turns:
            lost.append("aim")
        c = copy_with(c, aim_target="", aim_turns=0)
    if c.maneuver != "evaluate":  # so does Evaluate (B364 [std]); an attack spends it (attacks.py)
        if c.evaluate_turns:
            lost.append("evaluate")
        c = copy_with(c, evaluate_target="", evaluate_turns=0)
    c, ended_conditions = tick_conditions(c)
    state = state.put(c)
    ended = c.name
    skipped = []
    active, round_ = state.active, state.round
    for _ in range(len(state.combatants)):
        active += 1
        if active >= len(state.combatants):
            active, round_ = 0, round_ + 1
        if state.combatants[active].can_act:
            break
        skipped.append(state.combatants[active].name)
    state = begin_turn(copy_with(state, active=active, round=round_))
    report = TurnReport(ended, recovery, tuple(expired), tuple(skipped), state.current.name, state.round,
                        checks_due(state.current), ended_conditions=ended_conditions, lost=tuple(lost))
    return state, report


def require_fight(state: CombatState) -> None:
    if not state.combatants or state.over:
        raise RuleError(t("combat.err.no_fight"))


# ---------------------------------------------------------------- maneuvers (CMB-04..24)


@dataclass(frozen=True)
class ManeuverReport:
    name: str
    maneuver: str
    option: str
    target: str
    checks: tuple[SuccessRoll, ...]
    outcome: str  # "ok" | "unconscious" | "collapsed" | "forced_do_nothing"
    posture: str = ""
    feint: FeintReport | None = None
    built_up: int = 0  # Aim: the seconds aimed so far (CMB-12, 13); Evaluate: the bonus so far (B364 [std])


def choose_maneuver(
    state: CombatState, name: str, maneuver: str, dice: Tape, *, option: str = "", target: str = "",
    posture: str = "", resist: int | None = None, concentrate_on: str = "", weapon: str = "",
) -> tuple[CombatState, ManeuverReport]:
    """The active fighter picks this turn's maneuver (GURPS-CMB-04). At HP <= 0 anything but Do Nothing
    needs an HT roll first (GURPS-INJ-02); at FP <= 0 a Will roll (GURPS-FAT-02); stunned fighters
    must Do Nothing (GURPS-INJ-08)."""
    require_fight(state)
    rules = maneuver_rules(maneuver)
    c = state.get(name)
    if state.current.name != c.name:
        raise RuleError(t("combat.err.not_turn", current=state.current.name, name=c.name))
    if not c.can_act:
        raise RuleError(t("combat.err.cannot_act", name=c.name,
                                states=badges(c.badges()) or t("combat.err.incapacitated")))
    if c.chosen:
        raise RuleError(t("combat.err.already_chose", name=c.name, maneuver=word(c.maneuver)))
    options = rules.get("options", [])
    if options and option not in options:
        raise UsageError(t("combat.err.option_needed", maneuver=word(maneuver), options=", ".join(options)))
    if not options and option:
        raise UsageError(t("combat.err.no_option", maneuver=word(maneuver), option=option))
    if maneuver in ("feint", "aim", "evaluate") or (maneuver == "all_out_attack" and option == "feint"):
        if not target:
            raise UsageError(t("combat.err.target_needed", maneuver=word(maneuver), name=c.name, key=maneuver))
        state.get(target)
    if maneuver == "change_posture":
        if not posture:
            raise UsageError(t("combat.err.posture_needed"))
        if not atk.posture_change_allowed(c.posture, posture):
            raise RuleError(t("combat.err.rise_first", name=c.name, posture=word(c.posture)))
        if posture == c.posture:
            raise RuleError(t("combat.err.already_posture", name=c.name, posture=word(posture)))
    if maneuver in ("all_out_attack", "move_and_attack") and atk.is_lying(c.posture):
        raise RuleError(t("combat.err.lying", name=c.name, maneuver=word(maneuver, spaced=True)))
    checks: list[SuccessRoll] = []
    if c.stunned and maneuver != "do_nothing":
        raise RuleError(t("combat.err.stunned", name=c.name))
    outcome = "ok"
    if maneuver != "do_nothing":
        c, roll = stay_conscious(c, dice)
        if roll is not None:
            checks.append(roll)
            if not roll.success:
                outcome = "unconscious"
        if outcome == "ok" and c.fp <= 0 and c.fp_applies:
            roll = fat.will_to_act(c.will, dice.roll3())
            checks.append(roll)
            if not roll.success:
                c = copy_with(c, collapsed=True, posture="lying_down", concentrating="")
                outcome = "collapsed"
    if outcome != "ok":
        return state.put(c), ManeuverReport(c.name, "do_nothing", "", "", tuple(checks), outcome)
    if maneuver in ("aim", "evaluate"):
        target = state.get(target).name  # kept as the fighter's own name: a later attack compares it
    aim_turns = c.aim_turns + 1 if maneuver == "aim" and c.aim_target == target else (1 if maneuver == "aim" else 0)
    evaluated = (min(EVALUATE_MOST, c.evaluate_turns + 1) if c.evaluate_target == target else 1)
    c = copy_with(
        c, maneuver=maneuver, option=option, chosen=True, maneuver_target=target,
        attacks_left=rules["attacks"] * (2 if option == "double" and maneuver == "all_out_attack" else 1),
        aim_target=target if maneuver == "aim" else c.aim_target,
        aim_turns=aim_turns if maneuver == "aim" else c.aim_turns,
        evaluate_target=target if maneuver == "evaluate" else c.evaluate_target,
        evaluate_turns=evaluated if maneuver == "evaluate" else c.evaluate_turns,
        concentrating=(concentrate_on or "task") if maneuver == "concentrate" else c.concentrating,
        concentration_injury=c.concentration_injury if c.concentrating else 0,  # a new concentration starts clean
    )
    if maneuver == "change_posture":
        c = copy_with(c, posture=posture)
    state = state.put(c)
    feint = None
    if maneuver == "feint" or (maneuver == "all_out_attack" and option == "feint"):
        state, feint = _feint(state, c.name, target, dice, resist=resist, weapon=weapon,
                              same_turn=maneuver == "all_out_attack")
    built_up = {"aim": c.aim_turns, "evaluate": min(EVALUATE_MOST, c.evaluate_turns)}.get(maneuver, 0)
    return state, ManeuverReport(c.name, maneuver, option, target, tuple(checks), outcome,
                                 posture if maneuver == "change_posture" else "", feint, built_up)


def is_free_posture_change(before: str, after: str) -> bool:
    """Free with another maneuver: crouch / rise from a crouch at the start of the turn, and standing
    <-> kneeling as the maneuver's step (GURPS-CMB-06, CMB-10); any other change is the Change Posture
    maneuver."""
    return {before, after} in ({"standing", "crouching"}, {"standing", "kneeling"})


def free_posture(state: CombatState, name: str, posture: str) -> CombatState:
    """A free posture change (see `is_free_posture_change`); refused otherwise."""
    c = state.get(name)
    if is_free_posture_change(c.posture, posture):
        return state.put(copy_with(c, posture=posture))
    raise RuleError(t("combat.err.posture_maneuver", before=word(c.posture), after=word(posture)))


# ---------------------------------------------------------------- feint (CMB-21, CMB-22)


def evaluate_bonus(c: Combatant, foe: str) -> list[tuple[int, str]]:
    """What Evaluate gives `c` against `foe` now: +1 per consecutive turn, at most +3, on a melee
    attack or feint at the foe he studied (Basic Set B364 [std]; spent by that roll)."""
    if not c.evaluate_turns or c.evaluate_target != foe:
        return []
    return [(min(EVALUATE_MOST, c.evaluate_turns), "Evaluate")]



@dataclass(frozen=True)
class FeintReport:
    attacker: str
    target: str
    mine: SuccessRoll
    theirs: SuccessRoll
    penalty: int


def feint_penalty(mine: SuccessRoll, theirs: SuccessRoll) -> int:
    """I fail, or he succeeds by as much or more: 0. I succeed and he fails: my margin of success.
    Both succeed, I by more: the difference (GURPS-CMB-22)."""
    if not mine.success:
        return 0
    if not theirs.success:
        return mine.margin_of_success
    return max(0, mine.margin_of_success - theirs.margin_of_success)


def _feint(state: CombatState, name: str, target: str, dice: Tape, *, resist: int | None, weapon: str,
           same_turn: bool) -> tuple[CombatState, FeintReport]:
    c, foe = state.get(name), state.get(target)
    melee = [w for w in c.weapons if not w.ranged]
    if not melee:
        raise RuleError(t("combat.err.feint_weapon", name=c.name))
    w = c.weapon(weapon) if weapon else max(melee, key=lambda w: w.skill)
    shock = [(-c.shock, "shock")] if c.shock and c.shock_round == state.round else []
    studied = evaluate_bonus(c, foe.name)  # Evaluate counts for a Feint too (B364 [std])
    mine = success_roll(w.skill, [*shock, *studied], label=f"Feint ({w.name})", actor=c.name, dice=dice.roll3(),
                        defense=True)
    if resist is None:
        resist = max([foe.dx, *(x.skill for x in foe.weapons if not x.ranged), *([foe.shield] if foe.shield else [])])
    theirs = success_roll(resist, (), label="resist feint", actor=foe.name, dice=dice.roll3(), defense=True)
    penalty = feint_penalty(mine, theirs)
    next_round = state.round if same_turn else state.round + 1
    c = copy_with(c, feint_on=foe.name if penalty else "", feint_amount=penalty,
                  feint_round=next_round if penalty else 0,
                  **({"evaluate_target": "", "evaluate_turns": 0} if studied else {}))
    return state.put(c), FeintReport(c.name, foe.name, mine, theirs, penalty)
