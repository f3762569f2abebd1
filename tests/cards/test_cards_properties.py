"""Properties of the card core: random operation sequences keep the invariant (every instance in
exactly one zone, count unchanged), replaying the records reproduces the table exactly, and
undo (replay without the last record) restores the previous table."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gamekernel.cards import (
    Batch,
    CardTable,
    EmptyPolicy,
    apply,
    plan_add_zone,
    plan_create,
    plan_draw,
    plan_flip,
    plan_move,
    plan_peek,
    plan_recall,
    plan_set_policy,
    plan_shuffle,
    plan_tap,
    replay,
)
from gamekernel.errors import GameKernelError

ZONES = ("deck", "hand", "readied", "discard", "exile", "gm")
OPS = (
    "draw",
    "draw_random",
    "draw_bottom",
    "move_top",
    "move_bottom",
    "random_bottom",
    "index",
    "shuffle",
    "tap",
    "flip",
    "peek",
    "recall",
)


def setup() -> tuple[CardTable, list[Batch]]:
    table, batches = CardTable(), []
    for batch_maker in (
        lambda t: plan_add_zone(t, "deck", "deck"),
        lambda t: plan_add_zone(t, "gm", "deck"),
        lambda t: plan_add_zone(t, "hand", "hand", face_up=True),
        lambda t: plan_add_zone(t, "readied", "readied", face_up=True),
        lambda t: plan_add_zone(t, "discard", "discard", face_up=True),
        lambda t: plan_add_zone(t, "exile", "exile"),
        lambda t: plan_create(t, "deck", [f"d{i}" for i in range(8)]),
        lambda t: plan_create(t, "gm", [f"g{i % 3}" for i in range(6)]),
        lambda t: plan_set_policy(t, "deck", EmptyPolicy("reshuffle", "discard")),
        lambda t: plan_set_policy(t, "gm", EmptyPolicy("partial")),
    ):
        batch = batch_maker(table)
        apply(table, batch)
        batches.append(batch)
    return table, batches


def plan(table: CardTable, op: str, a: int, b: int, n: int, rng: random.Random) -> Batch:
    source, target = ZONES[a % len(ZONES)], ZONES[b % len(ZONES)]
    cards = list(table.order(source))
    picked = cards[:n]
    if op == "draw":
        return plan_draw(table, source, target, n, rng=rng)
    if op == "draw_random":
        return plan_draw(table, source, target, n, how="random", rng=rng)
    if op == "draw_bottom":
        return plan_draw(table, source, target, n, how="bottom", at="top", rng=rng)
    if op in ("move_top", "move_bottom"):
        return plan_move(table, picked, target, at="top" if op == "move_top" else "bottom")
    if op == "random_bottom":
        return plan_move(table, picked, target, at="random_bottom", rng=rng)
    if op == "index":
        staying = table.count(target) - sum(1 for uid in picked if table.card(uid).zone == target)
        return plan_move(table, picked, target, at=min(n, staying))
    if op == "shuffle":
        return plan_shuffle(table, source, rng)
    if op == "tap":
        return (
            plan_tap(table, cards[0], not table.card(cards[0]).tapped)
            if cards
            else plan_shuffle(table, source, rng)
        )
    if op == "flip":
        return plan_flip(table, cards[0]) if cards else plan_shuffle(table, source, rng)
    if op == "peek":
        return plan_peek(table, source, n, "Rin")
    return plan_recall(table, "deck" if a % 2 else "gm", rng=rng)


steps = st.lists(
    st.tuples(st.sampled_from(OPS), st.integers(0, 5), st.integers(0, 5), st.integers(0, 4)),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(steps=steps, seed=st.integers(0, 2**32))
def test_random_operations_keep_invariant_and_replay_and_undo_exactly(steps, seed) -> None:
    rng = random.Random(seed)
    table, batches = setup()
    total = len(table.cards)
    for op, a, b, n in steps:
        before = table.copy()
        try:
            batch = plan(table, op, a, b, n, rng)
        except GameKernelError:
            assert table == before  # a refused operation changes nothing
            continue
        apply(table, batch)
        batches.append(batch)
        table.check()
        assert len(table.cards) == total
        assert sum(table.count(z) for z in ZONES) == total
        assert replay(batches[:-1]) == before  # undo
    replayed = replay(Batch.from_dict(json.loads(json.dumps(b.to_dict()))) for b in batches)
    assert replayed == table
    assert CardTable.from_dict(json.loads(json.dumps(table.to_dict()))) == table
