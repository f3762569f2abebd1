"""A table with players on its page is in use, even while nobody rolls: the GM's server tells the hub so.

JupyterHub's idle culler stops a server whose last activity is older than its timeout; the single-user
server reports as its activity the latest of the `*_last_activity` settings (jupyter_server's
`last_activity`, the hook for extensions) and its kernels'. A player's open socket (server.py) moves no
kernel, so `Presence` keeps `gamekernel_table_last_activity` at "now" while one is open: touched on
every join, message and leave, and every `EVERY` seconds in between. A table nobody has open is left
to the culler like any idle server.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from datetime import UTC, datetime
from typing import Any

from tornado.ioloop import PeriodicCallback

SETTING = "gamekernel_table_last_activity"  # ends in `_last_activity`: counted by jupyter_server
EVERY = 60.0  # seconds: well under any idle timeout worth setting (and the hub's 300 s activity reports)


def utcnow() -> datetime:
    """An aware UTC time, as jupyter_server keeps its activity times (they are compared with max)."""
    return datetime.now(UTC)


class Presence:
    """Who has the players' page open, kept as activity of the server (`settings`: the web app's)."""

    def __init__(self, settings: MutableMapping[str, Any], every: float = EVERY) -> None:
        self.settings = settings
        self.open: set[object] = set()
        self.ticker = PeriodicCallback(self.touch, every * 1000)

    def touch(self) -> None:
        if self.open:
            self.settings[SETTING] = utcnow()

    def join(self, socket: object) -> None:
        self.open.add(socket)
        self.touch()
        if not self.ticker.is_running():
            self.ticker.start()

    def leave(self, socket: object) -> None:
        self.touch()  # the last moment someone was there
        self.open.discard(socket)
        if not self.open:
            self.ticker.stop()
