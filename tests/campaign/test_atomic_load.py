"""`%campaign load` is atomic: it reads the folder again first (under the lock it already holds) and
switches to what it read only once that is read whole, replayed and its new session started. A load
refused (damage, a full disk) or interrupted at any point leaves the campaign open as it was, so no
later command is kept in memory only; and a load never writes a snapshot, readable copy or index from
memory over what another tool changed in the folder."""

from __future__ import annotations

import errno
import gc
import json
import os

import pytest

import gamekernel.campaign
from gamekernel import Session
from gamekernel.errors import GameKernelError, StorageError
from tests.campaign.test_interrupts import InterruptAt, Points, traced


def notes(session):
    return [e.data["text"] for e in session.active if e.kind == "note"]


def opened(folder):
    session = Session(seed=2)
    session.campaign_open(folder)
    session.gurps.char_new("Bren", st=12)
    session.note("before the load")
    return session


def reopened_notes(folder):
    again = Session()
    again.campaign_open(folder)
    found = notes(again)
    again.campaign_close()
    return found


def test_an_interrupt_at_every_point_of_a_load_leaves_a_campaign_open(tmp_path):
    folder = tmp_path / "c"
    session = opened(folder)
    session.campaign_load()  # warm lazy imports
    points = Points()
    traced(points, session.campaign_load)
    seen = list(points.seen)
    stride = max(1, len(seen) // int(os.environ.get("GAMEKERNEL_LOAD_POINTS", "80")))
    fired = 0
    for number, point in enumerate(seen[::stride]):
        tracer = InterruptAt(point)
        traced(tracer, session.campaign_load)
        fired += tracer.fired
        assert session.campaign is not None, f"{point}: the kernel was left without its campaign"
        assert gc.isenabled(), f"{point}: the garbage collector was left off"
        session.note(f"after {number}")  # recorded to the folder, never to memory only
        assert session._store is not None and session._store.ends_with(
            (session.log[-1].to_json() + "\n").encode())
    assert fired > 40
    expected = notes(session)
    session.campaign_close()
    assert reopened_notes(folder) == expected


def test_a_full_disk_while_loading_keeps_the_campaign_open_and_says_so(tmp_path, monkeypatch):
    folder = tmp_path / "c"
    session = opened(folder)
    real = gamekernel.campaign.atomic_write_bytes

    def failing(path, data):
        if str(path).endswith(".jsonl"):  # the new session's header
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, data)

    monkeypatch.setattr(gamekernel.campaign, "atomic_write_bytes", failing)
    with pytest.raises(StorageError) as error:
        session.campaign_load()
    message = str(error.value)
    assert "\n" not in message and "no space" in message.lower() and "is still open as it was" in message
    monkeypatch.setattr(gamekernel.campaign, "atomic_write_bytes", real)
    session.note("after the full disk")
    session.campaign_close()
    assert reopened_notes(folder) == ["before the load", "after the full disk"]


def test_a_refused_reload_keeps_the_campaign_open(tmp_path):
    folder = tmp_path / "c"
    session = opened(folder)
    log = session._store.path
    body = log.read_bytes()
    log.write_bytes(body + b"<<<<<<< HEAD\n")
    with pytest.raises(GameKernelError, match="git conflict markers") as error:
        session.campaign_load()
    assert "still open as it was" in str(error.value)
    log.write_bytes(body)
    session.note("still recorded")
    session.campaign_close()
    assert reopened_notes(folder) == ["before the load", "still recorded"]


def test_a_load_rereads_before_it_writes_anything(tmp_path):
    folder = tmp_path / "c"
    session = opened(folder)
    session.campaign_save()
    index = json.loads((folder / "campaign.json").read_text())
    index["name"] = "renamed by another tool"
    (folder / "campaign.json").write_text(json.dumps(index))
    copy = next(p for p in (folder / "state").glob("*.json") if "Bren" in p.read_text())
    edited = copy.read_text().replace("Bren", "Brenna")
    copy.write_text(edited)
    status = session.campaign_load()
    assert status.name == "renamed by another tool"
    assert copy.with_name(copy.name + ".edited").read_text() == edited  # kept, not overwritten
    assert any("had been changed by hand" in n for n in status.notices)
    session.campaign_close()
    assert json.loads((folder / "campaign.json").read_text())["name"] == "renamed by another tool"


def test_no_command_records_to_memory_only_while_a_campaign_is_meant_to_be_open(tmp_path):
    folder = tmp_path / "c"
    session = opened(folder)
    store = session.campaign
    session._campaign_meant = store.root  # a reload cut short where nothing could put it back
    session.campaign = None
    before = len(session.log)
    with pytest.raises(StorageError, match=r"^refused, nothing recorded: campaign 'c' was being read again"):
        session.note("lost?")
    assert len(session.log) == before
    store.release()
    session.campaign_open(folder)
    session.note("recorded")
    session.campaign_close()
    assert reopened_notes(folder) == ["before the load", "recorded"]


def test_close_and_reopen_in_one_kernel_does_not_call_the_campaign_earlier_play(tmp_path):
    folder = tmp_path / "c"
    session = opened(folder)
    session.campaign_close()
    status = session.campaign_open(folder)
    assert not any("not part of it" in n for n in status.notices), status.notices
    session.campaign_close()
    session.note("played with no campaign open")
    status = session.campaign_open(folder)
    assert any(n.startswith("1 event recorded before the campaign was opened is not part")
               for n in status.notices), status.notices
    session.campaign_close()


def test_a_read_only_campaign_is_not_said_to_be_saved(tmp_path):
    folder = tmp_path / "c"
    opened(folder).campaign_close()
    session = Session()
    session.campaign_open(folder)
    session.campaign.read_only = True
    text = repr(session.campaign_close())
    assert "closed (read-only: nothing was written)" in text and "saved" not in text


def test_an_interrupt_at_any_point_of_a_repair_loses_no_event(tmp_path):
    """A repair cut short anywhere leaves every event in a log or its copy; run again, it finishes."""
    import shutil

    from gamekernel.campaign_repair import repair

    base = tmp_path / "base"
    for number in range(2):
        session = Session(seed=number + 1)
        session.campaign_open(base)
        for n in range(4):
            session.note(f"s{number} n{n}")
        session.campaign_close()
    first = sorted((base / "sessions").glob("*.jsonl"))[0]
    lines = first.read_bytes().split(b"\n")
    del lines[3]  # a deleted line: the repair renumbers everything after it
    first.write_bytes(b"\n".join(lines))
    clean = tmp_path / "clean"
    shutil.copytree(base, clean)
    points = Points()
    traced(points, lambda: repair(clean, confirm=True))
    expected = reopened_notes(clean)
    assert len(expected) == 7
    seen = list(points.seen)
    stride = max(1, len(seen) // int(os.environ.get("GAMEKERNEL_REPAIR_POINTS", "30")))
    fired = 0
    for number, point in enumerate(seen[::stride]):
        work = tmp_path / f"work-{number}"
        shutil.copytree(base, work)
        tracer = InterruptAt(point)
        traced(tracer, lambda: repair(work, confirm=True))  # noqa: B023 - run at once
        fired += tracer.fired
        assert gc.isenabled(), f"{point}: the garbage collector was left off"
        repair(work, confirm=True)  # the GM runs it again
        assert reopened_notes(work) == expected, point
    assert fired > 10
