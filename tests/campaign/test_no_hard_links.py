"""`%campaign open` where the system has no hard links: Pyodide has no `os.link` at all, and some
shares refuse them (EPERM). The lock is then taken by an exclusive create: the campaign opens, a
second session is still refused, and close releases the lock."""

from __future__ import annotations

import errno
import os

import pytest

from gamekernel import Session
from gamekernel.errors import GameKernelError


def no_link(monkeypatch, how):
    if how == "missing":
        monkeypatch.delattr(os, "link")
    else:
        def refusing(*args, **kwargs):
            raise OSError(errno.EPERM, os.strerror(errno.EPERM))

        monkeypatch.setattr(os, "link", refusing)


@pytest.mark.parametrize("how", ["missing", "refused"])
def test_a_campaign_opens_and_locks_without_hard_links(tmp_path, monkeypatch, how):
    no_link(monkeypatch, how)
    folder = tmp_path / "c"
    first = Session(seed=1)
    first.campaign_open(folder)
    first.note("kept")
    assert (folder / ".lock").read_bytes()  # the lock holds who took it
    second = Session(seed=2)
    with pytest.raises(GameKernelError) as caught:
        second.campaign_open(folder)
    assert "\n" not in str(caught.value)
    first.campaign_close()
    assert not (folder / ".lock").exists() and not list(folder.glob(".lock.*.tmp"))
    second.campaign_open(folder)
    assert [e.data["text"] for e in second.active if e.kind == "note"] == ["kept"]
