"""Card records: the primitive moves (`AddZone`, `Create`, `Move`, `Shuffle` ...) and the `Batch`
that holds one command's moves, with their `to_dict`/`from_dict` forms.

Why a module of its own: a record is what a session event stores and what replay reads back, so
its shape is the log's schema for cards. Split from cards.py, which re-exports every name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gamekernel.cards.facts import EmptyPolicy, Position, ZoneInfo
from gamekernel.errors import DataError
from gamekernel.i18n import t

# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class AddZone:
    """Record: a new, empty zone."""

    info: ZoneInfo
    op: str = field(default="add_zone", init=False)

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "info": self.info.to_dict()}


@dataclass(frozen=True)
class SetPolicy:
    """Record: change a zone's empty-zone policy."""

    zone: str
    policy: EmptyPolicy
    op: str = field(default="set_policy", init=False)

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "zone": self.zone, "policy": self.policy.to_dict()}


@dataclass(frozen=True)
class Create:
    """Record: new card instances, `uids[i]` of `def_ids[i]`, put at the bottom of `zone` (their home)."""

    uids: tuple[str, ...]
    def_ids: tuple[str, ...]
    zone: str
    op: str = field(default="create", init=False)

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "uids": list(self.uids), "def_ids": list(self.def_ids), "zone": self.zone}


@dataclass(frozen=True)
class Destroy:
    """Record: card instances leave the table (deck editing between sessions)."""

    uids: tuple[str, ...]
    sources: tuple[str, ...]
    op: str = field(default="destroy", init=False)

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "uids": list(self.uids), "sources": list(self.sources)}


@dataclass(frozen=True)
class Move:
    """Record: cards leave their zones (`sources[i]` for `uids[i]`) and enter `to` as one block in
    the listed order (top first), at `at` ("top", "bottom" or an index). `face_up`/`tapped` set
    the arriving cards' state (None = unchanged); `forget` clears who knows them, then `reveal_to`
    adds viewers."""

    uids: tuple[str, ...]
    sources: tuple[str, ...]
    to: str
    at: Position = "bottom"
    face_up: bool | None = None
    tapped: bool | None = None
    forget: bool = False
    reveal_to: tuple[str, ...] = ()
    op: str = field(default="move", init=False)

    def to_dict(self) -> dict[str, Any]:
        """Only the fields that differ from their defaults (`op_from_dict` reads the others back)."""
        data: dict[str, Any] = {"op": self.op, "uids": list(self.uids), "sources": list(self.sources), "to": self.to}
        if self.at != "bottom":
            data["at"] = self.at
        if self.face_up is not None:
            data["face_up"] = self.face_up
        if self.tapped is not None:
            data["tapped"] = self.tapped
        if self.forget:
            data["forget"] = True
        if self.reveal_to:
            data["reveal_to"] = list(self.reveal_to)
        return data


@dataclass(frozen=True)
class Shuffle:
    """Record: `zone` now holds exactly `order` (a permutation of what it held); with `forget`,
    nobody knows where these cards are any more."""

    zone: str
    order: tuple[str, ...]
    forget: bool = True
    op: str = field(default="shuffle", init=False)

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "zone": self.zone, "order": list(self.order), "forget": self.forget}


@dataclass(frozen=True)
class SetState:
    """Record: flip, tap/untap, reveal or hide cards without moving them."""

    uids: tuple[str, ...]
    face_up: bool | None = None
    tapped: bool | None = None
    reveal_to: tuple[str, ...] = ()
    hide_from: tuple[str, ...] = ()
    op: str = field(default="set", init=False)

    def to_dict(self) -> dict[str, Any]:
        """Only the fields that differ from their defaults (`op_from_dict` reads the others back)."""
        data: dict[str, Any] = {"op": self.op, "uids": list(self.uids)}
        if self.face_up is not None:
            data["face_up"] = self.face_up
        if self.tapped is not None:
            data["tapped"] = self.tapped
        if self.reveal_to:
            data["reveal_to"] = list(self.reveal_to)
        if self.hide_from:
            data["hide_from"] = list(self.hide_from)
        return data


Op = AddZone | SetPolicy | Create | Destroy | Move | Shuffle | SetState


@dataclass(frozen=True)
class Batch:
    """One event's worth of card changes: primitive records applied in order, all or nothing.

    `uids` names the cards the operation is *about* (the drawn cards, the peeked cards) so the
    caller can show them without re-deriving them from the ops."""

    label: str
    ops: tuple[Op, ...]
    uids: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "ops": [o.to_dict() for o in self.ops], "uids": list(self.uids)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Batch:
        try:
            return cls(
                label=str(data.get("label", "")),
                ops=tuple(op_from_dict(o) for o in data["ops"]),
                uids=tuple(data.get("uids", ())),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise DataError(t("cards.err.record_field", error=error)) from error


def op_from_dict(data: Mapping[str, Any]) -> Op:
    """Rebuild one primitive record from its `to_dict` form."""
    kind = data["op"]
    if kind == "add_zone":
        return AddZone(ZoneInfo.from_dict(data["info"]))
    if kind == "set_policy":
        return SetPolicy(data["zone"], EmptyPolicy.from_dict(data["policy"]))
    if kind == "create":
        return Create(tuple(data["uids"]), tuple(data["def_ids"]), data["zone"])
    if kind == "destroy":
        return Destroy(tuple(data["uids"]), tuple(data["sources"]))
    if kind == "move":
        at = data.get("at", "bottom")
        return Move(
            uids=tuple(data["uids"]),
            sources=tuple(data["sources"]),
            to=data["to"],
            at=at if at in ("top", "bottom") else int(at),
            face_up=data.get("face_up"),
            tapped=data.get("tapped"),
            forget=bool(data.get("forget", False)),
            reveal_to=tuple(data.get("reveal_to", ())),
        )
    if kind == "shuffle":
        return Shuffle(data["zone"], tuple(data["order"]), bool(data.get("forget", True)))
    if kind == "set":
        return SetState(
            uids=tuple(data["uids"]),
            face_up=data.get("face_up"),
            tapped=data.get("tapped"),
            reveal_to=tuple(data.get("reveal_to", ())),
            hide_from=tuple(data.get("hide_from", ())),
        )
    raise DataError(t("cards.err.record_op", kind=kind))
