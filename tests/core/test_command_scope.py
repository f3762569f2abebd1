"""`Session.command()` (what the magics' `guarded` wrapper enters, in one object for the `%roll` cell's
speed) does what `exclusive()` then `transaction()` do: one caller at a time from any thread, the dice
of a command refused before it recorded anything put back, the lock and holder given back either way."""

from __future__ import annotations

import contextlib
import sys
import threading

import pytest

from gamekernel import Session
from gamekernel.errors import GameKernelError, UsageError


@contextlib.contextmanager
def _both(session):
    with session.exclusive(), session.transaction():
        yield


SCOPES = [pytest.param(lambda s: s.command(), id="command"), pytest.param(_both, id="exclusive+transaction")]


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
