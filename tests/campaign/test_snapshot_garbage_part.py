"""A snapshot with a part its `from_dict` cannot read (written by another version, damaged in a way
its digest does not catch): the campaign opens by replaying the log, with one line naming the part;
nothing is lost. The snapshot only saves replay time, the log is the record."""

from __future__ import annotations

import json

import pytest

from gamekernel import Session


def closed_campaign(tmp_path):
    folder = tmp_path / "campaign"
    session = Session(seed=1)
    session.campaign_open(folder)
    session.gurps.char_new("Bren", st=12)
    session.note("first")
    expected = json.dumps(session.state.to_dict(), sort_keys=True)
    names = sorted(session.state.parts)
    session.campaign_close()
    return folder, expected, names, session


@pytest.mark.parametrize("error", [KeyError("hp"), TypeError("expected a list"), ValueError("bad")])
def test_a_snapshot_part_that_cannot_be_read_is_replayed_from_the_log_with_one_line(tmp_path, monkeypatch, error):
    folder, expected, names, session = closed_campaign(tmp_path)
    assert (folder / "snapshot.json").exists()
    part = next(name for name in names if callable(getattr(type(session.state[name]), "from_dict", None)))

    def garbage(cls, data):
        raise error

    monkeypatch.setattr(type(session.state[part]), "from_dict", classmethod(garbage))
    reopened = Session()
    status = reopened.campaign_open(folder)
    lines = [line for line in status.notices if "snapshot" in line]
    assert len(lines) == 1 and "\n" not in lines[0]
    assert f"'{part}'" in lines[0] and "replaying the log" in lines[0]
    monkeypatch.undo()
    replayed = json.loads(json.dumps(reopened.state.to_dict(), sort_keys=True))
    replayed.pop("core", None)
    wanted = json.loads(expected)
    wanted.pop("core", None)
    assert replayed == wanted  # every fact of the log is there
    assert [e.data["text"] for e in reopened.active if e.kind == "note"] == ["first"]
