"""The GURPS combat operations, one per event kind (`combat.<op>`), pure over the combat part: each
validates its arguments, runs the rules with the dice of a Tape and returns the part's changes and
the report its result shows; and the reducer of every combat event.

Every operation runs once, live (dice from the session RNG, recorded on the Tape). The event keeps
its arguments, its dice and the facts of what it changed (`part_facts`); the reducer only writes
those facts back, so replay and undo rebuild exactly the fight that was played without rerunning a
rule. Events of older logs, without facts, are rerun on their recorded dice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gamekernel.errors import RuleError
from gamekernel.events import register_event
from gamekernel.gurps.combat_part import (
    CHANGES,
    PART,
    CombatPart,
    apply_part_facts,
    is_fighter,
    lend_characters,
    running_fight,
)
from gamekernel.gurps.results import Harmed
from gamekernel.gurps.rules import combat as cb
from gamekernel.gurps.rules import hazards as hz
from gamekernel.gurps.rules import recovery as rec
from gamekernel.gurps.rules import spells
from gamekernel.gurps.rules.combat import Combatant, Tape, copy_with
from gamekernel.gurps.rules.combat.sheets import write_back
from gamekernel.gurps.rules.damage import parse_damage, roll_damage
from gamekernel.gurps.rules.harm import harm
from gamekernel.gurps.rules.wording import badges
from gamekernel.i18n import t
from gamekernel.state import TableState
from gamekernel.text import same_name

# ---------------------------------------------------------------- operations (pure over the part)

Step = tuple[dict[str, Any], Any]  # the part's changes, and (kind, report) of what the result shows
Op = Callable[[CombatPart, Mapping[str, Any], Tape], Step]
OPS: dict[str, Op] = {}


def op(name: str) -> Callable[[Op], Op]:
    def register(fn: Op) -> Op:
        OPS[name] = fn
        return fn

    return register


def template_text(stats: dict[str, Any]) -> str:
    """A template's stats as `%combat npc` takes them ("st=16, weapon=Greataxe:13:sw+3 cut"): a weapon
    list is one `weapon=` each, never a Python list."""
    parts = []
    for key, value in stats.items():
        if isinstance(value, list | tuple):
            parts += [f"weapon={weapon}" for weapon in value]
        else:
            parts.append(f"{key}={value}")
    return ", ".join(parts)


@op("npc")
def _op_npc(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    cb.quick_combatant(args["name"], args["stats"])  # validate
    return {"templates": {**part.templates, args["name"]: dict(args["stats"])}}, ("lines", [
        t("combat.npc", name=args["name"], stats=template_text(args["stats"]))])


@op("start")
def _op_start(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    people = [Combatant.from_dict(d) for d in args["combatants"]]
    fight = cb.start_combat(people, tape)
    return {"fight": fight}, ("start", fight)


@op("next")
def _op_next(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    fight, report = cb.next_turn(running_fight(part), tape)
    if not fight.over and fight.current.burning:  # a second more in burning clothes (GURPS-HAZ-11, HAZ-12)
        fight, burn = cb.burn_second(fight, fight.current.name, tape)
        report = copy_with(report, burn=burn, due=cb.checks_due(fight.current))
    return {"fight": fight}, ("next", report)


@op("maneuver")
def _op_maneuver(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    fight, report = cb.choose_maneuver(running_fight(part), args["name"], args["maneuver"], tape,
                                       option=args.get("option", ""), target=args.get("target", ""),
                                       posture=args.get("posture", ""), concentrate_on=args.get("task", ""))
    return {"fight": fight}, ("maneuver", report)


@op("posture")
def _op_posture(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    fight = cb.free_posture(running_fight(part), args["name"], args["posture"])
    return {"fight": fight}, ("lines", [t("combat.posture", name=args["name"], posture=args["posture"])])


@op("condition")
def _op_condition(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    """The GM puts a condition of his own on a fighter, with a countdown in seconds (his turns) or
    none (rules/combat/conditions.py)."""
    fight = cb.add_condition(running_fight(part), args["name"], args["condition"], int(args.get("seconds", 0)))
    c = fight.get(args["name"])
    name, left = c.gm_conditions[-1]
    key = "combat.condition.added_for" if left else "combat.condition.added"
    return {"fight": fight}, ("lines", [t(key, name=c.name, condition=name, seconds=left)])


@op("lift")
def _op_lift(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    """The GM ends a condition of his own before its countdown does."""
    fight, name = cb.lift_condition(running_fight(part), args["name"], args["condition"])
    return {"fight": fight}, ("lines", [t("combat.condition.lifted", name=fight.get(args["name"]).name,
                                          condition=name)])


@op("attack")
def _op_attack(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    recorded: dict[str, Any] = {k: (tuple(tuple(x) for x in v) if k == "extra" else v)  # JSON of the event
                                for k, v in args.get("options", {}).items()}
    opts = cb.AttackOptions(**recorded)
    fight, report = cb.attack(running_fight(part), args["attacker"], args["target"], args["weapon"], tape, opts)
    return {"fight": fight}, ("attack", report)


@op("defend")
def _op_defend(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    fight, report = cb.defend(running_fight(part), args["name"], args["kind"], tape, args.get("weapon", ""))
    return {"fight": fight}, ("defend", report)


@op("damage")
def _op_damage(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    """A damage roll onto someone: a fighter takes it as a combat hit; anyone else (a character or
    someone met before) through the same injury path, outside the fight (GURPS-DMG-04..08, INJ)."""
    if part.fight is not None and not part.fight.over and is_fighter(part.fight, args["name"]):
        fight, report = cb.damage(part.fight, args["name"], args["spec"], tape, attacker=args.get("attacker", ""),
                                  dr=args.get("dr"), half=bool(args.get("half", False)))
        return {"fight": fight}, ("damage", report)
    c = part.person(args["name"])  # NotFoundError names who could be meant
    attacker = args.get("attacker", "")
    spec = parse_damage(args["spec"], st=part.person(attacker).st if attacker else None)
    dr = args.get("dr")
    roll = roll_damage(spec, dr=c.dr if dr is None else dr, dice=tape.d6(spec.dice), target=c.name,
                       attacker=attacker, half=bool(args.get("half", False)))
    c, injury = harm(c, tape, injury=roll.injury)
    return part.put(c), ("damage", cb.DamageReport(roll, injury))


@op("end")
def _op_end(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    fight, report = cb.end_combat(running_fight(part), tape)
    chars = part.characters or {}
    roster = {**part.roster, **{c.name: c for c in fight.combatants if not c.stand_in}}
    back = {c.name: c for c in fight.combatants if c.name in chars and not c.stand_in}
    return {"fight": fight, "roster": roster, "characters": back}, ("end", report)


@op("arm")
def _op_arm(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    c = part.person(args["name"])
    weapon = cb.parse_weapon(args["weapon"])
    others = tuple(w for w in c.weapons if not same_name(w.name, weapon.name))
    c = copy_with(c, weapons=(*others, weapon))
    return part.put(c), ("lines", [f"{c.name}: {weapon.name} {weapon.skill} ({weapon.damage})"])


@op("add")
def _op_add(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    """A fighter put on the roster outside a fight (during one, `combat_add` records a join)."""
    c = Combatant.from_dict(args["combatant"])
    if part.fight is not None and not part.fight.over:  # older logs: an add during a fight was a join
        return _op_join(part, args, tape)
    return {"roster": {**part.roster, c.name: c}}, ("lines", [t("combat.event.add", name=c.name), *_stand_in(c)])


def _stand_in(c: Combatant) -> list[str]:
    """The word said when quick stats stand in for a character: his sheet is not the one that fights."""
    return [t("combat.stand_in", name=c.name)] if c.stand_in else []


@op("join")
def _op_join(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    """Someone enters the running fight at his place in the order (GURPS-CMB-02, 03, 05): the one op of
    `%combat add`, the tracker's Join and the table dashboard."""
    c = Combatant.from_dict(args["combatant"])
    fight = cb.join_fight(running_fight(part), c)
    return {"fight": fight}, ("lines", [t("combat.event.joined", name=c.name, place=fight.index(c.name) + 1,
                                          current=fight.current.name), *_stand_in(c)])


