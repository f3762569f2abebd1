"""`%table serve`: tell the table server (gamekernel/remote/server.py) which kernel holds the table,
and say the exact address to give the players.

The kernel writes its id to `gamekernel-table.json` in Jupyter's runtime folder (where the server and
its kernels keep their connection files), atomically; the server opens its comm to that kernel.
The address comes from what JupyterHub tells the GM's server (and so its kernels) in the environment:
`JUPYTERHUB_PUBLIC_URL` (this server's public URL, when the hub has one), else `make table`'s
`GAMEKERNEL_TABLE_URL` plus `JUPYTERHUB_SERVICE_PREFIX` (`/user/gm/`), else the path alone.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gamekernel.errors import UsageError
from gamekernel.i18n import t

SERVE_FILE = "gamekernel-table.json"
PAGE = "gamekernel/table"  # the players' page under the server's base URL (server.py)


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
    """Register this kernel as the table's; one line, never a traceback, where no Jupyter server is
    (a browser tab's kernel: JupyterLite has none, so players have nowhere to connect)."""
    from gamekernel import util

    if util.IN_BROWSER:
        raise UsageError(t("remote.err.in_browser"))
    try:
        from jupyter_core.paths import jupyter_runtime_dir
    except ImportError:
        raise UsageError(t("remote.err.no_server")) from None

    ident = kernel_id(shell)
    folder = Path(jupyter_runtime_dir())
    folder.mkdir(parents=True, exist_ok=True)
    util.atomic_write_text(folder / SERVE_FILE, json.dumps({"kernel_id": ident, "pid": os.getpid()}) + "\n")
    url = players_url(os.environ)
    if "://" in url:
        return t("remote.serving_url", url=url)
    return t("remote.serving", path=url)


def players_url(env: Mapping[str, str]) -> str:
    """The players' page's address, as full as the environment allows: `https://table.example:8000/user/gm/
    gamekernel/table`, else `/user/gm/gamekernel/table` (on the hub's address), else `gamekernel/table`."""
    public = env.get("JUPYTERHUB_PUBLIC_URL", "").strip()
    if public:
        return public.rstrip("/") + "/" + PAGE
    prefix = env.get("JUPYTERHUB_SERVICE_PREFIX", "").strip().strip("/")
    if not prefix:
        return PAGE
    table = env.get("GAMEKERNEL_TABLE_URL", "").strip()
    if "://" in table:
        return f"{table.rstrip('/')}/{prefix}/{PAGE}"
    return f"/{prefix}/{PAGE}"
