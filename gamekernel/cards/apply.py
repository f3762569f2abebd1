"""Apply card records to a table, deterministically and without an RNG: all or nothing.

Why a module of its own: replay and undo rebuild a table only through this, so it must never
draw randomness and must refuse a record that does not fit. Split from cards.py, which re-exports
every name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from gamekernel.cards.facts import CardInstance, ReplayError
from gamekernel.cards.records import AddZone, Batch, Create, Destroy, Move, Op, SetPolicy, SetState, Shuffle
from gamekernel.cards.table import CardTable
from gamekernel.i18n import t

# --------------------------------------------------------------------------- apply (no rng)


def apply(table: CardTable, batch: Batch) -> None:
    """Apply a recorded batch to `table` in place, deterministically; all or nothing.

    Raises ReplayError (table unchanged) when a record does not fit: an unknown zone or card,
    a card not where the record says it was, a shuffle that is not a permutation."""
    if len(batch.ops) == 1:
        check_op(table, batch.ops[0])
        apply_op(table, batch.ops[0])
        table.version += 1
        return
    scratch = table.copy()
    for op in batch.ops:
        check_op(scratch, op)
        apply_op(scratch, op)
    table.zones, table.orders, table.cards, table.serial = (
        scratch.zones,
        scratch.orders,
        scratch.cards,
        scratch.serial,
    )
    table.version += 1


def applied(table: CardTable, batch: Batch) -> CardTable:
    """A new table: `table` with `batch` applied (the original is untouched)."""
    result = table.copy()
    apply(result, batch)
    return result


def replay(batches: Iterable[Batch], table: CardTable | None = None) -> CardTable:
    """Rebuild a table by applying `batches` in order (to a copy of `table`, or an empty one)."""
    result = table.copy() if table is not None else CardTable()
    for batch in batches:
        apply(result, batch)
    return result


def _require_zone(table: CardTable, name: str) -> None:
    if name not in table.zones:
        raise ReplayError(t("cards.err.record_zone", name=name))


def check_op(table: CardTable, op: Op) -> None:
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


def apply_op(table: CardTable, op: Op) -> None:
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


def _take(table: CardTable, uids: Sequence[str]) -> None:
    leaving = set(uids)
    for zone in {table.cards[uid].zone for uid in uids}:
        table.orders[zone] = [uid for uid in table.orders[zone] if uid not in leaving]


def _serial_of(uid: str) -> int:
    digits = uid.rsplit("#", 1)[-1]
    return int(digits) if digits.isdigit() else 0
