"""`make table`'s JupyterHub, set from the environment: read and check every setting first (one clear
line for the first wrong one, nothing started), then prepare the table folder and fill JupyterHub's
config. `jupyterhub_config.py` is the two calls; the tests call them with their own environment.

Why each choice (README "Players at their own machines"):
- Identities: `authenticator.TableAuthenticator` (per-person passwords, the GM's approval of each
  sign-up, a lock-out after failed sign-ins; the GM's account from `GAMEKERNEL_TABLE_GM_PASSWORD`).
- TLS: a table reachable from other machines carries passwords and cookies, so any address but
  loopback needs a certificate and key (JupyterHub's `ssl_cert`/`ssl_key`); cookies are then Secure.
- The spawner: only the GM has a server, and it runs as the machine user who started the hub (the
  GM), which is what JupyterHub's `SimpleLocalProcessSpawner` does; `LocalProcessSpawner` would need
  a system account per hub user. Upstream calls it "for testing" because every user's server runs as
  that one machine user with a home under /tmp: here no player may start a server (a pre-spawn hook
  refuses anyone but the GM) and the home is the GM's table folder, made private (0700) and refused
  when another machine user owns it, so nobody else can plant files (an IPython startup script) there.
- One folder: the GM's notebooks, and the hub's state (database, cookie secret, proxy pid) in its
  `.hub` folder, which Jupyter's file browser hides and refuses to serve.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from gamekernel.remote.hub.names import normalize_user, valid_user

AUTHORIZER = "--ServerApp.authorizer_class=gamekernel.remote.auth.TableAuthorizer"
# deny by default (auth.py): a player is anyone only on the players' page; every other path answers 403
IDENTITY = "--ServerApp.identity_provider_class=gamekernel.remote.auth.TableIdentityProvider"
# and nobody signed in: a Jupyter handler that forgot to ask for a user redirects to the sign-in (or 403)
SIGNED_IN = "--ServerApp.allow_unauthenticated_access=False"
TABLE_SCOPES = [f"custom:jupyter_server:{action}:gamekernel_table" for action in ("read", "write", "execute")]
EXAMPLES = Path(__file__).resolve().parents[3] / "example_notebooks"  # in a clone of the project
EXAMPLES_MARK = "examples-copied"  # in the state folder: copy once, so an example the GM deletes stays deleted
RETIRED = {
    "GAMEKERNEL_TABLE_PASSWORD": "there is no shared password any more: set GAMEKERNEL_TABLE_GM_PASSWORD "
                                 "(the GM's own); players sign up and you approve them",
    "GAMEKERNEL_TABLE_HOME": "use GAMEKERNEL_TABLE_DIR (the GM's table folder; default ./table)",
}
MIN_PASSWORD = 8


class SetupError(Exception):
    """A setting `make table` cannot start with; the message is one line naming it."""


@dataclass(frozen=True)
class TableSettings:
    gm: str
    gm_password: str
    players: tuple[str, ...]  # empty: anyone may sign up (the GM approves each)
    ip: str
    port: int
    hub_port: int
    proxy_port: int
    folder: Path
    ssl_cert: str
    ssl_key: str
    url: str  # the address players type, ending in "/"
    loopback: bool
    allow_root: bool
    lockout_tries: int
    lockout_seconds: int


def is_loopback(host: str) -> bool:
    """Whether `host` is reachable from this machine only (127.0.0.0/8, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name: other machines may reach it


def _number(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    text = env.get(name, "").strip() or str(default)
    if not text.isdigit() or not low <= int(text) <= high:
        raise SetupError(f"{name}={text!r}: expected a whole number from {low} to {high}")
    return int(text)


def _name(text: str, what: str) -> str:
    name = normalize_user(text)
    if not valid_user(name):
        raise SetupError(f"{what}: {text!r} is not a user name (letters, digits, . _ @ -; up to 64)")
    return name


def read_settings(env: Mapping[str, str], cwd: Path, euid: int) -> TableSettings:
    """Every setting of `make table` from `env`, checked; SetupError names the first wrong one."""
    for name, hint in RETIRED.items():
        if env.get(name):
            raise SetupError(f"{name} is no longer read: {hint}")
    gm = _name(env.get("GAMEKERNEL_TABLE_GM", "gm"), "GAMEKERNEL_TABLE_GM")
    players = tuple(_name(p, "GAMEKERNEL_TABLE_PLAYERS") for p in env.get("GAMEKERNEL_TABLE_PLAYERS", "").split(",")
                    if p.strip())
    if gm in players:
        raise SetupError(f"GAMEKERNEL_TABLE_PLAYERS names the GM ({gm}): the GM is not a player")
    gm_password = env.get("GAMEKERNEL_TABLE_GM_PASSWORD", "")
    if len(gm_password) < MIN_PASSWORD:
        raise SetupError(f"set GAMEKERNEL_TABLE_GM_PASSWORD: the GM's own password, at least {MIN_PASSWORD} "
                         "characters (players sign up with theirs)")
    ip = env.get("GAMEKERNEL_TABLE_IP", "127.0.0.1").strip()
    port = _number(env, "GAMEKERNEL_TABLE_PORT", 8000, 1, 65535)
    hub_port = _number(env, "GAMEKERNEL_TABLE_HUB_PORT", 8081, 1, 65535)
    proxy_port = _number(env, "GAMEKERNEL_TABLE_PROXY_PORT", 8001, 1, 65535)
    if len({port, hub_port, proxy_port}) < 3:
        raise SetupError(f"GAMEKERNEL_TABLE_PORT ({port}), _HUB_PORT ({hub_port}) and _PROXY_PORT ({proxy_port}) "
                         "must be three different ports")
    cert, key = env.get("GAMEKERNEL_TABLE_SSL_CERT", "").strip(), env.get("GAMEKERNEL_TABLE_SSL_KEY", "").strip()
    if bool(cert) != bool(key):
        raise SetupError("set both GAMEKERNEL_TABLE_SSL_CERT and GAMEKERNEL_TABLE_SSL_KEY (a certificate and its key)")
    for name, path in (("GAMEKERNEL_TABLE_SSL_CERT", cert), ("GAMEKERNEL_TABLE_SSL_KEY", key)):
        if path and not os.access(path, os.R_OK):
            raise SetupError(f"{name}={path!r}: no such readable file")
    loopback = is_loopback(ip)
    if not loopback and not cert:
        raise SetupError(f"GAMEKERNEL_TABLE_IP={ip!r} lets other machines in: set GAMEKERNEL_TABLE_SSL_CERT and "
                         "GAMEKERNEL_TABLE_SSL_KEY (README: a certificate for a LAN), or keep 127.0.0.1")
    url = _url(env, ip, port, "https" if cert else "http")
    folder = Path(env.get("GAMEKERNEL_TABLE_DIR", "").strip() or "table")
    folder = (cwd / folder).resolve() if not folder.is_absolute() else folder.resolve()
    allow_root = env.get("GAMEKERNEL_TABLE_ALLOW_ROOT", "") == "1"
    if euid == 0 and not allow_root:
        raise SetupError("running as root: the GM's JupyterLab, terminals and kernels would be root's; run as an "
                         "ordinary user, or set GAMEKERNEL_TABLE_ALLOW_ROOT=1 (unsafe outside a throwaway container)")
    return TableSettings(gm, gm_password, players, ip, port, hub_port, proxy_port, folder, cert, key, url, loopback,
                         allow_root, _number(env, "GAMEKERNEL_TABLE_LOCKOUT_TRIES", 5, 1, 1000),
                         _number(env, "GAMEKERNEL_TABLE_LOCKOUT_SECONDS", 600, 1, 86400))


def _url(env: Mapping[str, str], ip: str, port: int, scheme: str) -> str:
    """The address players type: GAMEKERNEL_TABLE_URL, or the scheme, address and port the hub listens on."""
    given = env.get("GAMEKERNEL_TABLE_URL", "").strip()
    if not given:
        if ip in ("", "0.0.0.0", "::"):
            raise SetupError(f"GAMEKERNEL_TABLE_IP={ip!r} listens on every address: set GAMEKERNEL_TABLE_URL to the "
                             f"one players type ({scheme}://my-laptop.local:{port}/)")
        host = f"[{ip}]" if ":" in ip else ip
        return f"{scheme}://{host}:{port}/"
    parts = urlsplit(given)
    if parts.scheme != scheme or not parts.hostname or parts.path not in ("", "/") or parts.query:
        raise SetupError(f"GAMEKERNEL_TABLE_URL={given!r}: expected {scheme}://HOST:PORT/ (the hub at the root)")
    return given.rstrip("/") + "/"


def _private_folder(path: Path, euid: int) -> None:
    """Make `path` (and parents) and keep it this user's alone: refuse one another machine user owns."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    owner = path.stat().st_uid
    if owner != euid:
        raise SetupError(f"{path} belongs to another user (uid {owner}): choose a folder of your own "
                         "(GAMEKERNEL_TABLE_DIR)")
    path.chmod(0o700)


def prepare_folder(settings: TableSettings, euid: int, examples: Path = EXAMPLES) -> list[str]:
    """Make the table folder and its `.hub` state folder; on the first start, copy the example
    notebooks and decklists in (never over a file of the GM's). Returns the names copied."""
    _private_folder(settings.folder, euid)
    state = settings.folder / ".hub"
    _private_folder(state, euid)
    mark = state / EXAMPLES_MARK
    if mark.exists() or not examples.is_dir():
        return []
    copied = []
    for source in sorted(examples.iterdir()):
        target = settings.folder / source.name
        if source.is_file() and not source.name.startswith(".") and not target.exists():
            shutil.copyfile(source, target)
            copied.append(source.name)
    mark.write_text("the example notebooks were copied into this table folder once\n", encoding="utf-8")
    return copied


def welcome(settings: TableSettings, copied: list[str]) -> str:
    """What `make table` tells the GM as it starts: where to sign in, where players sign up and wait."""
    hub = settings.url + "hub/"
    lines = [f"make table: the GM signs in as {settings.gm} at {hub}login; players sign up at {hub}signup "
             f"and you let them in at {hub}authorize",
             f"make table: the table folder is {settings.folder}"
             + (f" ({len(copied)} example files copied in)" if copied else "")]
    return "\n".join(lines)


def landing(gm: str) -> Callable[[Any], str]:
    """JupyterHub's `default_url`: a player lands on the GM's players' page; the GM on their own server
    (an empty answer is JupyterHub's default: the GM's JupyterLab, started first if it is not running)."""

    def default_url(handler: Any) -> str:
        try:
            user = handler.current_user
        except RuntimeError:  # not signed in yet
            return ""
        if user is None or user.name == gm:
            return ""
        return f"/user/{gm}/gamekernel/table"

    return default_url


def only_the_gm(gm: str) -> Callable[[Any], None]:
    """JupyterHub's `Spawner.pre_spawn_hook`: the GM's server is the table's only one."""

    def pre_spawn_hook(spawner: Any) -> None:
        if spawner.user.name != gm:
            from tornado import web

            raise web.HTTPError(403, f"only the GM ({gm}) has a server at this table")

    return pre_spawn_hook


def configure_network(c: Any, *, ip: str, port: int, hub_port: int, proxy_port: int, ssl_cert: str,
                      ssl_key: str) -> None:
    """The public address, the hub and proxy API on loopback, and TLS with Secure cookies when a
    certificate is given: one table's hub and a club's hub alike."""
    c.JupyterHub.ip, c.JupyterHub.port = ip, port
    c.JupyterHub.hub_ip, c.JupyterHub.hub_port = "127.0.0.1", hub_port
    c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{proxy_port}"
    if ssl_cert:
        c.JupyterHub.ssl_cert, c.JupyterHub.ssl_key = ssl_cert, ssl_key
        c.JupyterHub.tornado_settings = {"cookie_options": {"secure": True}}


def configure(c: Any, settings: TableSettings, euid: int) -> None:
    """Fill JupyterHub's config `c` from checked settings (the folder already prepared)."""
    s = settings
    state = s.folder / ".hub"
    configure_network(c, ip=s.ip, port=s.port, hub_port=s.hub_port, proxy_port=s.proxy_port,
                      ssl_cert=s.ssl_cert, ssl_key=s.ssl_key)
    if not s.loopback:  # absolute redirects and Secure cookies on the address players use
        c.JupyterHub.public_url = s.url
    c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
    c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
    c.ConfigurableHTTPProxy.pid_file = str(state / "proxy.pid")

    c.JupyterHub.authenticator_class = "gamekernel.remote.hub.authenticator.TableAuthenticator"
    c.TableAuthenticator.gm = s.gm
    c.TableAuthenticator.gm_password = s.gm_password
    c.TableAuthenticator.allowed_failed_logins = s.lockout_tries
    c.TableAuthenticator.seconds_before_next_try = s.lockout_seconds
    c.TableAuthenticator.minimum_password_length = MIN_PASSWORD
    c.TableAuthenticator.check_common_password = True
    c.TableAuthenticator.enable_signup = True
    c.TableAuthenticator.open_signup = False  # the GM approves each sign-up at /hub/authorize
    if s.players:  # only these may sign in (each still signs up and is approved)
        c.TableAuthenticator.allow_all = False
        c.TableAuthenticator.allowed_users = {s.gm, *s.players}
        c.TableAuthenticator.allow_existing_users = False  # a name taken off the list is out, even if known

    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(s.folder)
    c.Spawner.notebook_dir = str(s.folder)
    c.Spawner.default_url = "/lab"
    c.Spawner.pre_spawn_hook = only_the_gm(s.gm)
    c.Spawner.args = [AUTHORIZER, IDENTITY, SIGNED_IN]
    if euid == 0 and s.allow_root:  # asked for explicitly: Jupyter refuses root without it
        c.Spawner.args.append("--allow-root")
    c.Spawner.environment = {"JUPYTERHUB_SINGLEUSER_EXTENSION": "1", "GAMEKERNEL_TABLE_URL": s.url}

    # What players may do on the GM's server: reach it, and there only the players' page.
    c.JupyterHub.custom_scopes = {
        scope: {"description": f"{scope.split(':')[2]} the gamekernel players' page of a table"}
        for scope in TABLE_SCOPES
    }
    c.JupyterHub.load_roles = [
        # a player starts no server of their own: only the GM's table
        {"name": "user", "scopes": ["read:users:name!user", "read:users:groups!user", "access:servers!user=" + s.gm,
                                   *TABLE_SCOPES]},
        # the GM: their own server, and the sign-ups to approve (nativeauthenticator's /hub/authorize)
        {"name": "game-master", "users": [s.gm], "scopes": ["self", "admin:servers!user=" + s.gm, "admin:users"]},
    ]
    # the players' tokens for the GM's server carry these scopes (TableAuthorizer reads them there)
    c.Spawner.oauth_client_allowed_scopes = TABLE_SCOPES
    c.JupyterHub.default_url = landing(s.gm)
