"""Generic cards: definitions, instances, zones and event-sourced moves. No game rules here.

Why plan/apply: every change to a `Table` is first *planned* - a pure function that may use the
session RNG and returns a fully determined `Batch` record (which card uids, from which zone, to
which zone, in which order, the complete shuffled order) - and then *applied* by `apply`, which
never uses an RNG. The session stores the records in its events; replaying them rebuilds the
table exactly, and undo is a replay without the last record.

Conventions: a zone's `order` lists card uids top first (index 0 = top). Every card instance is
in exactly one zone, always; only `Create`/`Destroy` records change the number of instances.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from gamekernel.display import Displayable
from gamekernel.errors import DataError, NotFoundError, RuleError, UsageError
from gamekernel.i18n import t

Position = Literal["top", "bottom"] | int
DrawFrom = Literal["top", "bottom", "random"]
EVERYONE = "*"


class EmptyZoneError(RuleError):
    """A draw asked for more cards than a zone (and its empty-zone policy) can give."""


class ReplayError(DataError):
    """A recorded move does not fit the table it is applied to (a corrupt or reordered log)."""


# --------------------------------------------------------------------------- facts and state


@dataclass(frozen=True)
class CardInstance:
    """One physical copy of a card on the table: where it is and how it lies."""

    uid: str
    def_id: str
    home: str  # the deck it returns to on recall
    zone: str
    face_up: bool = False
    tapped: bool = False
    known_to: frozenset[str] = frozenset()

    def known_by(self, viewer: str) -> bool:
        """Whether `viewer` may see this card's face (face up, or revealed to them/everyone)."""
        return self.face_up or viewer in self.known_to or EVERYONE in self.known_to

    def to_dict(self) -> dict[str, Any]:
        return {
            "uid": self.uid,
            "def_id": self.def_id,
            "home": self.home,
            "zone": self.zone,
            "face_up": self.face_up,
            "tapped": self.tapped,
            "known_to": sorted(self.known_to),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardInstance:
        return cls(
            uid=str(data["uid"]),
            def_id=str(data["def_id"]),
            home=str(data["home"]),
            zone=str(data["zone"]),
            face_up=bool(data.get("face_up", False)),
            tapped=bool(data.get("tapped", False)),
            known_to=frozenset(data.get("known_to", ())),
        )


@dataclass(frozen=True)
class EmptyPolicy:
    """What a draw does when the zone runs out.

    mode "error" (default): refuse, nothing moves. "reshuffle": move this deck's own cards from
    `zone` (e.g. its discard pile) back in, shuffle, continue. "fallback": draw the rest from
    `zone` (another deck). "partial": draw only what is there. `then`: a deck to draw the rest
    from when a reshuffle finds nothing to bring back.
    """

    mode: Literal["error", "reshuffle", "fallback", "partial"] = "error"
    zone: str | None = None
    then: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "zone": self.zone, "then": self.then}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> EmptyPolicy:
        data = data or {}
        mode = data.get("mode", "error")
        if mode not in ("error", "reshuffle", "fallback", "partial"):
            raise DataError(t("cards.err.policy_mode", mode=mode))
        if mode in ("reshuffle", "fallback") and not data.get("zone"):
            raise DataError(t("cards.err.policy_zone", mode=mode))
        return cls(mode=mode, zone=data.get("zone"), then=data.get("then"))


ERROR_WHEN_EMPTY = EmptyPolicy()


@dataclass(frozen=True)
class ZoneInfo:
    """A zone's fixed description: kind (deck, hand, readied, discard, exile, pile ...), owner,
    whether cards entering it lie face up by default, and its empty-zone policy."""

    name: str
    kind: str = "pile"
    owner: str | None = None
    face_up: bool = False
    on_empty: EmptyPolicy = ERROR_WHEN_EMPTY

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "owner": self.owner,
            "face_up": self.face_up,
            "on_empty": self.on_empty.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ZoneInfo:
        return cls(
            name=str(data["name"]),
            kind=str(data.get("kind", "pile")),
            owner=data.get("owner"),
            face_up=bool(data.get("face_up", False)),
            on_empty=EmptyPolicy.from_dict(data.get("on_empty")),
        )


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
        return {
            "op": self.op,
            "uids": list(self.uids),
            "sources": list(self.sources),
            "to": self.to,
            "at": self.at,
            "face_up": self.face_up,
            "tapped": self.tapped,
            "forget": self.forget,
            "reveal_to": list(self.reveal_to),
        }


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
        return {
            "op": self.op,
            "uids": list(self.uids),
            "face_up": self.face_up,
            "tapped": self.tapped,
            "reveal_to": list(self.reveal_to),
            "hide_from": list(self.hide_from),
        }


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


