"""Who may reach what on the GM's server once players sign in to it: deny by default.

A player's identity exists ONLY on the players' page and its socket (handlers marked with
`TableIdentityMixin`, gamekernel/remote/server.py). On every other path of the GM's server, present
and future, from any installed extension, HTTP and websocket, every method, a signed-in player gets
403; the GM (the server's owner: `JUPYTERHUB_USER` on the hub, the configured `gm` outside it) gets
the server as usual. Three walls, each enough on its own for the paths it sees:

1. The route guard (`guard_routes`): tornado turns every matched route (and every 404) into a handler
   through `Application.get_handler_delegate`; wrapped, it hands out each non-table handler class as
   a subclass whose `prepare` first asks the identity provider who is calling and answers a player
   403, before the handler's own authentication runs. This covers the handlers that never ask the
   identity provider: tornado's static files, `@allow_unauthenticated` ones, `/metrics` with its own
   authentication, a plain tornado handler an extension adds, the 404 page.
2. The identity provider (`TableIdentityProvider` on the hub, built on JupyterHub's own;
   `PlayersIdentityProvider` outside it): `get_user` yields a player only to a table handler, None
   elsewhere (and a 403 instead of a sign-in redirect), so a Jupyter handler that only asks "is anyone
   signed in?" (jupyterlab_server's settings and workspaces handlers never call the authorizer) sees
   nobody.
3. The authorizer (`TableAuthorizer` on the hub, `PlayersAuthorizer` outside it): the players'
   resource `gamekernel_table` and nothing else, for the handlers that do call it.

Why inside the GM's server rather than a separate hub service for the players' page: the page must
talk to the GM's kernel, which only that server holds (a service would need the GM's token to reach
it, so a bug there would hand that token's whole power to a player); here a player never holds more
than an identity that no handler but the table's accepts.
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable
from functools import cache
from typing import Any

from jupyter_server.auth.authorizer import Authorizer
from jupyter_server.auth.identity import IdentityProvider
from tornado import web
from traitlets import Unicode
from traitlets.config import LoggingConfigurable

RESOURCE = "gamekernel_table"
DENIED = json.dumps({"message": "Forbidden: a player reaches the players' page only"})


def _name(user: Any) -> str:
    return str(getattr(user, "username", None) or getattr(user, "name", None) or "")


class TableIdentityMixin:
    """Marks the players' page's handlers: the only ones where a player's identity exists."""

    gamekernel_table_route = True


def is_table_handler(handler: Any) -> bool:
    cls = handler if isinstance(handler, type) else type(handler)
    return issubclass(cls, TableIdentityMixin)


class DenyByDefault(LoggingConfigurable):
    """An identity provider's mixin (first in the bases): a player is nobody outside the players' page."""

    gm = Unicode("", config=True, help="The GM's user name outside JupyterHub (there: JUPYTERHUB_USER).")

    def owner(self) -> str:
        """The server's owner, the GM: the one user allowed everything (no owner: nobody is)."""
        return os.environ.get("JUPYTERHUB_USER", "") or self.gm

    def is_owner(self, user: Any) -> bool:
        return bool(self.owner()) and _name(user) == self.owner()

    def handshake_handlers(self) -> tuple[type, ...]:
        """Handlers a signed-in player may still reach: the sign-in itself (none outside the hub)."""
        return ()

    def may_reach(self, handler_class: type) -> bool:
        return is_table_handler(handler_class) or issubclass(handler_class, self.handshake_handlers())

    async def stranger(self, handler: Any) -> bool:
        """Whether a request nobody is signed in with here still names somebody who may not use this server
        (on a hub: a player of another table, with their own credential): refused like a player, not served
        what Jupyter serves anybody (static files, themes). None outside a hub."""
        return False

    async def may_preflight(self, handler: Any) -> bool:
        """A CORS preflight (OPTIONS) is answered to the owner alone: Jupyter answers one to anybody, signed
        in or not, and the table's server serves no other origin, so nobody else needs one (every other
        method of every route is refused a player on its own)."""
        return handler.request.method != "OPTIONS" or self.is_owner(await self.identify(handler))

    async def identify(self, handler: Any) -> Any:
        """Who is calling, whatever the handler: the identity provider this mixin sits on."""
        user = super().get_user(handler)  # type: ignore[misc]
        return await user if isinstance(user, Awaitable) else user

    async def get_user(self, handler: Any) -> Any:
        guard_routes(handler.application)  # fail closed if the table's extension did not install it
        user = await self.identify(handler)
        if user is None or self.is_owner(user) or is_table_handler(handler):
            return user
        _refuse_sign_in(handler)
        return None


def _refuse_sign_in(handler: Any) -> None:
    """A player refused here is signed in already: a 403, not a redirect to sign in again (a loop)."""

    def forbidden(*_args: Any, **_kwargs: Any) -> None:
        raise web.HTTPError(403)

    handler.redirect = forbidden


class PlayersIdentityProvider(DenyByDefault, IdentityProvider):
    """Deny by default on a plain Jupyter server (tests, a server without the hub)."""


