"""Temporary files a kernel killed mid-write left in a campaign folder, and whether a lock's kernel lives."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from gamekernel import util


def lock_of_a_browser_tab(holder: dict[str, Any], host: object) -> bool:
    """Whether a lock on this host was taken by a browser tab's kernel, here where only tabs run: its
    pid says nothing (every tab is pid 42), and a reloaded tab would otherwise be locked out of its
    own campaign for good; the lock is taken over, with one line saying so."""
    return util.IN_BROWSER and holder.get("host") == host


def pid_alive(pid: Any) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


TEMP_NAME = re.compile(r"^\..+\.[0-9a-f]{8}\.tmp$")  # util.atomic_write_bytes and the lock's temp files
LOCK_TEMP_PID = re.compile(r"\.lock\.(\d+)\.")


def remove_stale_temps(root: Path) -> int:
    """Delete the temporary files a kernel killed mid-write (kill -9) left in the campaign's folders;
    called once the lock is held, so no other kernel is writing here. A lock temp of a live process
    (a kernel trying to open at this moment) is left alone. Returns how many were removed."""
    removed = 0
    for folder in (root, root / "state", root / "sessions"):
        removed += sum(_remove_temp(Path(entry.path)) for entry in _entries(folder)
                       if TEMP_NAME.match(entry.name) and entry.is_file(follow_symlinks=False))
    return removed


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except OSError:
        return []


def _remove_temp(path: Path) -> bool:
    owner = LOCK_TEMP_PID.search(path.name)
    if owner and pid_alive(int(owner.group(1))):
        return False
    try:
        path.unlink()
    except OSError:
        return False
    return True
