"""GURPS combat on the session: the fight, NPC templates, hazards, first aid, rest and spells.

Every operation runs once, live, with the pure rules (dice from the session RNG, recorded on a Tape):
it validates the command and builds the result. The event keeps its arguments, its dice and the
facts of what it changed (`part_facts`); the reducer only writes those facts back, so replay and
undo rebuild exactly the fight that was played without rerunning a rule. Events of older logs,
without facts, are rerun on their recorded dice.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gamekernel.errors import DataError, NotFoundError, RuleError, UsageError
from gamekernel.events import Event, check_storable, register_event
from gamekernel.gurps.results import CombatResult, Harmed
from gamekernel.gurps.rules import combat as cb
from gamekernel.gurps.rules import hazards as hz
from gamekernel.gurps.rules import magic as mg
from gamekernel.gurps.rules import recovery as rec
from gamekernel.gurps.rules.characters import Character
from gamekernel.gurps.rules.combat import Combatant, CombatState, Tape, copy_with
from gamekernel.gurps.rules.combat.facts import (
    apply_combatant_facts,
    apply_fight_facts,
    combatant_facts,
    combatant_record,
    fight_facts,
)
from gamekernel.gurps.rules.combat.state import allow_fast_copy
from gamekernel.gurps.rules.damage import parse_damage, roll_damage
from gamekernel.gurps.rules.harm import harm
from gamekernel.gurps.rules.vocabulary import defense_key, maneuver_key, posture_key
from gamekernel.gurps.rules.wording import badges
from gamekernel.host import HostBase
from gamekernel.i18n import t
from gamekernel.limits import at_most, real_number, whole_number
from gamekernel.state import register_part
from gamekernel.text import find_name, match_key, resolve_name, same_name, visible

PART = "gurps_combat"
CHANGES = (PART, "gurps")  # a combat step writes HP/FP of session characters back to their sheets


@dataclass
class CombatPart:
    """The fight (or None), NPC templates, and everyone met outside a fight (hazards, rest)."""

    fight: CombatState | None = None
    templates: dict[str, dict[str, Any]] = field(default_factory=dict)
    roster: dict[str, Combatant] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "fight": None if self.fight is None else self.fight.to_dict(),
            "templates": {k: dict(v) for k, v in sorted(self.templates.items())},
            "roster": {k: v.to_dict() for k, v in sorted(self.roster.items())},
        }

    characters: Any = None  # the GURPS part's characters, lent by the reducer (never stored here)
    # the fight as the current turn began (set by the reducer, so replay and undo agree; never
    # stored): what `%next` compares against to show the rows the turn changed
    turn_start: CombatState | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CombatPart:
        """Inverse of `to_dict` (campaign snapshots)."""
        fight = data.get("fight")
        return cls(
            fight=None if fight is None else CombatState.from_dict(fight),
            templates={k: dict(v) for k, v in data.get("templates", {}).items()},
            roster={k: Combatant.from_dict(v) for k, v in data.get("roster", {}).items()},
        )

    def close_names(self, name: str) -> list[str]:
        """The fighters, roster entries and characters `name` could mean (empty: it names nobody)."""
        fighters = [c.name for c in self.fight.combatants] if self.fight is not None and not self.fight.over else []
        found, close = resolve_name(name, [*fighters, *self.roster, *(self.characters or {})])
        return [found] if found is not None else list(close)

    def person(self, name: str) -> Combatant:
        """Someone in the fight, else in the roster, else a GURPS character of the session: `name` is
        resolved once over all three (exact first, then an unambiguous start)."""
        running = self.fight is not None and not self.fight.over
        fighters = [c.name for c in self.fight.combatants] if running and self.fight else []
        found, close = resolve_name(name, [*fighters, *self.roster, *(self.characters or {})])
        if found is None:
            hint = t("gurps.err.did_you_mean", names=", ".join(close)) if close else ""
            raise NotFoundError(t("combat.err.no_person", name=name) + hint)
        if found in fighters and self.fight is not None:
            return self.fight.get(found)
        chars = {match_key(k): ch for k, ch in (self.characters or {}).items()}
        if found in self.roster:
            c = self.roster[found]
            ch = chars.get(match_key(found))  # a character's HP/FP (and sheet weapons) live in the GURPS part
            if ch is None or c.stand_in:
                return c
            sheet = sheet_weapons(ch)
            kept = tuple(w for w in c.weapons if match_key(w.name) not in {match_key(s.name) for s in sheet}
                         and not (sheet and w.name == "Punch"))
            return with_states(copy_with(c, hp=ch.current_hp, fp=ch.current_fp,
                                         weapons=(*sheet, *kept) if sheet else c.weapons), ch)
        return combatant_from_character(chars[match_key(found)])

    def put(self, c: Combatant) -> dict[str, Any]:
        """The part changes that store `c` back where it lives."""
        if self.fight is not None and not self.fight.over and _in(self.fight, c.name, exact=True):
            return {"fight": self.fight.put(c)}
        changes: dict[str, Any] = {"roster": {**self.roster, c.name: c}}
        if c.name in (self.characters or {}) and not c.stand_in:
            changes["characters"] = {c.name: c}
        return changes


register_part(PART, CombatPart)

# The injury rules' lasting states a character keeps between commands (GURPS-INJ-02..15, FAT-03).
LASTING = ("unconscious", "mortal", "dead", "destroyed", "collapsed", "needs_care")


def lasting_states(c: Combatant) -> tuple[str, ...]:
    return tuple(key for key in LASTING if getattr(c, key))


def with_states(c: Combatant, ch: Any) -> Combatant:
    """`c` with the lasting states and the last death-check line the character's sheet holds too (both
    are written back together by `CombatPart.put`, so they agree unless a test or a GM set one)."""
    states = getattr(ch, "states", ())
    return copy_with(c, death_line=max(c.death_line, getattr(ch, "death_line", 0)),
                     **{key: getattr(c, key) or key in states for key in LASTING})

# ---------------------------------------------------------------- operations (pure over the part)

Op = Callable[[CombatPart, Mapping[str, Any], Tape], tuple[dict[str, Any], Any]]
OPS: dict[str, Op] = {}


def op(name: str) -> Callable[[Op], Op]:
    def register(fn: Op) -> Op:
        OPS[name] = fn
        return fn

    return register


def running(fight: CombatState | None) -> CombatState | None:
    """`fight` while it runs, else None (an ended fight is no longer the one a step works on)."""
    return fight if fight is not None and not fight.over else None


def running_fight(part: CombatPart) -> CombatState:
    """The fight every combat step works on; refused with the usage example when none is running."""
    if part.fight is None or part.fight.over:
        raise RuleError(t("combat.err.no_fight_example"))
    return part.fight


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
def _op_npc(part, args, tape):
    cb.quick_combatant(args["name"], args["stats"])  # validate
    return {"templates": {**part.templates, args["name"]: dict(args["stats"])}}, ("lines", [
        t("combat.npc", name=args["name"], stats=template_text(args["stats"]))])


@op("start")
def _op_start(part, args, tape):
    people = [Combatant.from_dict(d) for d in args["combatants"]]
    fight = cb.start_combat(people, tape)
    return {"fight": fight}, ("start", fight)


@op("next")
def _op_next(part, args, tape):
    fight, report = cb.next_turn(running_fight(part), tape)
    return {"fight": fight}, ("next", report)


@op("maneuver")
def _op_maneuver(part, args, tape):
    fight, report = cb.choose_maneuver(running_fight(part), args["name"], args["maneuver"], tape,
                                       option=args.get("option", ""), target=args.get("target", ""),
                                       posture=args.get("posture", ""), concentrate_on=args.get("task", ""))
    return {"fight": fight}, ("maneuver", report)


@op("posture")
def _op_posture(part, args, tape):
    fight = cb.free_posture(running_fight(part), args["name"], args["posture"])
    return {"fight": fight}, ("lines", [t("combat.posture", name=args["name"], posture=args["posture"])])


@op("attack")
def _op_attack(part, args, tape):
    recorded: dict[str, Any] = {k: (tuple(tuple(x) for x in v) if k == "extra" else v)  # JSON of the event
                                for k, v in args.get("options", {}).items()}
    opts = cb.AttackOptions(**recorded)
    fight, report = cb.attack(running_fight(part), args["attacker"], args["target"], args["weapon"], tape, opts)
    return {"fight": fight}, ("attack", report)


@op("defend")
def _op_defend(part, args, tape):
    fight, report = cb.defend(running_fight(part), args["name"], args["kind"], tape)
    return {"fight": fight}, ("defend", report)


@op("damage")
def _op_damage(part, args, tape):
    """A damage roll onto someone: a fighter takes it as a combat hit; anyone else (a character or
    someone met before) through the same injury path, outside the fight (GURPS-DMG-04..08, INJ)."""
    if part.fight is not None and not part.fight.over and _in(part.fight, args["name"]):
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
def _op_end(part, args, tape):
    fight, report = cb.end_combat(running_fight(part), tape)
    chars = part.characters or {}
    roster = {**part.roster, **{c.name: c for c in fight.combatants if not c.stand_in}}
    back = {c.name: c for c in fight.combatants if c.name in chars and not c.stand_in}
    return {"fight": fight, "roster": roster, "characters": back}, ("end", report)


@op("arm")
def _op_arm(part, args, tape):
    c = part.person(args["name"])
    weapon = cb.parse_weapon(args["weapon"])
    others = tuple(w for w in c.weapons if not same_name(w.name, weapon.name))
    c = copy_with(c, weapons=(*others, weapon))
    return part.put(c), ("lines", [f"{c.name}: {weapon.name} {weapon.skill} ({weapon.damage})"])


@op("add")
def _op_add(part, args, tape):
    """A fighter put on the roster outside a fight (during one, `combat_add` records a join)."""
    c = Combatant.from_dict(args["combatant"])
    if part.fight is not None and not part.fight.over:  # older logs: an add during a fight was a join
        return _op_join(part, args, tape)
    return {"roster": {**part.roster, c.name: c}}, ("lines", [t("combat.event.add", name=c.name), *_stand_in(c)])


def _stand_in(c: Combatant) -> list[str]:
    """The word said when quick stats stand in for a character: his sheet is not the one that fights."""
    return [t("combat.stand_in", name=c.name)] if c.stand_in else []


@op("join")
def _op_join(part, args, tape):
    """Someone enters the running fight at his place in the order (GURPS-CMB-02, 03, 05): the one op of
    `%combat add`, the tracker's Join and the table dashboard."""
    c = Combatant.from_dict(args["combatant"])
    fight = cb.join_fight(running_fight(part), c)
    return {"fight": fight}, ("lines", [t("combat.event.joined", name=c.name, place=fight.index(c.name) + 1,
                                          current=fight.current.name), *_stand_in(c)])


