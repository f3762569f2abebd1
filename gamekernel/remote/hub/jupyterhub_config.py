"""JupyterHub for a remote table on one machine (`make table`): the GM's server, and players who may
reach its players' page and nothing else. For a real server, The Littlest JupyterHub takes the same
roles and single-user settings (README "Players at their own machines").

Everything comes from the environment, checked before anything starts (`settings.py` says why each
choice; a wrong setting stops the hub with one line naming it):
- GAMEKERNEL_TABLE_GM_PASSWORD   the GM's own password (required, 8+ characters). Players never get it:
                                 each signs up at /hub/signup with a password of their own, and the GM
                                 approves them at /hub/authorize (`authenticator.py`: nativeauthenticator,
                                 a JupyterHub project, chosen over invite links so that a player comes
                                 back with the same name and password; failed sign-ins lock any account)
- GAMEKERNEL_TABLE_GM            the GM's user name (default `gm`; no sign-up can take it, in any spelling)
- GAMEKERNEL_TABLE_PLAYERS       optional: only these names may sign in (comma-separated)
- GAMEKERNEL_TABLE_DIR           the GM's table folder: their notebooks (the examples are copied in on the
                                 first start) and the hub's state in its .hub folder (default ./table)
- GAMEKERNEL_TABLE_IP / _PORT    the players' address (default 127.0.0.1:8000, this machine only); any
                                 other address needs GAMEKERNEL_TABLE_SSL_CERT and GAMEKERNEL_TABLE_SSL_KEY
- GAMEKERNEL_TABLE_URL           the address players type, when the hub listens on every address
- GAMEKERNEL_TABLE_HUB_PORT / _PROXY_PORT   the hub's and the proxy's API ports on 127.0.0.1 (8081, 8001)
- GAMEKERNEL_TABLE_LOCKOUT_TRIES / _SECONDS  failed sign-ins before an account is locked, and for how long
                                 (5, 600)
- GAMEKERNEL_TABLE_ALLOW_ROOT=1  let the GM's server run as root (unsafe: refused by default)
"""

import os
import sys
from pathlib import Path

from gamekernel.remote.hub.settings import SetupError, configure, prepare_folder, read_settings, welcome

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (JupyterHub's config loader provides it)

try:
    settings = read_settings(os.environ, Path.cwd(), os.geteuid())
    copied = prepare_folder(settings, os.geteuid())
except SetupError as error:
    sys.exit(f"make table: {error}")
print(welcome(settings, copied), file=sys.stderr)
os.environ.pop("GAMEKERNEL_TABLE_GM_PASSWORD", None)  # the proxy and the servers the hub starts do not need it
configure(c, settings, os.geteuid())
# c.Spawner.args is a list (the GM's server's options: TableAuthorizer, TableIdentityProvider first);
# more may be appended here.
