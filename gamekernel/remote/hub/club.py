"""Many tables on one JupyterHub (a club, a school, a convention): one GM server per table, players
without servers of their own, no admin per table. `python -m gamekernel hub-config` writes a config
that calls `configure_club`; a hub's own config may import and call it just the same.

What each table gets (README "Many tables on one hub"):
- a group `table-07` (its members are the table's players, kept in the hub's database, so a hub restart
  keeps every table) and a role for that group: `access:servers!user=<gm>` plus the players' page
  scopes `custom:jupyter_server:*:gamekernel_table!user=<gm>` (`auth.TableAuthorizer` asks for them
  filtered to the server's owner, so a player of one table holds nothing on another's server);
- a role for its GM: `self` (their own server) and `groups!group=table-07` (add and remove that group's
  members, nobody else's); the GM's server token carries that scope too (`Spawner.server_token_scopes`,
  JupyterHub 4+, a callable here), so `%table invite alice` works from the GM's kernel;
- the default `user` role is cut to reading one's own name and groups: a signed-in person with no
  invitation reaches no server, and nobody but a GM may start one (`pre_spawn_hook`).
- memory and CPU limits per GM server (`Spawner.mem_limit`, `cpu_limit`: enforced by TLJH's systemd
  spawner and Z2JH's pods, not by the local process spawner of the `local` platform);
- culling (jupyterhub-idle-culler, `local` only: TLJH and Z2JH run their own) of servers idle past the
  timeout, where a players' page socket counts as activity (`gamekernel/remote/presence.py`).

Platforms: `local` (this machine: the hub's ports, database, TLS, the authenticator and the process
spawner are set here too) and `tljh` / `z2jh` (the hub's own deployment sets those; this adds the tables).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from gamekernel.remote.hub.names import normalize_user, valid_user
from gamekernel.remote.hub.settings import (
    AUTHORIZER,
    IDENTITY,
    SIGNED_IN,
    TABLE_SCOPES,
    SetupError,
    configure_network,
    is_loopback,
)

PLATFORMS = ("local", "tljh", "z2jh")
GROUP_PREFIX = "table-"
ADMIN_PASSWORD_ENV = "GAMEKERNEL_HUB_ADMIN_PASSWORD"  # the club admin's own, read at each hub start
MIN_PASSWORD = 8
SERVER_SCOPES = ("users:activity!user", "access:servers!server")  # JupyterHub's `server` role
PLAYER_SCOPES = ("read:users:name!user", "read:users:groups!user")  # the `user` role: no server, no table
CULLER_SCOPES = ("list:users", "read:users:activity", "read:servers", "delete:servers")
MEMORY_UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


@dataclass(frozen=True)
class Table:
    group: str  # the hub group of its players: table-07
    gm: str  # the GM's hub user name


@dataclass(frozen=True)
class Club:
    tables: tuple[Table, ...]
    admin: str = "admin"  # the club admin (local: approves GMs' sign-ups; the account comes from the env)
    platform: str = "local"
    ip: str = "127.0.0.1"
    port: int = 8000
    hub_port: int = 8081
    proxy_port: int = 8001
    state_dir: str = "club/.hub"  # local: the hub's database, cookie secret, proxy pid
    homes_dir: str = "club/homes"  # local: the GMs' folders, one a GM ({username} is appended)
    ssl_cert: str = ""
    ssl_key: str = ""
    url: str = ""  # the address players type (local, off loopback)
    mem_limit: str = "512M"  # twice what a table was measured to use (bench_club.py): room for a long session
    cpu_limit: float = 1.0
    cull_timeout: int = 3600  # seconds a table may stay idle (no kernel work, no players' page open); 0: never
    cull_every: int = 300
    allow_root: bool = False

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["tables"] = [[t.group, t.gm] for t in self.tables]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Club:
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise SetupError(f"unknown setting {unknown[0]!r} (known: {', '.join(sorted(known))})")
        given = dict(data)
        given["tables"] = tuple(Table(str(g), str(m)) for g, m in given.get("tables", ()))
        return check(cls(**given))


def group_name(number: int, width: int) -> str:
    return f"{GROUP_PREFIX}{number:0{width}d}"


def make_tables(count: int, gms: list[str] | None = None, gm_prefix: str = "gm-") -> tuple[Table, ...]:
    """`count` tables `table-01`..; their GMs named by `gms` (one a table) or `gm-01`.. ."""
    if not 1 <= count <= 999:
        raise SetupError(f"--tables {count}: expected 1 to 999 tables")
    width = max(2, len(str(count)))
    names = gms if gms else [f"{gm_prefix}{n:0{width}d}" for n in range(1, count + 1)]
    if len(names) != count:
        raise SetupError(f"--gms names {len(names)} GMs for {count} tables: one GM a table")
    return tuple(Table(group_name(n, width), normalize_user(gm)) for n, gm in enumerate(names, 1))


def parse_memory(text: str) -> int:
    """`256M` -> bytes (JupyterHub's units: K, M, G, T, powers of 1024)."""
    value = text.strip().upper()
    unit = MEMORY_UNITS.get(value[-1:], 0)
    number = value[:-1] if unit else value
    if not number.isdigit() or int(number) <= 0:
        raise SetupError(f"memory limit {text!r}: expected a whole number with K, M, G or T (256M)")
    return int(number) * (unit or 1)


def check(club: Club) -> Club:
    """The club's settings, checked; SetupError names the first wrong one."""
    if club.platform not in PLATFORMS:
        raise SetupError(f"platform {club.platform!r}: expected one of {', '.join(PLATFORMS)}")
    if not club.tables:
        raise SetupError("no tables: give --tables N")
    for name, what in [(club.admin, "the admin")] + [(t.gm, f"{t.group}'s GM") for t in club.tables]:
        if not valid_user(name) or normalize_user(name) != name:
            raise SetupError(f"{what}: {name!r} is not a hub user name (lower-case letters, digits, . _ @ -)")
    groups = [t.group for t in club.tables]
    gms = [t.gm for t in club.tables]
    for seen, what in ((groups, "group"), (gms, "GM")):
        twice = sorted({x for x in seen if seen.count(x) > 1})
        if twice:
            raise SetupError(f"the {what} {twice[0]!r} runs two tables: one {what} a table")
    if club.admin in gms:
        raise SetupError(f"the admin {club.admin!r} is also a GM: give the admin an account of their own")
    for group in groups:
        if not valid_user(group):
            raise SetupError(f"group {group!r}: letters, digits, . _ @ - only")
    ports = {"port": club.port, "hub_port": club.hub_port, "proxy_port": club.proxy_port}
    for name, port in ports.items():
        if not 1 <= port <= 65535:
            raise SetupError(f"{name}={port}: expected 1 to 65535")
    if len(set(ports.values())) < 3:
        raise SetupError(f"port {club.port}, hub port {club.hub_port} and proxy port {club.proxy_port} "
                         "must be three different ports")
    parse_memory(club.mem_limit)
    if not 0 < club.cpu_limit <= 256:
        raise SetupError(f"cpu limit {club.cpu_limit}: expected more than 0 and at most 256 CPUs")
    if club.cull_timeout < 0 or club.cull_every <= 0:
        raise SetupError(f"cull timeout {club.cull_timeout} / every {club.cull_every}: expected 0+ and 1+ seconds")
    if bool(club.ssl_cert) != bool(club.ssl_key):
        raise SetupError("give both --ssl-cert and --ssl-key (a certificate and its key)")
    if club.platform == "local" and not is_loopback(club.ip) and not club.ssl_cert:
        raise SetupError(f"ip {club.ip!r} lets other machines in: give --ssl-cert and --ssl-key, or keep 127.0.0.1")
    return club


def table_of(club: Club) -> dict[str, str]:
    """GM -> their table's group."""
    return {t.gm: t.group for t in club.tables}


def server_token_scopes(club: Club) -> Callable[[Any], list[str]]:
    """`Spawner.server_token_scopes`: a GM's server token may add and remove their own table's players."""
    groups = table_of(club)

    def scopes(spawner: Any) -> list[str]:
        group = groups.get(spawner.user.name)
        return [*SERVER_SCOPES, *([f"groups!group={group}"] if group else [])]

    return scopes


def only_gms(club: Club) -> Callable[[Any], None]:
    """`Spawner.pre_spawn_hook`: only a table's GM has a server; players never get one."""
    gms = set(table_of(club))

    def pre_spawn_hook(spawner: Any) -> None:
        if spawner.user.name not in gms:
            from tornado import web

            raise web.HTTPError(403, "only a table's GM has a server on this hub: players play on the GM's page")

    return pre_spawn_hook


def group_env(club: Club) -> Callable[[Any], str]:
    """The value of GAMEKERNEL_TABLE_GROUP in a GM's server (and so their kernels): `%table invite` reads it."""
    groups = table_of(club)
    return lambda spawner: groups.get(spawner.user.name, "")


def landing(club: Club) -> Callable[[Any], str]:
    """JupyterHub's `default_url`: a player lands on the page of their first table, or on the hub's home
    page before any GM invited them (JupyterHub's default would start a server they may not have); a GM on
    their own server."""
    gm_of = {t.group: t.gm for t in club.tables}

    def default_url(handler: Any) -> str:
        try:
            user = handler.current_user
        except RuntimeError:
            return ""
        if user is None or user.name in table_of(club):
            return ""
        tables = sorted(g.name for g in user.groups if g.name in gm_of)
        return f"/user/{gm_of[tables[0]]}/gamekernel/table" if tables else "/hub/home"

    return default_url


def roles(club: Club) -> list[dict[str, Any]]:
    """The roles: players' (none by default), one a table for its group, one a table for its GM."""
    found: list[dict[str, Any]] = [{"name": "user", "scopes": list(PLAYER_SCOPES)}]
    for t in club.tables:
        found.append({"name": t.group, "description": f"the players of {t.group}: its GM's players' page",
                      "groups": [t.group],
                      "scopes": [f"access:servers!user={t.gm}", *(f"{s}!user={t.gm}" for s in TABLE_SCOPES)]})
        found.append({"name": f"{t.group}-gm", "description": f"the GM of {t.group}: their server, their players",
                      "users": [t.gm], "scopes": ["self", f"groups!group={t.group}"]})
    return found


def configure_club(c: Any, club: Club, env: Mapping[str, str] | None = None, euid: int | None = None) -> None:
    """Fill JupyterHub's config `c` for `club` (checked); `env` holds the admin's password (local)."""
    club = check(club)
    env = os.environ if env is None else env
    if club.platform == "local":
        _local(c, club, env, os.geteuid() if euid is None else euid)
    c.JupyterHub.custom_scopes = {
        scope: {"description": f"{scope.split(':')[2]} the gamekernel players' page of a table"}
        for scope in TABLE_SCOPES
    }
    c.JupyterHub.load_groups = {t.group: {"properties": {"gamekernel_gm": t.gm}} for t in club.tables}
    c.JupyterHub.load_roles = roles(club) + (_culler(c, club) if club.platform == "local" else [])
    c.Spawner.server_token_scopes = server_token_scopes(club)
    c.Spawner.oauth_client_allowed_scopes = list(TABLE_SCOPES)  # a player's token for a GM's server
    c.Spawner.pre_spawn_hook = only_gms(club)
    # many GMs start at the same hour (a convention's slot): a server slow to come up under that load is
    # waited for, not given up on after JupyterHub's 30 s / 60 s
    c.Spawner.http_timeout, c.Spawner.start_timeout = 120, 180
    c.Spawner.mem_limit = parse_memory(club.mem_limit)
    c.Spawner.cpu_limit = club.cpu_limit
    args = [AUTHORIZER, IDENTITY, SIGNED_IN]
    if club.allow_root:
        args.append("--allow-root")
    c.Spawner.args = args
    c.Spawner.environment = {"JUPYTERHUB_SINGLEUSER_EXTENSION": "1", "GAMEKERNEL_TABLE_GROUP": group_env(club),
                             **({"GAMEKERNEL_TABLE_URL": club.url} if club.url else {})}
    c.JupyterHub.default_url = landing(club)


def _local(c: Any, club: Club, env: Mapping[str, str], euid: int) -> None:
    """This machine: the hub's ports, state, TLS, identities (`ClubAuthenticator`) and process spawner."""
    password = env.get(ADMIN_PASSWORD_ENV, "")
    if len(password) < MIN_PASSWORD:
        raise SetupError(f"set {ADMIN_PASSWORD_ENV}: the club admin's own password, at least {MIN_PASSWORD} "
                         "characters (GMs and players sign up with theirs)")
    if euid == 0 and not club.allow_root:
        raise SetupError("running as root: every GM's server would be root's; run as an ordinary user, or write "
                         "the config with --allow-root (unsafe outside a throwaway container)")
    state = Path(club.state_dir).resolve()
    homes = Path(club.homes_dir).resolve()
    for folder in (state, homes):
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        folder.chmod(0o700)
    configure_network(c, ip=club.ip, port=club.port, hub_port=club.hub_port, proxy_port=club.proxy_port,
                      ssl_cert=club.ssl_cert, ssl_key=club.ssl_key)
    if club.url:
        c.JupyterHub.public_url = club.url
    c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
    c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
    c.ConfigurableHTTPProxy.pid_file = str(state / "proxy.pid")
    c.JupyterHub.authenticator_class = "gamekernel.remote.hub.club_auth.ClubAuthenticator"
    c.ClubAuthenticator.gm = club.admin  # the account made from the environment at each start
    c.ClubAuthenticator.gm_password = password
    c.ClubAuthenticator.table_gms = sorted(table_of(club))
    c.ClubAuthenticator.minimum_password_length = MIN_PASSWORD
    c.ClubAuthenticator.check_common_password = True
    c.ClubAuthenticator.enable_signup = True
    c.ClubAuthenticator.open_signup = True  # a player is in at once, but reaches no table until a GM invites
    c.Authenticator.admin_users = {club.admin}
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(homes / "{username}")
    c.Spawner.default_url = "/lab"


def _culler(c: Any, club: Club) -> list[dict[str, Any]]:
    """jupyterhub-idle-culler as a hub service (local: TLJH and Z2JH run their own); its role."""
    if not club.cull_timeout:
        return []
    if importlib.util.find_spec("jupyterhub_idle_culler") is None:
        raise SetupError(f"culling after {club.cull_timeout}s needs jupyterhub-idle-culler (pip install "
                         "'gamekernel[table]'), or write the config with --cull-timeout 0")
    c.JupyterHub.services = [{"name": "idle-culler", "command": [
        sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={club.cull_timeout}",
        f"--cull-every={club.cull_every}"]}]
    return [{"name": "idle-culler", "services": ["idle-culler"], "scopes": list(CULLER_SCOPES)}]
