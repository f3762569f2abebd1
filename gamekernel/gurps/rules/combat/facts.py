"""What a combat operation changed, as plain facts an event can store, and putting them back.

Why: a replay used to rerun every combat operation on its recorded dice (the rules, the name
look-ups, the report text) only to keep the new state. The operation now runs once, live; the
event keeps the difference between the fight before and after it (the fields of each fighter that
changed, the turn, the round, the pending attack), and the reducer only writes those values back.
No rule is computed here: `fight_facts` compares two states, `apply_fight_facts` copies values.

The facts are JSON values (lists, never tuples), so the state a live event builds and the state
its stored line rebuilds are the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING
from typing import TYPE_CHECKING, Any

from gamekernel.errors import DataError
from gamekernel.gurps.rules.combat.state import (
    Combatant,
    CombatState,
    PendingAttack,
    Weapon,
    copy_with,
    gm_conditions_from_list,
    initiative_from_list,
    initiative_to_list,
    ranges_from_list,
    ranges_to_list,
)
from gamekernel.gurps.rules.defenses import Incoming
from gamekernel.i18n import t

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

# ---------------------------------------------------------------- one fighter


def combatant_facts(before: Combatant, after: Combatant) -> dict[str, Any]:
    """The fields of `after` that differ from `before` (weapons as plain dicts)."""
    if before is after:
        return {}
    old = before.__dict__
    out = {key: value for key, value in after.__dict__.items() if not _same(old.get(key, _MISSING), value)}
    if "weapons" in out:
        out["weapons"] = [w.to_dict() for w in after.weapons]
    if "gm_conditions" in out:
        out["gm_conditions"] = [list(pair) for pair in after.gm_conditions]
    return out


def apply_combatant_facts(c: Combatant, facts: Mapping[str, Any]) -> Combatant:
    """`c` with the fields `facts` hold (see `combatant_facts`)."""
    if "weapons" in facts:
        facts = {**facts, "weapons": tuple(Weapon(**w) for w in facts["weapons"])}
    if "gm_conditions" in facts:
        facts = {**facts, "gm_conditions": gm_conditions_from_list(facts["gm_conditions"])}
    return copy_with(c, **facts)


_MISSING = object()


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same type (1 and True, 0 and 0.0 are different facts)."""
    return a is b or (type(a) is type(b) and a == b)


def combatant_record(c: Combatant) -> dict[str, Any]:
    """A whole fighter as an event stores it: only the fields that differ from the defaults (weapons
    likewise), as most fighters keep most of them; `Combatant.from_dict` fills the rest back in, and
    also reads the full form of older logs."""
    out = _non_default(c, Combatant)
    for key, fills_from in _FILLED_IN.items():  # a fresh fighter's HP, FP and Hearing: filled in again
        if key in out and _same(out[key], getattr(c, fills_from)):
            del out[key]
    if "weapons" in out:
        out["weapons"] = [_non_default(w, Weapon) for w in c.weapons]
    if "gm_conditions" in out:
        out["gm_conditions"] = [list(pair) for pair in c.gm_conditions]
    return out


# The fields a Combatant fills in from others when they are left out (Combatant.__post_init__).
_FILLED_IN = {"hp": "hp_max", "fp": "fp_max", "hearing": "iq"}


def fight_record(fight: CombatState) -> dict[str, Any]:
    """A whole fight as an event stores it (`CombatState.from_dict` reads it): fighters as
    `combatant_record`s."""
    return {**fight.to_dict(), "combatants": [combatant_record(c) for c in fight.combatants]}


# ---------------------------------------------------------------- a pending attack


def pending_facts(p: PendingAttack) -> dict[str, Any]:
    """A pending attack as its fields that differ from the defaults (the attack's `incoming` too):
    most attacks are plain melee, and every attack stores one."""
    out = _non_default(p, PendingAttack)
    out["incoming"] = _non_default(p.incoming, Incoming)
    if "tried" in out:
        out["tried"] = list(p.tried)
    return out


def apply_pending_facts(facts: Mapping[str, Any]) -> PendingAttack:
    """Inverse of `pending_facts`."""
    fields = dict(facts)
    incoming = fields.get("incoming")
    fields["incoming"] = Incoming(**incoming) if incoming else _PLAIN  # frozen: one shared plain attack
    if "tried" in fields:
        fields["tried"] = tuple(fields["tried"])
    return PendingAttack(**fields)


_PLAIN = Incoming()


def _non_default(value: Any, cls: type[DataclassInstance]) -> dict[str, Any]:
    out = {}
    for name, spec in cls.__dataclass_fields__.items():
        field_value = getattr(value, name)
        if spec.default is MISSING or not _same(field_value, spec.default):
            out[name] = field_value
    return out


# ---------------------------------------------------------------- the fight

_SCALARS = ("round", "active", "over")


def fight_facts(before: CombatState | None, after: CombatState | None) -> dict[str, Any]:
    """The change from `before` to `after`: {"whole": state dict or None} when the fight begins,
    ends in None or its fighters change (someone joins or leaves); else the changed fighters by
    place ("fighters": [[index, fields], ...]) and the changed turn, round, pending attack,
    initiative and end flag."""
    if before is after:
        return {}
    if after is None or before is None or len(before.combatants) != len(after.combatants) or any(
            a.name != b.name for a, b in zip(before.combatants, after.combatants, strict=True)):
        return {"whole": None if after is None else fight_record(after)}
    out: dict[str, Any] = {}
    fighters = []
    for i, (old, new) in enumerate(zip(before.combatants, after.combatants, strict=True)):
        changed = combatant_facts(old, new)
        if changed:
            fighters.append([i, changed])
    if fighters:
        out["fighters"] = fighters
    for key in _SCALARS:
        value = getattr(after, key)
        if not _same(getattr(before, key), value):
            out[key] = value
    if before.pending != after.pending:
        out["pending"] = None if after.pending is None else pending_facts(after.pending)
    if before.initiative != after.initiative:
        out["initiative"] = initiative_to_list(after.initiative)
    if before.ranges != after.ranges:
        out["ranges"] = ranges_to_list(after.ranges)
    return out


def apply_fight_facts(fight: CombatState | None, facts: Mapping[str, Any]) -> CombatState | None:
    """`fight` changed as `facts` says (see `fight_facts`)."""
    if "whole" in facts:
        whole = facts["whole"]
        return None if whole is None else CombatState.from_dict(whole)
    if fight is None:
        raise DataError(t("combat.err.replay_facts"))
    changes: dict[str, Any] = {key: facts[key] for key in _SCALARS if key in facts}
    if "fighters" in facts:
        combatants = list(fight.combatants)
        for i, fields in facts["fighters"]:
            if not 0 <= i < len(combatants):
                raise DataError(t("combat.err.replay_facts"))
            combatants[i] = apply_combatant_facts(combatants[i], fields)
        changes["combatants"] = tuple(combatants)
    if "pending" in facts:
        pending = facts["pending"]
        changes["pending"] = None if pending is None else apply_pending_facts(pending)
    if "initiative" in facts:
        changes["initiative"] = initiative_from_list(facts["initiative"])
    if "ranges" in facts:
        changes["ranges"] = ranges_from_list(facts["ranges"])
    return copy_with(fight, **changes) if changes else fight