@op("hazard")
def _op_hazard(part, args, tape):
    c = part.person(args["name"])
    kind = args["hazard"]
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
    return changes, ("lines", Harmed(tuple(lines), rep))


def _hurt(part: CombatPart, c: Combatant, tape: Tape, *, injury: int = 0, fp: int = 0,
          airless_seconds: int = 0) -> tuple[dict[str, Any], Any]:
    """HP/FP lost by someone, in the running fight or outside it, through the one injury path."""
    if part.fight is not None and not part.fight.over and _in(part.fight, c.name):
        fight, rep = cb.apply_injury(part.fight, c.name, injury, tape, fp=fp, airless_seconds=airless_seconds)
        return {"fight": fight}, rep
    c, rep = harm(c, tape, injury=injury, fp=fp, airless_seconds=airless_seconds)
    return part.put(c), rep


def _in(fight: CombatState, name: str, *, exact: bool = False) -> bool:
    """Whether `name` is a fighter; `exact` when it is a fighter's own name being stored back, so that
    someone else whose name starts a fighter's is never written over him."""
    if exact:
        return any(same_name(c.name, name) for c in fight.combatants)
    return fight.find(name) is not None


@op("firstaid")
def _op_firstaid(part, args, tape):
    c = part.person(args["name"])
    healed, result = rec.first_aid(c, args["tl"], args["skill"], tape)
    lines = [str(result.check), t("combat.firstaid", tl=args["tl"], minutes=result.minutes, name=c.name,
                                  change=healed.hp - c.hp)]
    return part.put(healed), ("lines", lines)


