"""Write-ahead. A write that fails (disk full at each write site, a read-only folder, text
that cannot be stored) leaves memory and disk as they were, with one clear line; no event is lost."""

from __future__ import annotations

import errno
import json
import os
import random
import re

import pytest

import gamekernel.campaign
import gamekernel.events
from gamekernel import Session
from gamekernel.errors import GameKernelError, StorageError, UsageError


def notes(session):
    return [e.data["text"] for e in session.active if e.kind == "note"]


def files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != ".lock"}


def opened(folder, seed=1):
    session = Session(seed=seed)
    session.campaign_open(folder)
    session.gurps.char_new("Bren", st=12)
    session.note("first")
    return session


def memory(session):
    return (len(session.log), len(session.active), json.dumps(session.state.to_dict(), sort_keys=True))


def fail_log_writes(monkeypatch, code=errno.ENOSPC, partial=True):
    """The log's write: half the bytes land, then the OS says no (a disk filling up mid-line)."""
    real = gamekernel.events.write_all

    def failing(fd, data):
        if partial:
            real(fd, data[: len(data) // 2])
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(gamekernel.events, "write_all", failing)
    return lambda: monkeypatch.setattr(gamekernel.events, "write_all", real)


def fail_log_sync(monkeypatch, code=errno.ENOSPC):
    """The log's fsync/fdatasync says no (the bytes were written, but cannot be made durable)."""
    def failing(fd):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(gamekernel.events, "sync", failing)


def fail_atomic_writes_of(monkeypatch, name, code=errno.ENOSPC):
    real = gamekernel.campaign.atomic_write_bytes

    def failing(path, data):
        if path.name == name or path.parent.name == name:
            raise OSError(code, os.strerror(code))
        return real(path, data)

    monkeypatch.setattr(gamekernel.campaign, "atomic_write_bytes", failing)


@pytest.mark.parametrize("site", ["log append", "log fsync"])
def test_a_full_disk_at_the_log_leaves_memory_and_file_unchanged(tmp_path, monkeypatch, site):
    folder = tmp_path / "c"
    session = opened(folder)
    log_file = session._store.path
    before_memory, before_file, rng = memory(session), log_file.read_bytes(), session.rng.getstate()
    if site == "log append":
        fail_log_writes(monkeypatch)
    else:
        fail_log_sync(monkeypatch)
    for command in (lambda: session.note("lost?"), lambda: session.gurps.char_new("Cid", st=10),
                    lambda: session.undo(), lambda: session.roll("3d6")):
        expected = rf"could not write sessions/{re.escape(log_file.name)}: No space left"
        with pytest.raises(StorageError, match=expected) as caught, session.command():
            command()
        assert "\n" not in str(caught.value)
        assert memory(session) == before_memory and log_file.read_bytes() == before_file
        assert session.rng.getstate() == rng
    monkeypatch.undo()  # space is free again
    session.note("second")
    session.campaign_close()
    again = Session()
    again.campaign_open(folder)
    assert notes(again) == ["first", "second"] and "Cid" not in again.state["gurps"].characters
    again.campaign_close()


@pytest.mark.parametrize("target", ["snapshot.json", "campaign.json", "state"])
def test_a_full_disk_at_a_save_loses_nothing(tmp_path, monkeypatch, target):
    folder = tmp_path / "c"
    session = opened(folder)
    session.campaign_save()
    session.note("after the save")
    fail_atomic_writes_of(monkeypatch, target)
    with pytest.raises(StorageError, match=rf"could not write {target}.*No space left on device"):
        session.campaign_save()
    status = session.campaign_close()  # the close still lets go, and says what was not written
    assert any("no event is lost" in n for n in status.notices)
    # the snapshot is reported missing only when it is: a failed readable copy comes after it
    wrote_snapshot = target == "state"
    assert any(n.startswith("the snapshot was written, but") for n in status.notices) == wrote_snapshot
    assert any(n.startswith("the snapshot was not written") for n in status.notices) != wrote_snapshot
    monkeypatch.undo()
    again = Session()
    again.campaign_open(folder)
    assert notes(again) == ["first", "after the save"] and "Bren" in again.state["gurps"].characters
    again.campaign_close()


@pytest.mark.parametrize("target", ["campaign.json", "sessions"])
def test_a_full_disk_when_opening_writes_nothing_and_keeps_the_lock_free(tmp_path, monkeypatch, target):
    folder = tmp_path / "c"
    opened(folder).campaign_close()
    before = files(folder)
    fail_atomic_writes_of(monkeypatch, target)
    fresh = Session(seed=5)
    with pytest.raises(StorageError, match="No space left"):
        fresh.campaign_open(folder)
    assert fresh.campaign is None and [e.kind for e in fresh.log] == ["seed"]
    assert files(folder) == before and not (folder / ".lock").exists()


def test_a_full_disk_during_a_long_session_loses_no_confirmed_event(tmp_path, monkeypatch):
    """98 events with the disk failing at random moments: each is either confirmed or refused."""
    folder = tmp_path / "c"
    session = opened(folder)
    chooser = random.Random(17)
    real = gamekernel.events.write_all
    confirmed = ["first"]
    for number in range(98):
        full = chooser.random() < 0.3
        monkeypatch.setattr(gamekernel.events, "write_all", real)
        if full:
            fail_log_writes(monkeypatch)
        try:
            session.note(f"event {number}")
            confirmed.append(f"event {number}")
        except StorageError:
            assert full
        assert notes(session) == confirmed
    monkeypatch.undo()
    session.campaign_close()
    again = Session()
    again.campaign_open(folder)
    assert notes(again) == confirmed and 60 < len(confirmed) < 98
    again.campaign_close()


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES])
def test_a_read_only_folder_gives_one_line(tmp_path, monkeypatch, code):
    """Injected (root ignores permissions, and CI runs tests as root)."""
    folder = tmp_path / "c"
    session = opened(folder)
    before = memory(session)
    fail_log_writes(monkeypatch, code, partial=False)
    fail_atomic_writes_of(monkeypatch, "snapshot.json", code)
    with pytest.raises(StorageError, match=os.strerror(code)):
        session.note("x")
    with pytest.raises(StorageError, match=os.strerror(code)):
        session.campaign_save()
    assert memory(session) == before
    session.campaign_close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_a_really_read_only_folder_gives_one_line(tmp_path):
    folder = tmp_path / "c"
    opened(folder).campaign_close()
    for path in [folder, folder / "sessions", folder / "state"]:
        path.chmod(0o555)
    try:
        with pytest.raises(StorageError, match="Permission denied"):
            Session().campaign_open(folder)
    finally:
        for path in [folder, folder / "sessions", folder / "state"]:
            path.chmod(0o755)


