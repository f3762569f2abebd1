"""`Session.command(user)` is the one entry of every caller (a magic's `guarded` wrapper, a widget's
click, a player's intent): one caller at a time from any thread, the dice of a command refused before it
recorded anything put back, the lock and holder given back either way, and with `user` every event
inside stamped with the player who acted (then the stamp is given back too)."""

from __future__ import annotations

import sys
import threading

import pytest

from gamekernel import Session
from gamekernel.errors import GameKernelError, UsageError

SCOPES = [pytest.param(lambda s: s.command(), id="command"), pytest.param(lambda s: s.command("alice"), id="as-user")]


@pytest.mark.parametrize("scope", SCOPES)
def test_a_command_refused_before_recording_draws_no_dice(scope):
    session = Session(seed=9)
    before = session.rng.getstate()
    with pytest.raises(UsageError), scope(session):
        session.rng.randint(1, 6)
        session.secret_rng.randint(1, 6)
        raise UsageError("refused after rolling")
    assert session.rng.getstate() == before and len(session.log) == 1
    assert session._holder is None and session._lock.acquire(blocking=False)
    session._lock.release()


@pytest.mark.parametrize("scope", SCOPES)
def test_a_command_that_recorded_or_failed_otherwise_keeps_its_dice(scope):
    session, fresh = Session(seed=9), Session(seed=9)
    with scope(session):
        session.roll("3d6")
    with pytest.raises(ValueError), scope(session):  # not a GameKernelError: nothing is put back
        session.rng.randint(1, 6)
        raise ValueError("a bug")
    fresh.roll("3d6")
    fresh.rng.randint(1, 6)
    assert session.rng.getstate() == fresh.rng.getstate()
    with pytest.raises(GameKernelError), scope(session):  # recorded, then refused: the roll's dice stay
        session.roll("1d6")
        raise UsageError("refused after recording")
    assert session.log[-1].kind == "roll"


def test_inside_command_the_holder_is_this_thread_and_nested_scopes_give_it_back():
    session = Session(seed=9)
    with session.command():
        assert session._holder == threading.get_ident()
        with session.command():
            session.roll("1d6")
        assert session._holder == threading.get_ident()
    assert session._holder is None


def test_command_callers_on_two_threads_never_share_a_number():
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    session = Session(seed=5)

    def rolls():
        for _ in range(200):
            with session.command():
                session.roll("3d6")

    try:
        threads = [threading.Thread(target=rolls) for _ in range(2)]
        for thread in threads:
            thread.start()
        rolls()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(previous)
    assert [e.seq for e in session.log] == list(range(1, 602))


def test_a_record_from_another_thread_outside_any_scope_is_still_refused():
    session = Session(seed=5)
    errors: list[BaseException] = []

    def note():
        try:
            session.note("not mine")
        except UsageError as error:
            errors.append(error)

    thread = threading.Thread(target=note, name="worker")
    thread.start()
    thread.join()
    assert len(errors) == 1 and "worker" in str(errors[0]) and len(session.log) == 1


def test_a_command_as_a_user_stamps_every_event_inside_and_only_inside():
    session = Session(seed=9)
    with session.command("alice"):
        session.roll("1d6")
        with session.command():  # a nested command keeps the acting user
            session.note("inner")
    session.roll("1d6")
    assert [e.by for e in session.log[1:]] == ["alice", "alice", None]
    with pytest.raises(UsageError), session.command("bob"):
        raise UsageError("refused")
    assert session.acting_for is None and session._holder is None
