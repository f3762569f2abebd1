"""The players' page: a Jupyter Server extension on the GM's own server (no port of its own).

`/gamekernel/table` serves the page; `/gamekernel/table/api/view` (GET) the signed-in player's view;
`/gamekernel/table/api/intent` (POST) a player's action; `/gamekernel/table/api/socket` a websocket
carrying both. Every handler names the resource `gamekernel_table`, so an authorizer can give players
that resource and nothing else (JupyterHub: the custom scopes `custom:jupyter_server:read|write|
execute:gamekernel_table`, checked by `TableAuthorizer`); the contents, kernels, sessions and terminals
APIs and the kernel websocket stay the GM's. With a deny-by-default identity provider
(auth.py: `TableIdentityProvider` in `make table`), these handlers (`TableIdentityMixin`) are the only
ones where a player is anyone: every other path of the server answers a player 403.

The page sends intents, never code. The server names the user: whatever `user` or `player` an intent
carries is replaced by the authenticated user before it reaches the GM's kernel, where the table's
comm (gamekernel/remote/comm.py) validates it, records it and answers with the views it computed.
The kernel is the one whose notebook ran `%table serve`; the link is opened again after a kernel
restart or `%reload_ext gamekernel`.
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
from jupyter_server.auth.decorator import authorized, ws_authenticated
from jupyter_server.base.handlers import APIHandler, JupyterHandler
from jupyter_server.extension.application import ExtensionApp
from jupyter_server.utils import url_path_join
from tornado import web, websocket

from gamekernel.remote.auth import DenyByDefault, TableIdentityMixin, guard_routes
from gamekernel.remote.comm import TARGET  # the comm target the kernel registers
from gamekernel.remote.serve import SERVE_FILE  # the kernel that serves the table

RESOURCE = "gamekernel_table"

PAGE = Path(__file__).parent / "static" / "players.html"
REPLY_TIMEOUT = 120.0  # a player's action waits behind a long GM cell, then gives up with a line
LOST_AFTER = 3.0  # no answer while the kernel is idle this long: the comm was lost (a restart)


def serve_file() -> Path:
    return Path(jupyter_runtime_dir()) / SERVE_FILE


def user_name(handler: JupyterHandler) -> str:
    user = handler.current_user
    return str(getattr(user, "username", None) or getattr(user, "name", None) or user)


class Bridge:
    """The server's one link to the GM's kernel: a comm on its shell and iopub channels."""

    def __init__(self, app: ExtensionApp) -> None:
        self.app = app
        self.kernel_id: str | None = None
        self.comm_id: str | None = None
        self.ready = False  # the kernel answered the comm's opening: intents may go
        self.busy = False  # the kernel runs a cell: an intent waits behind it
        self.views: dict[str, dict[str, Any]] = {}
        self.listeners: dict[str, set[Callable[[dict[str, Any]], None]]] = {}
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.watched: set[str] = set()
        self.last_open = 0.0
        self.session: Any = None
        self.shell: Any = None
        self.iopub: Any = None

    # -- the kernel
    def kernels(self) -> Any:
        server = self.app.serverapp
        assert server is not None  # an extension app runs inside its server
        return server.kernel_manager

    def find_kernel(self) -> str | None:
        try:
            data = json.loads(serve_file().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        kernel_id = data.get("kernel_id") if isinstance(data, dict) else None
        manager = self.kernels()
        return kernel_id if isinstance(kernel_id, str) and kernel_id in manager else None

    def ensure(self) -> bool:
        kernel_id = self.find_kernel()
        if kernel_id is None:
            return False
        if kernel_id != self.kernel_id:
            self.connect(kernel_id)
        elif self.comm_id is None:
            self.open_comm(force=True)
        return True

    async def wait_ready(self, seconds: float = 30.0) -> bool:
        """Until the kernel has answered the comm (opened again after a restart or a reload). An
        answer that does not come within a second is asked for again on a new comm: a just-connected
        iopub socket can miss the first messages (ZeroMQ's late subscriber)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if not self.ensure():
                return False
            if self.ready:
                return True
            if time.monotonic() - self.last_open > 1.0:
                self.open_comm(force=True)
            await asyncio.sleep(0.05)
        return self.ready

    def connect(self, kernel_id: str) -> None:
        from zmq.eventloop.zmqstream import ZMQStream

        self.disconnect()
        kernel = self.kernels().get_kernel(kernel_id)
        self.kernel_id, self.session = kernel_id, kernel.session
        def stream(socket: Any) -> Any:  # jupyter_server's kernel manager already gives streams
            return socket if isinstance(socket, ZMQStream) else ZMQStream(socket)

        self.shell = stream(kernel.connect_shell())
        self.iopub = stream(kernel.connect_iopub())
        self.iopub.on_recv(self.on_iopub)
        self.shell.on_recv(lambda _parts: None)
        self.open_comm()

    def disconnect(self) -> None:
        for stream in (self.shell, self.iopub):
            if stream is not None:
                stream.close()
        self.shell = self.iopub = None
        self.kernel_id = self.comm_id = None

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
        if self.comm_id is not None:
            self.session.send(self.shell, "comm_msg", {"comm_id": self.comm_id, "data": data})

    def on_iopub(self, parts: list[bytes]) -> None:
        _, message = self.session.feed_identities(parts)
        msg = self.session.deserialize(message)
        kind, content = msg["header"]["msg_type"], msg["content"]
        if kind == "status":
            self.busy = content.get("execution_state") == "busy"
            if content.get("execution_state") == "starting":  # a restart: the comm is gone
                self.lost()
            elif content.get("execution_state") == "idle" and self.comm_id is None and self.watched:
                self.open_comm()  # gamekernel may have been loaded by the cell that just ran
        elif kind == "comm_close" and content.get("comm_id") == self.comm_id:
            self.lost()  # no table in the kernel yet (gamekernel not loaded): opened again when idle
        elif kind == "comm_msg" and content.get("comm_id") == self.comm_id:
            self.receive(content.get("data") or {})

    def lost(self) -> None:
        """The comm is gone: actions in flight are answered, the next one opens it again."""
        self.comm_id, self.ready = None, False
        for future in self.pending.values():
            if not future.done():
                future.set_result({"ok": False, "text": "the GM's kernel restarted; send it again"})
        self.pending.clear()

    def receive(self, data: dict[str, Any]) -> None:
        if data.get("type") == "ready":
            self.ready = True
            self.send({"type": "watch", "users": sorted(self.watched)})
        elif data.get("type") == "view":
            user = str(data["user"])
            self.views[user] = data["view"]
            for listener in list(self.listeners.get(user, ())):
                listener({"type": "view", "view": data["view"]})
        elif data.get("type") == "reply":
            future = self.pending.pop(str(data.get("id")), None)
            if future is not None and not future.done():
                future.set_result(data.get("reply") or {})

    # -- the players
    def watch(self, user: str) -> None:
        if user not in self.watched:
            self.watched.add(user)
            self.send({"type": "watch", "users": sorted(self.watched)})

    async def view(self, user: str, wait: float = 5.0) -> dict[str, Any] | None:
        if not await self.wait_ready():
            return None
        self.watch(user)
        deadline = time.monotonic() + wait
        while user not in self.views and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        return self.views.get(user)

    async def intent(self, user: str, intent: Any) -> dict[str, Any]:
        if not isinstance(intent, dict):
            return {"ok": False, "text": "an intent is a JSON object"}
        intent = {k: v for k, v in intent.items() if k not in {"user", "player", "by"}}  # the server names the user
        if not await self.wait_ready():
            return {"ok": False, "text": "the GM's table is not open (the GM runs %table serve)"}
        self.watch(user)
        for _ in range(2):  # once more on a comm the kernel no longer knows (a restart not seen)
            number = uuid.uuid4().hex
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self.pending[number] = future
            self.send({"type": "intent", "id": number, "user": user, "intent": intent})
            deadline = time.monotonic() + REPLY_TIMEOUT
            while not future.done() and time.monotonic() < deadline:
                await asyncio.wait([future], timeout=LOST_AFTER)
                if not future.done() and not self.busy:  # idle, yet no answer: the comm is gone
                    break
            self.pending.pop(number, None)
            if future.done():
                return future.result()
            if time.monotonic() >= deadline:
                return {"ok": False, "text": "the GM's kernel is busy; try again in a moment"}
            self.lost()
            if not await self.wait_ready():
                break
        return {"ok": False, "text": "the GM's table is not open (the GM runs %table serve)"}


class TableHandler(TableIdentityMixin, JupyterHandler):
    """The players' page's handlers: the only ones where a player is anyone (auth.py, deny by default)."""

    auth_resource = RESOURCE

    @property
    def bridge(self) -> Bridge:
        return self.settings["gamekernel_table_bridge"]


class PageHandler(TableHandler):
    @web.authenticated
    @authorized("read", resource=RESOURCE)
    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.write(PAGE.read_text(encoding="utf-8"))


class ViewHandler(TableHandler, APIHandler):
    @web.authenticated
    @authorized("read", resource=RESOURCE)
    async def get(self) -> None:
        found = await self.bridge.view(user_name(self))
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps({"view": found}))


