"""The kernel's end of the remote table: a comm target the table server opens.

Messages from the server (it alone talks to the kernel; players never do):
- `{"type": "watch", "users": [...]}`: the users whose pages are open now (the set shrinks when a
  page closes); each gets its view now and after every event that changes it (never after one that
  changes nothing they may see: a secret roll sends no message at all).
- `{"type": "pull", "id": N, "user": U}`: one view of U, whole, for a page that asks once (HTTP).
- `{"type": "intent", "id": N, "cid": C, "user": U, "intent": {...}}`: a player's action, the user
  stamped by the server, `cid` the page's own id of it (its resends keep it); answered with
  `{"type": "reply", "id": N, "cid": C, "user": U, "reply": {...}}` to that user alone. An action is
  carried out at most once however often it is sent: a resend is answered with the first reply.
Replies carry only what `views.player_view` computed for that user.

Every message to the server goes on the shell socket, addressed to the server's own connection (the
"shell reply path"), never on iopub: iopub reaches every connection to the kernel, the GM's own
notebook included, which has no use for 32 players' views. A kernel without that path (another
ipykernel) falls back to the comm's iopub messages.

A view carries what changed since the last one sent (`partial`: the other keys are as they were)
and its story as a delta: the blocks after the ones the page was sent last (`story_at`,
`story_len`); a page's first view (or one after the story changed in the middle: an undo, a
reveal) is whole and carries the tail the page shows, `story_reset` set. Actions may come as a
batch (`{"type": "intents", "items": [...]}`, answered by `{"type": "replies", "items": [...]}`):
the views are pushed once for the batch.

Comm messages are handled on the kernel's main thread, one at a time after any running cell, so
the Session is only ever called from its own thread; players queue behind a long GM cell. Views are
pushed once per turn of the kernel's loop (a GM cell of ten events pushes once, after the cell).
One link per kernel: a new comm from the server replaces the old link, which lets go of its session.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from typing import Any

TARGET = "gamekernel.table"
REMEMBERED = 256  # the client ids of a player's last actions, kept with their replies
TAIL = 40  # the story blocks a page shows (players.html)


def shell_socket(kernel: Any) -> Any:
    """The socket the kernel's main thread answers shell requests on (ipykernel 7 relays it through
    the shell channel's thread; ipykernel 6 answers on the shell stream itself)."""
    if getattr(kernel, "_supports_kernel_subshells", False):
        return kernel.shell_channel_thread.manager.get_subshell_to_shell_channel_socket(None)
    return kernel.shell_stream


def story_delta(old: list[Any] | None, new: list[Any]) -> tuple[int, list[Any], bool]:
    """(where the blocks start, the blocks, whether the page starts over): the blocks after `old`
    when `new` continues it, else the tail of `new` the page shows."""
    if old is not None and len(new) >= len(old) and new[: len(old)] == old and len(new) - len(old) <= TAIL:
        return len(old), new[len(old):], False
    at = max(0, len(new) - TAIL)
    return at, new[at:], True


class Replies:
    """Each player's last `REMEMBERED` actions by their client id, with the reply they got."""

    def __init__(self) -> None:
        self.by_user: dict[str, OrderedDict[str, dict[str, Any]]] = {}

    def get(self, user: str, cid: str) -> dict[str, Any] | None:
        return self.by_user.get(user, OrderedDict()).get(cid)

    def keep(self, user: str, cid: str, reply: dict[str, Any]) -> None:
        kept = self.by_user.setdefault(user, OrderedDict())
        kept[cid] = reply
        while len(kept) > REMEMBERED:
            kept.popitem(last=False)


replies = Replies()  # the kernel's, across links and reloads: a resend after either is still known


