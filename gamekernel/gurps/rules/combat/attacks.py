"""GURPS attacks and active defenses: the roll to hit, the defenses offered, the defense roll.
[GURPS-CMB-25..52]

Why a module of its own: an attack and its answer are one exchange with its own reports; damage
follows through injury.py. The package's __init__ re-exports every name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.rules import attacks as atk
from gamekernel.gurps.rules import defenses as dfn
from gamekernel.gurps.rules.checks import SuccessRoll, success_roll
from gamekernel.gurps.rules.combat.injury import DamageReport, resolve_hit
from gamekernel.gurps.rules.combat.parries import parry_options
from gamekernel.gurps.rules.combat.picks import reaches
from gamekernel.gurps.rules.combat.state import (
    Combatant,
    CombatState,
    PendingAttack,
    Tape,
    copy_with,
    defender_state,
    defense_scores,
    maneuver_rules,
)
from gamekernel.gurps.rules.combat.turns import choose_maneuver, evaluate_bonus, require_fight
from gamekernel.gurps.rules.damage import parse_damage
from gamekernel.gurps.rules.harm import stay_conscious
from gamekernel.gurps.rules.wording import badges, english, word
from gamekernel.i18n import t
from gamekernel.text import same_name

# ---------------------------------------------------------------- attacks (CMB-25..39)


@dataclass(frozen=True)
class AttackOptions:
    """What the GM says about one attack beyond the maneuver (GURPS-CMB-33..39, 52)."""

    range_m: float = 0
    speed_mps: float = 0
    target_size_m: float | None = None
    braced: bool = False
    scope: int = 0
    off_hand: bool = False
    from_behind: bool = False
    unseen: bool = False
    bad_footing: int = 0
    vision: str = ""
    poor_light: int = 0
    large_shield: bool = False
    beyond_half_damage: bool = False
    extra: tuple[tuple[int, str], ...] = ()
    damage: str = ""  # override the weapon's damage text


@dataclass(frozen=True)
class AttackReport:
    attack: atk.AttackRoll | None
    offered: tuple[tuple[str, int], ...]  # defenses the target may roll, with effective values
    no_defense_reason: str  # in English, as the log keeps it
    damage: DamageReport | None
    checks: tuple[SuccessRoll, ...] = ()  # rolls before attacking (stay conscious, Will to act)
    hearing_needed: bool = False  # unseen attacker: Parry/Block need a Hearing-2 roll first (GURPS-CMB-51)
    effect: str = ""  # the weapon's damage is no dice (an affliction, "see B405"): the hit names it, rolls nothing
    follow_up: str = ""  # the weapon's bracketed second damage ("[1d burn]"): the hit names it, not rolled
    no_defense_why: tuple[str, tuple[tuple[str, str], ...]] = ("", ())  # the reason's message key and fields


ATTACK_MANEUVERS = ("attack", "all_out_attack", "move_and_attack", "wait")


def attack(state: CombatState, attacker: str, target: str, weapon: str, dice: Tape,
           opts: AttackOptions = AttackOptions()) -> tuple[CombatState, AttackReport]:
    """Roll to hit; a critical hit, or a target who cannot defend, takes damage at once; otherwise the
    hit waits for the target's defense (GURPS-CMB-25..28, 40, 41)."""
    require_fight(state)
    if state.pending is not None:
        raise RuleError(t("combat.err.answer_first", target=state.pending.target))
    a, victim = state.get(attacker), state.get(target)
    if a.name == victim.name:
        raise UsageError(t("combat.err.self_attack", name=a.name))
    if not a.can_act:
        raise RuleError(t("combat.err.cannot_act", name=a.name, states=badges(a.badges())))
    w = a.weapon(weapon)
    if w.no_roll:  # the file gives it no skill: nothing to roll against (GURPS-CMB-25)
        raise RuleError(t("combat.err.no_attack_roll", name=a.name, weapon=w.name, damage=w.damage) if w.damage
                        else t("combat.err.no_attack_roll_effect", name=a.name, weapon=w.name, effect=w.effect))
    if state.current.name != a.name and a.maneuver != "wait":
        raise RuleError(t("combat.err.out_of_turn", current=state.current.name, name=a.name))
    pre_checks: tuple[SuccessRoll, ...] = ()
    if not a.chosen and state.current.name == a.name:
        state, pre = choose_maneuver(state, a.name, "attack", dice)
        pre_checks = pre.checks
        a = state.get(attacker)
        if pre.outcome != "ok":  # fell unconscious / collapsed on the roll before acting: logged, no attack
            return state, AttackReport(None, (), f"{a.name}: {pre.outcome}", None, pre.checks)
    if a.maneuver not in ATTACK_MANEUVERS:
        raise RuleError(t("combat.err.no_attack_maneuver", name=a.name, maneuver=word(a.maneuver, spaced=True)))
    if a.attacks_left <= 0:
        raise RuleError(t("combat.err.no_attack_left", name=a.name))
    double = a.maneuver == "all_out_attack" and a.option == "double"
    if double and a.maneuver_target and not same_name(a.maneuver_target, victim.name):
        raise RuleError(t("combat.err.double_same_foe", name=a.name, target=a.maneuver_target))
    studied = () if w.ranged else tuple(evaluate_bonus(a, victim.name))  # Evaluate: melee only (B364 [std])
    situation = atk.Situation(
        maneuver=a.maneuver, aoa_option=a.option, posture=a.posture,
        shock=a.shock if a.shock_round == state.round else 0, off_hand=opts.off_hand,
        ambidextrous=a.ambidextrous, bad_footing=opts.bad_footing, vision=opts.vision,
        poor_light=opts.poor_light, extra=(*studied, *opts.extra), clothing_fire=a.burning,  # GURPS-HAZ-11/12
    )
    distance = state.distance(a.name, victim.name)
    if not w.ranged and distance is not None and reaches(w.reach, distance, f"{w.name} {w.usage}") is False:
        raise RuleError(t("combat.err.out_of_reach", name=a.name, weapon=w.name, reach=w.reach, target=victim.name,
                          metres=f"{distance:g}"))
    if w.ranged:
        aim = a.aim_turns if a.aim_target == victim.name else 0
        range_m = opts.range_m if opts.range_m or distance is None else distance  # typed, else the one set
        mods = atk.ranged_modifiers(situation, range_m=range_m, speed_mps=opts.speed_mps,
                                    target_size_m=opts.target_size_m, target_posture=victim.posture, acc=w.acc,
                                    aim_turns=aim, braced=opts.braced, scope=opts.scope)
    else:
        mods = atk.melee_modifiers(situation, large_shield=opts.large_shield)
    roll = atk.attack_roll(a.name, victim.name, w.name, w.skill, mods, dice.roll3(), ranged=w.ranged,
                           move_and_attack=a.maneuver == "move_and_attack")
    a = copy_with(a, attacks_left=a.attacks_left - 1, rolled=True, aim_target="", aim_turns=0, evaluate_target="",
                  evaluate_turns=0, last_weapon=w.name,
                  maneuver_target=victim.name if double else a.maneuver_target)  # Double: the same foe twice
    state = state.put(a)
    if not roll.hit:
        return state, AttackReport(roll, (), "", None, pre_checks)
    effect = "" if opts.damage else w.effect  # no dice: a hit that lands names it (`land`)
    strong = 0
    spec_text = opts.damage or w.damage
    if a.maneuver == "all_out_attack" and a.option == "strong" and not effect:
        spec = parse_damage(spec_text, st=a.st)
        if spec.source or (w.st_based and not opts.damage):  # ST-based thr/sw weapons only (GURPS-CMB-17)
            strong = max(2, spec.dice)
    incoming = dfn.Incoming(
        kind=w.kind if w.ranged else "melee", critical=roll.critical_hit, from_behind=opts.from_behind,
        flail=w.flail, thrown_weight_kg=w.weight_kg, unseen=opts.unseen, unarmed=w.parry_weapon == "bare_hands",
    )
    pending = PendingAttack(a.name, victim.name, w.name, spec_text, strong, incoming,
                            half_damage=opts.beyond_half_damage, effect=effect)
    offered = defense_options(state, victim.name, incoming, attacker=a.name)
    follow_up = "" if opts.damage else w.follow_up
    if not offered:
        key, fields = _no_defense_why(state, victim, incoming)
        state, dmg, landed = land(state, pending, dice)
        return state, AttackReport(roll, (), english(key, **fields), dmg, pre_checks, follow_up=follow_up,
                                   effect=landed, no_defense_why=(key, tuple(sorted(fields.items()))))
    needs_hearing = incoming.unseen and any(k in ("parry", "block") for k, _ in offered)
    return copy_with(state, pending=pending), AttackReport(roll, offered, "", None, pre_checks, needs_hearing,
                                                           follow_up=follow_up)


