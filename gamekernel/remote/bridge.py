"""The table server's one link to the GM's kernel: a comm opened on the kernel's shell channel.

The kernel answers on the shell socket, to this connection alone (gamekernel/remote/comm.py), so
the views never cross the GM's own notebook connection; actions go in batches, one at a time with
the kernel (what waits meanwhile goes next, together); the iopub channel is read for the facts
about the kernel: its status (busy, or "starting": a restart) and the closing of the comm.

What the bridge holds to: an action is sent to the kernel once, whatever the page resends (the
same client id waits on the same answer; the kernel remembers the ids it carried out); a busy
kernel is only busy, never taken for a restarted one: a restart is known from facts (the kernel
says "starting", its process is another one, the served kernel is another one, the kernel closes
the comm), never from how long an answer takes; an answer that takes longer than `REPLY_TIMEOUT`
tells the player the truth (it will be done once, no need to send it again), and comes later.
The players whose pages are open are the watched ones: their views are kept here and pushed to
their pages; the set shrinks as pages close.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jupyter_core.paths import jupyter_runtime_dir

from gamekernel.remote import limits
from gamekernel.remote.comm import TAIL, TARGET  # the comm target the kernel registers; the story a page shows
from gamekernel.remote.serve import SERVE_FILE  # the kernel that serves the table

REPLY_TIMEOUT = 120.0  # a player's action waits behind a long GM cell; then the player is told it still waits
PULL_TIMEOUT = 5.0  # a page asking for one view (HTTP) waits this long, then asks again
STILL_WAITING = ("still waiting for the GM's kernel (a long cell is running); "
                 "it will be done once, you need not send it again")
RESTARTED = "the GM's kernel restarted before your action was carried out; send it again"
CLOSED = "the GM's table closed before your action was carried out; send it again"
NOT_OPEN = "the GM's table is not open (the GM runs %table serve)"
Listener = Callable[[dict[str, Any]], None]


def serve_file() -> Path:
    return Path(jupyter_runtime_dir()) / SERVE_FILE


def merged(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """A whole view from the one kept and a new one whose story is a delta: the tail a page shows."""
    at, story = int(new.get("story_at", 0)), list(new.get("story", []))
    if old is not None and new.get("partial"):
        new = {**old, **new}  # the keys that did not change are as they were
    if old is not None and not new.get("story_reset"):
        kept_at, kept = int(old.get("story_at", 0)), old.get("story", [])
        if kept_at <= at <= kept_at + len(kept):
            at, story = kept_at, kept[: at - kept_at] + story
    drop = max(0, len(story) - TAIL)
    return {**new, "story": story[drop:], "story_at": at + drop, "story_reset": True, "partial": False}


class Bridge:
    """The server's one link to the GM's kernel (see the module's docstring)."""

    def __init__(self, kernels: Callable[[], Any]) -> None:
        self.kernels = kernels  # the server's kernel manager
        self.kernel_id: str | None = None
        self.pid: Any = None  # the kernel's process: another one is a restart
        self.comm_id: str | None = None
        self.ready = False  # the kernel answered the comm's opening: intents may go
        self.busy = False  # the kernel runs a cell: an intent waits behind it
        self.views: dict[str, dict[str, Any]] = {}  # the watched users' views, whole
        self.listeners: dict[str, set[Listener]] = {}
        self.pending: dict[tuple[str, str], asyncio.Future[dict[str, Any]]] = {}  # (user, client id)
        self.pulls: dict[str, asyncio.Future[dict[str, Any] | None]] = {}  # user -> one view asked for
        self.watched: set[str] = set()  # what the kernel was told last
        self.gate = limits.Gate()
        self.queue: list[dict[str, Any]] = []  # actions to send with the next batch
        self.in_flight = False  # a batch is with the kernel: the next waits for its replies
        self.last_open = 0.0
        self.session: Any = None
        self.shell: Any = None
        self.iopub: Any = None
        self.restarts = 0  # facts seen (for tests and benchmarks)

    # -- the kernel
    def find_kernel(self) -> str | None:
        try:
            data = json.loads(serve_file().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        kernel_id = data.get("kernel_id") if isinstance(data, dict) else None
        return kernel_id if isinstance(kernel_id, str) and kernel_id in self.kernels() else None

    def process(self) -> Any:
        kernel = self.kernels().get_kernel(self.kernel_id)
        return getattr(getattr(kernel, "provisioner", None), "pid", None)

    def ensure(self) -> bool:
        kernel_id = self.find_kernel()
        if kernel_id is None:
            return False
        if kernel_id != self.kernel_id:
            self.connect(kernel_id)
        elif self.pid is not None and self.process() not in (None, self.pid):  # a restart iopub missed
            self.pid = self.process()
            self.lost(RESTARTED)
        if self.comm_id is None:
            self.open_comm(force=True)
        return True

    async def wait_ready(self, seconds: float = 30.0) -> bool:
        """Until the kernel has answered the comm (opened again after a restart or a reload). An
        opening not answered while the kernel is idle is made again (a message lost on the way)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if not self.ensure():
                return False
            if self.ready:
                return True
            if not self.busy and time.monotonic() - self.last_open > 2.0:
                self.open_comm(force=True)
            await asyncio.sleep(0.05)
        return self.ready

    def connect(self, kernel_id: str) -> None:
        from zmq.eventloop.zmqstream import ZMQStream

        if self.kernel_id is not None:
            self.lost(RESTARTED)
        self.disconnect()
        kernel = self.kernels().get_kernel(kernel_id)
        self.kernel_id, self.session = kernel_id, kernel.session
        self.pid = self.process()

        def stream(socket: Any) -> Any:  # jupyter_server's kernel manager already gives streams
            return socket if isinstance(socket, ZMQStream) else ZMQStream(socket)

        self.shell = stream(kernel.connect_shell())
        self.iopub = stream(kernel.connect_iopub())
        self.iopub.on_recv(self.on_iopub)
        self.shell.on_recv(self.on_shell)
        self.comm_id = None

    def disconnect(self) -> None:
        for stream in (self.shell, self.iopub):
            if stream is not None:
                stream.close()
        self.shell = self.iopub = None
        self.kernel_id = self.comm_id = None
        self.ready = False

    def open_comm(self, *, force: bool = False) -> None:
        if not force and time.monotonic() - self.last_open < 1.0:
            return
        self.last_open = time.monotonic()
        if self.comm_id is not None and not self.ready:  # an opening never answered: close it first
            self.session.send(self.shell, "comm_close", {"comm_id": self.comm_id, "data": {}})
        self.ready = False
        self.comm_id = uuid.uuid4().hex
        self.session.send(self.shell, "comm_open", {"comm_id": self.comm_id, "target_name": TARGET, "data": {}})
        # the watched users go once the kernel says "ready" (receive)

    def send(self, data: dict[str, Any]) -> None:
        if self.comm_id is not None and self.shell is not None:
            self.session.send(self.shell, "comm_msg", {"comm_id": self.comm_id, "data": data})

    def on_shell(self, parts: list[bytes]) -> None:
        _, message = self.session.feed_identities(parts)
        msg = self.session.deserialize(message)
        content = msg["content"]
        if msg["header"]["msg_type"] == "comm_msg" and content.get("comm_id") == self.comm_id:
            self.receive(content.get("data") or {})

    def on_iopub(self, parts: list[bytes]) -> None:
        _, message = self.session.feed_identities(parts)
        msg = self.session.deserialize(message)
        kind, content = msg["header"]["msg_type"], msg["content"]
        if kind == "status":
            state = content.get("execution_state")
            self.busy = state == "busy"
            if state == "starting":  # a restart: the comm is gone
                self.pid = self.process() if self.kernel_id is not None else None
                self.lost(RESTARTED)
            elif state == "idle" and self.comm_id is None and self.watched:
                self.open_comm()  # gamekernel may have been loaded by the cell that just ran
        elif kind == "comm_close" and content.get("comm_id") == self.comm_id:
            self.lost(CLOSED)  # no table in the kernel yet (gamekernel not loaded): opened again when idle
        elif kind == "comm_msg" and content.get("comm_id") == self.comm_id:
            self.receive(content.get("data") or {})  # a kernel without the shell path

    def lost(self, why: str) -> None:
        """The comm is gone (a fact said so): actions in flight are answered, the next one opens it again."""
        self.restarts += why == RESTARTED
        self.comm_id, self.ready = None, False
        self.queue, self.in_flight = [], False
        for future in list(self.pending.values()):
            if not future.done():
                future.set_result({"ok": False, "text": why})
        for pull in list(self.pulls.values()):
            if not pull.done():
                pull.set_result(None)

    def receive(self, data: dict[str, Any]) -> None:
        kind = data.get("type")
        if kind == "ready":
            self.ready = True
            self.watched = set()
            self.rewatch()
        elif kind == "view":
            user = str(data.get("user"))
            pull = self.pulls.get(user)
            if data.get("id") is not None:
                if pull is not None and not pull.done():
                    pull.set_result(data.get("view"))
                return
            if user not in self.listeners or not isinstance(data.get("view"), dict):
                return  # a page closed since: nobody keeps its view
            self.views[user] = merged(self.views.get(user), data["view"])
            for listener in list(self.listeners.get(user, ())):
                listener({"type": "view", "view": data["view"]})
        elif kind == "reply":
            self.answered(data)
        elif kind == "replies":  # a batch done: the next one goes
            for item in data.get("items") or []:
                if isinstance(item, dict):
                    self.answered(item)
            self.in_flight = False
            self.flush()

    def answered(self, data: dict[str, Any]) -> None:
        future = self.pending.get((str(data.get("user")), str(data.get("cid"))))
        if future is not None and not future.done():
            future.set_result(data.get("reply") or {})

    def flush(self) -> None:
        """Send what waits as one batch, unless one is with the kernel already: while the kernel is
        busy the actions gather, and it pushes the players' views once a batch, not once an action."""
        if self.queue and not self.in_flight and self.ready:
            batch, self.queue = self.queue, []
            self.in_flight = True
            self.send({"type": "intents", "items": batch})

    # -- the players
    def rewatch(self) -> None:
        """Tell the kernel whose pages are open, when that changed."""
        users = {u for u, heard in self.listeners.items() if heard}
        if users != self.watched and self.ready:
            self.watched = users
            self.send({"type": "watch", "users": sorted(users)})

    def listen(self, user: str, listener: Listener) -> None:
        self.listeners.setdefault(user, set()).add(listener)
        self.rewatch()

    def leave(self, user: str, listener: Listener) -> None:
        """A page closed: its user is no longer watched once their last page is gone."""
        heard = self.listeners.get(user)
        if heard is None or listener not in heard:
            return
        heard.discard(listener)
        if not heard:
            del self.listeners[user]
            self.views.pop(user, None)
            self.rewatch()

    async def view(self, user: str, wait: float = PULL_TIMEOUT) -> dict[str, Any] | None:
        """The user's whole view: the one kept when their page is open, else asked of the kernel once
        (one question a user at a time)."""
        if not await self.wait_ready():
            return None
        if user in self.listeners:
            deadline = time.monotonic() + wait
            while user not in self.views and time.monotonic() < deadline and self.ready:
                await asyncio.sleep(0.02)
            if user in self.views:
                return self.views[user]
        pull = self.pulls.get(user)
        if pull is None or pull.done():
            pull = self.pulls[user] = asyncio.get_running_loop().create_future()
            self.send({"type": "pull", "id": uuid.uuid4().hex, "user": user})
        try:
            return await asyncio.wait_for(asyncio.shield(pull), wait)
        except TimeoutError:
            return None

    async def intent(self, user: str, intent: Any, late: Listener | None = None) -> dict[str, Any]:
        """Send `user`'s action to the kernel once, and its answer; `late(reply)` gets the answer of
        an action that took longer than `REPLY_TIMEOUT` (the player was told it still waits)."""
        if not isinstance(intent, dict):
            return {"ok": False, "text": "an intent is a JSON object"}
        given = limits.client_id(intent.get("cid"))
        cid = given or uuid.uuid4().hex  # no id from the page: this sending is the only one
        echo = {"cid": cid} if given else {}  # the page matches its answers by its ids
        intent = {k: v for k, v in intent.items()
                  if k not in {"user", "player", "by", "cid"}}  # the server names the user
        key = (user, cid)
        future = self.pending.get(key)
        if future is None:  # a resend of an action in flight waits on the same answer
            refused = self.gate.admit(user)
            if refused is not None:
                return {"ok": False, "text": refused, **echo}
            if not await self.wait_ready():
                self.gate.done(user)
                return {"ok": False, "text": NOT_OPEN, **echo}
            future = self.pending[key] = asyncio.get_running_loop().create_future()
            future.add_done_callback(lambda _done: self.settled(key))
            self.queue.append({"id": cid, "cid": cid, "user": user, "intent": intent})
            self.flush()
        try:
            reply = await asyncio.wait_for(asyncio.shield(future), REPLY_TIMEOUT)
        except TimeoutError:
            if late is not None:
                future.add_done_callback(lambda done: late({**done.result(), **echo}))
            return {"ok": False, "waiting": True, "text": STILL_WAITING, **echo}
        return {**reply, **echo}

    def settled(self, key: tuple[str, str]) -> None:
        self.pending.pop(key, None)
        self.gate.done(key[0])