@op("hazard")
def _op_hazard(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    c = part.person(args["name"])
    kind = args["hazard"]
    if kind in hz.PUT_OUT:
        return _put_out(part, c, kind, tape)
    options = {k: args[k] for k in ("metres", "catfall", "clothing", "wet", "strength", "injury", "modifier",
                                    "seconds") if k in args}
    outcome = hz.expose(kind, tape.d6, ht=c.ht, hp_max=c.hp_max, dr=c.dr, dx=c.dx, **options)
    lines: list[str] = []
    injury, fp_loss = outcome.injury, outcome.fp_loss
    airless = int(args.get("seconds", 0)) if kind == "suffocation" else 0
    if outcome.fall is not None:
        if outcome.damage is None:
            lines.append(t("combat.hazard.ok", name=c.name))
        else:
            lines += [t("combat.hazard.fall", name=c.name, metres=args["metres"], velocity=outcome.fall.velocity,
                        dice=f"{outcome.fall.dice} cr"), str(outcome.damage)]
            if outcome.check is not None:
                lines.append(str(outcome.check))
    elif outcome.damage is not None:
        lines += [t("combat.hazard.fire", name=c.name, kind=kind), str(outcome.damage)]
    elif outcome.check is not None:
        lines.append(str(outcome.check))
    changes, rep = _hurt(part, c, tape, injury=injury, fp=fp_loss, airless_seconds=airless)
    lit = hz.clothes_lit(kind, c.burning)
    if lit != c.burning:  # the clothes burn on, a second at each of the victim's turns (GURPS-HAZ-11, HAZ-12)
        changes = _with_fields(part, changes, c.name, burning=lit)
        lines.append(t("combat.hazard.burning", name=c.name, penalty=hz.burning_dx_penalty(lit)))
    return changes, ("lines", Harmed(tuple(lines), rep, _hazard_told(outcome)))


def _hazard_told(outcome: hz.HazardOutcome) -> dict[str, Any]:
    """The rolls a hazard made, for its log line: the damage dice (fire, a fall: GURPS-HAZ-04..06,
    HAZ-10..12), the HT or Catfall roll (HAZ-01..03, 07..09, 13, 15, 16), the injury when Catfall
    halved it, and heatstroke's FP die (HAZ-13: its face is the FP lost)."""
    told: dict[str, Any] = {}
    if outcome.damage is not None:
        told["damage"] = outcome.damage.to_dict()
        if outcome.injury != outcome.damage.injury:
            told["injury"] = outcome.injury
    if outcome.check is not None:
        told["roll"] = outcome.check.to_dict()
        if outcome.kind == "heat" and outcome.check.critical == "failure":
            told["heatstroke"] = [outcome.fp_loss]
    return told


def _put_out(part: CombatPart, c: Combatant, kind: str, tape: Tape) -> Step:
    """Burning clothes put out: a DX roll (beating them, rolling on the ground), or at once in water
    (GURPS-HAZ-11, HAZ-12)."""
    if kind == "water":
        if not c.burning:
            raise RuleError(t("gurps.err.not_burning"))
        check, out = None, True
    else:
        check, out = hz.put_out(c.burning, c.dx, tape.roll3())
    lines: list[Any] = [check] if check is not None else []
    lines.append(t("combat.hazard.put_out" if out else "combat.hazard.still_burning", name=c.name))
    told = {"out": out, **({"roll": check.to_dict()} if check is not None else {})}
    return part.put(copy_with(c, burning="") if out else c), ("lines", Harmed(tuple(lines), told=told))


def _with_fields(part: CombatPart, changes: dict[str, Any], name: str, **fields: Any) -> dict[str, Any]:
    """`changes` with fields of the fighter `name` set, wherever the changes keep him."""
    if "fight" in changes:
        fight = changes["fight"]
        return {**changes, "fight": fight.put(copy_with(fight.get(name), **fields))}
    return {**changes, **part.put(copy_with(changes["roster"][name], **fields))}


def _hurt(part: CombatPart, c: Combatant, tape: Tape, *, injury: int = 0, fp: int = 0,
          airless_seconds: int = 0) -> tuple[dict[str, Any], Any]:
    """HP/FP lost by someone, in the running fight or outside it, through the one injury path."""
    if part.fight is not None and not part.fight.over and is_fighter(part.fight, c.name):
        fight, rep = cb.apply_injury(part.fight, c.name, injury, tape, fp=fp, airless_seconds=airless_seconds)
        return {"fight": fight}, rep
    c, rep = harm(c, tape, injury=injury, fp=fp, airless_seconds=airless_seconds)
    return part.put(c), rep


@op("firstaid")
def _op_firstaid(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    c = part.person(args["name"])
    healed, result = rec.first_aid(c, args["tl"], args["skill"], tape)
    lines = [str(result.check), t("combat.firstaid", tl=args["tl"], minutes=result.minutes, name=c.name,
                                  change=healed.hp - c.hp)]
    row = result.row
    told = {"roll": result.check.to_dict(), "hp_dice": list(result.hp_faces), "change": healed.hp - c.hp,
            "hp_spec": f"{row.dice}d{row.adds:+d}" if row.adds else f"{row.dice}d"}
    return part.put(healed), ("lines", Harmed(tuple(lines), told=told))  # GURPS-INJ-17..19


@op("rest")
def _op_rest(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    c = part.person(args["name"])
    healed = rec.rest(c, args["minutes"])
    return part.put(healed), ("lines", [t("combat.rest", name=c.name, minutes=args["minutes"], before=c.fp,
                                          after=healed.fp)])


@op("cast")
def _op_cast(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    c = part.person(args["name"])
    if not c.can_act:  # unconscious, collapsed, mortally wounded or dead: no spells (GURPS-INJ, FAT-02/03)
        raise RuleError(t("combat.err.cannot_act", name=c.name, states=badges(c.badges())))
    fight = part.fight if part.fight is not None and not part.fight.over and is_fighter(part.fight, c.name) else None
    modifiers = [tuple(m) for m in args.get("modifiers", ())]
    if fight is not None and c.shock and c.shock_round == fight.round:  # spells are IQ-based (GURPS-INJ-05)
        modifiers.append((-c.shock, t("gurps.mod.shock")))
    spells.castable(args["spell"], args["skill"], args["cost"], modifiers)  # a spell that cannot be tried, first
    if fight is not None and c.maneuver != "concentrate":  # a spell takes Concentrate (GURPS-MAG-05, CMB-23)
        raise RuleError(t("combat.err.cast_concentrate", name=c.name))
    if fight is not None and not c.concentrating:  # lost (or spent on a spell): start over (GURPS-MAG-05, 06)
        raise RuleError(t("combat.err.cast_start_over", name=c.name))
    if fight is not None and c.concentration_injury:  # hurt while concentrating (GURPS-MAG-07)
        modifiers.extend(spells.spell_modifiers(injured_while_concentrating=c.concentration_injury))
    result = spells.cast_rolling(args["spell"], args["skill"], args["cost"], tape.roll3, fp=c.fp, fp_max=c.fp_max,
                                 modifiers=modifiers)
    lines = [str(result.check), t("combat.cast", name=c.name, spell=args["spell"],
                                  outcome=t(f"combat.word.{result.outcome}"), energy=result.energy_spent)]
    told = {"roll": result.check.to_dict(), "energy": result.energy_spent,  # GURPS-MAG-01..04, MAG-19
            **({"table": list(result.failure_roll)} if result.failure_roll else {})}
    if result.failure_result:
        lines.append(t("combat.spellfail", roll=result.failure_result,
                       text=t(f"combat.spellfail.{result.failure_result}")))
    changes, rep = _hurt(part, c, tape, fp=result.energy_spent)
    if "fight" in changes:  # the roll ends the concentration: the caster's next turn starts (GURPS-MAG-05)
        changes = _with_fields(part, changes, c.name, concentrating="", concentration_injury=0)
    return changes, ("lines", Harmed(tuple(lines), rep, told))


def _resting(part: CombatPart, name: str, what: str) -> Combatant:
    """Someone recovering out of combat (these rules take minutes to days)."""
    c = part.person(name)
    if part.fight is not None and not part.fight.over and is_fighter(part.fight, c.name):
        raise RuleError(t("combat.err.in_running_fight", name=c.name, what=what))
    if c.dead or c.destroyed:
        raise RuleError(t("combat.err.dead", name=c.name))
    return c


@op("natural_healing")
def _op_natural_healing(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    """A day of rest, then HT (GM modifier for conditions): +1 HP on a success (GURPS-INJ-16)."""
    c = _resting(part, args["name"], t("combat.err.what.healing"))
    before = c.hp
    c, results = rec.natural_healing(c, int(args["days"]), tape, modifier=int(args.get("modifier", 0)))
    lines = [str(result.check) for result in results]
    lines.append(t("combat.natural_healing", name=c.name, days=args["days"], gained=c.hp - before, before=before,
                   after=c.hp))
    told = {"checks": [result.check.to_dict() for result in results], "gained": c.hp - before}
    return part.put(c), ("heal", Harmed(tuple(lines), told=told))


@op("wake")
def _op_wake(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    """Waking up (GURPS-INJ-13..15): HP >= 1 after 15 minutes; 0 >= HP > -HP an HT roll each hour;
    HP <= -HP one HT roll after 12 hours, and after a failure no waking without medical care (an HT
    roll when care restores HP) and an HT roll every 12 hours where a failure is death."""
    c = _resting(part, args["name"], t("combat.err.what.waking"))
    c, outcome = rec.wake(c, tape, care=bool(args.get("care")))
    lines = [] if outcome.check is None else [str(outcome.check)]
    if outcome.result == "dead":
        lines.append(t("combat.wake.died", name=c.name))
    elif outcome.result == "needs_care":
        lines.append(t("combat.wake.needs_care", name=c.name))
    else:
        lines.append(t(f"combat.wake.{outcome.result}", name=c.name, minutes=outcome.minutes))
    told = {"result": outcome.result, **({"roll": outcome.check.to_dict()} if outcome.check is not None else {})}
    return part.put(c), ("wake", Harmed(tuple(lines), told=told))


@op("mortal")
def _op_mortal(part: CombatPart, args: Mapping[str, Any], tape: Tape) -> Step:
    """A mortally wounded character's HT roll every 30 minutes (+ Hard to Kill): critical success =
    no longer mortally wounded, success = 30 more minutes, failure = death; after healing by medicine
    or magic, a success recovers (GURPS-INJ-10). On recovery an HT roll: failure = -1 HT for good,
    critical failure = also a fitting disadvantage at the GM's option (GURPS-INJ-11)."""
    c = _resting(part, args["name"], t("combat.err.what.mortal"))
    c, outcome = rec.mortal_roll(c, tape, healed=bool(args.get("healed")))
    lines = [str(outcome.check), t(f"combat.mortal.{outcome.result}", name=c.name)]
    if outcome.after is not None:
        lines.append(str(outcome.after))
    if outcome.effect != "none":
        lines.append(t("combat.mortal.lose_ht", name=c.name, ht=c.ht))
    if outcome.effect == "lose_ht_and_disadvantage":
        lines.append(t("combat.mortal.disadvantage", name=c.name))
    told = {"roll": outcome.check.to_dict(), "result": outcome.result, "effect": outcome.effect,
            **({"after": outcome.after.to_dict()} if outcome.after is not None else {})}
    return part.put(c), ("mortal", Harmed(tuple(lines), told=told))


def apply_combat_event(state: TableState, data: Mapping[str, Any]) -> None:
    """Reducer of every combat event: write back the facts the live operation recorded (what it
    changed); an event recorded before facts were kept (older logs) reruns the operation on its
    recorded dice instead. HP/FP changes of session characters (outside a fight, or when it ends) go
    back to the GURPS part as hp_lost/fp_lost, from their roster entries."""
    part: CombatPart = state[PART]
    facts = data.get("facts")
    if facts is None:
        lend_characters(state, part)
        try:
            changes, _ = OPS[data["op"]](part, data["args"], Tape(faces=data["faces"]))
        finally:
            part.characters = None
        back = list(changes.pop("characters", ()))
        for key, value in changes.items():
            setattr(part, key, value)
    else:
        apply_part_facts(part, facts)
        back = facts.get("characters", ())
    if data["op"] in ("start", "next"):
        part.turn_start = part.fight
    if back:
        gurps = state["gurps"]  # a write-back names characters, so the GURPS part is there
        for name in back:
            gurps.characters[name] = write_back(gurps.characters[name], part.roster[name])


for _name in OPS:
    register_event(f"combat.{_name}", apply=apply_combat_event, changes=CHANGES)


def _injury(damage: Any) -> int | None:
    """The injury a DamageReport dealt, or None when no damage was rolled."""
    return None if damage is None else damage.damage.injury


def attack_outcome(report: Any) -> dict[str, Any]:
    """What the log line of an attack says happened: hit or miss (GURPS-CMB-26), and the injury
    when damage was rolled at once (no defense allowed); the attack roll and the damage roll, so the
    line shows every die the tracker showed with what it was rolled against (CMB-26, 27, DMG-04..08)."""
    hit = None if report.attack is None else report.attack.hit
    roll = {} if report.attack is None else {"roll": report.attack.roll.to_dict()}
    return {"hit": hit, "injury": _injury(report.damage), **roll, **_damage_roll(report.damage)}


def attack_working(report: Any) -> dict[str, Any]:
    """An attack with the GM's own modifiers (`%attack ... -2 dark`, the tracker's modifier field): its
    outcome and the roll's working, so the log line names every modifier ("Broadsword 13 −2 (dark) =
    11", GURPS-SR-04, CMB-33)."""
    out = attack_outcome(report)
    if report.attack is not None:
        roll = report.attack.roll
        out["working"] = {"label": roll.label, "base": roll.base,
                          "modifiers": [[m.value, m.label] for m in roll.modifiers]}
    return out


def defense_outcome(report: Any) -> dict[str, Any]:
    """What the log line of a defense says: defended or not (GURPS-CMB-40), and the injury taken, with
    the defense roll and the damage roll (their dice and targets)."""
    defended = report.roll is not None and report.roll.success
    roll = {} if report.roll is None else {"roll": report.roll.to_dict()}
    return {"defended": defended, "injury": _injury(report.damage), **roll, **_damage_roll(report.damage)}


def damage_outcome(report: Any) -> dict[str, Any]:
    """The injury a damage roll dealt (GURPS-DMG-08), and the roll itself, for its log line."""
    return {"injury": _injury(report), **_damage_roll(report)}


def _damage_roll(damage: Any) -> dict[str, Any]:
    """{"damage": the DamageRoll's dict} of a DamageReport, or {} when no damage was rolled."""
    return {} if damage is None else {"damage": damage.damage.to_dict()}