def defense_options(state: CombatState, name: str, incoming: dfn.Incoming, *, attacker: str = "",
                    tried: Sequence[str] = (), unheard: bool = False) -> tuple[tuple[str, int], ...]:
    """Allowed defenses with effective values, best first (the tracker offers the first). `unheard`:
    the defender failed the Hearing-2 roll against an unseen attacker, so no Parry or Block (CMB-51)."""
    if unheard:
        tried = (*tried, "parry", "block")
    c = state.get(name)
    if not c.can_act:
        return ()
    who = defender_state(state, c, incoming, attacker)
    out = []
    for kind, score in defense_scores(c).items():
        if kind in tried or kind not in maneuver_rules(c.maneuver)["defenses"]:
            continue
        if dfn.why_not(kind, who, incoming):
            continue
        out.append((kind, score + sum(v for v, _ in dfn.defense_modifiers(kind, who, incoming))))
    out.sort(key=lambda kv: (-kv[1], dfn.DEFENSES.index(kv[0])))
    return tuple(out)


def parry_offers(state: CombatState, name: str, incoming: dfn.Incoming, *,
                 attacker: str = "") -> tuple[tuple[str, str, int], ...]:
    """Each weapon `name` can parry with (GURPS-CMB-46), as (weapon, its menu label, the Parry this
    defense roll uses: its own weapon class counted, CMB-49), best first; the first is what a Parry
    without a weapon rolls."""
    c = state.get(name)
    out = []
    for option in parry_options(c):
        who = defender_state(state, c, incoming, attacker, c.weapon(option.weapon))
        adjusted = option.parry + sum(v for v, _ in dfn.defense_modifiers("parry", who, incoming))
        out.append((option.weapon, option.label, adjusted))
    return tuple(sorted(out, key=lambda e: -e[2]))


