"""GURPS combat on the session: the fight, NPC templates, hazards, first aid, rest and spells.

Each method validates what the GM typed and runs one operation of `combat_ops` live, recording it
as an event with its dice and the facts it changed (`combat_part.part_facts`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gamekernel.errors import DataError, NotFoundError, RuleError, UsageError
from gamekernel.events import Event, check_storable, register_event
from gamekernel.gurps.combat_ops import (
    OPS,
    apply_combat_event,
    attack_outcome,
    attack_working,
    damage_outcome,
    defense_outcome,
    op,
)
from gamekernel.gurps.combat_part import (
    CHANGES,
    PART,
    CombatPart,
    lend_characters,
    named_fighters,
    part_facts,
    running,
    running_fight,
    step_fighters,
)
from gamekernel.gurps.combat_specs import FighterSpec, parse_distance, parse_fighter, parse_minutes, split_specs
from gamekernel.gurps.results import CombatResult, nested_rolls
from gamekernel.gurps.rules import combat as cb
from gamekernel.gurps.rules.combat import Combatant, CombatState, Tape, copy_with
from gamekernel.gurps.rules.combat.facts import combatant_record
from gamekernel.gurps.rules.combat.fighters import SIDE_STATS, on_side
from gamekernel.gurps.rules.combat.roster import leave_fight
from gamekernel.gurps.rules.combat.sides import SIDES, default_target, is_party, side_key
from gamekernel.gurps.rules.damage import DamageSpec
from gamekernel.gurps.rules.vocabulary import defense_key, maneuver_key, posture_key
from gamekernel.hiding import hidden_keys, is_hidden
from gamekernel.i18n import t
from gamekernel.limits import at_most, whole_number
from gamekernel.rulesets import RuleSetHandle
from gamekernel.text import find_name, resolve_name


@op("leave")
def _op_leave(part: CombatPart, args, tape):
    fight, name = leave_fight(running_fight(part), args["name"])
    roster = {**part.roster, name: running_fight(part).get(name)}
    return {"fight": fight, "roster": roster}, ("lines", [t("table.left", name=name)])


@op("damage_amount")
def _op_damage_amount(part: CombatPart, args, tape):
    """Basic damage rolled at the table (`7 cut`): through DR and wounding like rolled damage. Kept for
    the logs that hold it: such damage is now `%damage 7 cut @NAME` (`combat.damage`, the one parser)."""
    amount, kind = int(args["amount"]), args["kind"]
    spec = DamageSpec(0, amount, kind, "", f"{amount} {kind}")
    fight, report = cb.damage(running_fight(part), args["name"], spec, tape, attacker=args.get("attacker", ""))
    return {"fight": fight}, ("damage", report)


@op("side")
def _op_side(part: CombatPart, args, tape):
    """A fighter changes sides (`%combat side Troll foes`, the tracker's side picker)."""
    fight = running_fight(part)
    c = fight.get(args["name"])
    side = side_key(args["side"])
    moved = copy_with(c, side=side, pc=is_party(side))
    return {"fight": fight.put(moved)}, ("lines", [t("combat.event.side", name=c.name,
                                                                  side=t(f"combat.side.{side}") if side in SIDES
                                                                  else side)])


@op("range")
def _op_range(part: CombatPart, args, tape):
    """The distance between two fighters: set (`12m`) or moved by a step (`-1`), never below 0."""
    fight = running_fight(part)
    a, b = fight.get(args["a"]), fight.get(args["b"])
    if a.name == b.name:
        raise UsageError(t("combat.err.range_self", name=a.name))
    metres = float(args["metres"])
    if args.get("step"):
        before = fight.distance(a.name, b.name)
        if before is None:
            raise RuleError(t("combat.err.range_unknown", a=a.name, b=b.name))
        metres = before + metres
    metres = max(0.0, metres)
    return {"fight": fight.with_distance(a.name, b.name, metres)}, ("lines", [
        t("combat.event.range", a=a.name, b=b.name, metres=f"{metres:g}")])


def told(report: Any) -> dict[str, Any]:
    """The rolls a step made itself as its log line tells them (`Harmed.told`): a spell's, a hazard's,
    first aid's, healing's, waking's and a mortal wound's dice with their targets; {} for none."""
    return dict(getattr(report, "told", None) or {})


for _name in ("leave", "damage_amount", "side", "range"):
    register_event(f"combat.{_name}", apply=apply_combat_event, changes=CHANGES)


class Combat(RuleSetHandle):
    """GURPS combat on one table (`session.combat`): `start`, `attack`, `defend`, `damage` ... each
    one event, undoable."""

    name = "combat"

    # ---- plumbing

    @property
    def state(self) -> CombatState | None:
        return self.table.state[PART].fight

    def fight_differs(self) -> bool:
        """Whether the fight the GM sees holds what the players may not know: a fighter the GM hides,
        or a fighter a secret roll changed (the public table's fight is not the GM's): then the fight's
        console marks its results as the GM's view (combat_magics.py `gm_console`, GURPS-SR-09)."""
        fight = self.state
        if fight is None:
            return False
        hidden = hidden_keys(self.table)
        if hidden and any(is_hidden(c.name, hidden) for c in fight.combatants):
            return True
        if not self.table.ever_secret():
            return False
        table = self.table.public_table()
        return bool(table.public.get(PART) != table.gm_before.get(PART))

    def _combat(self, name: str, args: dict[str, Any], *, actor: str | None = None,
                outcome: Callable[[Any], dict[str, Any]] | None = None, secret: bool = False):
        """Run operation `name` live (validating it), then record it with its dice; `outcome` picks
        the facts of the live report the log line needs (whose turn began), stored as data["outcome"]."""

        part: CombatPart = self.table.state[PART]
        before, since = part.fight, part.turn_start
        tape = Tape(self.table.dice_for(secret))
        lend_characters(self.table.state, part)
        try:
            changes, (kind, report) = OPS[name](part, args, tape)  # validates; raises before anything is logged
        finally:
            part.characters = None
        data: dict[str, Any] = {"op": name, "args": args, "faces": list(tape.used), "facts": part_facts(part, changes)}
        found = None if outcome is None else outcome(report)
        if found:  # none to keep: a maneuver that builds nothing up
            data["outcome"] = found
        rolls = nested_rolls(report)
        if rolls:  # every roll made inside the step, for the log, the story and the exports
            data["rolls"] = [{"roll": roll.to_dict(), "outcome": word} for roll, word in rolls]
        fighters = set() if secret else step_fighters(part, before, changes, data)
        secrets = self._combat_secrets(fighters)
        revealed = tuple(e.seq for e in secrets)
        if revealed:
            check_storable(Event(0, f"combat.{name}", data, actor, False, ""))
            data["cause"] = self._reveal_chain(revealed)
        self.table.record(f"combat.{name}", data, actor=actor, secret=secret)
        fight = self.table.state[PART].fight
        shown = fight if (fight is not None and not fight.over) or name == "end" else None
        whose = tuple(sorted({n for e in secrets for n in self._event_fighters(e)} & fighters))
        return CombatResult(kind, report, shown, before=running(before), since=since, revealed=revealed,
                            revealed_for=whose)

    def _combat_secrets(self, fighters: set[str]) -> list[Any]:
        """The unrevealed secret combat events (log order) that changed one of `fighters`: a public step
        on him shows his true state, so it makes them public first (GURPS-SR-09, GURPS-INJ-01)."""
        if not fighters:
            return []
        revealed = set(self.table.state["seats"].revealed)
        return [e for e in self.table.active_secrets("combat")
                if e.seq not in revealed and self._event_fighters(e) & fighters]

    def _event_fighters(self, event: Any) -> set[str]:
        """The fighters a recorded combat event names, as the session knows them now."""
        return {self._fighter_name(n) for n in named_fighters(event.data)}

    def _fighter_name(self, text: str) -> str:
        """`text` as the fighter or character it names (a prefix or another case resolved), else itself."""
        fight = self.table.state[PART].fight
        found = None if fight is None else fight.find(text)
        if fight is not None and found is not None:
            return fight.combatants[found].name
        known = [*self.table.state[PART].roster, *getattr(self.table.state.parts.get("gurps"), "characters", {})]
        return resolve_name(text, known)[0] or text

    def _reveal_chain(self, seqs: tuple[int, ...]) -> int:
        """Record one `table.reveal` (the `%reveal N` event) per secret, each caused by the one before,
        so one `%undo` of the step takes them all back; the last one's seq, the step's cause."""
        cause: int | None = None
        for seq in seqs:
            cause = self.table.record("table.reveal", {"seq": seq, **({} if cause is None else {"cause": cause})}).seq
        assert cause is not None
        return cause

    def _fighters(self, spec: FighterSpec, *, pc: bool = False) -> list[Combatant]:
        """The fighters one spec names: quick stats, else a template, else someone the session knows
        (in the fight, met before, or a character: as himself, with his sheet's numbers, even when a
        template has his name). Quick stats under a character's name make a stand-in, whose numbers
        never reach his sheet."""
        part: CombatPart = self.table.state[PART]
        lend_characters(self.table.state, part)
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
        if character is not None and spec.stats and set(spec.stats) <= SIDE_STATS:
            return on_side(part.person(spec.name), spec.stats)  # `Troll{side=foes}`: his sheet, on that side
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

    def npc(self, name: str, stats: str | Mapping[str, Any] = ""):
        """Define an NPC template from quick stats: `combat_npc("Goblin", "ST=9 DX=12 weapon=Spear:11:thr+2 imp")`
        or `combat_npc("Orc{ST=16}")` (the same fighter spec as `%combat start`)."""
        spec = parse_fighter(name, stats)
        if spec.count:
            raise UsageError(t("combat.err.npc_count", spec=name))
        return self._combat("npc", {"name": spec.name, "stats": spec.stats or {}})

    def add(self, name: str, stats: str | Mapping[str, Any] = "", *, pc: bool = False):
        """Add fighters by the spec `%combat start` reads (`Goblin*2`, `Bob{DX=12}`, a template, a
        character as himself), plus quick stats: into the running fight at their place in the order
        (the same join as the tracker's), else onto the roster."""
        people = self._fighters(parse_fighter(name, stats), pc=pc)
        part: CombatPart = self.table.state[PART]
        result = None
        for person in people:
            if part.fight is not None and not part.fight.over:
                result = self._combat("join", {"combatant": combatant_record(cb.fresh_for_fight(person))})
            else:
                result = self._combat("add", {"combatant": combatant_record(person)})
        return result

    def start(self, names: str | list[str]):
        """Start a fight: `combat_start("Aiko Bren Goblin*3")` (initiative by Basic Speed, DX, a roll)."""
        specs = split_specs(names) if isinstance(names, str) else list(names)
        if not specs:
            raise UsageError(t("combat.err.name_combatants"))
        part: CombatPart = self.table.state[PART]
        if part.fight is not None and not part.fight.over:
            raise RuleError(t("combat.err.fight_running"))
        people: list[Combatant] = []
        for spec in specs:
            people += self._fighters(parse_fighter(spec))
            at_most(len(people), "max_combatants", t("limits.what.combatants"))
        fresh = [cb.fresh_for_fight(p) for p in people]
        return self._combat("start", {"combatants": [combatant_record(p) for p in fresh]})

    def end(self):
        return self._combat("end", {})

    def status(self):

        return CombatResult("status", (), self.table.state[PART].fight)

    def next(self):
        """End the active fighter's turn and start the next one's; the log line names who starts."""
        return self._combat("next", {}, outcome=lambda report: {
            "started": report.started, "ended": report.ended, "round": report.round,
            **({"conditions_ended": list(report.ended_conditions)} if report.ended_conditions else {}),
            **({"lost": list(report.lost)} if report.lost else {}),
            **({"burn": report.burn.damage.to_dict()} if report.burn is not None else {})})  # GURPS-HAZ-11, 12

    def maneuver(self, name: str, maneuver: str, *, option: str = "", target: str = "",
                        posture: str = "", task: str = ""):
        maneuver = maneuver_key(maneuver)
        args = {"name": name, "maneuver": maneuver, "option": option, "target": target, "posture": posture,
                "task": task}
        return self._combat("maneuver", args, actor=name, outcome=lambda report: (
            {"target": report.target, "built_up": report.built_up} if report.built_up else {}))

    def condition(self, name: str, condition: str, seconds: int = 0):
        """A condition of the GM's own on a fighter (`%combat condition Aiko Blessed 3s`): shown on his
        row, counted down at the end of each of his turns (`seconds` of them; 0: until lifted), ended
        with a line in the log."""
        return self._combat("condition", {"name": name, "condition": condition, "seconds": int(seconds)})

    def lift(self, name: str, condition: str):
        """End a condition of the GM's own before its countdown does (`%combat lift Aiko Blessed`)."""
        return self._combat("lift", {"name": name, "condition": condition})

    def posture(self, name: str, posture: str):
        """Change posture: a free crouch / kneel step when allowed, else the Change Posture maneuver."""
        posture = posture_key(posture)
        fight = running_fight(self.table.state[PART])
        current = fight.get(name)
        if cb.is_free_posture_change(current.posture, posture):
            return self._combat("posture", {"name": current.name, "posture": posture}, actor=name)
        return self.maneuver(name, "change_posture", posture=posture)

    def attack(self, attacker: str, target: str = "", weapon: str = "", **options: Any):
        """Roll to hit; the target's defenses are offered, or damage is rolled at once. Without a
        target, the first hostile fighter able to act; without a weapon, the attacker's first pick
        (the one he used last, else his best ready weapon: `picks`)."""
        known = set(cb.AttackOptions.__dataclass_fields__)
        bad = set(options) - known
        if bad:
            raise UsageError(t("combat.err.attack_options", count=len(bad), bad=", ".join(sorted(bad)),
                               known=", ".join(sorted(known))))
        if not target or not weapon:
            who = self.fighter(attacker) or attacker
            target = target or self.default_target(who)
            if not target:
                raise UsageError(t("combat.err.no_target", name=who))
            if not weapon:
                fight = running_fight(self.table.state[PART])
                c = fight.get(who)
                weapon = cb.best_weapon(c, c.maneuver if c.chosen else "attack",
                                        distance=fight.distance(c.name, fight.get(target).name))
        if options.get("extra"):  # the GM's modifiers: JSON pairs in the event, named in its log line
            options["extra"] = [[int(v), str(label)] for v, label in options["extra"]]
        return self._combat("attack", {"attacker": attacker, "target": target, "weapon": weapon,
                                       "options": options}, actor=attacker,
                            outcome=attack_working if options.get("extra") else attack_outcome)

    def defend(self, name: str, kind: str = "", weapon: str = ""):
        fight = running_fight(self.table.state[PART])
        if not kind:
            p = fight.pending
            if p is None:
                raise RuleError(t("combat.err.no_pending"))
            offered = cb.defense_options(fight, name, p.incoming, attacker=p.attacker, tried=p.tried,
                                         unheard=p.hearing == "unheard")
            kind = offered[0][0] if offered else "none"
        kind = defense_key(kind)
        if weapon and kind != "parry":
            raise UsageError(t("combat.err.weapon_for_parry", kind=kind))
        args = {"name": name, "kind": kind, **({"weapon": weapon} if weapon else {})}
        return self._combat("defend", args, actor=name, outcome=defense_outcome)

    def damage(self, name: str, spec: str, *, attacker: str = "", dr: int | None = None, half: bool = False,
                      secret: bool = False):
        """Roll damage straight onto a combatant (through DR, or `dr` instead), with every consequence;
        `half` halves it beyond 1/2D range."""
        args: dict[str, Any] = {"name": name, "spec": spec, "attacker": attacker}
        if dr is not None:
            args["dr"] = int(dr)
        if half:
            args["half"] = True
        return self._combat("damage", args, secret=secret, outcome=damage_outcome)

    def fighter(self, name: str | None) -> str | None:
        """The exact name of `name` in the running fight, or None (no fight, or not in it)."""
        fight = self.table.state[PART].fight
        if not name or fight is None or fight.over:
            return None
        found = fight.find(name)
        return None if found is None else fight.combatants[found].name

    def arm(self, name: str, weapon: str):
        return self._combat("arm", {"name": name, "weapon": weapon})

    def hazard(self, kind: str, name: str, **args: Any):
        if "seconds" in args:
            args["seconds"] = whole_number(args["seconds"], t("limits.what.seconds"), low=0, limit="max_seconds")
        if "modifier" in args:
            args["modifier"] = whole_number(args["modifier"], t("limits.what.modifier"), low=-100, high=100)
        return self._combat("hazard", {"name": name, "hazard": kind, **args}, actor=name, outcome=told)

    def first_aid(self, name: str, tl: int, *, skill: int | None = None, medic: str | None = None):
        if skill is None:
            skill = 10
            if medic:
                characters = self.table.state["gurps"].characters  # the sheets (gurps/actions.py's part)
                found, _ = resolve_name(medic, characters)
                try:  # a medic who is no character, or without First Aid at all, rolls at 10
                    skill = characters[found].skill_level("First Aid").level if found is not None else 10
                except (RuleError, DataError):
                    skill = 10
        tl = whole_number(tl, t("limits.what.tech_level"), low=0, high=12)
        skill = whole_number(skill, t("limits.what.skill"), low=-100, high=100)
        return self._combat("firstaid", {"name": name, "tl": tl, "skill": skill}, actor=medic, outcome=told)

    def rest(self, name: str, duration: str | int):
        minutes = duration if isinstance(duration, int) else parse_minutes(duration)
        return self._combat("rest", {"name": name, "minutes": minutes}, actor=name)

    def natural_healing(self, name: str, days: int = 1, *, modifier: int = 0):
        """Days of rest with food: an HT roll at the end of each, +1 HP per success (GURPS-INJ-16)."""
        days = int(days)
        if not 1 <= days <= 365:
            raise UsageError(t("combat.err.rest_days", days=days))
        return self._combat("natural_healing", {"name": name, "days": days, "modifier": int(modifier)}, actor=name,
                            outcome=told)

    def wake(self, name: str, *, care: bool = False):
        """The roll (or wait) to wake up; `care` when medical care has restored HP (GURPS-INJ-13..15)."""
        return self._combat("wake", {"name": name, "care": bool(care)}, actor=name, outcome=told)

    def mortal_check(self, name: str, *, healed: bool = False):
        """The 30-minute HT roll of a mortally wounded character; `healed` after medicine or magic
        restored HP (GURPS-INJ-10, INJ-11)."""
        return self._combat("mortal", {"name": name, "healed": bool(healed)}, actor=name, outcome=told)

    def cast(self, name: str, spell: str, cost: int, skill: int, *, modifiers: list | tuple = ()):
        cost = whole_number(cost, t("limits.what.cost"), low=0, limit="max_count")
        skill = whole_number(skill, t("limits.what.skill"), low=-100, high=100)
        for modifier in modifiers:
            whole_number(modifier[0], t("limits.what.modifier"), low=-100, high=100)
        return self._combat("cast", {"name": name, "spell": spell, "cost": cost, "skill": skill,
                                     "modifiers": [list(m) for m in modifiers]}, actor=name, outcome=told)

    # ---- the tracker's and the dashboard's calls: fighters joining or leaving a running fight, the
    # defenses a pending attack offers, the rolls due

    def join(self, spec: str):
        """Bring someone into the running fight in initiative order: a template (`Goblin`), quick
        stats (`Orc{ST=12,DX=11}`) or a session character (`Rin`)."""
        if not spec.strip():
            raise UsageError(t("table.err.join_who"))
        running_fight(self.table.state[PART])
        return self.add(spec.strip())

    def side(self, name: str, side: str):
        """Put `name` on `side` (party, foes, neutral or a side the GM names): whom he attacks by
        default, and who attacks him, follow it."""
        return self._combat("side", {"name": name, "side": side_key(side)})  # the log keeps the side's key

    def range(self, a: str, b: str, distance: str | float):
        """The distance between fighters `a` and `b` in metres: `12`, `"12m"` sets it, `"+1"` or
        `"-2m"` moves them a step apart or closer (GURPS-CMB-14 reach, CMB-39 the range table)."""
        metres, step = parse_distance(distance)
        a, b = self.fighter(a) or a, self.fighter(b) or b  # their own names: the log line finds the pair
        return self._combat("range", {"a": a, "b": b, "metres": metres, **({"step": True} if step else {})})

    def distance(self, a: str, b: str) -> float | None:
        """The metres set between `a` and `b` in the running fight, None when not set."""
        fight = self.table.state[PART].fight
        if fight is None or fight.over or fight.find(a) is None or fight.find(b) is None:
            return None
        return fight.distance(fight.get(a).name, fight.get(b).name)

    def default_target(self, name: str) -> str:
        """Whom `name` attacks when nobody is picked: the first hostile fighter able to act in
        initiative order after him (`sides.default_target`), "" when none."""
        fight = self.table.state[PART].fight
        if fight is None or fight.over or fight.find(name) is None:
            return ""
        c = fight.get(name)
        i = fight.index(c.name)
        after = (*fight.combatants[i + 1:], *fight.combatants[:i])
        return default_target((c.name, c.side), ((o.name, o.side, o.can_act) for o in after))

    def leave(self, name: str):
        """Take `name` out of the running fight; the others keep their order."""
        return self._combat("leave", {"name": name})

    def offered(self) -> tuple[str, tuple[tuple[str, int], ...]]:
        """The defender of the pending attack and the defenses he may roll with their values
        (what `%defend` rolls), or ("", ()) when no attack waits."""
        fight = self.table.state[PART].fight
        if fight is None or fight.over or fight.pending is None:
            return "", ()
        p = fight.pending
        offered = cb.defense_options(fight, p.target, p.incoming, attacker=p.attacker, tried=p.tried,
                                     unheard=p.hearing == "unheard")
        return p.target, tuple(offered)

    def parries(self) -> tuple[tuple[str, str, int], ...]:
        """The weapons the defender of the pending attack can parry it with: (weapon, label, Parry
        this roll uses), best first (GURPS-CMB-46); () when no attack waits or Parry is not offered."""
        fight = self.table.state[PART].fight
        target, offered = self.offered()
        if fight is None or fight.pending is None or "parry" not in dict(offered):
            return ()
        return cb.parry_offers(fight, target, fight.pending.incoming, attacker=fight.pending.attacker)

    def refused(self) -> tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...]:
        """The defenses the defender of the pending attack has but may not roll, each with its rule
        (a message key and fields: already parried this turn, GURPS-CMB-46 ...)."""
        fight = self.table.state[PART].fight
        if fight is None or fight.over or fight.pending is None:
            return ()
        p = fight.pending
        tried = (*p.tried, *(("parry", "block") if p.hearing == "unheard" else ()))
        return cb.refused_defenses(fight, p.target, p.incoming, attacker=p.attacker, tried=tried)

    def picks(self, name: str) -> dict[str, Any]:
        """What the tracker offers `name` to attack with: his weapon menu as (weapon, label, group)
        rows (main weapons, then shields, then natural attacks), the first pick per maneuver kind
        (`attack`, `feint`, `aim`: the one he used last, else the best ready one, GURPS-CMB-30/31),
        his default target (the first hostile fighter able to act) and the distances set to each
        other fighter."""
        fight = self.table.state[PART].fight
        if fight is None or fight.over or fight.find(name) is None:
            return {}
        c = fight.get(name)
        target = self.default_target(c.name)
        distance = fight.distance(c.name, target) if target else None
        menu = cb.weapon_menu(c, distance)
        return {
            "name": c.name, "menu": [[p.name, p.label, p.group] for p in menu],
            "best": {m: cb.best_weapon(c, m, distance=distance) for m in ("attack", "feint", "aim")},
            "target": target,
            "ranges": {o.name: m for o in fight.combatants
                       if o.name != c.name and (m := fight.distance(c.name, o.name)) is not None},
        }

    def last_target(self) -> str:
        """The target of the last attack of the running fight (the damage box's first pick), ""."""
        fight = self.table.state[PART].fight
        if fight is None or fight.over:
            return ""
        for event in reversed(self.table.active):
            if event.kind == "combat.start":
                return ""
            if event.kind == "combat.attack":
                return self.fighter(str(event.data.get("args", {}).get("target", ""))) or ""
        return ""

    def due(self) -> tuple[str, tuple[str, ...]]:
        """The active fighter and the rolls he must make before acting ("consciousness": HT at
        HP <= 0, "will": Will at FP <= 0, "stunned"); rolled when he picks a maneuver."""
        fight = self.table.state[PART].fight
        if fight is None or fight.over:
            return "", ()
        c = fight.current
        return c.name, cb.checks_due(c) if not c.chosen else ()

    def after_rolls(self) -> tuple[tuple[str, str], ...]:
        """After a fight: who owes which roll - ("Bren", "mortal") for the 30-minute HT roll of a
        mortal wound (GURPS-INJ-10), ("Orc", "wake") for the roll to wake up (INJ-13..15)."""
        fight = self.table.state[PART].fight
        if fight is None or not fight.over:
            return ()
        out = []
        for c in fight.combatants:
            if c.dead or c.destroyed:
                continue
            if c.mortal:
                out.append((c.name, "mortal"))
            elif c.unconscious:
                out.append((c.name, "wake"))
        return tuple(out)
