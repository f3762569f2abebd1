"""The GURPS fight's state part (the fight, NPC templates, everyone met outside a fight) and the
facts a combat event records of what it changed, written back by the reducer.

Why a module of its own: the part and its facts are what replay and undo rebuild; the operations
that change it (`combat_ops`) and the session methods that run them (`combat_actions`) sit above.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gamekernel.errors import NotFoundError, RuleError
from gamekernel.gurps.rules.combat import Combatant, CombatState, copy_with
from gamekernel.gurps.rules.combat.facts import (
    apply_combatant_facts,
    apply_fight_facts,
    combatant_facts,
    combatant_record,
    fight_facts,
)
from gamekernel.gurps.rules.combat.sheets import combatant_from_character, sheet_weapons, with_states
from gamekernel.i18n import t
from gamekernel.state import TableState, register_part
from gamekernel.text import match_key, resolve_name, same_name

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
        if self.fight is not None and not self.fight.over and is_fighter(self.fight, c.name, exact=True):
            return {"fight": self.fight.put(c)}
        changes: dict[str, Any] = {"roster": {**self.roster, c.name: c}}
        if c.name in (self.characters or {}) and not c.stand_in:
            changes["characters"] = {c.name: c}
        return changes


register_part(PART, CombatPart)


def running(fight: CombatState | None) -> CombatState | None:
    """`fight` while it runs, else None (an ended fight is no longer the one a step works on)."""
    return fight if fight is not None and not fight.over else None


def running_fight(part: CombatPart) -> CombatState:
    """The fight every combat step works on; refused with the usage example when none is running."""
    if part.fight is None or part.fight.over:
        raise RuleError(t("combat.err.no_fight_example"))
    return part.fight


def is_fighter(fight: CombatState, name: str, *, exact: bool = False) -> bool:
    """Whether `name` is a fighter; `exact` when it is a fighter's own name being stored back, so that
    someone else whose name starts a fighter's is never written over him."""
    if exact:
        return any(same_name(c.name, name) for c in fight.combatants)
    return fight.find(name) is not None


def lend_characters(state: TableState, part: CombatPart) -> None:
    """Let the combat part read the session's GURPS characters (a PC joining by name, a replay of an
    older event); the caller takes them back (`part.characters = None`) when the step is done."""
    gurps = state.parts.get("gurps")
    part.characters = getattr(gurps, "characters", None)


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