class _DenyPlayers:
    """Put in front of every handler class but the table's (`guarded`): a player is answered 403
    before the handler's own authentication, whatever it is, runs."""

    _gamekernel_denied = False

    async def prepare(self) -> None:
        handler: Any = self
        provider = handler.settings.get("identity_provider")
        if isinstance(provider, DenyByDefault) and not await provider.may_preflight(handler):
            handler._gamekernel_denied = True
            raise web.HTTPError(403)
        if isinstance(provider, DenyByDefault) and not provider.may_reach(type(handler)):
            user = await provider.identify(handler)
            refused = not provider.is_owner(user) if user is not None else await provider.stranger(handler)
            if refused:
                handler._gamekernel_denied = True
                handler.current_user = handler._jupyter_current_user = None  # error pages see nobody
                raise web.HTTPError(403)
        result = super().prepare()  # type: ignore[misc]
        if isinstance(result, Awaitable):
            await result

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        handler: Any = self
        if not handler._gamekernel_denied:
            super().write_error(status_code, **kwargs)  # type: ignore[misc]
            return
        handler.set_header("Content-Type", "application/json")  # one line, drawn from nothing of the server's
        web.RequestHandler.finish(handler, DENIED)  # tornado's own: a handler's finish may want more arguments


@cache
def guarded(handler_class: type[web.RequestHandler]) -> type[web.RequestHandler]:
    """`handler_class` behind `_DenyPlayers` (a table handler as it is)."""
    if is_table_handler(handler_class) or issubclass(handler_class, _DenyPlayers):
        return handler_class
    # every standard method reaches `prepare` (tornado answers one a handler does not list 405 before it):
    # a player gets 403 whatever the method; anyone else the handler's own 405 (RequestHandler's default)
    methods = tuple(dict.fromkeys((*handler_class.SUPPORTED_METHODS, *web.RequestHandler.SUPPORTED_METHODS)))
    return type(handler_class.__name__, (_DenyPlayers, handler_class),
                {"__module__": __name__, "SUPPORTED_METHODS": methods})


def guard_routes(web_app: Any) -> None:
    """Route every request of `web_app` through `guarded` (idempotent)."""
    if getattr(web_app, "_gamekernel_guarded", False):
        return
    original = web_app.get_handler_delegate

    def get_handler_delegate(request: Any, target_class: type, *args: Any, **kwargs: Any) -> Any:
        return original(request, guarded(target_class), *args, **kwargs)

    web_app.get_handler_delegate = get_handler_delegate
    web_app._gamekernel_guarded = True


class PlayersAuthorizer(Authorizer):
    gm = Unicode("", config=True, help="The GM's user name: the one user allowed everything.")

    def is_authorized(self, handler: Any, user: Any, action: str, resource: str) -> bool:
        name = _name(user)
        if name and name == self.gm:
            return True
        return bool(name) and resource == RESOURCE


@cache
def table_identity_provider_class() -> type:
    """`TableIdentityProvider`, built on JupyterHub's identity provider (imported only with the hub)."""
    from jupyterhub.singleuser.extension import JupyterHubIdentityProvider, JupyterHubOAuthCallbackHandler

    class TableIdentityProvider(DenyByDefault, JupyterHubIdentityProvider):
        def handshake_handlers(self) -> tuple[type, ...]:
            return (JupyterHubOAuthCallbackHandler,)  # where a player's browser gets its cookie for the page

        async def stranger(self, handler: Any) -> bool:
            # JupyterHub's `get_user` answers None for a hub user without access to this server
            return await self.hub_auth.get_user(handler, sync=False) is not None

    return TableIdentityProvider


@cache
def table_authorizer_class() -> type:
    """`TableAuthorizer`, built on JupyterHub's authorizer (imported only where the hub is installed)."""
    from jupyterhub.singleuser.extension import JupyterHubAuthorizer

    class TableAuthorizer(JupyterHubAuthorizer):
        def is_authorized(self, handler: Any, user: Any, action: str, resource: str) -> bool:
            if not super().is_authorized(handler, user, action, resource):  # the hub's access:servers first
                return False
            owner = os.environ.get("JUPYTERHUB_USER", "")
            if _name(user) == owner:  # the server's owner: the GM
                return True
            if resource != RESOURCE or not owner:
                return False
            # filtered to this server's owner: a player of another table (hub/club.py) holds them for that
            # table's GM only; `make table`'s players hold them unfiltered, which covers every owner
            needed = {f"custom:jupyter_server:{action}:{RESOURCE}!user={owner}"}
            return bool(self.hub_auth.check_scopes(needed, user.hub_user))

    return TableAuthorizer


def __getattr__(name: str) -> Any:
    if name == "TableAuthorizer":  # `c.ServerApp.authorizer_class = "gamekernel.remote.auth.TableAuthorizer"`
        return table_authorizer_class()
    if name == "TableIdentityProvider":  # `--ServerApp.identity_provider_class=gamekernel.remote.auth.Table...`
        return table_identity_provider_class()
    raise AttributeError(name)
