"""A Jupyter server with the table extension, a test identity provider (the user named by a header)
made deny-by-default as `make table`'s is (auth.py), and the players' authorizer: `gm` may do
everything, any other user only the players' page."""

from __future__ import annotations

import pytest
from jupyter_server.auth.identity import IdentityProvider, User

# jupyter_server's own fixtures (jp_fetch, jp_serverapp ...), their autouse loop and cleanup, and the
# hooks that run async tests: imported here so they apply to this folder's tests alone.
from pytest_jupyter.jupyter_core import *  # noqa: F403
from pytest_jupyter.jupyter_server import *  # noqa: F403

from gamekernel.remote.auth import DenyByDefault


class HeaderIdentity(IdentityProvider):
    """The signed-in user is the `X-Test-User` header, or for a real browser the `test-user` cookie
    (tests only): Chromium 150 no longer sends Playwright's extra headers with a WebSocket handshake,
    while a cookie goes with every request of its origin, as a hub's sign-in cookie does."""

    def get_user(self, handler):
        name = handler.request.headers.get("X-Test-User") or handler.get_cookie("test-user")
        return User(username=name) if name else None


class TableHeaderIdentity(DenyByDefault, HeaderIdentity):
    """The header's user, deny by default: a player is nobody outside the players' page."""


@pytest.fixture
def jp_server_config():
    return {
        "ServerApp": {
            "jpserver_extensions": {"gamekernel.remote.server": True},
            "identity_provider_class": TableHeaderIdentity,
            "authorizer_class": "gamekernel.remote.auth.PlayersAuthorizer",
            "disable_check_xsrf": True,  # the header identity stands in for a signed-in browser
        },
        "PlayersAuthorizer": {"gm": "gm"},
        "TableHeaderIdentity": {"gm": "gm"},
    }
