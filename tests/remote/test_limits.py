"""What the table takes from the network: at most 64 KB, 32 levels deep (counted before parsing, so
a 100,000-deep message never reaches the parser), each player at 2 actions a second (a burst of 4)
with at most 4 waiting, 64 for the whole table; approval-queued actions bounded too."""

from __future__ import annotations

import json

import pytest

from gamekernel import Session
from gamekernel.remote import limits
from gamekernel.remote.intents import handle


def _nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def test_a_message_of_64_kb_passes_and_one_byte_more_is_refused_413():
    body = json.dumps({"action": "roll", "dice": "x" * 10})
    exact = body + " " * (limits.MAX_BYTES - len(body))
    assert limits.parse(exact.encode())["action"] == "roll"
    with pytest.raises(limits.Refused) as refused:
        limits.parse((exact + " ").encode())
    assert refused.value.status == 413 and "\n" not in str(refused.value)


def test_depth_32_passes_depth_33_is_refused_400_and_a_huge_depth_never_recurses():
    assert limits.parse(_nested(32)) is not None
    with pytest.raises(limits.Refused) as refused:
        limits.parse(_nested(33))
    assert refused.value.status == 400 and "32" in str(refused.value)
    with pytest.raises(limits.Refused):
        limits.parse("[" * 60_000)  # no RecursionError: refused on the count
    assert limits.depth('{"a": "[[[[[[{{{{\\"]]"}') == 1  # brackets inside strings are text


def test_not_json_is_refused_400_with_one_line():
    for raw in (b"{", b"\xff\xfe", "nan-ish"):
        with pytest.raises(limits.Refused) as refused:
            limits.parse(raw)
        assert refused.value.status == 400 and "\n" not in str(refused.value)


def test_a_player_gets_a_burst_of_4_then_2_a_second():
    now = [0.0]
    gate = limits.Gate(clock=lambda: now[0])
    answers = []
    for _ in range(6):
        answers.append(gate.admit("eve"))
        gate.done("eve")
    assert answers[:4] == [None] * 4 and all(a and "too fast" in a for a in answers[4:])
    now[0] += 0.5  # one more token
    assert gate.admit("eve") is None and gate.admit("eve") is not None
    assert gate.admit("alice") is None  # another player's bucket is full


def test_at_most_4_waiting_a_player_and_64_for_the_table():
    now = [0.0]
    gate = limits.Gate(clock=lambda: now[0])
    assert [gate.admit("eve") for _ in range(4)] == [None] * 4
    now[0] += 100
    assert "waiting" in (gate.admit("eve") or "")
    gate.done("eve")
    assert gate.admit("eve") is None
    for n in range(15):
        for _ in range(4):
            assert gate.admit(f"p{n}") is None
    assert len(gate.waiting) == 16 and sum(gate.waiting.values()) == limits.WAIT_TOTAL
    assert "full" in (gate.admit("newcomer") or "")


def test_actions_waiting_for_approval_are_bounded():
    s = Session(seed=1)
    s.gurps.char_new("Aiko", dx=12)
    s.seats.seat("alice", "Aiko")
    s.seats.approval(True)
    replies = [handle(s, "alice", {"action": "roll", "dice": "3d6"}) for _ in range(limits.MAX_PENDING_PER_PLAYER + 2)]
    assert [r.ok for r in replies] == [True] * limits.MAX_PENDING_PER_PLAYER + [False, False]
    assert len(s.seats.pending) == limits.MAX_PENDING_PER_PLAYER and "approval" in replies[-1].text
