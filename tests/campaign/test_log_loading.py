"""State = replay of the log, and opening fast: the one-pass log decoder agrees with the careful per-line one."""

from __future__ import annotations

import gc
import json

import pytest

from gamekernel import Session
from gamekernel.errors import DataError
from gamekernel.events import Event, LogStore, _load_fast, gc_paused
from gamekernel.i18n import t


def _mixed_log(path):
    session = Session(seed=3, log_path=path)
    session.gurps.char_new("Aiko", dx=12, skills=[("Stealth", 2)])
    session.gurps.check("Stealth", secret=True)
    session.roll("1d20+2", actor="Rin")
    session.note("ünïcödé «quotes» \"and\" \\ back", gm_only=True)
    session.mtg.library_load("Mira", "d.txt", text="4 Forest\n3 Elvish Mystic\n")
    session.mtg.check("green", 1)
    session.undo()
    session.close()
    return session


def test_fast_and_careful_loading_build_equal_events(tmp_path):
    session = _mixed_log(tmp_path / "log.jsonl")
    lines = (tmp_path / "log.jsonl").read_bytes().split(b"\n")
    fast = _load_fast(b"\n".join(lines))
    careful = [Event.from_dict(json.loads(line)) for line in lines if line.strip()]
    assert fast == careful == session.log
    assert all(type(e) is Event for e in fast)
    assert [e.to_json() for e in fast] == [e.to_json() for e in session.log]


