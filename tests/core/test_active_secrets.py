"""`Session.active_secrets`: the secret events in effect, read once each (a public step asks on every
call, GURPS-SR-09 and GW-ALPHA-10), equal to walking the whole active list after every kind of change."""

from __future__ import annotations

from gamekernel import Session


def walked(session: Session) -> list[int]:
    return [e.seq for e in session.active if e.secret]


def test_active_secrets_follow_new_events_undo_and_redo():
    session = Session(seed=4)
    assert session.active_secrets() == []
    session.roll("1d6")
    session.roll("1d6", secret=True)
    session.note("public")
    assert [e.seq for e in session.active_secrets()] == walked(session) != []
    session.undo(2)  # the secret roll and the note are no longer in effect (its dice's key stays)
    assert [e.seq for e in session.active_secrets()] == walked(session)
    assert [e.kind for e in session.active_secrets()] == ["secret.entropy"]
    session.redo(2)
    assert [e.seq for e in session.active_secrets()] == walked(session) != []
    session.roll("2d6", secret=True)
    assert [e.seq for e in session.active_secrets()] == walked(session)
    assert [e.kind for e in session.active_secrets()] == ["secret.entropy", "roll", "roll"]


def test_a_caller_keeps_its_own_list():
    session = Session(seed=4)
    session.roll("1d6", secret=True)
    first = session.active_secrets()
    session.roll("1d6", secret=True)
    assert len(first) == 2 and len(session.active_secrets()) == 3  # the dice's key, then the rolls


def test_each_event_is_read_once():
    """A long log: asking after every event reads each event once, not the whole log every time."""
    session = Session(seed=4)
    reads = 0
    for i in range(200):
        session.note(f"n{i}")
        if i % 50 == 0:
            session.roll("1d6", secret=True)
        before = session._secrets_read[1]
        session.active_secrets()
        reads += session._secrets_read[1] - before
    assert reads == len(session.active)
    assert [e.seq for e in session.active_secrets()] == walked(session)
