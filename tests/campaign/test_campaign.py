"""The campaign folder: restore on reopen, snapshots, the lock, migrations, invalid files."""

from __future__ import annotations

import json
import re

import pytest

from gamekernel import Session
from gamekernel.campaign import CampaignLockedError
from gamekernel.errors import DataError, UsageError


def notes(session):
    return [e.data["text"] for e in session.active if e.kind == "note"]


def test_open_creates_the_layout_and_reopen_restores(tmp_path):
    folder = tmp_path / "crypt-of-ash"
    first = Session(seed=1)
    status = first.campaign_open(folder)
    assert status.sessions == 1
    first.note("The party enters the crypt")
    first.note("A mistake")
    first.undo()
    first.campaign_close()
    assert json.loads((folder / "campaign.json").read_text())["schema"] == 3
    (log,) = (folder / "sessions").glob("*.jsonl")  # named by its start time and a random suffix
    assert re.fullmatch(r"session-\d{8}-\d{6}\.\d{6}-[0-9a-f]{6}\.jsonl", log.name)
    assert not (folder / ".lock").exists()

    second = Session(seed=2)
    status = second.campaign_open(folder)
    assert status.sessions == 2
    assert notes(second) == ["The party enters the crypt"]
    second.redo()  # undo/redo reach across sessions
    assert notes(second) == ["The party enters the crypt", "A mistake"]
    second.campaign_close()
    third = Session()
    third.campaign_open(folder)
    assert notes(third) == ["The party enters the crypt", "A mistake"]
    third.campaign_close()


def test_seq_continues_across_sessions(tmp_path):
    session = Session(seed=1)
    session.campaign_open(tmp_path / "c")
    session.note("a")
    last = session.log[-1].seq
    session.campaign_close()
    again = Session()
    again.campaign_open(tmp_path / "c")
    again.note("b")
    assert [e.seq for e in again.log] == list(range(1, last + 3))
    again.campaign_close()


def test_second_kernel_is_refused_with_a_clear_message(tmp_path):
    folder = tmp_path / "c"
    holder = Session(seed=1)
    holder.campaign_open(folder)
    with pytest.raises(CampaignLockedError, match=r"already open in another kernel \(pid \d+"):
        Session().campaign_open(folder)
    holder.campaign_close()
    Session().campaign_open(folder).__repr__()  # free again


def test_stale_lock_of_a_dead_kernel_is_taken_over(tmp_path):
    import socket

    folder = tmp_path / "c"
    folder.mkdir()
    (folder / ".lock").write_text(json.dumps({"pid": 2**22 + 12345, "host": socket.gethostname()}))
    session = Session()
    status = session.campaign_open(folder)
    assert any("stale lock" in n for n in status.notices)
    session.campaign_close()


@pytest.mark.parametrize("in_browser", [False, True], ids=["desktop", "browser-tab"])
def test_a_live_pid_s_lock_is_refused_on_a_desktop_and_taken_over_in_a_browser_tab(tmp_path, monkeypatch, in_browser):
    """In Pyodide every tab's kernel is pid 42 and pid 42 answers as alive: a reloaded tab's own lock
    would lock its learner out for good, so there a same-host lock is taken over with one line."""
    import socket

    from gamekernel import util

    monkeypatch.setattr(util, "IN_BROWSER", in_browser)
    folder = tmp_path / "c"
    first = Session()
    first.campaign_open(folder)
    first.campaign_close()  # a reloaded tab: its kernel is gone, its lock is still on disk
    (folder / ".lock").write_text(json.dumps({"pid": 1, "host": socket.gethostname(), "time": "t"}))
    session = Session()
    if not in_browser:
        with pytest.raises(CampaignLockedError, match=r"already open in another kernel \(pid 1 "):
            session.campaign_open(folder)
        return
    status = session.campaign_open(folder)
    (line,) = [n for n in status.notices if "browser tab" in n]
    assert line.startswith(".lock: took over campaign 'c' from another browser tab")
    assert json.loads((folder / ".lock").read_text())["pid"] != 1  # the lock is this kernel's now
    other = (folder / ".lock").read_text()
    (folder / ".lock").write_text(json.dumps({"pid": 1, "host": "another-host"}))
    with pytest.raises(CampaignLockedError):  # a lock of another host is never taken over
        Session().campaign_open(folder)
    (folder / ".lock").write_text(other)
    with pytest.raises(CampaignLockedError):  # nor one this kernel's own live store holds
        Session().campaign_open(folder)
    session.campaign_close()


