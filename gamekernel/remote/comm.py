"""The kernel's end of the remote table: a comm target the table server opens.

Messages from the server (it alone talks to the kernel; players never do):
- `{"type": "watch", "users": [...]}`: the users whose pages are open; each gets its view now and
  after every event that changes it (never after one that changes nothing they may see: a secret
  roll sends no message at all).
- `{"type": "intent", "id": N, "user": U, "intent": {...}}`: a player's action, the user stamped by
  the server; answered with `{"type": "reply", "id": N, "user": U, "reply": {...}}` to that user alone.
Replies carry only what `views.player_view` computed for that user.

Comm messages are handled on the kernel's main thread, one at a time after any running cell, so
the Session is only ever called from its own thread; players queue behind a long GM cell.
"""

from __future__ import annotations

import json
from typing import Any

TARGET = "gamekernel.table"


class TableLink:
    """One open comm: the watched users, the views last sent to each, the session's public table."""

    def __init__(self, comm: Any, session_of: Any) -> None:
        self.comm = comm
        self.session_of = session_of  # the kernel's current session (a new one after %reload_ext)
        self.users: list[str] = []
        self.sent: dict[str, str] = {}
        self.session: Any = None
        self.table: Any = None  # the session's PublicTable, made on first use
        comm.on_msg(self.on_msg)
        comm.on_close(lambda _msg: self.close())
        comm.send({"type": "ready"})  # the server sends intents once it has heard this

    def close(self) -> None:
        self.table = None  # the session's own projection: it keeps serving the notebook's views

    def bind(self) -> Any:
        """The public table of the kernel's current session (rebuilt after `%reload_ext`)."""
        session = self.session_of()  # UsageError while gamekernel is unloaded
        if self.table is None or session is not self.session:
            self.close()
            self.session, self.table = session, session.public_table()
            session.observe(self.on_event)
            self.sent.clear()
        return self.table.current()

    def on_msg(self, msg: dict[str, Any]) -> None:
        data = msg["content"]["data"]
        kind = data.get("type")
        if kind == "watch":
            self.users = sorted({str(u) for u in data.get("users", [])})
            self.push(force=True)
        elif kind == "intent":
            from gamekernel.errors import GameKernelError
            from gamekernel.remote.intents import Reply, handle

            try:
                self.bind()
                with self.session.exclusive():
                    reply = handle(self.session, str(data["user"]), data.get("intent"))
            except GameKernelError as error:
                reply = Reply(False, str(error))
            self.comm.send({"type": "reply", "id": data.get("id"), "user": data["user"], "reply": reply.to_dict()})
            self.push()

    def on_event(self, session: Any, event: Any) -> None:
        if session is self.session:
            self.push()

    def push(self, *, force: bool = False) -> None:
        """Send each watched user their view when it changed since the last one sent."""
        from gamekernel.errors import GameKernelError
        from gamekernel.remote.projection import Audience, view

        try:
            table = self.bind()
        except GameKernelError:  # gamekernel unloaded: the views come back with `%load_ext`
            return
        for user in self.users:
            drawn = view(self.session, Audience.player(user), table)
            text = json.dumps(drawn, ensure_ascii=False, sort_keys=True)
            if force or self.sent.get(user) != text:
                self.sent[user] = text
                self.comm.send({"type": "view", "user": user, "view": drawn})


_links: list[TableLink] = []


def register(ipython: Any) -> None:
    """Register the comm target in the kernel (after `%load_ext`; again after a reload)."""
    kernel = getattr(ipython, "kernel", None)
    manager = getattr(kernel, "comm_manager", None)
    if manager is None:
        return  # a plain IPython shell: no kernel, no remote table

    def opened(comm: Any, msg: dict[str, Any]) -> None:
        from gamekernel.magic_base import current_session

        _links.append(TableLink(comm, current_session))

    manager.register_target(TARGET, opened)


def unregister(ipython: Any) -> None:
    """Stop accepting new links; the open ones stay, and serve the next session after `%reload_ext`."""
    kernel = getattr(ipython, "kernel", None)
    manager = getattr(kernel, "comm_manager", None)
    if manager is not None and TARGET in getattr(manager, "targets", {}):
        manager.unregister_target(TARGET, manager.targets[TARGET])