@op("rest")
def _op_rest(part, args, tape):
    c = part.person(args["name"])
    healed = rec.rest(c, args["minutes"])
    return part.put(healed), ("lines", [t("combat.rest", name=c.name, minutes=args["minutes"], before=c.fp,
                                          after=healed.fp)])


@op("cast")
def _op_cast(part, args, tape):
    c = part.person(args["name"])
    if not c.can_act:  # unconscious, collapsed, mortally wounded or dead: no spells (GURPS-INJ, FAT-02/03)
        raise RuleError(t("combat.err.cannot_act", name=c.name, states=badges(c.badges())))
    fight = part.fight if part.fight is not None and not part.fight.over and _in(part.fight, c.name) else None
    modifiers = [tuple(m) for m in args.get("modifiers", ())]
    if fight is not None and c.shock and c.shock_round == fight.round:  # spells are IQ-based (GURPS-INJ-05)
        modifiers.append((-c.shock, t("gurps.mod.shock")))
    mg.castable(args["spell"], args["skill"], args["cost"], modifiers)  # a spell that cannot be tried, first
    if fight is not None and c.maneuver != "concentrate":  # a spell takes Concentrate (GURPS-MAG-05, CMB-23)
        raise RuleError(t("combat.err.cast_concentrate", name=c.name))
    result = mg.cast_rolling(args["spell"], args["skill"], args["cost"], tape.roll3, fp=c.fp, fp_max=c.fp_max,
                             modifiers=modifiers)
    lines = [str(result.check), t("combat.cast", name=c.name, spell=args["spell"],
                                  outcome=t(f"combat.word.{result.outcome}"), energy=result.energy_spent)]
    if result.failure_result:
        lines.append(t("combat.spellfail", roll=result.failure_result,
                       text=t(f"combat.spellfail.{result.failure_result}")))
    changes, rep = _hurt(part, c, tape, fp=result.energy_spent)
    return changes, ("lines", Harmed(tuple(lines), rep))


def _resting(part: CombatPart, name: str, what: str) -> Combatant:
    """Someone recovering out of combat (these rules take minutes to days)."""
    c = part.person(name)
    if part.fight is not None and not part.fight.over and _in(part.fight, c.name):
        raise RuleError(t("combat.err.in_running_fight", name=c.name, what=what))
    if c.dead or c.destroyed:
        raise RuleError(t("combat.err.dead", name=c.name))
    return c


@op("natural_healing")
def _op_natural_healing(part, args, tape):
    """A day of rest, then HT (GM modifier for conditions): +1 HP on a success (GURPS-INJ-16)."""
    c = _resting(part, args["name"], t("combat.err.what.healing"))
    before = c.hp
    c, results = rec.natural_healing(c, int(args["days"]), tape, modifier=int(args.get("modifier", 0)))
    lines = [str(result.check) for result in results]
    lines.append(t("combat.natural_healing", name=c.name, days=args["days"], gained=c.hp - before, before=before,
                   after=c.hp))
    return part.put(c), ("heal", lines)


@op("wake")
def _op_wake(part, args, tape):
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
    return part.put(c), ("wake", lines)


@op("mortal")
def _op_mortal(part, args, tape):
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
    return part.put(c), ("mortal", lines)


def lend_characters(state, part: CombatPart) -> None:
    """Let the combat part read the session's GURPS characters (a PC joining by name, a replay of an
    older event); the caller takes them back (`part.characters = None`) when the step is done."""
    gurps = state.parts.get("gurps")
    part.characters = getattr(gurps, "characters", None)


