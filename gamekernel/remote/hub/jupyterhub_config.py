"""JupyterHub for a remote table on one machine (`make table`): the GM's server, and players who may
reach its players' page and nothing else. For a real server, The Littlest JupyterHub takes the same
roles and single-user settings (README "Players at their own machines").

Settings come from the environment so that nothing of a machine is written here:
- GAMEKERNEL_TABLE_GM        the GM's user name (default `gm`)
- GAMEKERNEL_TABLE_PLAYERS   the players' user names, comma-separated (default `alice,bob`)
- GAMEKERNEL_TABLE_PASSWORD  the one password of this table (required: there is no default)
- GAMEKERNEL_TABLE_IP / _PORT the hub's address (default 127.0.0.1:8000, this machine only)
- GAMEKERNEL_TABLE_HOME      the folder under which each user's server starts (default: ./table-home)
"""

import os
import sys
from pathlib import Path

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (JupyterHub's config loader provides it)

gm = os.environ.get("GAMEKERNEL_TABLE_GM", "gm")
players = [p.strip() for p in os.environ.get("GAMEKERNEL_TABLE_PLAYERS", "alice,bob").split(",") if p.strip()]
password = os.environ.get("GAMEKERNEL_TABLE_PASSWORD", "")
if not password:
    sys.exit("set GAMEKERNEL_TABLE_PASSWORD: the password the GM and the players sign in with")
home = Path(os.environ.get("GAMEKERNEL_TABLE_HOME", "table-home")).resolve()

c.JupyterHub.ip = os.environ.get("GAMEKERNEL_TABLE_IP", "127.0.0.1")
c.JupyterHub.port = int(os.environ.get("GAMEKERNEL_TABLE_PORT", "8000"))
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.authenticator_class = "shared-password"  # one password for the table: at home, not the internet
c.SharedPasswordAuthenticator.user_password = password
c.Authenticator.allowed_users = {gm, *players}
c.JupyterHub.spawner_class = "simple"  # every server runs as this machine's user, in its own folder
c.Spawner.notebook_dir = str(home / "{username}")
c.Spawner.default_url = "/lab"
c.Spawner.args = ["--ServerApp.authorizer_class=gamekernel.remote.auth.TableAuthorizer"]
if os.geteuid() == 0:  # a container's root: Jupyter refuses to run as root unless told
    c.Spawner.args.append("--allow-root")
c.Spawner.environment = {"JUPYTERHUB_SINGLEUSER_EXTENSION": "1"}
for user in (gm, *players):
    (home / user).mkdir(parents=True, exist_ok=True)
state = home / ".hub"  # the hub's own files: its database, cookie secret and the proxy's pid
state.mkdir(parents=True, exist_ok=True)
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(state / "proxy.pid")

# What players may do on the GM's server: reach it, and there only the players' page.
TABLE_SCOPES = [f"custom:jupyter_server:{action}:gamekernel_table" for action in ("read", "write", "execute")]
c.JupyterHub.custom_scopes = {
    scope: {"description": f"{scope.split(':')[2]} the gamekernel players' page of a table"} for scope in TABLE_SCOPES
}
c.JupyterHub.load_roles = [
    # a player starts no server of their own: only the GM's table
    {"name": "user", "scopes": ["read:users:name!user", "read:users:groups!user", "access:servers!user=" + gm,
                               *TABLE_SCOPES]},
    {"name": "game-master", "users": [gm], "scopes": ["self", "admin:servers!user=" + gm]},
]
# the players' tokens for the GM's server carry these scopes (TableAuthorizer reads them there)
c.Spawner.oauth_client_allowed_scopes = TABLE_SCOPES
c.JupyterHub.default_url = f"/user/{gm}/gamekernel/table"