# --------------------------------------------------------------------------- the table


class Table(Displayable):
    """Every zone and card instance of a game. Change it only through `apply(table, batch)`."""

    def __init__(self) -> None:
        self.zones: dict[str, ZoneInfo] = {}
        self.orders: dict[str, list[str]] = {}
        self.cards: dict[str, CardInstance] = {}
        self.serial = 0  # last number used for a generated uid

    # ---- reading
    def zone(self, name: str) -> ZoneInfo:
        """The zone called `name`, or NotFoundError with close matches."""
        info = self.zones.get(name)
        if info is None:
            close = difflib.get_close_matches(name, list(self.zones), n=3)
            hint = t("cards.err.did_you_mean", names=", ".join(close)) if close else ""
            raise NotFoundError(t("cards.err.no_zone", name=name, hint=hint))
        return info

    def order(self, name: str) -> tuple[str, ...]:
        """The uids in zone `name`, top first."""
        self.zone(name)
        return tuple(self.orders[name])

    def count(self, name: str) -> int:
        self.zone(name)
        return len(self.orders[name])

    def card(self, uid: str) -> CardInstance:
        try:
            return self.cards[uid]
        except KeyError:
            raise NotFoundError(t("cards.err.no_card", uid=uid)) from None

    def in_zone(self, name: str) -> list[CardInstance]:
        """The instances in zone `name`, top first."""
        return [self.cards[uid] for uid in self.order(name)]

    def peek(self, name: str, n: int = 1, *, from_: Literal["top", "bottom"] = "top") -> list[CardInstance]:
        """Look at up to `n` cards from the top (or bottom) without moving or revealing anything."""
        order = self.order(name)
        picked = order[:n] if from_ == "top" else order[::-1][:n]
        return [self.cards[uid] for uid in picked]

    def known_top(self, name: str, viewer: str) -> list[CardInstance]:
        """The unbroken run of cards on top of `name` whose identity `viewer` knows."""
        run = []
        for uid in self.orders[self.zone(name).name]:
            card = self.cards[uid]
            if not card.known_by(viewer):
                break
            run.append(card)
        return run

    def home_of(self, zone: str) -> list[CardInstance]:
        """Every instance whose home deck is `zone`, wherever it is now (zone order, then top first)."""
        return [self.cards[uid] for name in self.orders for uid in self.orders[name] if self.cards[uid].home == zone]

    def copy(self) -> Table:
        other = Table()
        other.zones = dict(self.zones)
        other.orders = {name: list(order) for name, order in self.orders.items()}
        other.cards = dict(self.cards)
        other.serial = self.serial
        return other

    def check(self) -> None:
        """Raise AssertionError if the invariant is broken: each instance in exactly one zone."""
        seen: dict[str, str] = {}
        for name, order in self.orders.items():
            for uid in order:
                assert uid not in seen, f"{uid} in both {seen[uid]} and {name}"
                seen[uid] = name
                assert self.cards[uid].zone == name, f"{uid} says {self.cards[uid].zone}, lies in {name}"
        assert set(seen) == set(self.cards), "instances outside every zone"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        counts = ", ".join(f"{name}:{len(order)}" for name, order in self.orders.items())
        return f"Table({counts})"

    # ---- snapshots
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready snapshot of every zone (in order) and every instance's state."""
        return {
            "serial": self.serial,
            "zones": [{**info.to_dict(), "order": list(self.orders[name])} for name, info in self.zones.items()],
            "cards": {uid: self.cards[uid].to_dict() for uid in sorted(self.cards)},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Table:
        """Rebuild a table from `to_dict`; raises DataError if the snapshot breaks the invariant."""
        table = cls()
        try:
            table.serial = int(data.get("serial", 0))
            for zone in data["zones"]:
                info = ZoneInfo.from_dict(zone)
                table.zones[info.name] = info
                table.orders[info.name] = [str(uid) for uid in zone.get("order", ())]
            for uid, card in data["cards"].items():
                table.cards[uid] = CardInstance.from_dict(card)
            table.check()
        except (KeyError, TypeError, ValueError, AssertionError) as error:
            raise DataError(t("cards.err.snapshot", error=error)) from error
        return table


# --------------------------------------------------------------------------- apply (no rng)


def apply(table: Table, batch: Batch) -> None:
    """Apply a recorded batch to `table` in place, deterministically; all or nothing.

    Raises ReplayError (table unchanged) when a record does not fit: an unknown zone or card,
    a card not where the record says it was, a shuffle that is not a permutation."""
    if len(batch.ops) == 1:
        _check_op(table, batch.ops[0])
        _apply_op(table, batch.ops[0])
        return
    scratch = table.copy()
    for op in batch.ops:
        _check_op(scratch, op)
        _apply_op(scratch, op)
    table.zones, table.orders, table.cards, table.serial = (
        scratch.zones,
        scratch.orders,
        scratch.cards,
        scratch.serial,
    )


def applied(table: Table, batch: Batch) -> Table:
    """A new table: `table` with `batch` applied (the original is untouched)."""
    result = table.copy()
    apply(result, batch)
    return result


def replay(batches: Iterable[Batch], table: Table | None = None) -> Table:
    """Rebuild a table by applying `batches` in order (to a copy of `table`, or an empty one)."""
    result = table.copy() if table is not None else Table()
    for batch in batches:
        apply(result, batch)
    return result


def _require_zone(table: Table, name: str) -> None:
    if name not in table.zones:
        raise ReplayError(t("cards.err.record_zone", name=name))


def _check_op(table: Table, op: Op) -> None:
    if isinstance(op, AddZone):
        if op.info.name in table.zones:
            raise ReplayError(t("cards.err.record_zone_exists", name=op.info.name))
    elif isinstance(op, SetPolicy):
        _require_zone(table, op.zone)
    elif isinstance(op, Create):
        _require_zone(table, op.zone)
        if len(op.uids) != len(op.def_ids) or len(set(op.uids)) != len(op.uids):
            raise ReplayError(t("cards.err.record_create_uids"))
        clash = [uid for uid in op.uids if uid in table.cards]
        if clash:
            raise ReplayError(t("cards.err.record_card_exists", uid=clash[0]))
    elif isinstance(op, Destroy | Move):
        if len(op.uids) != len(op.sources) or len(set(op.uids)) != len(op.uids):
            raise ReplayError(t("cards.err.record_uids"))
        for uid, source in zip(op.uids, op.sources, strict=True):
            card = table.cards.get(uid)
            if card is None or card.zone != source:
                if card is None:
                    raise ReplayError(t("cards.err.record_missing", uid=uid, source=source))
                raise ReplayError(t("cards.err.record_where", uid=uid, source=source, where=card.zone))
        if isinstance(op, Move):
            _require_zone(table, op.to)
            if not isinstance(op.at, str):
                staying = len(table.orders[op.to]) - sum(1 for s in op.sources if s == op.to)
                if not 0 <= op.at <= staying:
                    raise ReplayError(t("cards.err.record_position", at=op.at, zone=op.to, staying=staying))
    elif isinstance(op, Shuffle):
        _require_zone(table, op.zone)
        if sorted(op.order) != sorted(table.orders[op.zone]):
            raise ReplayError(t("cards.err.record_shuffle", zone=op.zone))
    elif isinstance(op, SetState):
        missing = [uid for uid in op.uids if uid not in table.cards]
        if missing:
            raise ReplayError(t("cards.err.record_card", uid=missing[0]))


def _apply_op(table: Table, op: Op) -> None:
    cards = table.cards
    if isinstance(op, AddZone):
        table.zones[op.info.name] = op.info
        table.orders[op.info.name] = []
    elif isinstance(op, SetPolicy):
        table.zones[op.zone] = replace(table.zones[op.zone], on_empty=op.policy)
    elif isinstance(op, Create):
        face_up = table.zones[op.zone].face_up
        for uid, def_id in zip(op.uids, op.def_ids, strict=True):
            cards[uid] = CardInstance(uid=uid, def_id=def_id, home=op.zone, zone=op.zone, face_up=face_up)
            table.orders[op.zone].append(uid)
            table.serial = max(table.serial, _serial_of(uid))
    elif isinstance(op, Destroy):
        _take(table, op.uids)
        for uid in op.uids:
            del cards[uid]
    elif isinstance(op, Move):
        _take(table, op.uids)
        target = table.orders[op.to]
        index = 0 if op.at == "top" else len(target) if op.at == "bottom" else op.at
        target[index:index] = op.uids
        revealed = frozenset(op.reveal_to)
        for uid in op.uids:
            card = cards[uid]
            known = frozenset() if op.forget else card.known_to
            cards[uid] = CardInstance(  # direct construction: dataclasses.replace is slow on replay
                uid,
                card.def_id,
                card.home,
                op.to,
                card.face_up if op.face_up is None else op.face_up,
                card.tapped if op.tapped is None else op.tapped,
                known | revealed if revealed else known,
            )
    elif isinstance(op, Shuffle):
        table.orders[op.zone] = list(op.order)
        if op.forget:
            for uid in op.order:
                if cards[uid].known_to:
                    cards[uid] = replace(cards[uid], known_to=frozenset())
    elif isinstance(op, SetState):
        for uid in op.uids:
            card = cards[uid]
            known = card.known_to
            if op.reveal_to or op.hide_from:
                known = (known | frozenset(op.reveal_to)) - frozenset(op.hide_from)
            cards[uid] = CardInstance(
                uid,
                card.def_id,
                card.home,
                card.zone,
                card.face_up if op.face_up is None else op.face_up,
                card.tapped if op.tapped is None else op.tapped,
                known,
            )


def _take(table: Table, uids: Sequence[str]) -> None:
    leaving = set(uids)
    for zone in {table.cards[uid].zone for uid in uids}:
        table.orders[zone] = [uid for uid in table.orders[zone] if uid not in leaving]


def _serial_of(uid: str) -> int:
    digits = uid.rsplit("#", 1)[-1]
    return int(digits) if digits.isdigit() else 0


# --------------------------------------------------------------------------- plan (may use rng)


def plan_add_zone(
    table: Table,
    name: str,
    kind: str = "pile",
    *,
    owner: str | None = None,
    face_up: bool = False,
    on_empty: EmptyPolicy = ERROR_WHEN_EMPTY,
) -> Batch:
    """Record a new empty zone; UsageError if the name is taken or empty."""
    if not name or not name.strip():
        raise UsageError(t("cards.err.zone_name"))
    if name in table.zones:
        raise UsageError(t("cards.err.zone_exists", name=name))
    _check_policy(table, on_empty, name)
    return Batch(f"zone {name}", (AddZone(ZoneInfo(name, kind, owner, face_up, on_empty)),))


def plan_set_policy(table: Table, zone: str, policy: EmptyPolicy) -> Batch:
    table.zone(zone)
    _check_policy(table, policy, zone)
    return Batch(f"policy {zone} {policy.mode}", (SetPolicy(zone, policy),))


def _check_policy(table: Table, policy: EmptyPolicy, zone: str) -> None:
    if policy.zone is not None and policy.zone not in table.zones:
        table.zone(policy.zone)  # raises with close matches
    if policy.then is not None and policy.then not in table.zones:
        table.zone(policy.then)
    if zone in (policy.zone, policy.then):
        raise UsageError(t("cards.err.self_refill", zone=zone))


def plan_create(table: Table, zone: str, def_ids: Sequence[str]) -> Batch:
    """Record new instances of `def_ids` at the bottom of `zone`, which becomes their home."""
    table.zone(zone)
    uids = tuple(f"c#{table.serial + i + 1}" for i in range(len(def_ids)))
    return Batch(f"create {len(uids)} in {zone}", (Create(uids, tuple(def_ids), zone),), uids)


def plan_destroy(table: Table, uids: Sequence[str]) -> Batch:
    """Record that instances leave the table (only for deck editing; play never destroys cards)."""
    sources = tuple(table.card(uid).zone for uid in uids)
    return Batch(f"destroy {len(uids)}", (Destroy(tuple(uids), sources),), tuple(uids))


def plan_shuffle(table: Table, zone: str, rng: random.Random) -> Batch:
    """Record a shuffle of `zone` with the session RNG (the full new order is stored)."""
    order = list(table.order(zone))
    rng.shuffle(order)
    return Batch(f"shuffle {zone}", (Shuffle(zone, tuple(order)),))


def plan_move(
    table: Table,
    uids: Sequence[str],
    to: str,
    *,
    at: Position | Literal["random_bottom", "random_top"] = "bottom",
    rng: random.Random | None = None,
    face_up: bool | None = None,
    tapped: bool | None = False,
    forget: bool = False,
    reveal_to: Sequence[str] = (),
    label: str = "",
) -> Batch:
    """Record moving `uids` (in this order, top first) to zone `to`.

    `at`: "top" / "bottom" / an index keeps the given order (put back in a chosen order);
    "random_bottom" / "random_top" put them there in an order drawn from `rng`. `face_up=None`
    uses the destination's default; cards arrive untapped unless `tapped=None` (keep)."""
    info = table.zone(to)
    uids = list(uids)
    if len(set(uids)) != len(uids):
        raise UsageError(t("cards.err.twice"))
    sources = tuple(table.card(uid).zone for uid in uids)
    if at in ("random_bottom", "random_top"):
        if rng is None:
            raise UsageError(t("cards.err.move_rng", at=at))
        rng.shuffle(uids)
        at = "bottom" if at == "random_bottom" else "top"
    elif not isinstance(at, str):
        staying = table.count(to) - sum(1 for s in sources if s == to)
        if not 0 <= at <= staying:
            raise UsageError(t("cards.err.position", at=at, zone=to, staying=staying))
    elif at not in ("top", "bottom"):
        raise UsageError(t("cards.err.position_unknown", at=at))
    move = Move(
        uids=tuple(uids),
        sources=sources,
        to=to,
        at=at,
        face_up=info.face_up if face_up is None else face_up,
        tapped=tapped,
        forget=forget,
        reveal_to=tuple(reveal_to),
    )
    return Batch(label or f"move {len(uids)} to {to}", (move,), tuple(uids))


def plan_draw(
    table: Table,
    source: str,
    to: str,
    n: int = 1,
    *,
    how: DrawFrom = "top",
    rng: random.Random | None = None,
    face_up: bool | None = None,
    at: Position = "bottom",
    label: str = "",
) -> Batch:
    """Record drawing `n` cards from `source` (top, bottom or random) into `to`.

    When `source` holds fewer than `n`, its empty-zone policy decides: error (EmptyZoneError,
    nothing planned), reshuffle its discards back in, fall back to another deck, or draw fewer."""
    info = table.zone(to)
    table.zone(source)
    if n < 0:
        raise UsageError(t("cards.err.draw_count", n=n))
    if how not in ("top", "bottom", "random"):
        raise UsageError(t("cards.err.draw_from", how=how))
    if how == "random" and rng is None:
        raise UsageError(t("cards.err.draw_rng"))
    scratch = table.copy()
    ops: list[Op] = []
    drawn: list[str] = []
    arriving_face = info.face_up if face_up is None else face_up

    def take(uids: list[str]) -> None:
        if not uids:
            return
        position: Position = at
        if drawn and at == "top":
            position = len(drawn)
        elif drawn and not isinstance(at, str):
            position = at + len(drawn)
        sources = tuple(scratch.cards[uid].zone for uid in uids)
        move = Move(tuple(uids), sources, to, position, arriving_face, tapped=False)
        _check_op(scratch, move)
        _apply_op(scratch, move)
        ops.append(move)
        drawn.extend(uids)

    zone, tried = source, set()
    while len(drawn) < n:
        need = n - len(drawn)
        available = list(scratch.orders[zone])
        if len(available) >= need:
            take(_pick(available, need, how, rng))
            break
        take(_pick(available, len(available), how, rng))
        tried.add(zone)
        policy = scratch.zones[zone].on_empty
        refill = _refill_ops(scratch, zone, policy, rng) if policy.mode == "reshuffle" else None
        if refill:
            for op in refill:
                _apply_op(scratch, op)
            ops.extend(refill)
            continue
        onward = policy.zone if policy.mode == "fallback" else policy.then
        if onward and onward not in tried:
            zone = onward
            continue
        if policy.mode == "partial":
            break
        raise EmptyZoneError(t("cards.err.empty", n=n, source=source, drawn=len(drawn), mode=policy.mode))
    return Batch(label or f"draw {len(drawn)} from {source} to {to}", tuple(ops), tuple(drawn))


def _pick(available: list[str], k: int, how: DrawFrom, rng: random.Random | None) -> list[str]:
    if how == "top":
        return available[:k]
    if how == "bottom":
        return available[::-1][:k]
    assert rng is not None
    return rng.sample(available, k)


def _refill_ops(table: Table, zone: str, policy: EmptyPolicy, rng: random.Random | None) -> list[Op] | None:
    """For a "reshuffle" policy: bring this deck's own cards back from the policy's zone, shuffled."""
    if policy.mode != "reshuffle" or policy.zone is None:
        return None
    back = [uid for uid in table.orders[policy.zone] if table.cards[uid].home == zone]
    if not back:
        return None
    if rng is None:
        raise UsageError(t("cards.err.reshuffle_rng", zone=policy.zone, into=zone))
    move = Move(tuple(back), (policy.zone,) * len(back), zone, "bottom", face_up=False, tapped=False, forget=True)
    order = list(table.orders[zone]) + back
    rng.shuffle(order)
    return [move, Shuffle(zone, tuple(order))]


def plan_recall(
    table: Table, deck: str, *, rng: random.Random | None = None, zones: Iterable[str] | None = None
) -> Batch:
    """Record returning every card whose home is `deck` (from `zones`, or from everywhere) to its
    bottom, face down, untapped and unknown; then a shuffle of the deck when `rng` is given."""
    table.zone(deck)
    allowed = set(zones) if zones is not None else None
    back = tuple(
        card.uid for card in table.home_of(deck) if card.zone != deck and (allowed is None or card.zone in allowed)
    )
    ops: list[Op] = []
    if back:
        sources = tuple(table.cards[uid].zone for uid in back)
        ops.append(Move(back, sources, deck, "bottom", face_up=False, tapped=False, forget=True))
    if rng is not None:
        order = list(table.orders[deck]) + list(back)
        rng.shuffle(order)
        ops.append(Shuffle(deck, tuple(order)))
    return Batch(f"recall {deck}", tuple(ops), back)


def plan_set(
    table: Table,
    uids: Sequence[str],
    *,
    face_up: bool | None = None,
    tapped: bool | None = None,
    reveal_to: Sequence[str] = (),
    hide_from: Sequence[str] = (),
    label: str = "",
) -> Batch:
    """Record flips, taps and reveals of cards that stay where they are."""
    for uid in uids:
        table.card(uid)
    op = SetState(tuple(uids), face_up, tapped, tuple(reveal_to), tuple(hide_from))
    return Batch(label or "set", (op,), tuple(uids))


def plan_tap(table: Table, uid: str, tapped: bool = True) -> Batch:
    """Record tapping (or untapping) one card; RuleError if it already is."""
    card = table.card(uid)
    if card.tapped == tapped:
        raise RuleError(t("cards.err.already_tapped" if tapped else "cards.err.already_untapped", uid=uid))
    return plan_set(table, [uid], tapped=tapped, label="tap" if tapped else "untap")


def plan_flip(table: Table, uid: str, face_up: bool | None = None) -> Batch:
    """Record turning a card face up/down (toggle when `face_up` is None)."""
    card = table.card(uid)
    target = not card.face_up if face_up is None else face_up
    return plan_set(table, [uid], face_up=target, label="flip")


def plan_peek(table: Table, zone: str, n: int, viewer: str, *, from_: Literal["top", "bottom"] = "top") -> Batch:
    """Record that `viewer` looks at up to `n` cards of `zone` (nothing moves; they become known)."""
    seen = [card.uid for card in table.peek(zone, n, from_=from_)]
    return plan_set(table, seen, reveal_to=[viewer], label=f"peek {len(seen)} of {zone}")
