"""Who may reach what on the GM's server once players sign in to it.

`PlayersAuthorizer` (any Jupyter server): the GM (`gm`, the server's own user) may do everything; every
other signed-in user reaches the players' page (`gamekernel_table`) and nothing else, so the contents,
kernels, sessions and terminals APIs and the kernel websocket answer 403.

`TableAuthorizer` (a JupyterHub single-user server): the server's owner may do everything; any other
user needs the hub's custom scopes `custom:jupyter_server:{read|write|execute}:gamekernel_table`
(granted by the role in `make table`'s configuration), and gets nothing beyond them: without this
authorizer a user the hub lets in could do anything on the server.
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any

from jupyter_server.auth.authorizer import Authorizer
from traitlets import Unicode

RESOURCE = "gamekernel_table"


def _name(user: Any) -> str:
    return str(getattr(user, "username", None) or getattr(user, "name", None) or "")


class PlayersAuthorizer(Authorizer):
    gm = Unicode("", config=True, help="The GM's user name: the one user allowed everything.")

    def is_authorized(self, handler: Any, user: Any, action: str, resource: str) -> bool:
        name = _name(user)
        if name and name == self.gm:
            return True
        return bool(name) and resource == RESOURCE


@cache
def table_authorizer_class() -> type:
    """`TableAuthorizer`, built on JupyterHub's authorizer (imported only where the hub is installed)."""
    from jupyterhub.singleuser.extension import JupyterHubAuthorizer

    class TableAuthorizer(JupyterHubAuthorizer):
        def is_authorized(self, handler: Any, user: Any, action: str, resource: str) -> bool:
            if not super().is_authorized(handler, user, action, resource):  # the hub's access:servers first
                return False
            if _name(user) == os.environ.get("JUPYTERHUB_USER"):  # the server's owner: the GM
                return True
            if resource != RESOURCE:
                return False
            needed = {f"custom:jupyter_server:{action}:{RESOURCE}"}
            return bool(self.hub_auth.check_scopes(needed, user.hub_user))

    return TableAuthorizer


def __getattr__(name: str) -> Any:
    if name == "TableAuthorizer":  # `c.ServerApp.authorizer_class = "gamekernel.remote.auth.TableAuthorizer"`
        return table_authorizer_class()
    raise AttributeError(name)
