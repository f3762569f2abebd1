"""kill -9 in the middle of an atomic write leaves its temporary file behind; the next opening of
the campaign (once it holds the lock) removes this campaign's stale temp files, with one notice, and
leaves every other file alone (the user's own files, a lock temp of a kernel that is alive)."""

from __future__ import annotations

import os

from gamekernel import Session


def test_stale_temp_files_are_removed_on_open_and_others_kept(tmp_path):
    folder = tmp_path / "c"
    session = Session(seed=1)
    session.campaign_open(folder)
    session.note("kept")
    session.campaign_close()
    stale = [folder / ".snapshot.json.1a2b3c4d.tmp", folder / "state" / ".core.json.deadbeef.tmp",
             folder / ".lock.999999999.abcdef12.tmp", folder / "sessions" / ".x.jsonl.0badf00d.tmp"]
    kept = [folder / "notes.tmp", folder / ".hidden.tmp", folder / f".lock.{os.getpid()}.12345678.tmp",
            folder / "state" / "mine.txt"]
    for path in stale + kept:
        path.parent.mkdir(exist_ok=True)
        path.write_text("half", encoding="utf-8")
    reopened = Session()
    status = reopened.campaign_open(folder)
    assert not [p for p in stale if p.exists()]
    assert all(p.exists() for p in kept)
    lines = [n for n in status.notices if "temporary" in n]
    assert lines == [f"removed {len(stale)} temporary files left by a kernel that was stopped in the middle "
                     "of a write; nothing recorded was in them"]
    assert [e.data["text"] for e in reopened.active if e.kind == "note"] == ["kept"]
    reopened.campaign_close()
    again = Session()
    assert not [n for n in again.campaign_open(folder).notices if "temporary" in n]  # nothing left to say
    again.campaign_close()


def test_a_folder_named_like_an_unknown_users_home_is_opened_as_typed(tmp_path, monkeypatch):
    """Found by tools/fuzz_magics.py: `%campaign open ~ Bren` raised RuntimeError ("Could not
    determine home directory") from pathlib: `~ Bren` names no user, so it is a folder name."""
    monkeypatch.chdir(tmp_path)
    session = Session(seed=1)
    session.campaign_open("~nobody-here x")
    assert (tmp_path / "~nobody-here x").is_dir()
    session.campaign_close()