class IntentHandler(TableHandler, APIHandler):
    @web.authenticated
    @authorized("write", resource=RESOURCE)
    async def post(self) -> None:
        try:
            intent = json.loads(self.request.body or b"null")
        except ValueError:
            intent = None
        reply = await self.bridge.intent(user_name(self), intent)
        self.finish(json.dumps({"reply": reply}))


class SocketHandler(TableHandler, websocket.WebSocketHandler):
    """One player's live link: views pushed as they change, intents answered on the same socket."""

    async def pre_get(self) -> None:
        if not await self._is_authorized("execute"):
            raise web.HTTPError(403)

    async def _is_authorized(self, action: str) -> bool:
        from jupyter_core.utils import ensure_async

        return bool(await ensure_async(self.authorizer.is_authorized(self, self.current_user, action, RESOURCE)))

    @ws_authenticated
    async def get(self, *args: Any, **kwargs: Any) -> None:
        await self.pre_get()
        result = super().get(*args, **kwargs)
        if result is not None:
            await result

    async def open(self, *args: Any, **kwargs: Any) -> None:
        self.user = user_name(self)
        self.bridge.listeners.setdefault(self.user, set()).add(self.push)
        found = await self.bridge.view(self.user)
        if found is not None:
            self.push({"type": "view", "view": found})

    def push(self, message: dict[str, Any]) -> None:
        try:
            self.write_message(json.dumps(message))
        except websocket.WebSocketClosedError:
            self.on_close()

    async def on_message(self, message: str | bytes) -> None:
        try:
            intent = json.loads(message)
        except ValueError:
            intent = None
        if not await self._is_authorized("write"):
            self.push({"type": "reply", "reply": {"ok": False, "text": "not allowed"}})
            return
        reply = await self.bridge.intent(self.user, intent)
        self.push({"type": "reply", "reply": reply})

    def on_close(self) -> None:
        self.bridge.listeners.get(getattr(self, "user", ""), set()).discard(self.push)


class GameKernelTable(ExtensionApp):
    """The remote table's server side (enabled on install by jupyter-config/.../gamekernel.json)."""

    name = "gamekernel_table"
    load_other_extensions = True

    def initialize_settings(self) -> None:
        self.settings["gamekernel_table_bridge"] = Bridge(self)
        server = self.serverapp
        if server is not None and isinstance(server.identity_provider, DenyByDefault):
            guard_routes(server.web_app)  # every other route of the server: the GM's alone (auth.py)

    def initialize_handlers(self) -> None:
        base = "/gamekernel/table"
        self.handlers.extend([
            (base, PageHandler),
            (url_path_join(base, "api", "view"), ViewHandler),
            (url_path_join(base, "api", "intent"), IntentHandler),
            (url_path_join(base, "api", "socket"), SocketHandler),
        ])


def _jupyter_server_extension_points() -> list[dict[str, Any]]:
    return [{"module": "gamekernel.remote.server", "app": GameKernelTable}]
