"""The session's event log: recording, undo/redo through the log, observers, the JSONL store."""

from __future__ import annotations

import json

import pytest

from gamekernel import Session
from gamekernel.errors import DataError, UsageError
from gamekernel.events import Event, LogStore
from gamekernel.session import active_events, replay


def kinds(session):
    return [e.kind for e in session.log]


def test_seed_is_logged_and_env_seed_is_used(monkeypatch):
    monkeypatch.setenv("GAMEKERNEL_SEED", "42")
    session = Session()
    assert session.log[0].kind == "seed" and session.log[0].data == {"seed": 42}
    assert session.state["core"].seed == 42
    assert Session(seed=42).rng.random() == session.rng.random()


def test_bad_env_seed_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("GAMEKERNEL_SEED", "abc")
    with pytest.raises(UsageError, match="GAMEKERNEL_SEED must be a whole number"):
        Session()


def test_note_undo_redo_are_events_and_the_log_stays_append_only():
    session = Session(seed=1)
    session.note("first")
    session.note("second")
    undone = session.undo()
    assert [e.data["text"] for e in undone] == ["second"]
    assert [e.data["text"] for e in session.active if e.kind == "note"] == ["first"]
    redone = session.redo()
    assert [e.data["text"] for e in redone] == ["second"]
    assert kinds(session) == ["seed", "note", "note", "undo", "redo"]
    assert [e.seq for e in session.log] == [1, 2, 3, 4, 5]


def test_undo_skips_seed_and_a_new_event_clears_redo():
    session = Session(seed=1)
    session.note("a")
    assert len(session.undo(5)) == 1  # the seed is not undoable
    session.note("b")
    assert session.redo() == []
    assert [e.data["text"] for e in session.active if e.kind == "note"] == ["b"]


def test_undo_count_must_be_positive():
    with pytest.raises(UsageError, match="at least 1"):
        Session(seed=1).undo(0)


def test_active_events_from_the_log_match_live_play():
    session = Session(seed=1)
    for text in "abcde":
        session.note(text)
    session.undo(2)
    session.redo(1)
    session.undo(3)
    session.note("f")
    active, redo = active_events(session.log)
    assert [e.seq for e in active] == [e.seq for e in session.active]
    assert redo == []
    assert replay(active).to_dict() == session.state.to_dict()


def test_observers_see_every_event_and_can_stop():
    session = Session(seed=1)
    seen = []
    stop = session.observe(lambda s, e: seen.append(e.kind))
    session.note("x")
    session.undo()
    stop()
    session.note("y")
    assert seen == ["note", "undo"]


def test_empty_note_is_refused_and_changes_nothing():
    session = Session(seed=1)
    with pytest.raises(UsageError, match="needs some text"):
        session.note("   ")
    assert kinds(session) == ["seed"]


def test_log_file_is_appended_flushed_and_resumed(tmp_path):
    path = tmp_path / "campaign" / "log.jsonl"
    session = Session(seed=3, log_path=path)
    session.note("into the crypt")
    lines = path.read_text(encoding="utf-8").splitlines()  # readable before close: flushed
    assert [json.loads(line)["kind"] for line in lines] == ["seed", "note"]
    assert all(json.loads(line)["schema"] == 1 for line in lines)
    resumed = Session()
    resumed.attach_log(path)
    assert [e.kind for e in resumed.log] == ["seed", "note"]
    resumed.note("later")
    assert len(path.read_text().splitlines()) == 3


def test_torn_last_line_is_reported_and_skipped(tmp_path):
    path = tmp_path / "log.jsonl"
    session = Session(seed=3, log_path=path)
    session.note("kept")
    session.close()
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"schema":1,"seq":3,"kind":"no')  # a crash mid-write
    resumed = Session()
    resumed.attach_log(path)
    assert [e.kind for e in resumed.log] == ["seed", "note"]
    assert resumed.load_warnings == ["log.jsonl: line 3 is incomplete (a crash mid-write?) and was skipped"]
    resumed.note("after the crash")
    resumed.close()
    again = LogStore.load(path)
    assert [e.kind for e in again.events] == ["seed", "note", "note"]


def test_invalid_line_names_file_line_and_field(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text('{"schema":1,"seq":1,"kind":"note","data":{"text":"a","gm_only":false}}\n'
                    '{"schema":1,"seq":"two","kind":"note","data":{}}\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"log\.jsonl:2: field 'seq' must be a positive integer"):
        LogStore.load(path)
    path.write_text('{"schema":9,"seq":1,"kind":"note","data":{}}\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"log\.jsonl:1: field 'schema' is 9"):
        LogStore.load(path)
    path.write_text('{"schema":1,"seq":1,"kind":"__import__","data":{}}\n', encoding="utf-8")
    with pytest.raises(DataError, match="not a known event kind"):
        LogStore.load(path)


def test_attaching_a_used_log_to_a_busy_session_is_refused(tmp_path):
    path = tmp_path / "log.jsonl"
    Session(seed=1, log_path=path).close()
    busy = Session(seed=2)
    busy.note("mine")
    with pytest.raises(UsageError, match="already holds 1 events"):
        busy.attach_log(path)


def test_event_round_trips_through_json():
    event = Event(7, "note", {"text": "ü <b>"}, "Rin", True, "t")
    assert Event.from_dict(json.loads(event.to_json())) == event


def test_markdown_export_redacts_secrets_for_players(tmp_path):
    session = Session(seed=1)
    session.note("The party enters the crypt")
    session.note("The lich is the innkeeper", gm_only=True)
    session.undo()
    gm = session.log_write(tmp_path / "gm.md").path
    players = session.log_write(tmp_path / "players.md", players=True).path
    assert "innkeeper" in gm.read_text()
    text = players.read_text()
    assert "innkeeper" not in text and "undo" not in text
    assert "The party enters the crypt" in text


def test_html_export_is_self_contained_and_escaped(tmp_path):
    session = Session(seed=1)
    session.note("<script>alert(1)</script>")
    page = session.log_write(tmp_path / "log.html").path.read_text()
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "http" not in page


def test_export_needs_a_known_suffix(tmp_path):
    with pytest.raises(UsageError, match=r"use a \.md or \.html file name"):
        Session(seed=1).log_write(tmp_path / "log.txt")


def test_log_shows_the_last_events_by_default_with_a_line_saying_how_to_see_more(ip):
    from gamekernel import magic_base

    session = magic_base.current_session()
    for n in range(250):
        session.note(f"n{n}")
    total = len(session.log)
    view = ip.run_line_magic("log", "")
    text = repr(view)
    assert len(view.events) == 200 and view.events[-1].seq == total  # the boundary: 200 shown
    assert text.splitlines()[0] == f"the last 200 of {total} events: %log {total} shows more, " \
                                   "%log export FILE.md writes them all"
    assert "the last 200" in view._repr_html_()
    everything = ip.run_line_magic("log", str(total))
    assert len(everything.events) == total and "the last" not in repr(everything)
    assert "the last" not in repr(ip.run_line_magic("log", "5"))  # a count asked for: no hint