@pytest.mark.parametrize(("edit", "message"), [
    (lambda r: {**r, "kind": "frobnicate"}, r"log.jsonl:2: field 'kind' is 'frobnicate'"),
    (lambda r: {**r, "seq": 1}, r"log.jsonl:2: field 'seq' is 1, not after 1"),
    (lambda r: {**r, "actor": 7}, r"log.jsonl:2: field 'actor' must be a string"),
    (lambda r: {**r, "data": []}, r"log.jsonl:2: field 'data' must be an object"),
    (lambda r: {**r, "schema": 9}, r"log.jsonl:2: field 'schema' is 9"),
])
def test_a_bad_line_falls_back_to_the_careful_path_and_is_named(tmp_path, edit, message):
    _mixed_log(tmp_path / "log.jsonl")
    lines = (tmp_path / "log.jsonl").read_text(encoding="utf-8").splitlines()
    lines[1] = json.dumps(edit(json.loads(lines[1])))
    (tmp_path / "log.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=message):
        LogStore.load(tmp_path / "log.jsonl")


def test_loading_leaves_the_garbage_collector_as_it_found_it(tmp_path):
    _mixed_log(tmp_path / "log.jsonl")
    assert gc.isenabled()
    LogStore.load(tmp_path / "log.jsonl")
    assert gc.isenabled()
    gc.disable()
    try:
        LogStore.load(tmp_path / "log.jsonl")
        with gc_paused(keep=True):
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(ZeroDivisionError), gc_paused():
        1 / 0  # noqa: B018
    assert gc.isenabled()


def _write_lines(path, lines, end="\n"):
    path.write_text("\n".join(lines) + end, encoding="utf-8")


def test_blank_lines_and_a_last_line_without_newline_stay_on_the_fast_path(tmp_path):
    session = _mixed_log(tmp_path / "log.jsonl")
    lines = (tmp_path / "log.jsonl").read_text(encoding="utf-8").splitlines()
    for body, end in [(lines, ""), ([lines[0], "", *lines[1:], "  "], "\n"), (["", *lines, "", ""], "\n")]:
        _write_lines(tmp_path / "log.jsonl", body, end)
        raw = (tmp_path / "log.jsonl").read_bytes()
        assert _load_fast(raw) == session.log
        report = LogStore.load(tmp_path / "log.jsonl")
        assert report.events == session.log and report.warnings == []


def test_a_line_break_inside_an_event_is_refused_not_joined(tmp_path):
    """Newlines become commas for the one-pass decoder: a note cut in two by a line break would
    still decode as one event there, so the count of values must match the count of lines."""
    session = Session(seed=3, log_path=tmp_path / "log.jsonl")
    session.note("first half, second half")
    session.note("after")
    session.close()
    text = (tmp_path / "log.jsonl").read_text(encoding="utf-8").replace("first half,", "first half\n")
    (tmp_path / "log.jsonl").write_text(text, encoding="utf-8")
    assert _load_fast(text.encode()) is None
    with pytest.raises(DataError, match=r"log.jsonl:3: "):
        LogStore.load(tmp_path / "log.jsonl")


def test_two_events_on_one_line_are_refused(tmp_path):
    session = _mixed_log(tmp_path / "log.jsonl")
    lines = (tmp_path / "log.jsonl").read_text(encoding="utf-8").splitlines()
    _write_lines(tmp_path / "log.jsonl", [lines[0] + "," + lines[1], *lines[2:], ""])
    assert len(session.log) > 2
    with pytest.raises(DataError, match=r"log.jsonl:1: "):
        LogStore.load(tmp_path / "log.jsonl")


@pytest.mark.parametrize(("edit", "secret"), [
    (lambda r: {**r, "secret": False}, False),
    (lambda r: {**r, "secret": 1}, False),
    (lambda r: {**r, "secret": True}, True),
    (lambda r: {**r, "extra": "ignored"}, False),
    (lambda r: {k: r[k] for k in reversed(r)}, False),
])
def test_lines_not_written_by_to_dict_load_as_from_dict_reads_them(tmp_path, edit, secret):
    _mixed_log(tmp_path / "log.jsonl")
    lines = (tmp_path / "log.jsonl").read_text(encoding="utf-8").splitlines()
    lines[1] = json.dumps(edit(json.loads(lines[1])))
    _write_lines(tmp_path / "log.jsonl", lines)
    events = LogStore.load(tmp_path / "log.jsonl").events
    careful = [Event.from_dict(json.loads(line)) for line in lines]
    assert events == careful
    assert events[1].secret is secret
    assert all(type(e) is Event and set(vars(e)) <= {f for f in Event.__dataclass_fields__} for e in events)


def test_an_unhashable_kind_is_a_named_error_not_a_crash(tmp_path):
    _mixed_log(tmp_path / "log.jsonl")
    lines = (tmp_path / "log.jsonl").read_text(encoding="utf-8").splitlines()
    lines[2] = json.dumps({**json.loads(lines[2]), "kind": ["note"]})
    _write_lines(tmp_path / "log.jsonl", lines)
    with pytest.raises(DataError, match=r"log.jsonl:3: field 'kind' is \['note'\]"):
        LogStore.load(tmp_path / "log.jsonl")


def test_a_torn_last_line_after_a_header_is_reported_with_its_file_line(tmp_path):
    header = json.dumps({"schema": 3, "campaign": "c", "file": "log.jsonl", "follows": 0})
    session = _mixed_log(tmp_path / "plain.jsonl")
    lines = (tmp_path / "plain.jsonl").read_text(encoding="utf-8").splitlines()
    _write_lines(tmp_path / "log.jsonl", ["", header, *lines, lines[0][:25]], end="")
    report = LogStore.load(tmp_path / "log.jsonl")
    assert report.header["campaign"] == "c"
    assert report.events == session.log
    assert report.warnings == [t("core.log.truncated", path="log.jsonl", line=len(lines) + 3)]
    _write_lines(tmp_path / "log.jsonl", [header])
    assert LogStore.load(tmp_path / "log.jsonl").events == []


def test_a_campaign_reopened_from_its_snapshot_is_the_session_that_wrote_it(tmp_path):
    """Opening fast: the fast open (snapshot, then the events after it) restores the log, the events in
    effect, the redo stack and the state exactly as the kernel that wrote them had them."""
    from gamekernel.actions.campaign import snapshot_is_valid
    from gamekernel.session import active_events, replay

    folder = tmp_path / "c"
    session = Session(seed=5)
    session.campaign_open(folder)
    session.gurps.char_new("Aiko", dx=12, skills=[("Stealth", 2)])
    session.gurps.check("Stealth", secret=True)
    session.note("before the snapshot")
    session.gurps.damage("1d+1 cut", target="Aiko")  # the snapshot's event: applied once, not twice
    session.campaign_save()
    session.gurps.damage("1d cr", target="Aiko")  # the first event after it: applied, not skipped
    session.roll("1d20+2", actor="Rin")
    session.note("after the snapshot", gm_only=True)
    session.note("undone")
    session.undo()
    session.note("kept")
    session.undo()
    session.redo()
    session.undo()
    session.campaign.release()  # the kernel dies: no snapshot at the end, the logs are all there
    snapshot_seq = json.loads((folder / "snapshot.json").read_text(encoding="utf-8"))["seq"]
    assert session.log[snapshot_seq - 1].kind == "combat.damage" and snapshot_is_valid(session.log, snapshot_seq)

    reopened = Session()
    reopened.campaign_open(folder)
    assert [e.to_json() for e in reopened.log[:-1]] == [e.to_json() for e in session.log]
    assert reopened.log[-1].kind == "campaign.open"
    assert [e.seq for e in reopened.active[:-1]] == [e.seq for e in session.active]
    assert [[e.seq for e in g] for g in reopened._redo_stack] == [[e.seq for e in g] for g in session._redo_stack]
    assert reopened.state.to_dict() == session.state.to_dict()
    careful = [Event.from_dict(json.loads(line)) for name in reopened.campaign.index.sessions[:2]
               for line in (folder / "sessions" / name).read_text(encoding="utf-8").splitlines()[1:]]
    assert careful == reopened.log
    assert replay(active_events(careful)[0]).to_dict() == reopened.state.to_dict()
    reopened.redo()
    assert [e.data.get("text") for e in reopened.active if e.kind == "note"][-1] == "kept"
    reopened.campaign_close()


def test_a_line_that_is_not_utf8_is_a_named_error_not_a_crash(tmp_path):
    """A whole line (not the torn last one) with a byte that is not UTF-8 is refused in one line naming
    the file, the line and the column of the byte."""
    _mixed_log(tmp_path / "log.jsonl")
    lines = (tmp_path / "log.jsonl").read_bytes().split(b"\n")
    start = lines[2].index(b'"kind"')
    lines[2] = lines[2][:start] + b"\xff" + lines[2][start:]
    (tmp_path / "log.jsonl").write_bytes(b"\n".join(lines))
    with pytest.raises(DataError, match=rf"log.jsonl:3: not valid JSON \(.*start byte at column {start + 1}\)"):
        LogStore.load(tmp_path / "log.jsonl")