class TableLink:
    """One open comm: the watched users, the views last sent to each, the session's public table."""

    def __init__(self, comm: Any, session_of: Any, kernel: Any = None) -> None:
        self.comm = comm
        self.session_of = session_of  # the kernel's current session (a new one after %reload_ext)
        self.kernel = kernel
        self.ident: Any = None  # the server's shell connection: where this link's messages go
        self.users: list[str] = []
        self.sent: dict[str, tuple[dict[str, Any], list[Any]]] = {}  # user -> (view without story, story sent)
        self.session: Any = None
        self.table: Any = None  # the session's PublicTable, made on first use
        self.stop: Any = None  # stops observing the session
        self.closed = False
        self.scheduled = False
        self.stamp: tuple[int, int, int] | None = None  # the table's version the views were drawn at
        self.heard()
        comm.on_msg(self.on_msg)
        comm.on_close(lambda _msg: self.close())
        self.out({"type": "ready"})  # the server sends intents once it has heard this

    def heard(self) -> None:
        """Remember who sent the message being handled: the server's shell connection."""
        parents = getattr(self.kernel, "_parent_ident", None)
        ident = parents.get("shell") if parents is not None else None
        if ident:
            self.ident = ident

    def out(self, data: dict[str, Any]) -> None:
        """Send `data` to the server alone (see the module's docstring)."""
        if self.ident and self.kernel is not None:
            try:
                self.kernel.session.send(shell_socket(self.kernel), "comm_msg",
                                         {"comm_id": self.comm.comm_id, "data": data}, ident=self.ident)
                return
            except (AttributeError, TypeError, ValueError):  # no shell path in this kernel: iopub, from now on
                self.ident = None
        self.comm.send(data)

    def close(self) -> None:
        """Let go of the session (no more views); the session keeps its projection for the notebook."""
        self.closed = True
        self.detach()

    def detach(self) -> None:
        if self.stop is not None:
            self.stop()
            self.stop = None
        self.table = None

    def bind(self) -> Any:
        """The public table of the kernel's current session (rebuilt after `%reload_ext`)."""
        session = self.session_of()  # UsageError while gamekernel is unloaded
        if self.table is None or session is not self.session:
            self.detach()
            self.session, self.table = session, session.public_table()
            self.stop = session.observe(self.on_event)
            self.sent.clear()
        return self.table.current()

    def follow(self) -> None:
        """The kernel's session changed (`%reload_ext gamekernel`): serve the new one now."""
        if not self.closed:
            self.sent.clear()
            self.push(force=True)

    def on_msg(self, msg: dict[str, Any]) -> None:
        self.heard()
        data = msg["content"]["data"]
        kind = data.get("type")
        if kind == "watch":
            users = sorted({str(u) for u in data.get("users", [])})
            for gone in set(self.sent) - set(users):
                del self.sent[gone]
            self.users = users
            self.push()  # the new users have no view sent: they get theirs
        elif kind == "pull":
            self.pull(str(data.get("user")), data.get("id"))
        elif kind == "intent":
            self.intent(data)
        elif kind == "intents":
            self.intents(list(data.get("items") or []))

    def intent(self, data: dict[str, Any]) -> None:
        self.out(self.answer(data))
        self.push()

    def intents(self, items: list[Any]) -> None:
        """A batch of actions (the server sends what waited while the kernel was busy): each carried
        out in turn, the replies in one message, the views pushed once."""
        self.out({"type": "replies", "items": [self.answer(item) for item in items if isinstance(item, dict)]})
        self.push()

    def answer(self, data: dict[str, Any]) -> dict[str, Any]:
        from gamekernel.errors import GameKernelError
        from gamekernel.remote.intents import Reply, handle

        user, cid = str(data.get("user")), str(data.get("cid") or data.get("id"))
        sent: Any = data.get("intent")  # anything: `handle` answers what is no intent
        reply = replies.get(user, cid)
        if reply is None:  # not seen yet: carried out now, once
            try:
                self.bind()
                with self.session.command(user):  # one caller at a time, refused whole, stamped by the player
                    reply = handle(self.session, user, sent).to_dict()
            except GameKernelError as error:
                reply = Reply(False, str(error)).to_dict()
            replies.keep(user, cid, reply)
        return {"type": "reply", "id": data.get("id"), "cid": cid, "user": user, "reply": reply}

    def pull(self, user: str, number: Any) -> None:
        from gamekernel.errors import GameKernelError
        from gamekernel.remote.projection import Audience
        from gamekernel.remote.views import view

        try:
            table = self.bind()
        except GameKernelError:
            drawn = None
        else:
            drawn = view(self.session, Audience.player(user), table)
            at, story, _ = story_delta(None, drawn.pop("story"))
            drawn.update(story=story, story_at=at, story_len=at + len(story), story_reset=True, partial=False)
        self.out({"type": "view", "user": user, "id": number, "view": drawn})

    def on_event(self, session: Any, event: Any) -> None:
        if session is not self.session or self.scheduled:
            return
        loop = getattr(self.kernel, "io_loop", None)
        if loop is None:
            self.push()
            return
        self.scheduled = True  # once the cell (or message) that records this is done
        loop.add_callback(self.flush)

    def flush(self) -> None:
        self.scheduled = False
        self.push()

    def push(self, *, force: bool = False) -> None:
        """Send each watched user their view when it changed since the last one sent."""
        from gamekernel.errors import GameKernelError
        from gamekernel.remote.projection import Audience
        from gamekernel.remote.views import view

        if self.closed or not self.users:
            return
        try:
            table = self.bind()
        except GameKernelError:  # gamekernel unloaded: the views come back with `%load_ext`
            return
        stamp = (id(table), table.version, len(self.session.log))
        users = self.users if force or stamp != self.stamp else [u for u in self.users if u not in self.sent]
        self.stamp = stamp  # nothing happened since: only a user just come has no view yet
        for user in users:
            drawn = view(self.session, Audience.player(user), table)
            told = drawn.pop("story")
            last = self.sent.get(user)
            at, story, reset = story_delta(last[1] if last else None, told)
            whole = force or last is None
            changed = drawn if whole else {k: v for k, v in drawn.items() if last[0].get(k) != v}  # type: ignore[index]
            if not changed and not story and not reset:
                continue
            self.sent[user] = (drawn, told)
            self.out({"type": "view", "user": user,
                      "view": {**changed, "story": story, "story_at": at, "story_len": len(told),
                               "story_reset": reset, "partial": not whole}})