def test_a_lone_surrogate_is_refused_before_anything_changes(tmp_path):
    """The issue's `%char new Bob\\ud800 st=10`: Bob was in memory, and save/close/export raised forever."""
    folder = tmp_path / "c"
    session = opened(folder)
    session.note("last good")
    log_file = session._store.path
    before_memory, before_file = memory(session), log_file.read_bytes()
    with pytest.raises(UsageError, match=r"U\+D800, a character that cannot be stored"):
        session.gurps.char_new("Bob\ud800", st=10)
    assert memory(session) == before_memory and log_file.read_bytes() == before_file
    assert "Bob\ud800" not in session.state["gurps"].characters
    session.campaign_save()
    session.log_write(tmp_path / "log.md")
    taken = session.undo()
    assert [e.kind for e in taken] == ["note"] and taken[0].data["text"] == "last good"
    session.campaign_close()
    again = Session()
    again.campaign_open(folder)
    assert notes(again) == ["first"]
    again.campaign_close()


def test_a_log_file_without_a_campaign_is_write_ahead_too(tmp_path, monkeypatch):
    session = Session(seed=1, log_path=tmp_path / "log.jsonl")
    session.note("kept")
    before = memory(session)
    fail_log_writes(monkeypatch)
    with pytest.raises(GameKernelError, match=r"could not write log\.jsonl"):
        session.note("not kept")
    assert memory(session) == before
    monkeypatch.undo()
    session.close()
    resumed = Session()
    resumed.attach_log(tmp_path / "log.jsonl")
    assert notes(resumed) == ["kept"]


def test_a_full_disk_when_taking_the_lock_leaves_no_empty_lock(tmp_path, monkeypatch):
    """The issue: the empty `.lock` a full disk left behind blocked the campaign for good."""
    folder = tmp_path / "c"
    opened(folder).campaign_close()
    real = gamekernel.campaign.atomic_write_bytes

    def failing(path, data):
        if path.name.startswith(".lock"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(path, data)

    monkeypatch.setattr(gamekernel.campaign, "atomic_write_bytes", failing)
    with pytest.raises(StorageError, match=r"could not write \.lock: No space left"):
        Session().campaign_open(folder)
    assert not any(p.name.startswith(".lock") for p in folder.iterdir())
    monkeypatch.undo()
    session = Session()
    session.campaign_open(folder)
    assert notes(session) == ["first"]
    session.campaign_close()


def test_the_write_failure_line_is_translated(tmp_path, monkeypatch):
    from gamekernel.i18n import get_language, set_language

    session = opened(tmp_path / "c")
    fail_log_writes(monkeypatch)
    previous = get_language()
    set_language("ja")
    try:
        expected = rf"sessions/{re.escape(session._store.path.name)} に書き込めませんでした: ディスクの空きがありません"
        with pytest.raises(StorageError, match=expected):
            session.note("x")
    finally:
        set_language(previous)
    monkeypatch.undo()
    session.campaign_close()


def test_a_half_line_that_cannot_be_cut_back_does_not_spoil_the_next_event(tmp_path, monkeypatch):
    """The disk refuses the rest of a line and the truncation too: the half line is skipped on load."""
    folder = tmp_path / "c"
    session = opened(folder)
    fail_log_writes(monkeypatch)
    monkeypatch.setattr(os, "ftruncate", lambda fd, size: (_ for _ in ()).throw(OSError(errno.EIO, "EIO")))
    with pytest.raises(StorageError):
        session.note("half")
    monkeypatch.undo()
    session.note("whole")
    session.campaign_close()
    again = Session()
    status = again.campaign_open(folder)
    assert notes(again) == ["first", "whole"]
    assert any("incomplete" in n for n in status.notices)
    again.campaign_close()