def apply_combat_event(state, data: Mapping[str, Any]) -> None:
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
        gurps = state.parts.get("gurps")
        for name in back:
            gurps.characters[name] = _write_back(gurps.characters[name], part.roster[name])


def step_fighters(part: CombatPart, before: CombatState | None, changes: Mapping[str, Any],
                  data: Mapping[str, Any]) -> set[str]:
    """The fighters a step's result shows the state of: those it names, those whose fight entry,
    roster entry or sheet it changes, and whose turn it ends or begins (GURPS-CMB-02)."""
    facts = data["facts"]
    names = named_fighters(data)
    outcome = data.get("outcome", {})
    names |= {str(outcome[k]) for k in ("started", "ended") if outcome.get(k)}
    fight_change = facts.get("fight", {})
    after = changes.get("fight", part.fight)
    if "whole" in fight_change:
        names |= {c.name for f in (before, after) if f is not None for c in f.combatants}
    elif after is not None:
        names |= {after.combatants[i].name for i, _ in fight_change.get("fighters", ())}
    return {_resolved(before, after, n) for n in names}


def named_fighters(data: Mapping[str, Any]) -> set[str]:
    """The names a combat event's data gives its fighters (as typed), and those whose roster entry or
    sheet it changes: what a secret event and a public step are compared by (GURPS-SR-09)."""
    args, facts = data.get("args", {}), data.get("facts") or {}
    names = {str(args[k]) for k in ("name", "target", "attacker") if args.get(k)}
    return names | set(facts.get("roster", {}).get("set", {})) | set(facts.get("characters", ()))


def _resolved(before: CombatState | None, after: CombatState | None, text: str) -> str:
    """`text` as a fighter of `after` or `before` names it (a prefix resolved), else itself."""
    for fight in (after, before):
        found = None if fight is None else fight.find(text)
        if fight is not None and found is not None:
            return fight.combatants[found].name
    return text


