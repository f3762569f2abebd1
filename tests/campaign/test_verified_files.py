"""Verified files: each session log or index missing, foreign or truncated is refused with a message naming it
and how to recover; nothing good is overwritten; `repair_campaign` shows its plan, writes only when confirmed.
A derived file (the snapshot, a readable copy) that does not fit the logs never stops an open: it is not
used, named in one notice, and written again at the next save."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from gamekernel import Session
from gamekernel.campaign import CampaignLockedError
from gamekernel.errors import DataError, GameKernelError
from tests.campaign.legacy import number_sessions


def notes(session):
    return [e.data["text"] for e in session.active if e.kind == "note"]


def make_campaign(folder, sessions=2):
    """A campaign of `sessions` closed sessions, a character and a few notes each."""
    for number in range(sessions):
        session = Session(seed=number + 1)
        session.campaign_open(folder)
        if number == 0:
            session.gurps.char_new("Bren", st=12)
        session.note(f"session {number + 1}")
        session.campaign_close()
        number_sessions(folder)  # named as before: such campaigns open unchanged, and the tests name them
    return folder


def files(folder):
    """Every file's bytes (to prove nothing was written)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def refused(folder, match):
    before = files(folder)
    with pytest.raises(GameKernelError, match=match) as caught:
        Session().campaign_open(folder)
    assert "\n" not in str(caught.value)
    assert files(folder) == before, "a refused open wrote something"
    return str(caught.value)


def not_used(folder, match):
    """The campaign opens from its logs with one notice matching `match`; nothing is written before that."""
    session = Session()
    status = session.campaign_open(folder)
    found = [n for n in status.notices if __import__("re").search(match, n)]
    assert len(found) == 1 and "\n" not in found[0], status.notices
    assert notes(session)[:1] == ["session 1"] and "Bren" in session.state["gurps"].characters
    session.campaign_close()
    return found[0]


def test_a_missing_session_log_is_refused_and_the_snapshot_kept(tmp_path):
    folder = make_campaign(tmp_path / "c")
    kept = (folder / "sessions" / "session-001.jsonl").read_bytes()
    (folder / "sessions" / "session-001.jsonl").unlink()
    message = refused(folder, r"sessions/session-001\.jsonl is listed in campaign\.json but missing")
    assert "%campaign repair" in message and "git" in message
    (folder / "sessions" / "session-001.jsonl").write_bytes(kept)  # restored: opens with everything
    session = Session()
    session.campaign_open(folder)
    assert notes(session) == ["session 1", "session 2"] and "Bren" in session.state["gurps"].characters
    session.campaign_close()


def test_a_missing_index_is_refused_not_opened_empty(tmp_path):
    folder = make_campaign(tmp_path / "c")
    snapshot = (folder / "snapshot.json").read_bytes()
    (folder / "campaign.json").unlink()
    refused(folder, r"campaign\.json is missing, but the folder holds campaign files \(sessions/session-001")
    assert (folder / "snapshot.json").read_bytes() == snapshot
    report = Session().campaign_repair(folder)
    assert not (folder / "campaign.json").exists()  # a plan only
    assert "write campaign.json: 2 sessions" in repr(report) and "--confirm" in repr(report)
    Session().campaign_repair(folder, confirm=True)
    session = Session()
    session.campaign_open(folder)
    assert notes(session) == ["session 1", "session 2"] and "Bren" in session.state["gurps"].characters
    session.campaign_close()


def test_a_snapshot_of_another_campaign_is_not_used(tmp_path):
    ours = make_campaign(tmp_path / "a")
    theirs = tmp_path / "b"
    other = Session(seed=9)
    other.campaign_open(theirs)
    other.gurps.char_new("Zed", st=9)
    for _ in range(10):
        other.note("padding so that the foreign snapshot's seq is inside our logs too")
    other.campaign_close()
    shutil.copy(theirs / "snapshot.json", ours / "snapshot.json")
    message = not_used(ours, r"snapshot\.json belongs to another campaign")
    assert "the state comes from the session logs" in message


def test_a_partial_snapshot_is_not_used(tmp_path):
    folder = make_campaign(tmp_path / "c")
    snap = json.loads((folder / "snapshot.json").read_text())
    snap["state"] = {"core": snap["state"]["core"]}
    snap["parts"] = ["core"]
    (folder / "snapshot.json").write_text(json.dumps(snap))
    not_used(folder, r"snapshot\.json holds the parts core but misses .*gurps")


@pytest.mark.parametrize("target", ["campaign.json", "snapshot.json", "sessions/session-001.jsonl",
                                    "sessions/session-002.jsonl", "state/gurps.json"])
