"""Plan card moves: pure functions that may use the session RNG and return a fully determined
`Batch` (which cards, from where, to where, in which order).

Why a module of its own: this is the only part of the card core that draws randomness; what it
returns is recorded and applied by `cards_apply`. Split from cards.py, which re-exports every name.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from typing import Literal

from gamekernel.cards.apply import apply_op, check_op
from gamekernel.cards.facts import ERROR_WHEN_EMPTY, DrawFrom, EmptyPolicy, EmptyZoneError, Position, ZoneInfo
from gamekernel.cards.records import AddZone, Batch, Create, Destroy, Move, Op, SetPolicy, SetState, Shuffle
from gamekernel.cards.table import CardTable
from gamekernel.errors import RuleError, UsageError
from gamekernel.i18n import t

# --------------------------------------------------------------------------- plan (may use rng)


def plan_add_zone(
    table: CardTable,
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


def plan_set_policy(table: CardTable, zone: str, policy: EmptyPolicy) -> Batch:
    table.zone(zone)
    _check_policy(table, policy, zone)
    return Batch(f"policy {zone} {policy.mode}", (SetPolicy(zone, policy),))


def _check_policy(table: CardTable, policy: EmptyPolicy, zone: str) -> None:
    if policy.zone is not None and policy.zone not in table.zones:
        table.zone(policy.zone)  # raises with close matches
    if policy.then is not None and policy.then not in table.zones:
        table.zone(policy.then)
    if zone in (policy.zone, policy.then):
        raise UsageError(t("cards.err.self_refill", zone=zone))


def plan_create(table: CardTable, zone: str, def_ids: Sequence[str]) -> Batch:
    """Record new instances of `def_ids` at the bottom of `zone`, which becomes their home."""
    table.zone(zone)
    uids = tuple(f"c#{table.serial + i + 1}" for i in range(len(def_ids)))
    return Batch(f"create {len(uids)} in {zone}", (Create(uids, tuple(def_ids), zone),), uids)


def plan_destroy(table: CardTable, uids: Sequence[str]) -> Batch:
    """Record that instances leave the table (only for deck editing; play never destroys cards)."""
    sources = tuple(table.card(uid).zone for uid in uids)
    return Batch(f"destroy {len(uids)}", (Destroy(tuple(uids), sources),), tuple(uids))


def plan_shuffle(table: CardTable, zone: str, rng: random.Random) -> Batch:
    """Record a shuffle of `zone` with the session RNG (the full new order is stored)."""
    order = list(table.order(zone))
    rng.shuffle(order)
    return Batch(f"shuffle {zone}", (Shuffle(zone, tuple(order)),))


def plan_move(
    table: CardTable,
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
    table: CardTable,
    source: str,
    to: str,
    n: int = 1,
    *,
    how: DrawFrom = "top",
    rng: random.Random | None = None,
    face_up: bool | None = None,
    at: Position = "bottom",
    label: str = "",
    keep_out: Collection[str] = (),
    in_place: bool = False,
) -> Batch:
    """Record drawing `n` cards from `source` (top, bottom or random) into `to`.

    When `source` holds fewer than `n`, its empty-zone policy decides: error (EmptyZoneError,
    nothing planned), reshuffle its discards back in, fall back to another deck, or draw fewer.
    A reshuffle leaves out the cards in `keep_out` (the ones just discarded, so a replacement is never
    the card it replaces) unless nothing else could come back.

    The moves are worked out on a copy of `table`; with `in_place`, `table` is the caller's own
    scratch copy and takes them itself (left part-way when the draw is refused: throw it away)."""
    info = table.zone(to)
    table.zone(source)
    if n < 0:
        raise UsageError(t("cards.err.draw_count", n=n))
    if how not in ("top", "bottom", "random"):
        raise UsageError(t("cards.err.draw_from", how=how))
    if how == "random" and rng is None:
        raise UsageError(t("cards.err.draw_rng"))
    scratch = table if in_place else table.copy()
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
        check_op(scratch, move)
        apply_op(scratch, move)
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
        refill = _refill_ops(scratch, zone, policy, rng, keep_out) if policy.mode == "reshuffle" else None
        if refill:
            for op in refill:
                apply_op(scratch, op)
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


def _refill_ops(table: CardTable, zone: str, policy: EmptyPolicy, rng: random.Random | None,
                keep_out: Collection[str] = ()) -> list[Op] | None:
    """For a "reshuffle" policy: bring this deck's own cards back from the policy's zone, shuffled
    (without `keep_out` when other cards can come back)."""
    if policy.mode != "reshuffle" or policy.zone is None:
        return None
    back = [uid for uid in table.orders[policy.zone] if table.cards[uid].home == zone]
    back = [uid for uid in back if uid not in keep_out] or back
    if not back:
        return None
    if rng is None:
        raise UsageError(t("cards.err.reshuffle_rng", zone=policy.zone, into=zone))
    move = Move(tuple(back), (policy.zone,) * len(back), zone, "bottom", face_up=False, tapped=False, forget=True)
    order = list(table.orders[zone]) + back
    rng.shuffle(order)
    return [move, Shuffle(zone, tuple(order))]


def plan_recall(
    table: CardTable, deck: str, *, rng: random.Random | None = None, zones: Iterable[str] | None = None
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
    table: CardTable,
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


def plan_tap(table: CardTable, uid: str, tapped: bool = True) -> Batch:
    """Record tapping (or untapping) one card; RuleError if it already is."""
    card = table.card(uid)
    if card.tapped == tapped:
        raise RuleError(t("cards.err.already_tapped" if tapped else "cards.err.already_untapped", uid=uid))
    return plan_set(table, [uid], tapped=tapped, label="tap" if tapped else "untap")


def plan_flip(table: CardTable, uid: str, face_up: bool | None = None) -> Batch:
    """Record turning a card face up/down (toggle when `face_up` is None)."""
    card = table.card(uid)
    target = not card.face_up if face_up is None else face_up
    return plan_set(table, [uid], face_up=target, label="flip")


def plan_peek(table: CardTable, zone: str, n: int, viewer: str, *, from_: Literal["top", "bottom"] = "top") -> Batch:
    """Record that `viewer` looks at up to `n` cards of `zone` (nothing moves; they become known)."""
    seen = [card.uid for card in table.peek(zone, n, from_=from_)]
    return plan_set(table, seen, reveal_to=[viewer], label=f"peek {len(seen)} of {zone}")