_link: TableLink | None = None  # the kernel's one link (the server's newest comm)


def link_count() -> int:
    """How many links serve this kernel's session (one at most: the newest comm's)."""
    return 0 if _link is None or _link.closed else 1


def register(ipython: Any) -> None:
    """Register the comm target in the kernel (after `%load_ext`; again after a reload), and point
    the open link at the new session at once: the players' views follow a reload without waiting
    for one of them to act."""
    kernel = getattr(ipython, "kernel", None)
    manager = getattr(kernel, "comm_manager", None)
    if manager is None:
        return  # a plain IPython shell: no kernel, no remote table

    def opened(comm: Any, msg: dict[str, Any]) -> None:
        global _link
        from gamekernel.magic_base import current_session

        if _link is not None:
            _link.close()
            with contextlib.suppress(Exception):  # an old comm closed already: nothing left to free
                _link.comm.close()  # gone from the kernel's comms too: one link per kernel
        _link = TableLink(comm, current_session, kernel)

    manager.register_target(TARGET, opened)
    if _link is not None:
        _link.follow()


def unregister(ipython: Any) -> None:
    """Stop accepting new links; the open one lets go of the session, and serves the next one after
    `%reload_ext`."""
    kernel = getattr(ipython, "kernel", None)
    manager = getattr(kernel, "comm_manager", None)
    if manager is not None and TARGET in getattr(manager, "targets", {}):
        manager.unregister_target(TARGET, manager.targets[TARGET])
    if _link is not None:
        _link.detach()