@pytest.mark.parametrize("damage", ["empty", "half"])
def test_each_truncated_file_is_refused_or_not_used(tmp_path, target, damage):
    folder = make_campaign(tmp_path / "c")
    path = folder / target
    data = path.read_bytes()
    damaged = b"" if damage == "empty" else data[: len(data) // 2]
    path.write_bytes(damaged)
    if target == "sessions/session-002.jsonl" and damage == "half":
        # the last log cut mid-line looks like a crash; the snapshot then follows a missing event
        not_used(folder, r"snapshot\.json follows event \d+, but the logs end at event \d+")
    elif target in ("campaign.json", "snapshot.json", "state/gurps.json"):  # derived: rebuilt from the logs
        message = not_used(folder, "^" + target.replace(".", r"\.") + " is not JSON")
        assert "come from the session logs" in message and f"kept as {target}.edited" in message
        assert (folder / (target + ".edited")).read_bytes() == damaged  # kept as it was, like a hand edit
        assert (folder / target).read_bytes() != damaged  # written again at the close
    else:
        refused(folder, target.replace(".", r"\."))  # the gap names the cut log and the one after it


@pytest.mark.parametrize("target", ["sessions/session-001.jsonl", "sessions/session-002.jsonl",
                                    "state/gurps.json"])
def test_each_foreign_file_is_refused(tmp_path, target):
    ours = make_campaign(tmp_path / "a")
    theirs = make_campaign(tmp_path / "b")
    shutil.copy(theirs / target, ours / target)
    if target.startswith("state/"):  # a readable copy is never read back: written again at the next save
        not_used(ours, target.replace(".", r"\.") + " follows event \\d+ of another campaign")
    else:
        refused(ours, target.replace(".", r"\.") + " belongs to another campaign")


def test_a_session_log_copied_under_another_name_is_refused(tmp_path):
    folder = make_campaign(tmp_path / "c")
    shutil.copy(folder / "sessions" / "session-001.jsonl", folder / "sessions" / "session-002.jsonl")
    refused(folder, r"session-002\.jsonl says it is the log 'session-001\.jsonl'")


def test_a_log_the_index_does_not_list_is_taken_from_the_folder(tmp_path):
    folder = make_campaign(tmp_path / "c")
    index = json.loads((folder / "campaign.json").read_text())
    index["sessions"] = index["sessions"][:1]
    (folder / "campaign.json").write_text(json.dumps(index))
    message = not_used(folder, r"^campaign\.json listed other sessions than sessions/ holds")
    assert "rebuilt from the session logs" in message


def test_repair_keeps_the_logs_after_a_lost_one_and_never_deletes(tmp_path):
    folder = make_campaign(tmp_path / "c", sessions=3)
    second = (folder / "sessions" / "session-002.jsonl").read_bytes()
    (folder / "sessions" / "session-002.jsonl").unlink()
    before = files(folder)
    plan = Session().campaign_repair(folder)
    assert files(folder) == before
    text = repr(plan)
    assert "keep sessions/session-001.jsonl" in text and "keep sessions/session-003.jsonl" in text
    assert "write sessions/session-003.jsonl again" in text and "set aside snapshot.json" in text
    Session().campaign_repair(folder, confirm=True)
    aside = next(folder.glob("damaged-*"))
    assert (aside / "sessions" / "session-003.jsonl").read_bytes() == before["sessions/session-003.jsonl"]
    assert (aside / "snapshot.json").read_bytes() == before["snapshot.json"]
    session = Session()
    session.campaign_open(folder)
    assert notes(session) == ["session 1", "session 3"]  # a lost log costs its own events only
    session.campaign_close()
    assert second  # the user still holds the lost log; the set-aside files can be put back by hand


def test_repair_of_a_sound_campaign_changes_nothing_that_matters(tmp_path):
    folder = make_campaign(tmp_path / "c")
    report = Session().campaign_repair(folder, confirm=True)
    assert "set aside" not in repr(report)
    session = Session()
    session.campaign_open(folder)
    assert notes(session) == ["session 1", "session 2"]
    session.campaign_close()


def test_a_dangling_symlink_in_a_cloned_campaign_is_refused_and_its_target_untouched(tmp_path):
    folder = make_campaign(tmp_path / "c", sessions=1)
    outside = tmp_path / "outside.jsonl"
    (folder / "sessions" / "session-002.jsonl").symlink_to(outside)
    refused(folder, r"sessions/session-002\.jsonl is a symbolic link")
    assert not outside.exists()


def test_an_empty_lock_is_diagnosed_with_how_to_remove_it(tmp_path):
    folder = make_campaign(tmp_path / "c", sessions=1)
    (folder / ".lock").write_text("")
    with pytest.raises(CampaignLockedError, match=r"empty or unreadable \.lock \(from \d{4}-.*delete .*\.lock"):
        Session().campaign_open(folder)
    (folder / ".lock").unlink()
    Session().campaign_open(folder).__repr__()


def test_a_live_lock_names_who_and_since_when(tmp_path):
    folder = tmp_path / "c"
    holder = Session()
    holder.campaign_open(folder)
    with pytest.raises(CampaignLockedError, match=rf"pid {os.getpid()} on .*, since \d{{4}}-"):
        Session().campaign_open(folder)
    holder.campaign_close()


def test_tilde_is_expanded_and_files_respect_the_umask(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    old = os.umask(0o022)
    try:
        session = Session(seed=1)
        status = session.campaign_open("~/tilde")
        session.note("x")
        session.campaign_close()
    finally:
        os.umask(old)
    folder = tmp_path / "tilde"
    assert status.path == str(folder)
    for path in [folder / "campaign.json", folder / "snapshot.json", *(folder / "sessions").glob("*.jsonl")]:
        assert path.stat().st_mode & 0o777 == 0o644, path


def test_a_schema_2_campaign_is_migrated_and_keeps_its_events(tmp_path):
    folder = tmp_path / "old"
    (folder / "sessions").mkdir(parents=True)
    lines = [
        {"schema": 1, "seq": 1, "kind": "seed", "time": "", "data": {"seed": 3}},
        {"schema": 1, "seq": 2, "kind": "note", "time": "", "data": {"text": "old days", "gm_only": False}},
    ]
    (folder / "sessions" / "session-001.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    (folder / "campaign.json").write_text(json.dumps({"schema": 2, "name": "old", "sessions": ["session-001.jsonl"],
                                                      "snapshot_seq": 2}))
    (folder / "snapshot.json").write_text(json.dumps({"schema": 1, "seq": 2, "state": {"core": {"seed": 3}}}))
    session = Session()
    status = session.campaign_open(folder)
    assert any("schema 3" in n for n in status.notices)
    assert any("previous version" in n for n in status.notices)  # the old snapshot is not trusted
    assert notes(session) == ["old days"]
    session.campaign_close()
    index = json.loads((folder / "campaign.json").read_text())
    header = json.loads((folder / "sessions" / "session-001.jsonl").read_text().splitlines()[0])
    assert index["schema"] == 3 and header == {"schema": 3, "campaign": index["campaign"],
                                               "file": "session-001.jsonl", "follows": 0}
    again = Session()
    again.campaign_open(folder)
    assert notes(again) == ["old days"]
    again.campaign_close()


