"""Generic cards: definitions, instances, zones and event-sourced moves. No game rules here.

Why plan/apply: every change to a `CardTable` is first *planned* - a pure function that may use the
session RNG and returns a fully determined `Batch` record (which card uids, from which zone, to
which zone, in which order, the complete shuffled order) - and then *applied* by `apply`, which
never uses an RNG. The session stores the records in its events; replaying them rebuilds the
table exactly, and undo is a replay without the last record.

Conventions: a zone's `order` lists card uids top first (index 0 = top). Every card instance is
in exactly one zone, always; only `Create`/`Destroy` records change the number of instances.

This module is the one place callers import the card core from; the code lives in one module per
job, each importing only those before it:
  cards_facts    card instances, zones, empty-zone policies, the card errors
  cards_records  the primitive moves and the Batch a session event stores
  cards_table    the CardTable (state), read only outside cards_apply
  cards_apply    apply/replay records (never an RNG)
  cards_plan     plan_* moves (the only part that may use the session RNG)
"""

from __future__ import annotations

from gamekernel.cards.apply import applied, apply, replay
from gamekernel.cards.facts import (
    ERROR_WHEN_EMPTY,
    EVERYONE,
    CardInstance,
    DrawFrom,
    EmptyPolicy,
    EmptyZoneError,
    Position,
    ReplayError,
    ZoneInfo,
)
from gamekernel.cards.plan import (
    plan_add_zone,
    plan_create,
    plan_destroy,
    plan_draw,
    plan_flip,
    plan_move,
    plan_peek,
    plan_recall,
    plan_set,
    plan_set_policy,
    plan_shuffle,
    plan_tap,
)
from gamekernel.cards.records import (
    AddZone,
    Batch,
    Create,
    Destroy,
    Move,
    Op,
    SetPolicy,
    SetState,
    Shuffle,
    op_from_dict,
)
from gamekernel.cards.table import CardTable

__all__ = [
    "ERROR_WHEN_EMPTY",
    "EVERYONE",
    "AddZone",
    "Batch",
    "CardInstance",
    "CardTable",
    "Create",
    "Destroy",
    "DrawFrom",
    "EmptyPolicy",
    "EmptyZoneError",
    "Move",
    "Op",
    "Position",
    "ReplayError",
    "SetPolicy",
    "SetState",
    "Shuffle",
    "ZoneInfo",
    "applied",
    "apply",
    "op_from_dict",
    "plan_add_zone",
    "plan_create",
    "plan_destroy",
    "plan_draw",
    "plan_flip",
    "plan_move",
    "plan_peek",
    "plan_recall",
    "plan_set",
    "plan_set_policy",
    "plan_shuffle",
    "plan_tap",
    "replay",
]
