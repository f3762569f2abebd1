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
The kernel is the one whose notebook ran `%table serve`; the link (gamekernel/remote/bridge.py) is
opened again after a kernel restart or `%reload_ext gamekernel`.

Whatever a page sends is bounded first (gamekernel/remote/limits.py): a request body or a socket
message of at most 64 KB, read no further than that, 32 levels deep at most (counted before parsing),
each refused with its HTTP status (413, 400) and one line; a player's actions go through their own
token bucket and a bounded queue, so one flooding player delays nobody else. A page that closed
while a view was being written is let go of once, not logged once a write.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from jupyter_server.auth.decorator import authorized, ws_authenticated
from jupyter_server.base.handlers import APIHandler, JupyterHandler
from jupyter_server.extension.application import ExtensionApp
from jupyter_server.utils import url_path_join
from tornado import web, websocket

from gamekernel.remote import limits
from gamekernel.remote.auth import DenyByDefault, TableIdentityMixin, guard_routes
from gamekernel.remote.bridge import Bridge
from gamekernel.remote.presence import Presence

RESOURCE = "gamekernel_table"

PAGE = Path(__file__).parent / "static" / "players.html"


def user_name(handler: JupyterHandler) -> str:
    user = handler.current_user
    return str(getattr(user, "username", None) or getattr(user, "name", None) or user)


def refusal(error: limits.Refused) -> str:
    return json.dumps({"reply": {"ok": False, "text": str(error)}})


class TableHandler(TableIdentityMixin, JupyterHandler):
    """The players' page's handlers: the only ones where a player is anyone (auth.py, deny by default)."""

    auth_resource = RESOURCE

    async def prepare(self, **kwargs: Any) -> None:  # jupyter_server's prepare is async
        provider = self.settings.get("identity_provider")
        if isinstance(provider, DenyByDefault) and not await provider.may_preflight(self):
            raise web.HTTPError(403)  # a preflight is the owner's alone, here too (auth.py)
        await super().prepare(**kwargs)

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
        user = user_name(self)
        buckets = self.settings.setdefault("gamekernel_table_view_buckets", {})  # one a signed-in user
        if not buckets.setdefault(user, limits.Bucket()).take():  # a view may be drawn by the kernel: bounded
            self.set_status(429)
            self.finish(refusal(limits.Refused(429, f"too fast: at most {limits.RATE:g} views a second; "
                                                    "the page's socket keeps the view up to date")))
            return
        found = await self.bridge.view(user)
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps({"view": found}))


@web.stream_request_body
class IntentHandler(TableHandler, APIHandler):
    """A player's action by HTTP POST; the body is read up to `limits.MAX_BYTES`, never past it."""

    body = b""
    too_long = False

    async def prepare(self) -> None:  # type: ignore[override]  # jupyter_server's prepare is async
        await super().prepare()
        if self._finished:
            return
        length = self.request.headers.get("Content-Length", "")
        if length.isdigit() and int(length) > limits.MAX_BYTES:
            self.set_status(413)
            self.finish(refusal(limits.Refused(413, f"the message is too long: {length} bytes, "
                                                    f"at most {limits.MAX_BYTES}")))
            return
        connection: Any = self.request.connection  # tornado's HTTP1Connection
        if connection is not None:  # a chunked body past the limit closes the request
            connection.set_max_body_size(limits.MAX_BYTES + 1)

    def data_received(self, chunk: bytes) -> None:
        if len(self.body) + len(chunk) > limits.MAX_BYTES:
            self.too_long = True  # kept out: nothing past the limit is held
        else:
            self.body += chunk

    @web.authenticated
    @authorized("write", resource=RESOURCE)
    async def post(self) -> None:
        try:
            if self.too_long:
                raise limits.Refused(413, f"the message is too long: more than {limits.MAX_BYTES} bytes")
            intent = limits.parse(self.body or b"null")
        except limits.Refused as error:
            self.set_status(error.status)
            self.finish(refusal(error))
            return
        reply = await self.bridge.intent(user_name(self), intent)
        self.finish(json.dumps({"reply": reply}))


class SocketHandler(TableHandler, websocket.WebSocketHandler):
    """One player's live link: views pushed as they change, intents answered on the same socket
    (each on its own, so one long wait does not hold the player's next action)."""

    user = ""
    gone = False

    @property
    def max_message_size(self) -> int:
        return 2 * limits.MAX_BYTES  # past the limit by a little: refused with a line; by much: closed

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
        self.acting: set[asyncio.Task[None]] = set()
        self.bridge.listen(self.user, self.push)
        self.settings["gamekernel_table_presence"].join(self)
        found = await self.bridge.view(self.user)
        if found is not None:
            self.push({"type": "view", "view": found})

    def push(self, message: dict[str, Any]) -> None:
        """Write to the page; a page gone is let go of once (no error per write to a closed socket)."""
        if self.gone:
            return
        try:
            written = self.write_message(json.dumps(message))
        except websocket.WebSocketClosedError:
            self.on_close()
            return
        written.add_done_callback(self.written)

    def written(self, future: asyncio.Future[None]) -> None:
        if future.cancelled() or future.exception() is not None:  # retrieved: closed while writing
            self.on_close()

    async def on_message(self, message: str | bytes) -> None:
        self.settings["gamekernel_table_presence"].touch()
        try:
            intent = limits.parse(message)
        except limits.Refused as error:
            self.push({"type": "reply", "reply": {"ok": False, "text": str(error)}})
            return
        if not await self._is_authorized("write"):
            self.push({"type": "reply", "reply": {"ok": False, "text": "not allowed"}})
            return
        task = asyncio.ensure_future(self.act(intent))
        self.acting.add(task)
        task.add_done_callback(self.acting.discard)

    async def act(self, intent: Any) -> None:
        reply = await self.bridge.intent(self.user, intent, late=lambda r: self.push({"type": "reply", "reply": r}))
        self.push({"type": "reply", "reply": reply})

    def on_close(self) -> None:
        if not self.gone:
            self.gone = True
            self.bridge.leave(self.user, self.push)
            self.settings["gamekernel_table_presence"].leave(self)


class GameKernelTable(ExtensionApp):
    """The remote table's server side (enabled on install by jupyter-config/.../gamekernel.json)."""

    name = "gamekernel_table"
    load_other_extensions = True

    def initialize_settings(self) -> None:
        server = self.serverapp
        assert server is not None  # an extension app runs inside its server
        self.settings["gamekernel_table_bridge"] = Bridge(lambda: server.kernel_manager)
        self.settings["gamekernel_table_presence"] = Presence(server.web_app.settings)  # the culler spares it
        if isinstance(server.identity_provider, DenyByDefault):
            guard_routes(server.web_app)  # every other route of the server: the GM's alone (auth.py)
        from gamekernel.remote.saved_views import pre_save_hook

        register = getattr(server.contents_manager, "register_pre_save_hook", None)
        if register is not None:  # a saved notebook's dead views: dropped from the file (saved_views.py)
            register(pre_save_hook)

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