def refused_defenses(state: CombatState, name: str, incoming: dfn.Incoming, *, attacker: str = "",
                     tried: Sequence[str] = ()) -> tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...]:
    """The defenses `name` has but may not roll now, each with the rule that says why as a message key
    and its fields (already parried this turn, GURPS-CMB-46; the maneuver's, CMB-19; tried, CMB-18):
    the tracker shows them disabled, the reason as their tooltip."""
    c = state.get(name)
    if not c.can_act:
        return ()
    who = defender_state(state, c, incoming, attacker)
    out: list[tuple[str, str, tuple[tuple[str, str], ...]]] = []
    for kind in defense_scores(c):
        if kind in tried:
            out.append((kind, "combat.err.already_tried", (("kind", kind), ("name", c.name))))
        elif kind not in maneuver_rules(c.maneuver)["defenses"]:
            out.append((kind, "combat.err.defense_not_allowed",
                        (("kind", kind), ("maneuver", c.maneuver), ("name", c.name))))
        else:
            found = dfn.why_not_key(kind, who, incoming)
            if found:
                out.append((kind, found[0], tuple(sorted(found[1].items()))))
    return tuple(out)


def _no_defense_why(state: CombatState, c: Combatant, incoming: dfn.Incoming) -> tuple[str, dict[str, str]]:
    """Why `c` has no defense to roll (GURPS-CMB-41..52), as a message key and its fields: the report
    keeps the English text for the log and the key for drawing it in the current language."""
    if not c.can_act:
        why = next(b for b in ("destroyed", "dead", "unconscious", "collapsed", "mortal", "stunned")
                   if b == "stunned" or getattr(c, b, False))
        return "combat.err.why.cannot_defend", {"name": c.name, "state": why}
    who = defender_state(state, c, incoming, "")
    for kind in dfn.DEFENSES:
        found = dfn.why_not_key(kind, who, incoming)
        if found:
            return found
    return "combat.err.why.none", {}


@dataclass(frozen=True)
class DefenseReport:
    defender: str
    kind: str
    roll: SuccessRoll | None
    checks: tuple[SuccessRoll, ...]
    again: tuple[tuple[str, int], ...]  # All-Out Defense (Double), or Dodge after an unheard attacker
    damage: DamageReport | None
    unheard: bool = False  # failed the Hearing-2 roll against an unseen attacker (GURPS-CMB-51)
    effect: str = ""  # the hit landed with a weapon whose damage is no dice: named, nothing rolled


def land(state: CombatState, p: PendingAttack, dice: Tape) -> tuple[CombatState, DamageReport | None, str]:
    """The hit lands (no defense, or a failed one): its damage rolled through DR (GURPS-DMG-04..08),
    or, for a weapon whose damage is no dice, its effect named and nothing rolled."""
    if p.effect:
        return state, None, p.effect
    state, dmg = resolve_hit(state, p, dice)
    return state, dmg, ""


