"""A `%undo`/`%redo` whose replay fails (the log holds an event that cannot be replayed) is refused
in one line before anything is written, and memory stays as it was."""

from __future__ import annotations

import dataclasses
import json

import pytest

from gamekernel import Session
from gamekernel.errors import UsageError
from gamekernel.events import EVENT_KINDS


def broken_replay(monkeypatch, kind: str) -> None:
    """From now on the reducer of `kind` fails (as an event it cannot replay makes it fail)."""
    def failing(state, data):
        raise KeyError("zone 'gone'")

    monkeypatch.setitem(EVENT_KINDS, kind, dataclasses.replace(EVENT_KINDS[kind], apply=failing))


def snapshot(session: Session, folder) -> tuple:
    logs = {p.name: p.read_bytes() for p in (folder / "sessions").glob("*.jsonl")}
    return ([e.to_json() for e in session.log], [e.seq for e in session.active],
            [[e.seq for e in g] for g in session._redo_stack],
            json.dumps(session.state.to_dict(), sort_keys=True), logs)


@pytest.mark.parametrize("command", ["undo", "redo"])
def test_a_refused_undo_or_redo_writes_nothing_and_changes_nothing(tmp_path, monkeypatch, command):
    folder = tmp_path / "campaign"
    session = Session(seed=2)
    session.campaign_open(folder)
    session.cards.zone("pile")
    session.note("a")
    session.note("b")
    if command == "redo":
        session.undo()
    before = snapshot(session, folder)
    broken_replay(monkeypatch, "cards.batch")
    with pytest.raises(UsageError) as error:
        getattr(session, command)()
    assert "\n" not in str(error.value) and "nothing written" in str(error.value)
    assert snapshot(session, folder) == before
    monkeypatch.undo()
    getattr(session, command)()  # once the events replay again, the command works
    assert session.log[-1].kind == command