def test_opening_twice_in_one_session_is_refused(tmp_path):
    session = Session()
    session.campaign_open(tmp_path / "a")
    with pytest.raises(UsageError, match="close it first"):
        session.campaign_open(tmp_path / "b")
    session.campaign_close()


def test_snapshot_is_used_and_invalidated_by_an_undo_behind_it(tmp_path):
    from gamekernel.actions.campaign import snapshot_is_valid

    folder = tmp_path / "c"
    session = Session(seed=1)
    session.campaign_open(folder)
    for text in "abc":
        session.note(text)
    session.campaign_save()
    snap = json.loads((folder / "snapshot.json").read_text())
    assert snap["seq"] == session.log[-1].seq
    session.undo(2)  # reaches behind the snapshot
    assert not snapshot_is_valid(session.log, snap["seq"])
    session.campaign_close()  # writes a fresh snapshot
    reopened = Session()
    reopened.campaign_open(folder)
    assert notes(reopened) == ["a"]
    reopened.campaign_close()


def test_migration_from_the_single_log_layout(tmp_path):
    folder = tmp_path / "old"
    old = Session(seed=5, log_path=folder / "log.jsonl")
    old.note("from the foundation days")
    old.close()
    session = Session()
    status = session.campaign_open(folder)
    assert any("migrated log.jsonl (schema 1)" in n for n in status.notices)
    assert notes(session) == ["from the foundation days"]
    assert not (folder / "log.jsonl").exists()
    session.campaign_close()


def test_invalid_files_are_reported_with_file_line_and_field(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "campaign.json").write_text('{"schema": 2, "name": "x",\n "sessions": [1]}')
    with pytest.raises(DataError, match=r"campaign\.json: field 'sessions' must be a list of file names"):
        Session().campaign_open(folder)
    assert not (folder / ".lock").exists()  # a failed open releases the lock
    (folder / "campaign.json").write_text('{"schema": 2,\n "name": }')
    with pytest.raises(DataError, match=r"campaign.json:2: not valid JSON"):
        Session().campaign_open(folder)
    (folder / "campaign.json").write_text('{"schema": 2, "name": "x", "sessions": ["../../etc/passwd"]}')
    with pytest.raises(DataError, match="unsafe file name"):
        Session().campaign_open(folder)
    (folder / "campaign.json").write_text('{"schema": 2, "name": "x", "sessions": ["s.jsonl"]}')
    (folder / "sessions").mkdir()
    (folder / "sessions" / "s.jsonl").write_text('{"schema":1,"seq":1,"kind":"note","data":[]}\n{"a":1}\n')
    with pytest.raises(DataError, match=r"s.jsonl:1: field 'data' must be an object"):
        Session().campaign_open(folder)


def test_readable_state_files_are_written(tmp_path):
    folder = tmp_path / "c"
    session = Session(seed=1)
    session.campaign_open(folder)
    session.note("x")
    session.campaign_close()
    files = sorted(p.name for p in (folder / "state").glob("*.json"))
    assert "core.json" not in files
    campaign_id = json.loads((folder / "campaign.json").read_text())["campaign"]
    for path in (folder / "state").glob("*.json"):
        data = json.loads(path.read_text())
        assert data["schema"] == 2 and data["campaign"] == campaign_id and data["seq"] == session.log[-1].seq


USAGE = ("%campaign open FOLDER... | status | save | load | close | date DATE | order SESSION... "
         "| repair [FOLDER...] | session WHAT [--confirm] [--same-session]")


def test_campaign_magics(ip, tmp_path):
    folder = tmp_path / "crypt"
    assert "Campaign crypt: 1 session," in repr(ip.run_line_magic("campaign", f"open {folder}"))
    ip.run_line_magic("note", "hello")
    assert "snapshot after event" in repr(ip.run_line_magic("campaign", "save"))
    assert "Campaign crypt: 2 sessions" in repr(ip.run_line_magic("campaign", "load"))
    assert "closed and saved" in repr(ip.run_line_magic("campaign", "close"))
    assert repr(ip.run_line_magic("campaign", "status")) == "error: no campaign is open: %campaign open FOLDER"
    assert repr(ip.run_line_magic("campaign", "frobnicate")) == (
        "error: unknown subcommand 'frobnicate' at column 1 "
        "(usage: " + USAGE + ")")
    assert repr(ip.run_line_magic("campaign", "")) == (
        "error: usage: " + USAGE)
    assert repr(ip.run_line_magic("campaign", "status now")) == (
        "error: unexpected 'now' at column 8 (usage: " + USAGE + ")")


