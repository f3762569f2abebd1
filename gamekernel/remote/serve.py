"""`%table serve`: tell the table server (gamekernel/remote/server.py) which kernel holds the table.

The kernel writes its id to `gamekernel-table.json` in Jupyter's runtime folder (where the server and
its kernels keep their connection files), atomically; the server opens its comm to that kernel.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from gamekernel.errors import UsageError
from gamekernel.i18n import t

SERVE_FILE = "gamekernel-table.json"


def kernel_id(shell: Any) -> str:
    """This kernel's id, read from its connection file (`kernel-<id>.json`), as the server names it."""
    try:
        from ipykernel.connect import get_connection_file

        name = Path(get_connection_file()).name
    except Exception:  # not inside a Jupyter kernel
        raise UsageError(t("remote.err.not_kernel")) from None
    found = re.fullmatch(r"kernel-(.+)\.json", name)
    if found is None:
        raise UsageError(t("remote.err.not_kernel"))
    return found.group(1)


def serve_here(shell: Any) -> str:
    from jupyter_core.paths import jupyter_runtime_dir

    from gamekernel.util import atomic_write_text

    ident = kernel_id(shell)
    folder = Path(jupyter_runtime_dir())
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write_text(folder / SERVE_FILE, json.dumps({"kernel_id": ident, "pid": os.getpid()}) + "\n")
    return t("remote.serving", path="gamekernel/table")
