"""GURPS combat on the session: the fight, NPC templates, hazards, first aid, rest and spells.

Each method validates what the GM typed and runs one operation of `combat_ops` live, recording it
as an event with its dice and the facts it changed (`combat_part.part_facts`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gamekernel.errors import DataError, NotFoundError, RuleError, UsageError
from gamekernel.events import Event, check_storable
from gamekernel.gurps.combat_ops import OPS, attack_outcome, damage_outcome, defense_outcome
from gamekernel.gurps.combat_part import (
    PART,
    CombatPart,
    lend_characters,
    named_fighters,
    part_facts,
    running,
    running_fight,
    step_fighters,
)
from gamekernel.gurps.combat_specs import FighterSpec, parse_fighter, parse_minutes, split_specs
from gamekernel.gurps.results import CombatResult
from gamekernel.gurps.rules import combat as cb
from gamekernel.gurps.rules.combat import Combatant, CombatState, Tape, copy_with
from gamekernel.gurps.rules.combat.facts import combatant_record
from gamekernel.gurps.rules.vocabulary import defense_key, maneuver_key, posture_key
from gamekernel.host import HostBase
from gamekernel.i18n import t
from gamekernel.limits import at_most, whole_number
from gamekernel.text import find_name, resolve_name


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
                try:  # a medic who is no character, or without First Aid at all, rolls at 10
                    skill = self.gurps_character(medic).skill_level("First Aid").level
                except (NotFoundError, RuleError, DataError):
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
