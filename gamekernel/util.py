"""Small file helpers shared by the stores (atomic writes)."""

from __future__ import annotations

import copy
import marshal
import os
import secrets
import sys
from pathlib import Path
from typing import Any

#: a kernel in a browser tab (Pyodide, JupyterLite): no server, no subprocess, every tab pid 42
IN_BROWSER = sys.platform == "emscripten"


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` to `path` so that readers see the old file or the new one, never half of it.

    The text is encoded first (an unencodable character fails before any file is touched), and
    the temporary file is created with mode 0666 so that the user's umask decides the permissions.
    """
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """`atomic_write_text` for bytes: temp file in the same folder, fsync, rename over `path`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """Make a rename or a new file in `folder` durable (where the system lets a folder be synced)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """os.write until every byte is written (a write may take only part of them)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def plain_copy(data: Any) -> Any:
    """A deep copy of plain data (dicts, lists, strings and numbers, as JSON and `to_dict` give):
    marshal's round trip copies those at C speed, about ten times `copy.deepcopy`, and keeps every
    dict's order; anything marshal cannot write is copied by `copy.deepcopy`."""
    try:
        return marshal.loads(marshal.dumps(data))
    except ValueError:
        return copy.deepcopy(data)
