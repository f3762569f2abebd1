"""`make table`'s JupyterHub configuration, executed as JupyterHub does (a fresh namespace with
`get_config`) under chosen environments: what it refuses (one line, nothing created) and what it sets
(per-person identities, TLS off loopback, every port, the GM's private table folder)."""

from __future__ import annotations

import os
import runpy
import stat
from pathlib import Path
from types import SimpleNamespace

import pytest
from traitlets.config import Config

from gamekernel.remote.hub import settings as hub_settings

CONFIG = Path(hub_settings.__file__).with_name("jupyterhub_config.py")
PASSWORD = "the GM's own 42"
ROOT = os.geteuid() == 0  # containers and CI: the config then needs GAMEKERNEL_TABLE_ALLOW_ROOT=1


@pytest.fixture
def env(monkeypatch, tmp_path):
    """A clean GAMEKERNEL_TABLE_* environment with the GM's password, run from `tmp_path`."""
    for name in list(os.environ):
        if name.startswith("GAMEKERNEL_TABLE_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("GAMEKERNEL_TABLE_GM_PASSWORD", PASSWORD)
    if ROOT:
        monkeypatch.setenv("GAMEKERNEL_TABLE_ALLOW_ROOT", "1")
    monkeypatch.chdir(tmp_path)
    return monkeypatch


def _load() -> Config:
    config = Config()
    runpy.run_path(str(CONFIG), init_globals={"get_config": lambda: config})
    return config


def _refused(tmp_path) -> str:
    with pytest.raises(SystemExit) as exited:
        _load()
    message = str(exited.value.code)
    assert message.startswith("make table: ") and "\n" not in message
    assert not (tmp_path / "table").exists()  # nothing made before the refusal
    return message


def test_defaults_a_table_on_this_machine_only(env, tmp_path, capsys):
    c = _load()
    told = capsys.readouterr().err
    assert "the GM signs in as gm at http://127.0.0.1:8000/hub/login" in told
    assert "players sign up at http://127.0.0.1:8000/hub/signup and you let them in at " in told
    assert f"the table folder is {tmp_path / 'table'} (" in told
    folder = tmp_path / "table"
    assert (c.JupyterHub.ip, c.JupyterHub.port, c.JupyterHub.hub_ip, c.JupyterHub.hub_port) == (
        "127.0.0.1", 8000, "127.0.0.1", 8081)
    assert c.ConfigurableHTTPProxy.api_url == "http://127.0.0.1:8001"
    assert "ssl_cert" not in c.JupyterHub and "public_url" not in c.JupyterHub
    # identities: the table's authenticator, the GM's account from the environment, a lock-out
    assert c.JupyterHub.authenticator_class == "gamekernel.remote.hub.authenticator.TableAuthenticator"
    assert (c.TableAuthenticator.gm, c.TableAuthenticator.gm_password) == ("gm", PASSWORD)
    assert (c.TableAuthenticator.allowed_failed_logins, c.TableAuthenticator.seconds_before_next_try) == (5, 600)
    assert c.TableAuthenticator.open_signup is False and c.TableAuthenticator.minimum_password_length >= 8
    assert "shared-password" not in repr(c) and "SharedPasswordAuthenticator" not in c
    assert "GAMEKERNEL_TABLE_GM_PASSWORD" not in os.environ  # the proxy and servers do not inherit it
    # one private folder: the GM's home and notebooks, the hub's state in .hub
    assert c.SimpleLocalProcessSpawner.home_dir_template == c.Spawner.notebook_dir == str(folder)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and stat.S_IMODE((folder / ".hub").stat().st_mode) == 0o700
    assert c.JupyterHub.db_url == f"sqlite:///{folder / '.hub' / 'jupyterhub.sqlite'}"
    assert c.JupyterHub.cookie_secret_file == str(folder / ".hub" / "jupyterhub_cookie_secret")
    assert c.ConfigurableHTTPProxy.pid_file == str(folder / ".hub" / "proxy.pid")
    # the GM's server: deny by default, root only when asked for, the address for %table serve
    assert c.Spawner.args[:3] == ["--ServerApp.authorizer_class=gamekernel.remote.auth.TableAuthorizer",
                                  "--ServerApp.identity_provider_class=gamekernel.remote.auth.TableIdentityProvider",
                                  "--ServerApp.allow_unauthenticated_access=False"]
    assert ("--allow-root" in c.Spawner.args) == ROOT
    assert c.Spawner.environment["GAMEKERNEL_TABLE_URL"] == "http://127.0.0.1:8000/"
    assert c.Spawner.default_url == "/lab"


def test_every_port_and_the_folder_come_from_the_environment(env, tmp_path):
    env.setenv("GAMEKERNEL_TABLE_PORT", "18000")
    env.setenv("GAMEKERNEL_TABLE_HUB_PORT", "18081")
    env.setenv("GAMEKERNEL_TABLE_PROXY_PORT", "18001")
    env.setenv("GAMEKERNEL_TABLE_DIR", "campaigns/tuesday")
    env.setenv("GAMEKERNEL_TABLE_GM", "Keeper")
    c = _load()
    assert (c.JupyterHub.port, c.JupyterHub.hub_port) == (18000, 18081)
    assert c.ConfigurableHTTPProxy.api_url == "http://127.0.0.1:18001"
    assert c.Spawner.notebook_dir == str(tmp_path / "campaigns" / "tuesday")
    assert c.TableAuthenticator.gm == "keeper"  # the hub's spelling
    roles = {role["name"]: role for role in c.JupyterHub.load_roles}
    assert roles["game-master"]["users"] == ["keeper"]
    assert "access:servers!user=keeper" in roles["user"]["scopes"]
    assert not any(scope.startswith(("admin", "servers", "self")) for scope in roles["user"]["scopes"])


def test_off_loopback_the_table_is_served_over_tls_with_secure_cookies(env, tmp_path):
    (tmp_path / "table.crt").write_text("certificate")
    (tmp_path / "table.key").write_text("key")
    env.setenv("GAMEKERNEL_TABLE_IP", "192.168.1.20")
    env.setenv("GAMEKERNEL_TABLE_SSL_CERT", str(tmp_path / "table.crt"))
    env.setenv("GAMEKERNEL_TABLE_SSL_KEY", str(tmp_path / "table.key"))
    c = _load()
    assert (c.JupyterHub.ssl_cert, c.JupyterHub.ssl_key) == (str(tmp_path / "table.crt"), str(tmp_path / "table.key"))
    assert c.JupyterHub.public_url == "https://192.168.1.20:8000/"
    assert c.JupyterHub.tornado_settings["cookie_options"]["secure"] is True
    assert c.Spawner.environment["GAMEKERNEL_TABLE_URL"] == "https://192.168.1.20:8000/"


def test_every_address_needs_the_players_url(env, tmp_path):
    (tmp_path / "t.crt").write_text("c")
    (tmp_path / "t.key").write_text("k")
    env.setenv("GAMEKERNEL_TABLE_IP", "0.0.0.0")
    env.setenv("GAMEKERNEL_TABLE_SSL_CERT", "t.crt")
    env.setenv("GAMEKERNEL_TABLE_SSL_KEY", "t.key")
    assert "set GAMEKERNEL_TABLE_URL" in _refused(tmp_path)
    env.setenv("GAMEKERNEL_TABLE_URL", "https://my-laptop.local:8000")
    assert _load().JupyterHub.public_url == "https://my-laptop.local:8000/"


@pytest.mark.parametrize(("settings", "says"), [
    ({"GAMEKERNEL_TABLE_GM_PASSWORD": ""}, "set GAMEKERNEL_TABLE_GM_PASSWORD"),
    ({"GAMEKERNEL_TABLE_GM_PASSWORD": "short"}, "at least 8 characters"),
    ({"GAMEKERNEL_TABLE_PASSWORD": "shared secret"}, "GAMEKERNEL_TABLE_PASSWORD is no longer read"),
    ({"GAMEKERNEL_TABLE_HOME": "/srv/table"}, "use GAMEKERNEL_TABLE_DIR"),
    ({"GAMEKERNEL_TABLE_IP": "192.168.1.20"}, "lets other machines in: set GAMEKERNEL_TABLE_SSL_CERT"),
    ({"GAMEKERNEL_TABLE_IP": "table.example.org"}, "lets other machines in"),
    ({"GAMEKERNEL_TABLE_SSL_CERT": "table.crt"}, "set both GAMEKERNEL_TABLE_SSL_CERT and GAMEKERNEL_TABLE_SSL_KEY"),
    ({"GAMEKERNEL_TABLE_SSL_CERT": "no.crt", "GAMEKERNEL_TABLE_SSL_KEY": "no.key"}, "no such readable file"),
    ({"GAMEKERNEL_TABLE_PORT": "80a"}, "GAMEKERNEL_TABLE_PORT='80a': expected a whole number from 1 to 65535"),
    ({"GAMEKERNEL_TABLE_PORT": "70000"}, "GAMEKERNEL_TABLE_PORT='70000'"),
    ({"GAMEKERNEL_TABLE_HUB_PORT": "8000"}, "must be three different ports"),
    ({"GAMEKERNEL_TABLE_GM": "g/m"}, "GAMEKERNEL_TABLE_GM: 'g/m' is not a user name"),
    ({"GAMEKERNEL_TABLE_PLAYERS": "alice,GM"}, "names the GM"),
    ({"GAMEKERNEL_TABLE_URL": "http://127.0.0.1:8000/hub/x"}, "GAMEKERNEL_TABLE_URL="),
    ({"GAMEKERNEL_TABLE_URL": "https://127.0.0.1:8000/"}, "expected http://HOST:PORT/"),
    ({"GAMEKERNEL_TABLE_LOCKOUT_TRIES": "0"}, "GAMEKERNEL_TABLE_LOCKOUT_TRIES='0'"),
])
def test_a_wrong_setting_stops_the_hub_in_one_line_naming_it(env, tmp_path, settings, says):
    for name, value in settings.items():
        env.setenv(name, value)
    assert says in _refused(tmp_path)


def test_root_is_refused_unless_the_gm_asks_for_it(env, tmp_path):
    env.delenv("GAMEKERNEL_TABLE_ALLOW_ROOT", raising=False)
    with pytest.raises(hub_settings.SetupError, match=r"running as root.*GAMEKERNEL_TABLE_ALLOW_ROOT=1"):
        hub_settings.read_settings(os.environ, tmp_path, 0)
    as_user = hub_settings.read_settings(os.environ, tmp_path, 1000)
    c = Config()
    hub_settings.configure(c, as_user, 1000)
    assert "--allow-root" not in c.Spawner.args
    env.setenv("GAMEKERNEL_TABLE_ALLOW_ROOT", "1")
    c = Config()
    hub_settings.configure(c, hub_settings.read_settings(os.environ, tmp_path, 0), 0)
    assert "--allow-root" in c.Spawner.args


def test_a_table_folder_another_user_owns_is_refused(env, tmp_path):
    settings = hub_settings.read_settings(os.environ, tmp_path, 1000)
    settings.folder.mkdir(mode=0o777)
    with pytest.raises(hub_settings.SetupError, match="belongs to another user"):
        hub_settings.prepare_folder(settings, os.geteuid() + 1)


def test_the_examples_are_copied_once_and_never_over_the_gms_files(env, tmp_path):
    examples = tmp_path / "examples"
    examples.mkdir()
    for name in ("01-dice.ipynb", "mira.txt", ".hidden"):
        (examples / name).write_text(f"example {name}")
    settings = hub_settings.read_settings(os.environ, tmp_path, os.geteuid() or 1)
    settings.folder.mkdir()
    (settings.folder / "mira.txt").write_text("the GM's own deck")
    assert hub_settings.prepare_folder(settings, os.geteuid(), examples) == ["01-dice.ipynb"]
    assert (settings.folder / "mira.txt").read_text() == "the GM's own deck"
    assert (settings.folder / "01-dice.ipynb").read_text() == "example 01-dice.ipynb"
    assert not (settings.folder / ".hidden").exists()
    (settings.folder / "01-dice.ipynb").unlink()  # the GM deletes an example: it stays deleted
    assert hub_settings.prepare_folder(settings, os.geteuid(), examples) == []
    assert not (settings.folder / "01-dice.ipynb").exists()


def test_the_project_examples_and_decklists_reach_a_fresh_table(env, tmp_path):
    _load()
    copied = {p.name for p in (tmp_path / "table").iterdir()}
    assert {"01-dice-and-odds.ipynb", "mira.txt", "brannoc.gcs"} <= copied


def _handler(name):
    return SimpleNamespace(current_user=None if name is None else SimpleNamespace(name=name))


def test_the_gm_lands_in_jupyterlab_and_a_player_on_the_players_page(env):
    c = _load()
    land = c.JupyterHub.default_url
    assert land(_handler("gm")) == ""  # JupyterHub's default: the GM's own server, started if need be
    assert land(_handler("alice")) == "/user/gm/gamekernel/table"
    assert land(_handler(None)) == ""

    class NotSignedIn:
        @property
        def current_user(self):
            raise RuntimeError("Must call async get_current_user first!")

    assert land(NotSignedIn()) == ""


def test_only_the_gm_has_a_server(env):
    from tornado import web

    hook = _load().Spawner.pre_spawn_hook
    hook(SimpleNamespace(user=SimpleNamespace(name="gm")))
    with pytest.raises(web.HTTPError) as refused:
        hook(SimpleNamespace(user=SimpleNamespace(name="alice")))
    assert refused.value.status_code == 403


def test_listed_players_are_the_only_ones_who_may_sign_in(env):
    env.setenv("GAMEKERNEL_TABLE_PLAYERS", "Alice, bob")
    c = _load()
    assert c.TableAuthenticator.allow_all is False
    assert c.TableAuthenticator.allowed_users == {"gm", "alice", "bob"}
    assert c.TableAuthenticator.allow_existing_users is False  # taken off the list: out, though the hub knows them


def test_the_gms_server_denies_by_default_on_jupyterhubs_identity_provider():
    """`make table`'s identity provider: JupyterHub's, a player named to the players' page alone."""
    from jupyterhub.singleuser.extension import JupyterHubIdentityProvider, JupyterHubOAuthCallbackHandler

    from gamekernel.remote.auth import DenyByDefault, TableIdentityProvider

    assert issubclass(TableIdentityProvider, DenyByDefault) and issubclass(TableIdentityProvider,
                                                                           JupyterHubIdentityProvider)
    assert TableIdentityProvider().handshake_handlers() == (JupyterHubOAuthCallbackHandler,)
