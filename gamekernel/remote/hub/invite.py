"""`%table invite alice` / `%table uninvite alice`: the GM adds a player to (or takes them off) their own
table's group on the hub, from the kernel, with the GM server's own token (JUPYTERHUB_API_TOKEN).

That token carries `groups!group=<the table's group>` (hub/club.py: `Spawner.server_token_scopes`), so
the hub lets it change that one group and refuses any other; the group's role gives its members the
GM's players' page. No admin is asked. The table's group comes from GAMEKERNEL_TABLE_GROUP, which the
club's config sets on each GM's server.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass

from gamekernel.errors import UsageError
from gamekernel.i18n import t

TIMEOUT = 20.0  # seconds for one hub API call


@dataclass(frozen=True)
class HubLink:
    api_url: str  # the hub's API, ending in /hub/api
    token: str  # the GM server's token
    group: str  # the table's group


def hub_link(env: Mapping[str, str]) -> HubLink:
    """The hub API, token and group from the GM server's environment; a one-line error off a club hub."""
    api, token, group = (env.get(name, "").strip() for name in
                         ("JUPYTERHUB_API_URL", "JUPYTERHUB_API_TOKEN", "GAMEKERNEL_TABLE_GROUP"))
    if not (api and token and group):
        raise UsageError(t("remote.err.no_club"))
    return HubLink(api.rstrip("/"), token, group)


def _call(link: HubLink, method: str, path: str, body: object | None = None) -> object:
    request = urllib.request.Request(
        link.api_url + path, method=method, data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"token {link.token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        text = response.read()
    return json.loads(text) if text else None


def _members(link: HubLink, method: str, user: str) -> list[str]:
    path = f"/groups/{urllib.parse.quote(link.group, safe='')}/users"
    try:
        found = _call(link, method, path, {"users": [user]})
    except urllib.error.HTTPError as error:
        if error.code == 400 and method == "POST":  # JupyterHub: "No such user" (never signed in)
            raise UsageError(t("remote.err.invite_unknown", user=user)) from None
        if error.code in (401, 403, 404):  # JupyterHub answers 404 for a group the token may not even read
            raise UsageError(t("remote.err.invite_denied", group=link.group)) from None
        raise UsageError(t("remote.err.invite_hub", status=error.code, group=link.group)) from None
    except (OSError, ValueError) as error:
        raise UsageError(t("remote.err.invite_unreachable", error=type(error).__name__)) from None
    users = found.get("users", []) if isinstance(found, dict) else []
    return sorted(str(u) for u in users)


def invite(link: HubLink, user: str) -> list[str]:
    """Add `user` (a hub name, normalised) to the table's group; the group's members after."""
    return _members(link, "POST", user)


def uninvite(link: HubLink, user: str) -> list[str]:
    """Take `user` off the table's group; the group's members after."""
    return _members(link, "DELETE", user)