def test_exports_of_the_campaign_and_of_this_session(tmp_path):
    folder = tmp_path / "c"
    first = Session(seed=1)
    first.campaign_open(folder)
    first.note("Session one: the road")
    first.campaign_close()
    second = Session(seed=2)
    second.campaign_open(folder)
    second.note("Session two: the crypt")
    second.note("The innkeeper is the lich", gm_only=True)
    whole = second.log_write(tmp_path / "all.md").path.read_text()
    only = second.log_write(tmp_path / "s2.md", this_session=True).path.read_text()
    players = second.log_write(tmp_path / "p.html", players=True).path.read_text()
    second.campaign_close()
    assert "Session one" in whole and "Session two" in whole
    assert "Session one" not in only and "Session two" in only
    assert "innkeeper" not in players and "Session two" in players


def test_the_seed_set_before_opening_is_kept_and_earlier_play_is_reported(tmp_path):
    seeded = Session(seed=41)
    seeded.campaign_open(tmp_path / "a")
    assert [e.kind for e in seeded.log][-2:] == ["campaign.open", "seed"]
    assert seeded.state["core"].seed == 41
    seeded.campaign_close()
    played = Session(seed=41)
    played.note("before the campaign")
    status = played.campaign_open(tmp_path / "b")
    assert any("1 event recorded before the campaign was opened is not part of it" in n for n in status.notices)
    played.campaign_close()


def test_a_crash_between_snapshot_and_index_is_harmless(tmp_path):
    """Found by the kill -9 test: snapshot.json written, campaign.json not yet updated."""
    folder = tmp_path / "c"
    session = Session(seed=1)
    session.campaign_open(folder)
    session.note("a")
    session.campaign_save()
    index = (folder / "campaign.json").read_text()
    session.note("b")
    session.campaign_save()
    (folder / "campaign.json").write_text(index)  # the index still names the older snapshot
    session.campaign.release()
    reopened = Session()
    status = reopened.campaign_open(folder)
    assert notes(reopened) == ["a", "b"] and not status.notices
    reopened.campaign_close()


def test_a_snapshot_of_an_event_missing_from_the_logs_is_not_used(tmp_path):
    folder = tmp_path / "c"
    session = Session(seed=1)
    session.campaign_open(folder)
    session.note("a")
    session.campaign_close()
    snap = json.loads((folder / "snapshot.json").read_text())
    snap["seq"] = 999
    (folder / "snapshot.json").write_text(json.dumps(snap))
    reopened = Session()
    status = reopened.campaign_open(folder)
    assert [n for n in status.notices if "snapshot.json follows event 999, but the logs end at event 3" in n]
    assert notes(reopened) == ["a"]
    assert json.loads((folder / "snapshot.json").read_text())["seq"] == 999  # not overwritten by the open
    reopened.campaign_close()
    assert json.loads((folder / "snapshot.json").read_text())["seq"] == 4  # written again from the logs


def test_campaign_repair_magic_plans_then_confirms(ip, tmp_path):
    """Safe by default: `%campaign repair FOLDER` shows the plan and writes nothing; `--confirm` carries it out."""
    folder = tmp_path / "crypt"
    ip.run_line_magic("campaign", f"open {folder}")
    ip.run_line_magic("note", "kept")
    ip.run_line_magic("campaign", "close")
    (folder / "campaign.json").unlink()
    assert "campaign.json is missing" in repr(ip.run_line_magic("campaign", f"open {folder}"))
    plan = repr(ip.run_line_magic("campaign", "repair"))  # the campaign just refused
    assert "--confirm" in plan and not (folder / "campaign.json").exists()
    assert "only" in repr(ip.run_line_magic("campaign", "status --confirm"))
    ip.run_line_magic("campaign", f"repair {folder} --confirm")
    assert (folder / "campaign.json").exists()
    ip.run_line_magic("campaign", f"open {folder}")
    assert "kept" in repr(ip.run_line_magic("log", ""))
    ip.run_line_magic("campaign", "close")


def test_campaign_repair_of_a_name_the_system_refuses_is_one_line(ip, tmp_path, monkeypatch):
    """A folder name longer than the file system takes (ENAMETOOLONG, found by tools/fuzz_magics.py):
    the repair says it is not a folder, in one line, and nothing is written."""
    monkeypatch.chdir(tmp_path)
    name = "x" * 300
    shown = repr(ip.run_line_magic("campaign", f"repair {name}"))
    assert "is not a folder" in shown and "Traceback" not in shown and "\n" not in shown.strip()
    assert list(tmp_path.iterdir()) == []