def hearing_check(c: Combatant, dice: Tape) -> SuccessRoll:
    """Hearing-2 before parrying or blocking an unseen attacker (GURPS-CMB-51, seed [004:1564]); not
    rolled (a failure) below effective 3 (GURPS-SR-05)."""
    faces = dice.roll3() if c.hearing - 2 >= 3 else None
    return success_roll(c.hearing, [(-2, "unseen attacker")], label="Hearing", actor=c.name, dice=faces,
                        kind="sense")


def defend(state: CombatState, defender: str, kind: str, dice: Tape,
           weapon: str = "") -> tuple[CombatState, DefenseReport]:
    """Answer the pending attack with dodge, parry, block or none (GURPS-CMB-40..52); a Parry with
    `weapon` when given, else with the best weapon to parry with (CMB-46). A failure lets All-Out
    Defense (Double) try a different defense; otherwise damage follows at once."""
    require_fight(state)
    p = state.pending
    if p is None:
        raise RuleError(t("combat.err.no_pending"))
    c = state.get(defender)
    if c.name != p.target:
        raise RuleError(t("combat.err.pending_on", target=p.target, name=c.name))
    if kind == "none":
        state = copy_with(state, pending=None)
        state, dmg, landed = land(state, p, dice)
        return state, DefenseReport(c.name, "none", None, (), (), dmg, effect=landed)
    checks: list[SuccessRoll] = []
    c, roll = stay_conscious(c, dice)
    if roll is not None:
        checks.append(roll)
        if not roll.success:
            state = copy_with(state.put(c), pending=None)
            state, dmg, landed = land(state, p, dice)
            return state, DefenseReport(c.name, kind, None, tuple(checks), (), dmg, effect=landed)
    if kind not in maneuver_rules(c.maneuver)["defenses"]:
        raise RuleError(t("combat.err.defense_not_allowed", name=c.name, maneuver=word(c.maneuver, spaced=True),
                                        kind=word(kind)))
    if kind in p.tried:
        raise RuleError(t("combat.err.already_tried", name=c.name, kind=word(kind)))
    if kind not in defense_scores(c):
        raise RuleError(t("combat.err.no_defense_kind", name=c.name, kind=word(kind)))
    parrying = None
    if weapon and kind == "parry":
        parrying = c.weapon(weapon)
        if c.parry_with(parrying) is None:
            raise RuleError(t("combat.err.cannot_parry_with", name=c.name, weapon=parrying.name))
    if kind in ("parry", "block") and p.incoming.unseen:
        if p.hearing == "unheard":
            raise RuleError(t("combat.err.unheard", name=c.name))
        if p.hearing == "":
            heard = hearing_check(c, dice)
            checks.append(heard)
            p = copy_with(p, hearing="heard" if heard.success else "unheard")
            state = copy_with(state, pending=p)
            if not heard.success:
                state = state.put(c)
                again = defense_options(state, c.name, p.incoming, attacker=p.attacker, tried=p.tried, unheard=True)
                if again:
                    return state, DefenseReport(c.name, kind, None, tuple(checks), again, None, unheard=True)
                state = copy_with(state, pending=None)
                state, dmg, landed = land(state, p, dice)
                return state, DefenseReport(c.name, kind, None, tuple(checks), (), dmg, unheard=True, effect=landed)
    parrying = parrying or (c.best_parry_weapon() if kind == "parry" else None)
    who = defender_state(state, c, p.incoming, p.attacker, parrying)
    score = c.parry_with(parrying) if parrying is not None else None
    result = dfn.defense_roll(c.name, kind, defense_scores(c)[kind] if score is None else score, who, p.incoming,
                              dice.roll3(), weapon=parrying.name if parrying is not None else "")
    c = copy_with(c, rolled=True, parry_used=c.parry_used or kind == "parry",
                  block_used=c.block_used or kind == "block")
    if c.concentrating:
        will = success_roll(c.will, [(-3, "distracted")], label="keep concentrating", actor=c.name,
                            dice=dice.roll3(), defense=True)
        checks.append(will)
        if not will.success:
            c = copy_with(c, concentrating="")
    state = state.put(c)
    if result.success:
        return copy_with(state, pending=None), DefenseReport(c.name, kind, result.roll, tuple(checks), (), None)
    tried = (*p.tried, kind)
    if c.maneuver == "all_out_defense" and c.option == "double" and len(tried) == 1:
        again = defense_options(state, c.name, p.incoming, attacker=p.attacker, tried=tried)
        if again:
            state = copy_with(state, pending=copy_with(p, tried=tried))
            return state, DefenseReport(c.name, kind, result.roll, tuple(checks), again, None)
    state = copy_with(state, pending=None)
    state, dmg, landed = land(state, p, dice)
    return state, DefenseReport(c.name, kind, result.roll, tuple(checks), (), dmg, effect=landed)