def test_a_schema_2_campaign_with_a_missing_log_is_refused_before_migrating(tmp_path):
    folder = make_campaign(tmp_path / "c")
    index = json.loads((folder / "campaign.json").read_text())
    index["schema"] = 2
    (folder / "campaign.json").write_text(json.dumps(index))
    (folder / "sessions" / "session-001.jsonl").unlink()
    with pytest.raises(DataError, match=r"session-001\.jsonl is listed in campaign\.json but missing"):
        Session().campaign_open(folder)
    assert json.loads((folder / "campaign.json").read_text())["schema"] == 2


def test_repair_without_a_folder_repairs_the_campaign_just_refused(tmp_path):
    folder = make_campaign(tmp_path / "c")
    (folder / "campaign.json").unlink()
    session = Session()
    with pytest.raises(GameKernelError, match="repair"):
        session.campaign_open(folder)
    assert f"Repair of {folder}" in repr(session.campaign_repair())
    with pytest.raises(GameKernelError, match=r"which campaign\? %campaign repair FOLDER"):
        Session().campaign_repair()


@pytest.mark.parametrize("name", ["bad\0name", "x" * 300])
def test_odd_folder_names_give_one_line(tmp_path, name):
    with pytest.raises(GameKernelError) as caught:
        Session().campaign_open(tmp_path / name)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("confirm", [False, True])
def test_repair_never_moves_the_files_a_linked_sessions_folder_points_to(tmp_path, confirm):
    folder = tmp_path / "campaign"
    session = Session(seed=1)
    session.campaign_open(folder)
    session.note("a")
    session.campaign_close()
    elsewhere = tmp_path / "elsewhere"
    (folder / "sessions").rename(elsewhere)
    (elsewhere / "notes.jsonl").write_text('{"not": "a campaign log"}\n', encoding="utf-8")
    (folder / "sessions").symlink_to(elsewhere, target_is_directory=True)
    before = {p.name: p.read_bytes() for p in elsewhere.iterdir()}
    with pytest.raises(GameKernelError, match=r"^sessions is a symbolic link"):
        Session().campaign_repair(folder, confirm=confirm)
    assert {p.name: p.read_bytes() for p in elsewhere.iterdir()} == before
    assert not list(folder.glob("damaged-*"))