def part_facts(part: CombatPart, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The facts an operation's `changes` make to `part`, as an event stores them: the fight's
    difference (`fight_facts`), new and changed templates and roster entries, and the session
    characters whose sheets take their roster entry back (`_write_back`)."""
    facts: dict[str, Any] = {}
    if "fight" in changes:
        fight = fight_facts(part.fight, changes["fight"])
        if fight:
            facts["fight"] = fight
    if "templates" in changes:
        new = changes["templates"]
        _dict_facts(facts, "templates", part.templates, new,
                    lambda old, value: None if old == value else dict(value))
    if "roster" in changes:
        _dict_facts(facts, "roster", part.roster, changes["roster"],
                    lambda old, c: combatant_record(c) if old is None else combatant_facts(old, c) or None)
    if changes.get("characters"):
        roster = changes.get("roster", {})
        if any(roster.get(name) is not c for name, c in changes["characters"].items()):
            raise RuntimeError("a combat operation wrote back a character it did not put in the roster")
        facts["characters"] = list(changes["characters"])
    return facts


def _dict_facts(facts: dict[str, Any], key: str, old: Mapping[str, Any], new: Mapping[str, Any],
                encode: Callable[[Any, Any], Any]) -> None:
    """Under facts[key]: {"set": {name: encoded}} for each entry `encode(old or None, new)` finds
    changed, "drop": the names that went away."""
    changed = {}
    for name, value in new.items():
        before = old.get(name)
        if before is value:
            continue
        encoded = encode(before, value)
        if encoded is not None:
            changed[name] = encoded
    dropped = [name for name in old if name not in new]
    if changed or dropped:
        facts[key] = {"set": changed, **({"drop": dropped} if dropped else {})}


def apply_part_facts(part: CombatPart, facts: Mapping[str, Any]) -> None:
    """`part` changed as `part_facts` recorded (the characters' share is written by `apply_combat_event`)."""
    if "fight" in facts:
        part.fight = apply_fight_facts(part.fight, facts["fight"])
    if "templates" in facts:
        templates = _without(part.templates, facts["templates"])
        templates.update((name, dict(stats)) for name, stats in facts["templates"]["set"].items())
        part.templates = templates
    if "roster" in facts:
        roster = _without(part.roster, facts["roster"])
        for name, fields in facts["roster"]["set"].items():
            before = roster.get(name)
            roster[name] = Combatant.from_dict(fields) if before is None else apply_combatant_facts(before, fields)
        part.roster = roster


def _without(entries: Mapping[str, Any], facts: Mapping[str, Any]) -> dict[str, Any]:
    dropped = facts.get("drop", ())
    return {name: value for name, value in entries.items() if name not in dropped}


allow_fast_copy(Character)  # a write-back copies the character once or twice per event


def _write_back(ch: Any, c: Combatant) -> Any:
    """The GURPS character `ch` after a fight or an injury: HP and FP lost, HT and IQ lost for
    good, the lasting states and the last death-check line of `c`, the fighter he was."""
    lost: dict[str, int] = {}
    if c.ht < ch.ht:  # HT lost for good after a mortal wound (GURPS-INJ-11)
        lost["ht"] = c.ht
    if c.iq < ch.iq:  # IQ lost for good to lack of oxygen (GURPS-HAZ-20)
        lost["iq"] = c.iq
    if lost:  # FP (the base of fp_lost) follows from the new HT
        ch = copy_with(ch, **lost)
    return copy_with(ch, hp_lost=max(0, ch.hp - c.hp), fp_lost=max(0, ch.fp - c.fp), states=lasting_states(c),
                     death_line=c.death_line)


for _name in OPS:
    register_event(f"combat.{_name}", apply=apply_combat_event, changes=CHANGES)

# ---------------------------------------------------------------- parsing helpers

_COUNT = re.compile(r"""^(?P<name>"[^"]*"|'[^']*'|[^*{}]+?)(?:\*(?P<n>\d+))?(?:\{(?P<stats>[^}]*)\})?$""")
# one fighter in a list: quoted runs, brace blocks (spaces allowed inside both) and other characters
_SPEC = re.compile(r"""(?:"[^"]*"|'[^']*'|\{[^}]*\}|[^\s"'{])+""")


@dataclass(frozen=True)
class FighterSpec:
    """One fighter as typed: a name (quotes removed), how many (`Goblin*3`) and the quick stats given
    (`Orc{ST=12,DX=11}` or after the name), None when none were."""

    name: str
    count: str | None = None
    stats: dict[str, Any] | None = None


def split_specs(text: str) -> list[str]:
    """`Aiko "Sir Henryk" Orc{ST=12, DX=11} Goblin*3` -> one text per fighter (quotes kept)."""
    return _SPEC.findall(text)


def parse_fighter(text: str, stats: str | Mapping[str, Any] = "") -> FighterSpec:
    """The one reader of a fighter spec, for `%combat start|add|npc` and the tracker's Join: `Name`,
    `"Two Words"`, `Name*3`, `Name{K=V,...}`; `stats` (text or a mapping) adds to the braces' values."""
    match = _COUNT.match(visible(text).strip())  # a name as read: no bidi or zero-width controls
    if not match or not match.group("name").strip(" \"'"):
        raise UsageError(t("combat.err.combatant_spec", spec=text))
    name = match.group("name").strip()
    if name[:1] in "\"'":
        name = name[1:-1].strip()
    given = None if match.group("stats") is None else parse_stats(match.group("stats").replace(",", " "))
    extra = parse_stats(stats) if isinstance(stats, str) else dict(stats)
    if extra:
        given = {**(given or {}), **extra}
    return FighterSpec(name, match.group("n"), given)


def parse_stats(text: str) -> dict[str, Any]:
    """"ST=9 DX=12 weapon=Spear:11:thr+2 imp" (or comma separated inside {...})."""
    out: dict[str, Any] = {}
    parts = re.split(r"[,\s]+(?=[A-Za-z]+=)", text.strip()) if text.strip() else []
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq:
            raise UsageError(t("combat.err.npc_pair", part=part))
        key = key.strip().lower()
        value = value.strip().strip('"')
        if key in ("weapon", "weapons"):
            out.setdefault("weapons", []).append(value)
        elif key in ("hpt", "cr", "pc"):
            out[key] = value.lower() in ("1", "yes", "true", "y")
        elif key == "speed":
            out[key] = real_number(value, key)
        elif key == "side":
            out[key] = value
        else:
            if not re.fullmatch(r"[+-]?\d{1,9}", value):
                raise UsageError(t("combat.err.npc_number", key=key, value=value))
            out[key] = int(value)
    return out


DURATION = re.compile(r"^(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>s|sec|secs|min|mins|m|h|hr|hrs|hours?)$", re.I)


def parse_minutes(text: str) -> int:
    match = DURATION.match(text.strip())
    if not match:
        raise UsageError(t("combat.err.duration", text=text))
    n = float(match.group("n"))
    unit = match.group("unit").lower()
    factor = 1 / 60 if unit.startswith("s") else 60 if unit.startswith("h") else 1
    return int(n * factor)


def _injury(damage: Any) -> int | None:
    """The injury a DamageReport dealt, or None when no damage was rolled."""
    return None if damage is None else damage.damage.injury


def attack_outcome(report: Any) -> dict[str, Any]:
    """What the log line of an attack says happened: hit or miss (GURPS-CMB-26), and the injury
    when damage was rolled at once (no defense allowed)."""
    hit = None if report.attack is None else report.attack.hit
    return {"hit": hit, "injury": _injury(report.damage)}


def defense_outcome(report: Any) -> dict[str, Any]:
    """What the log line of a defense says: defended or not (GURPS-CMB-40), and the injury taken."""
    defended = report.roll is not None and report.roll.success
    return {"defended": defended, "injury": _injury(report.damage)}


def damage_outcome(report: Any) -> dict[str, Any]:
    """The injury a damage roll dealt (GURPS-DMG-08), for its log line."""
    return {"injury": _injury(report)}


class CombatActions(HostBase):
    """GURPS combat operations of the Session (each one event, undoable)."""

    # ---- plumbing

    @property
    def combat_state(self) -> CombatState | None:
        return self.state[PART].fight

    def _combat(self, name: str, args: dict[str, Any], *, actor: str | None = None,
                outcome: Callable[[Any], dict[str, Any]] | None = None, secret: bool = False):
        """Run operation `name` live (validating it), then record it with its dice; `outcome` picks
        the facts of the live report the log line needs (whose turn began), stored as data["outcome"]."""

        part: CombatPart = self.state[PART]
        before, since = part.fight, part.turn_start
        tape = Tape(self.dice_for(secret))
        lend_characters(self.state, part)
        try:
            changes, (kind, report) = OPS[name](part, args, tape)  # validates; raises before anything is logged
        finally:
            part.characters = None
        data: dict[str, Any] = {"op": name, "args": args, "faces": list(tape.used), "facts": part_facts(part, changes)}
        if outcome is not None:
            data["outcome"] = outcome(report)
        fighters = set() if secret else step_fighters(part, before, changes, data)
        secrets = self._combat_secrets(fighters)
        revealed = tuple(e.seq for e in secrets)
        if revealed:
            check_storable(Event(0, f"combat.{name}", data, actor, False, ""))
            data["cause"] = self._reveal_chain(revealed)
        self.record(f"combat.{name}", data, actor=actor, secret=secret)
        fight = self.state[PART].fight
        shown = fight if (fight is not None and not fight.over) or name == "end" else None
        whose = tuple(sorted({n for e in secrets for n in self._event_fighters(e)} & fighters))
        return CombatResult(kind, report, shown, before=running(before), since=since, revealed=revealed,
                            revealed_for=whose)

    def _combat_secrets(self, fighters: set[str]) -> list[Any]:
        """The unrevealed secret combat events (log order) that changed one of `fighters`: a public step
        on him shows his true state, so it makes them public first (GURPS-SR-09, GURPS-INJ-01)."""
        if not fighters:
            return []
        revealed = set(self.state["seats"].revealed)
        return [e for e in self.active_secrets("combat")
                if e.seq not in revealed and self._event_fighters(e) & fighters]

    def _event_fighters(self, event: Any) -> set[str]:
        """The fighters a recorded combat event names, as the session knows them now."""
        return {self._fighter_name(n) for n in named_fighters(event.data)}

    def _fighter_name(self, text: str) -> str:
        """`text` as the fighter or character it names (a prefix or another case resolved), else itself."""
        fight = self.state[PART].fight
        found = None if fight is None else fight.find(text)
        if fight is not None and found is not None:
            return fight.combatants[found].name
        known = [*self.state[PART].roster, *getattr(self.state.parts.get("gurps"), "characters", {})]
        return resolve_name(text, known)[0] or text

    def _reveal_chain(self, seqs: tuple[int, ...]) -> int:
        """Record one `table.reveal` (the `%reveal N` event) per secret, each caused by the one before,
        so one `%undo` of the step takes them all back; the last one's seq, the step's cause."""
        cause: int | None = None
        for seq in seqs:
            cause = self.record("table.reveal", {"seq": seq, **({} if cause is None else {"cause": cause})}).seq
        assert cause is not None
        return cause

    def _fighters(self, spec: FighterSpec, *, pc: bool = False) -> list[Combatant]:
        """The fighters one spec names: quick stats, else a template, else someone the session knows
        (in the fight, met before, or a character: as himself, with his sheet's numbers, even when a
        template has his name). Quick stats under a character's name make a stand-in, whose numbers
        never reach his sheet."""
        part: CombatPart = self.state[PART]
        lend_characters(self.state, part)
        try:
            found = self._fighter(part, spec, pc)
        finally:
            part.characters = None
        if spec.count:
            number = whole_number(spec.count, t("limits.what.combatants"), limit="max_combatants")
            return [copy_with(found, name=f"{found.name}{i}") for i in range(1, number + 1)]
        return [found]

    @staticmethod
    def _fighter(part: CombatPart, spec: FighterSpec, pc: bool) -> Combatant:
        character = find_name(spec.name, part.characters or {})
        if spec.stats is not None:
            c = cb.quick_combatant(spec.name, spec.stats, pc=pc)
            return copy_with(c, stand_in=True) if character is not None and not spec.count else c
        template = find_name(spec.name, part.templates)
        if template is not None and character is None:
            return cb.quick_combatant(template, part.templates[template], pc=pc)
        try:
            return part.person(spec.name)
        except NotFoundError as err:
            if part.close_names(spec.name):
                raise  # ambiguous or misspelt: the error names the candidates
            raise NotFoundError(t("combat.err.unknown_fighter", name=spec.name)) from err

    # ---- the public API (every magic has its method)

    def combat_npc(self, name: str, stats: str | Mapping[str, Any] = ""):
        """Define an NPC template from quick stats: `combat_npc("Goblin", "ST=9 DX=12 weapon=Spear:11:thr+2 imp")`
        or `combat_npc("Orc{ST=16}")` (the same fighter spec as `%combat start`)."""
        spec = parse_fighter(name, stats)
        if spec.count:
            raise UsageError(t("combat.err.npc_count", spec=name))
        return self._combat("npc", {"name": spec.name, "stats": spec.stats or {}})

    def combat_add(self, name: str, stats: str | Mapping[str, Any] = "", *, pc: bool = False):
        """Add fighters by the spec `%combat start` reads (`Goblin*2`, `Bob{DX=12}`, a template, a
        character as himself), plus quick stats: into the running fight at their place in the order
        (the same join as the tracker's), else onto the roster."""
        people = self._fighters(parse_fighter(name, stats), pc=pc)
        part: CombatPart = self.state[PART]
        result = None
        for person in people:
            if part.fight is not None and not part.fight.over:
                result = self._combat("join", {"combatant": combatant_record(cb.fresh_for_fight(person))})
            else:
                result = self._combat("add", {"combatant": combatant_record(person)})
        return result

    def combat_start(self, names: str | list[str]):
        """Start a fight: `combat_start("Aiko Bren Goblin*3")` (initiative by Basic Speed, DX, a roll)."""
        specs = split_specs(names) if isinstance(names, str) else list(names)
        if not specs:
            raise UsageError(t("combat.err.name_combatants"))
        part: CombatPart = self.state[PART]
        if part.fight is not None and not part.fight.over:
            raise RuleError(t("combat.err.fight_running"))
        people: list[Combatant] = []
        for spec in specs:
            people += self._fighters(parse_fighter(spec))
            at_most(len(people), "max_combatants", t("limits.what.combatants"))
        fresh = [cb.fresh_for_fight(p) for p in people]
        return self._combat("start", {"combatants": [combatant_record(p) for p in fresh]})

    def combat_end(self):
        return self._combat("end", {})

    def combat_status(self):

        return CombatResult("status", (), self.state[PART].fight)

    def combat_next(self):
        """End the active fighter's turn and start the next one's; the log line names who starts."""
        return self._combat("next", {}, outcome=lambda report: {
            "started": report.started, "ended": report.ended, "round": report.round})

    def combat_maneuver(self, name: str, maneuver: str, *, option: str = "", target: str = "",
                        posture: str = "", task: str = ""):
        maneuver = maneuver_key(maneuver)
        args = {"name": name, "maneuver": maneuver, "option": option, "target": target, "posture": posture,
                "task": task}
        return self._combat("maneuver", args, actor=name)

    def combat_posture(self, name: str, posture: str):
        """Change posture: a free crouch / kneel step when allowed, else the Change Posture maneuver."""
        posture = posture_key(posture)
        fight = running_fight(self.state[PART])
        current = fight.get(name)
        if cb.is_free_posture_change(current.posture, posture):
            return self._combat("posture", {"name": current.name, "posture": posture}, actor=name)
        return self.combat_maneuver(name, "change_posture", posture=posture)

    def combat_attack(self, attacker: str, target: str, weapon: str, **options: Any):
        """Roll to hit; the target's defenses are offered, or damage is rolled at once."""
        known = set(cb.AttackOptions.__dataclass_fields__)
        bad = set(options) - known
        if bad:
            raise UsageError(t("combat.err.attack_options", count=len(bad), bad=", ".join(sorted(bad)),
                               known=", ".join(sorted(known))))
        return self._combat("attack", {"attacker": attacker, "target": target, "weapon": weapon,
                                       "options": options}, actor=attacker, outcome=attack_outcome)

    def combat_defend(self, name: str, kind: str = ""):
        fight = running_fight(self.state[PART])
        if not kind:
            p = fight.pending
            if p is None:
                raise RuleError(t("combat.err.no_pending"))
            offered = cb.defense_options(fight, name, p.incoming, attacker=p.attacker, tried=p.tried,
                                         unheard=p.hearing == "unheard")
            kind = offered[0][0] if offered else "none"
        kind = defense_key(kind)
        return self._combat("defend", {"name": name, "kind": kind}, actor=name, outcome=defense_outcome)

    def combat_damage(self, name: str, spec: str, *, attacker: str = "", dr: int | None = None, half: bool = False,
                      secret: bool = False):
        """Roll damage straight onto a combatant (through DR, or `dr` instead), with every consequence;
        `half` halves it beyond 1/2D range."""
        args: dict[str, Any] = {"name": name, "spec": spec, "attacker": attacker}
        if dr is not None:
            args["dr"] = int(dr)
        if half:
            args["half"] = True
        return self._combat("damage", args, secret=secret, outcome=damage_outcome)

    def combat_fighter(self, name: str | None) -> str | None:
        """The exact name of `name` in the running fight, or None (no fight, or not in it)."""
        fight = self.state[PART].fight
        if not name or fight is None or fight.over:
            return None
        found = fight.find(name)
        return None if found is None else fight.combatants[found].name

    def combat_arm(self, name: str, weapon: str):
        return self._combat("arm", {"name": name, "weapon": weapon})

    def combat_hazard(self, kind: str, name: str, **args: Any):
        if "seconds" in args:
            args["seconds"] = whole_number(args["seconds"], t("limits.what.seconds"), low=0, limit="max_seconds")
        if "modifier" in args:
            args["modifier"] = whole_number(args["modifier"], t("limits.what.modifier"), low=-100, high=100)
        return self._combat("hazard", {"name": name, "hazard": kind, **args}, actor=name)

    def combat_first_aid(self, name: str, tl: int, *, skill: int | None = None, medic: str | None = None):
        if skill is None:
            skill = 10
            if medic:
                try:
                    skill = self.gurps.character(medic).skill_level("First Aid").level
                except Exception:
                    skill = 10
        tl = whole_number(tl, t("limits.what.tech_level"), low=0, high=12)
        skill = whole_number(skill, t("limits.what.skill"), low=-100, high=100)
        return self._combat("firstaid", {"name": name, "tl": tl, "skill": skill}, actor=medic)

    def combat_rest(self, name: str, duration: str | int):
        minutes = duration if isinstance(duration, int) else parse_minutes(duration)
        return self._combat("rest", {"name": name, "minutes": minutes}, actor=name)

    def combat_natural_healing(self, name: str, days: int = 1, *, modifier: int = 0):
        """Days of rest with food: an HT roll at the end of each, +1 HP per success (GURPS-INJ-16)."""
        days = int(days)
        if not 1 <= days <= 365:
            raise UsageError(t("combat.err.rest_days", days=days))
        return self._combat("natural_healing", {"name": name, "days": days, "modifier": int(modifier)}, actor=name)

    def combat_wake(self, name: str, *, care: bool = False):
        """The roll (or wait) to wake up; `care` when medical care has restored HP (GURPS-INJ-13..15)."""
        return self._combat("wake", {"name": name, "care": bool(care)}, actor=name)

    def combat_mortal_check(self, name: str, *, healed: bool = False):
        """The 30-minute HT roll of a mortally wounded character; `healed` after medicine or magic
        restored HP (GURPS-INJ-10, INJ-11)."""
        return self._combat("mortal", {"name": name, "healed": bool(healed)}, actor=name)

    def combat_cast(self, name: str, spell: str, cost: int, skill: int, *, modifiers: list | tuple = ()):
        cost = whole_number(cost, t("limits.what.cost"), low=0, limit="max_count")
        skill = whole_number(skill, t("limits.what.skill"), low=-100, high=100)
        for modifier in modifiers:
            whole_number(modifier[0], t("limits.what.modifier"), low=-100, high=100)
        return self._combat("cast", {"name": name, "spell": spell, "cost": cost, "skill": skill,
                                     "modifiers": [list(m) for m in modifiers]}, actor=name)


def combatant_from_character(ch: Any, weapons: tuple[cb.Weapon, ...] = ()) -> Combatant:
    """A core GURPS Character as a combatant: attributes, HP/FP (current), Basic Speed/Move, DR and the
    combat traits (High Pain Threshold, Combat Reflexes, Hard to Kill, Enhanced defenses, Ambidexterity)."""
    def level(name: str) -> int:
        try:
            return int(ch.trait_level(name) or 0)
        except Exception:
            return 0

    def has(name: str) -> bool:
        try:
            return bool(ch.has_trait(name))
        except Exception:
            return False

    # Block needs a ready shield (GURPS-CMB-45); its DB adds to every defense (CMB-43)
    shield = block_skill(ch) if getattr(ch, "has_shield", False) else None
    reflexes = has("Combat Reflexes")
    if not weapons:
        weapons = sheet_weapons(ch)
    if not weapons:
        weapons = (cb.Weapon("Punch", ch.dx, "thr-1 cr", parry_weapon="bare_hands"),)
    return with_states(Combatant(
        name=ch.name, st=ch.st, dx=ch.dx, iq=ch.iq, ht=ch.ht, hp_max=ch.hp, fp_max=ch.fp, will=ch.will,
        basic_speed=float(ch.basic_speed), basic_move=int(ch.basic_move), pc=True, side="pcs",
        dr=int(getattr(ch, "dr", 0) or 0), weapons=tuple(weapons), shield=shield,
        shield_db=int(getattr(ch, "defense_db", 0)) if shield is not None else 0,
        encumbrance=min(4, int(getattr(ch, "encumbrance", 0))),
        high_pain_threshold=has("High Pain Threshold"), combat_reflexes=reflexes,
        hard_to_kill=level("Hard to Kill"), enhanced_dodge=always_on(ch, "dodge", reflexes),
        enhanced_parry=always_on(ch, "parry", reflexes), enhanced_block=always_on(ch, "block", reflexes),
        ambidextrous=has("Ambidexterity"), hp=ch.current_hp, fp=ch.current_fp,
        hearing=ch.per + sum(m.value for m in ch.trait_modifiers("hearing")),
    ), ch)


def always_on(ch: Any, kind: str, reflexes: bool) -> int:
    """The sheet's always-on bonus to one defense (Enhanced Dodge, a cloak, a race's DB, GCS features)
    less Combat Reflexes' +1, which the combatant counts itself (GURPS-ADV-05): the fight offers the
    sheet's number, each bonus once (a natural attack's -2 Parry included)."""
    try:
        total = int(ch.defense_bonus(kind))
    except AttributeError:
        return 0
    return total - 1 if reflexes else total


BLOCK_SKILLS = ("Shield", "Shield (Shield)", "Shield (Buckler)", "Cloak")


def block_skill(ch: Any) -> int | None:
    """The best level among the skills a shield or cloak blocks with (GURPS-CMB-45), None if none."""
    levels = []
    for name in BLOCK_SKILLS:
        try:
            levels.append(ch.skill_level(name).level)
        except (NotFoundError, RuleError, DataError):
            continue
    return max(levels, default=None)


def sheet_weapons(ch: Any) -> tuple[cb.Weapon, ...]:
    """The weapons on a character's sheet at their effective levels (a weapon whose skill cannot be
    used untrained is left out)."""
    out = []
    for w in getattr(ch, "weapons", ()):
        try:
            damage = ch.weapon_damage(w) if ch.own_damage_table(w) else None
            level = 0 if "no_roll" in w.flags else ch.weapon_level(w)  # no roll: %attack says so
            out.append(cb.weapon_from_sheet(w, level, damage))
        except (NotFoundError, RuleError):
            continue
    return tuple(out)
