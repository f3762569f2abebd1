"""`Session.active_secrets`: the secret events in effect, read once each (a public step asks on every
call, GURPS-SR-09 and GW-ALPHA-10), equal to walking the whole active list after every kind of change."""

from __future__ import annotations

import pytest

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
        before = session._secrets.read
        session.active_secrets()
        reads += session._secrets.read - before
    assert reads == len(session.active)
    assert [e.seq for e in session.active_secrets()] == walked(session)


def test_a_rule_sets_secrets_alone():
    """A fight's step asks for the secret combat events only (GURPS-SR-09): the secret checks of a
    long campaign are not in its answer, and its answer follows an undo like the whole list."""
    session = Session(seed=4)
    session.gurps.char_new("Bren", st=12, ht=12)
    session.combat.npc("Orc", "ST=12 DX=11 HT=12 HP=18 weapon=Club:11:sw cr")
    for _ in range(30):
        session.gurps.check("Per", actor="Bren", secret=True)
    session.combat.start("Bren Orc")
    session.combat.damage("Bren", "1d cr", secret=True)
    combat = session.active_secrets("combat")
    assert [e.kind for e in combat] == ["combat.damage"]
    assert [e.kind for e in session.active_secrets("gurps")] == ["gurps.check"] * 30
    assert session.active_secrets("gw") == []
    assert [e.seq for e in session.active_secrets()] == walked(session)
    session.undo()
    assert session.active_secrets("combat") == [] and len(combat) == 1  # the caller's answer stays


def test_an_answer_reads_like_a_list():
    session = Session(seed=4)
    for n in range(3):
        session.roll(f"1d6 r{n}", secret=True)
    found = session.active_secrets("roll")
    assert len(found) == 3 and found[-1] is session.log[-1] and found[0].seq < found[1].seq
    assert list(found[1:]) == list(session.log[-2:]) and found == list(found)
    session.roll("1d6", secret=True)
    assert len(found) == 3 and len(session.active_secrets("roll")) == 4
    with pytest.raises(IndexError):
        found[3]  # the fourth secret is not in this answer, though the list behind it holds it now
