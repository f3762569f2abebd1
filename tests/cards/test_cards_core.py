"""Card core (gamekernel.cards): zones, moves, policies, records. Generic - no game rules."""

from __future__ import annotations

import json
import random

import pytest

from gamekernel.cards import (
    Batch,
    CardTable,
    EmptyPolicy,
    EmptyZoneError,
    Move,
    ReplayError,
    SetState,
    applied,
    apply,
    op_from_dict,
    plan_add_zone,
    plan_create,
    plan_destroy,
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
from gamekernel.errors import NotFoundError, RuleError, UsageError


class Log:
    """A table plus the records applied to it, as a session would keep them."""

    def __init__(self) -> None:
        self.table = CardTable()
        self.batches: list[Batch] = []

    def do(self, batch: Batch) -> Batch:
        apply(self.table, batch)
        self.batches.append(batch)
        return batch


@pytest.fixture
def log() -> Log:
    log = Log()
    log.do(plan_add_zone(log.table, "deck", "deck"))
    log.do(plan_add_zone(log.table, "hand", "hand", owner="Rin", face_up=True))
    log.do(plan_add_zone(log.table, "discard", "discard", face_up=True))
    log.do(plan_add_zone(log.table, "exile", "exile", face_up=True))
    log.do(plan_create(log.table, "deck", list("abcdef")))
    return log


def defs(table: CardTable, zone: str) -> list[str]:
    return [card.def_id for card in table.in_zone(zone)]


def test_create_puts_cards_in_home_deck_top_first(log: Log) -> None:
    assert defs(log.table, "deck") == list("abcdef")
    assert all(card.home == "deck" and not card.face_up for card in log.table.in_zone("deck"))
    log.table.check()


def test_draw_top_bottom_random(log: Log) -> None:
    log.do(plan_draw(log.table, "deck", "hand", 2))
    assert defs(log.table, "hand") == ["a", "b"]
    log.do(plan_draw(log.table, "deck", "hand", 1, how="bottom"))
    assert defs(log.table, "hand") == ["a", "b", "f"]
    batch = log.do(plan_draw(log.table, "deck", "hand", 2, how="random", rng=random.Random(3)))
    assert len(batch.uids) == 2 and set(defs(log.table, "hand")[3:]) <= set("cde")
    assert all(card.face_up and not card.tapped for card in log.table.in_zone("hand"))


def test_random_draw_without_rng_is_a_usage_error(log: Log) -> None:
    with pytest.raises(UsageError):
        plan_draw(log.table, "deck", "hand", 1, how="random")


def test_empty_deck_errors_by_default_and_nothing_moves(log: Log) -> None:
    before = log.table.to_dict()
    with pytest.raises(EmptyZoneError, match=r"cannot draw 7 from 'deck': only 6 available"):
        plan_draw(log.table, "deck", "hand", 7)
    assert log.table.to_dict() == before


def test_empty_deck_partial_policy_draws_what_is_left(log: Log) -> None:
    log.do(plan_set_policy(log.table, "deck", EmptyPolicy("partial")))
    batch = log.do(plan_draw(log.table, "deck", "hand", 9))
    assert len(batch.uids) == 6 and log.table.count("deck") == 0


def test_empty_deck_reshuffle_policy_draws_the_rest_then_reshuffles_discards(log: Log) -> None:
    log.do(plan_set_policy(log.table, "deck", EmptyPolicy("reshuffle", "discard")))
    log.do(plan_draw(log.table, "deck", "discard", 5))
    batch = log.do(plan_draw(log.table, "deck", "hand", 3, rng=random.Random(1)))
    assert defs(log.table, "hand")[0] == "f"  # the last card of the old deck comes first
    assert len(batch.uids) == 3 and log.table.count("discard") == 0 and log.table.count("deck") == 3
    assert any(op.op == "shuffle" for op in batch.ops)


def test_reshuffle_only_takes_back_cards_whose_home_is_this_deck(log: Log) -> None:
    log.do(plan_add_zone(log.table, "gm", "deck"))
    log.do(plan_create(log.table, "gm", ["x", "y"]))
    log.do(plan_set_policy(log.table, "deck", EmptyPolicy("reshuffle", "discard")))
    log.do(plan_draw(log.table, "gm", "discard", 2))
    log.do(plan_draw(log.table, "deck", "discard", 6))
    log.do(plan_draw(log.table, "deck", "hand", 6, rng=random.Random(2)))
    assert sorted(defs(log.table, "discard")) == ["x", "y"]


def test_fallback_policy_draws_the_rest_from_another_deck(log: Log) -> None:
    log.do(plan_add_zone(log.table, "gm", "deck"))
    log.do(plan_create(log.table, "gm", ["x", "y"]))
    log.do(plan_set_policy(log.table, "deck", EmptyPolicy("fallback", "gm")))
    log.do(plan_draw(log.table, "deck", "hand", 7))
    assert defs(log.table, "hand") == [*"abcdef", "x"]


def test_policy_errors_name_the_zone() -> None:
    table = CardTable()
    apply(table, plan_add_zone(table, "deck", "deck"))
    with pytest.raises(NotFoundError, match="discard"):
        plan_set_policy(table, "deck", EmptyPolicy("reshuffle", "discard"))
    with pytest.raises(UsageError, match="itself"):
        plan_set_policy(table, "deck", EmptyPolicy("reshuffle", "deck"))


def test_move_to_bottom_in_random_order_and_put_back_on_top_in_given_order(log: Log) -> None:
    top_two = list(log.table.order("deck")[:2])
    log.do(plan_move(log.table, top_two, "deck", at="random_bottom", rng=random.Random(5)))
    assert set(log.table.order("deck")[-2:]) == set(top_two) and defs(log.table, "deck")[0] == "c"
    chosen = list(log.table.order("deck")[-2:])[::-1]
    log.do(plan_move(log.table, chosen, "deck", at="top"))
    assert list(log.table.order("deck")[:2]) == chosen


def test_move_at_index(log: Log) -> None:
    uid = log.table.order("deck")[0]
    log.do(plan_move(log.table, [uid], "deck", at=3))
    assert defs(log.table, "deck") == list("bcdaef")
    with pytest.raises(UsageError, match="outside"):
        plan_move(log.table, [uid], "deck", at=9)


def test_peek_reveals_without_moving_and_known_top_tracks_it(log: Log) -> None:
    before = log.table.order("deck")
    assert [c.def_id for c in log.table.peek("deck", 2)] == ["a", "b"]
    log.do(plan_peek(log.table, "deck", 2, "Mira"))
    assert log.table.order("deck") == before
    assert [c.def_id for c in log.table.known_top("deck", "Mira")] == ["a", "b"]
    assert log.table.known_top("deck", "Rin") == []
    log.do(plan_shuffle(log.table, "deck", random.Random(0)))
    assert log.table.known_top("deck", "Mira") == []  # a shuffle makes every card unknown


def test_flip_and_tap(log: Log) -> None:
    uid = log.do(plan_draw(log.table, "deck", "hand", 1)).uids[0]
    log.do(plan_tap(log.table, uid))
    assert log.table.card(uid).tapped
    with pytest.raises(RuleError, match="already tapped"):
        plan_tap(log.table, uid)
    log.do(plan_tap(log.table, uid, False))
    log.do(plan_flip(log.table, uid))
    assert not log.table.card(uid).face_up and not log.table.card(uid).known_by("Rin")


def test_recall_returns_home_cards_face_down_untapped_and_unknown(log: Log) -> None:
    log.do(plan_draw(log.table, "deck", "hand", 3))
    uid = log.table.order("hand")[0]
    log.do(plan_tap(log.table, uid))
    log.do(plan_move(log.table, [log.table.order("hand")[1]], "exile"))
    log.do(plan_recall(log.table, "deck", rng=random.Random(4)))
    assert log.table.count("deck") == 6 and log.table.count("hand") == 0 and log.table.count("exile") == 0
    assert all(not c.tapped and not c.face_up for c in log.table.in_zone("deck"))


def test_destroy_removes_instances_for_deck_editing(log: Log) -> None:
    uid = log.table.order("deck")[0]
    log.do(plan_destroy(log.table, [uid]))
    assert log.table.count("deck") == 5 and uid not in log.table.cards
    log.table.check()


def test_apply_refuses_a_record_that_does_not_fit_and_leaves_table_unchanged(log: Log) -> None:
    uid = log.table.order("deck")[0]
    stale = plan_move(log.table, [uid], "hand")
    log.do(plan_move(log.table, [uid], "exile"))
    before = log.table.to_dict()
    with pytest.raises(ReplayError, match="expected in 'deck', found in 'exile'"):
        apply(log.table, stale)
    assert log.table.to_dict() == before
    with pytest.raises(ReplayError):
        apply(log.table, Batch("bad", (Move(("nope",), ("deck",), "hand"),)))


def test_batch_is_all_or_nothing(log: Log) -> None:
    uid = log.table.order("deck")[0]
    good = plan_move(log.table, [uid], "hand").ops[0]
    bad = Move(("c#99",), ("deck",), "hand")
    before = log.table.to_dict()
    with pytest.raises(ReplayError):
        apply(log.table, Batch("mixed", (good, bad)))
    assert log.table.to_dict() == before


def test_records_round_trip_through_json_and_replay_exactly(log: Log) -> None:
    rng = random.Random(9)
    log.do(plan_shuffle(log.table, "deck", rng))
    log.do(plan_draw(log.table, "deck", "hand", 3, how="random", rng=rng))
    log.do(plan_move(log.table, list(log.table.order("hand")), "deck", at="random_bottom", rng=rng))
    text = [json.dumps(b.to_dict()) for b in log.batches]
    rebuilt = replay(Batch.from_dict(json.loads(line)) for line in text)
    assert rebuilt == log.table
    assert CardTable.from_dict(json.loads(json.dumps(log.table.to_dict()))) == log.table


def test_undo_is_replay_without_the_last_record(log: Log) -> None:
    before = log.table.copy()
    log.do(plan_draw(log.table, "deck", "hand", 2))
    assert replay(log.batches[:-1]) == before


def test_applied_leaves_the_original_untouched(log: Log) -> None:
    before = log.table.to_dict()
    after = applied(log.table, plan_draw(log.table, "deck", "hand", 1))
    assert log.table.to_dict() == before and after.count("hand") == 1


def test_unknown_zone_suggests_close_matches(log: Log) -> None:
    with pytest.raises(NotFoundError, match="did you mean discard"):
        log.table.zone("discrad")


def test_snapshot_that_breaks_the_invariant_is_a_data_error(log: Log) -> None:
    from gamekernel.errors import DataError

    data = log.table.to_dict()
    data["zones"][1]["order"].append(data["zones"][0]["order"][0])
    with pytest.raises(DataError, match="snapshot"):
        CardTable.from_dict(data)


def test_reshuffle_then_fallback_deck_when_discards_are_exhausted(log: Log) -> None:
    log.do(plan_add_zone(log.table, "gm", "deck"))
    log.do(plan_create(log.table, "gm", ["x", "y"]))
    log.do(plan_set_policy(log.table, "deck", EmptyPolicy("reshuffle", "discard", then="gm")))
    log.do(plan_draw(log.table, "deck", "discard", 2))
    log.do(plan_draw(log.table, "deck", "hand", 4))
    batch = log.do(plan_draw(log.table, "deck", "hand", 4, rng=random.Random(0)))
    assert [log.table.card(uid).def_id for uid in batch.uids][2:] == ["x", "y"]
    assert log.table.count("discard") == 0


def test_records_store_only_the_fields_they_set_and_read_back_exactly() -> None:
    """A move or a tap in the log holds what it changes; the defaults are read back from absence."""
    plain = Move(("c#1",), ("deck",), "hand")
    assert plain.to_dict() == {"op": "move", "uids": ["c#1"], "sources": ["deck"], "to": "hand"}
    full = Move(("c#1", "c#2"), ("deck", "hand"), "pile", at=1, face_up=False, tapped=False, forget=True,
                reveal_to=("Rin",))
    tap = SetState(("c#1",), tapped=True)
    assert tap.to_dict() == {"op": "set", "uids": ["c#1"], "tapped": True}
    reveal = SetState(("c#1",), face_up=False, tapped=False, reveal_to=("Rin",), hide_from=("Bren",))
    for record in (plain, full, tap, reveal):
        assert op_from_dict(json.loads(json.dumps(record.to_dict()))) == record


def test_a_draw_in_place_moves_the_scratch_table_it_plans_on_as_applying_its_batch_would(log: Log) -> None:
    log.do(plan_set_policy(log.table, "deck", EmptyPolicy("reshuffle", "discard")))
    log.do(plan_draw(log.table, "deck", "discard", 5))
    scratch = log.table.copy()
    batch = plan_draw(scratch, "deck", "hand", 3, rng=random.Random(1), in_place=True)  # a reshuffle on the way
    assert batch == plan_draw(log.table, "deck", "hand", 3, rng=random.Random(1))  # the same record
    assert scratch.to_dict() == applied(log.table, batch).to_dict()
    assert log.table.count("hand") == 0  # the table it was copied from is untouched


def test_a_draw_without_in_place_leaves_its_table_alone(log: Log) -> None:
    before = log.table.to_dict()
    plan_draw(log.table, "deck", "hand", 2)
    assert log.table.to_dict() == before
