"""A campaign whose folder cannot be written (a read-only mount, another user's folder) can still be
looked at: `%campaign open` opens it read-only with one notice; every command that records is then
refused with one line, memory and files unchanged; close writes nothing. Root ignores permissions,
so the test injects the errors the system would give (EROFS, EACCES)."""

from __future__ import annotations

import errno
import json
import os

import pytest

import gamekernel.campaign
import gamekernel.util
from gamekernel import Session
from gamekernel.errors import StorageError


def files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def read_only(monkeypatch, code):
    """Every new file in the folder fails the way a read-only folder does (appends and creates)."""
    real = gamekernel.util.os.open

    def failing(path, flags, *args, **kwargs):
        if flags & (os.O_CREAT | os.O_WRONLY | os.O_APPEND | os.O_RDWR):
            raise OSError(code, os.strerror(code), str(path))
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(gamekernel.util.os, "open", failing)


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES])
def test_a_read_only_campaign_opens_to_be_looked_at_and_refuses_to_record(tmp_path, monkeypatch, code):
    folder = tmp_path / "c"
    session = Session(seed=1)
    session.campaign_open(folder)
    session.gurps.char_new("Bren", st=12)
    session.note("first")
    session.campaign_close()
    before = files(folder)
    read_only(monkeypatch, code)
    viewer = Session(seed=2)
    status = viewer.campaign_open(folder)
    lines = [n for n in status.notices if "read-only" in n]
    assert len(lines) == 1 and "\n" not in lines[0] and "'c'" in lines[0]
    assert [e.data["text"] for e in viewer.active if e.kind == "note"] == ["first"]  # the GM can look
    assert viewer.gurps.character("Bren").st == 12
    log, state = len(viewer.log), json.dumps(viewer.state.to_dict(), sort_keys=True)
    for attempt in (lambda: viewer.note("second"), lambda: viewer.gurps.char_new("Ana"), lambda: viewer.undo(1)):
        with pytest.raises(StorageError) as caught:
            attempt()
        assert "read-only" in str(caught.value) and "\n" not in str(caught.value)
        assert (len(viewer.log), json.dumps(viewer.state.to_dict(), sort_keys=True)) == (log, state)
    viewer.campaign_close()
    monkeypatch.undo()
    assert files(folder) == before  # nothing written, not even a lock
    again = Session()
    again.campaign_open(folder)  # writable again: it opens to be played
    again.note("second")
    again.campaign_close()


def test_a_new_campaign_in_a_folder_that_cannot_be_written_is_refused_in_a_line(tmp_path, monkeypatch):
    folder = tmp_path / "new"
    folder.mkdir()
    read_only(monkeypatch, errno.EROFS)
    with pytest.raises(StorageError) as caught:
        Session().campaign_open(folder)
    assert "\n" not in str(caught.value)
    assert gamekernel.campaign.INDEX not in os.listdir(folder)
