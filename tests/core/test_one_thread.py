"""A Session belongs to the thread that created it: a call from another thread is refused in one
line before it draws a die or records anything (two threads recording at once gave one number to
two events)."""

from __future__ import annotations

import sys
import threading

import pytest

from gamekernel import Session
from gamekernel.errors import UsageError


def run_in_thread(work) -> list[BaseException]:
    errors: list[BaseException] = []
    thread = threading.Thread(target=lambda: run_in_thread_body(work, errors), name="worker")
    thread.start()
    thread.join()
    return errors


def test_a_call_from_another_thread_is_refused_and_changes_nothing():
    session = Session(seed=5)
    session.note("mine")
    before = [e.to_json() for e in session.log]
    rng_before = session.rng.getstate()
    errors = run_in_thread(lambda: session.roll("3d6"))
    assert len(errors) == 1 and isinstance(errors[0], UsageError)
    assert "worker" in str(errors[0]) and "\n" not in str(errors[0])
    assert [e.to_json() for e in session.log] == before
    assert session.rng.getstate() == rng_before  # no die drawn
    session.note("still mine")  # the owner goes on
    assert session.log[-1].seq == session.log[-2].seq + 1


def test_two_threads_recording_at_once_never_share_a_number():
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible: the race shows at once
    try:
        session = Session(seed=5)
        start = threading.Barrier(2)

        def many() -> None:
            start.wait()
            for n in range(2000):
                session.note(f"n{n}")

        worker = threading.Thread(target=lambda: run_in_thread_body(many, errors), name="worker")
        errors: list[BaseException] = []
        worker.start()
        many()
        worker.join()
    finally:
        sys.setswitchinterval(previous)
    seqs = [e.seq for e in session.log]
    assert seqs == list(range(1, len(seqs) + 1))
    assert len(errors) == 1 and isinstance(errors[0], UsageError)


def run_in_thread_body(work, errors: list[BaseException]) -> None:
    try:
        work()
    except BaseException as error:  # handed back to the test
        errors.append(error)


@pytest.mark.parametrize("call", ["record", "undo"])
def test_every_entry_is_guarded(call):
    session = Session(seed=5)
    session.note("x")
    work = {"record": lambda: session.record("note", {"text": "y"}), "undo": lambda: session.undo()}[call]
    errors = run_in_thread(work)
    assert len(errors) == 1 and isinstance(errors[0], UsageError)
    assert len(session.log) == 2


def test_a_caller_inside_exclusive_may_use_the_session_from_another_thread_one_at_a_time():
    """A widget message handled on a kernel subshell (another thread) runs inside `command()`: it
    is not refused, and it never records at the same time as the notebook's thread."""
    session = Session(seed=5)
    errors = run_in_thread(lambda: _exclusive_rolls(session, 50))
    assert errors == []
    seqs = [e.seq for e in session.log]
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) == 51  # the seed and 50 rolls


def test_exclusive_callers_on_two_threads_never_share_a_number():
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        session = Session(seed=5)
        threads = [threading.Thread(target=_exclusive_rolls, args=(session, 200)) for _ in range(2)]
        for thread in threads:
            thread.start()
        _exclusive_rolls(session, 200)
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(previous)
    seqs = [e.seq for e in session.log]
    assert seqs == list(range(1, 602))


def _exclusive_rolls(session, count):
    for _ in range(count):
        with session.command():
            session.roll("3d6")
