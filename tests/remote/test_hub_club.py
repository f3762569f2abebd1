"""Many tables on one hub (gamekernel/remote/hub/club.py): the config `python -m gamekernel hub-config`
writes, executed as JupyterHub executes it; what it refuses (one line, nothing written); the GMs' sign-ups
that wait for the admin. The hub itself runs in tests/remote_browser/test_hub_club_live.py."""

from __future__ import annotations

import runpy
from types import SimpleNamespace

import pytest
from traitlets.config import Config

from gamekernel.remote.hub import club as club_module
from gamekernel.remote.hub.club import Club, Table, configure_club, make_tables
from gamekernel.remote.hub.club_cli import main as hub_config
from gamekernel.remote.hub.settings import TABLE_SCOPES, SetupError

ADMIN_PASSWORD = "the admin's own 42"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GAMEKERNEL_HUB_ADMIN_PASSWORD", ADMIN_PASSWORD)
    return tmp_path


def _written(folder, *args: str) -> Config:
    """Write the config with `args` (cull 0 and root allowed unless given) and load it as the hub does."""
    argv = ["--output", str(folder / "jupyterhub_config.py"), *args]
    if "--cull-timeout" not in args:
        argv += ["--cull-timeout", "0"]
    if "--allow-root" not in args:
        argv += ["--allow-root"]  # tests run as root in containers and CI
    assert hub_config(argv) == 0
    config = Config()
    runpy.run_path(str(folder / "jupyterhub_config.py"), init_globals={"get_config": lambda: config})
    return config


def _spawner(name: str):
    return SimpleNamespace(user=SimpleNamespace(name=name))


def test_hub_config_a_group_and_two_roles_per_table(folder):
    c = _written(folder, "--tables", "3")
    assert c.JupyterHub.load_groups == {f"table-0{n}": {"properties": {"gamekernel_gm": f"gm-0{n}"}}
                                        for n in (1, 2, 3)}
    roles = {role["name"]: role for role in c.JupyterHub.load_roles}
    assert roles["user"]["scopes"] == ["read:users:name!user", "read:users:groups!user"]  # no server, no table
    assert roles["table-02"]["groups"] == ["table-02"]
    assert roles["table-02"]["scopes"] == ["access:servers!user=gm-02", *(f"{s}!user=gm-02" for s in TABLE_SCOPES)]
    assert roles["table-02-gm"] == {"name": "table-02-gm", "users": ["gm-02"],
                                    "scopes": ["self", "groups!group=table-02"],
                                    "description": "the GM of table-02: their server, their players"}
    assert set(roles) == {"user", "table-01", "table-01-gm", "table-02", "table-02-gm", "table-03", "table-03-gm"}
    assert set(c.JupyterHub.custom_scopes) == set(TABLE_SCOPES)
    assert c.Spawner.oauth_client_allowed_scopes == TABLE_SCOPES


def test_hub_config_the_gms_server_token_may_change_its_own_group_only(folder):
    c = _written(folder, "--tables", "3")
    scopes = c.Spawner.server_token_scopes
    assert scopes(_spawner("gm-02")) == ["users:activity!user", "access:servers!server", "groups!group=table-02"]
    assert scopes(_spawner("alice")) == ["users:activity!user", "access:servers!server"]
    env = c.Spawner.environment
    assert env["GAMEKERNEL_TABLE_GROUP"](_spawner("gm-03")) == "table-03"
    assert env["GAMEKERNEL_TABLE_GROUP"](_spawner("alice")) == ""


def test_hub_config_only_gms_have_servers(folder):
    from tornado import web

    c = _written(folder, "--tables", "2", "--gms", "Mira,Jun")
    c.Spawner.pre_spawn_hook(_spawner("mira"))  # a GM: started
    with pytest.raises(web.HTTPError) as refused:
        c.Spawner.pre_spawn_hook(_spawner("alice"))
    assert refused.value.status_code == 403


def test_hub_config_limits_ports_and_folders(folder):
    c = _written(folder, "--tables", "2", "--mem", "200M", "--cpu", "0.5", "--port", "9000", "--hub-port", "9081",
                 "--proxy-port", "9001", "--state", "s", "--homes", "h")
    assert (c.Spawner.mem_limit, c.Spawner.cpu_limit) == (200 * 1024 * 1024, 0.5)
    assert (c.Spawner.http_timeout, c.Spawner.start_timeout) == (120, 180)  # many GMs starting at once
    assert (c.JupyterHub.port, c.JupyterHub.hub_port) == (9000, 9081)
    assert c.ConfigurableHTTPProxy.api_url == "http://127.0.0.1:9001"
    assert c.JupyterHub.db_url == f"sqlite:///{folder / 's' / 'jupyterhub.sqlite'}"
    assert c.SimpleLocalProcessSpawner.home_dir_template == str(folder / "h" / "{username}")
    assert oct((folder / "s").stat().st_mode & 0o777) == "0o700"
    assert c.JupyterHub.authenticator_class == "gamekernel.remote.hub.club_auth.ClubAuthenticator"
    assert c.ClubAuthenticator.gm_password == ADMIN_PASSWORD and c.ClubAuthenticator.table_gms == ["gm-01", "gm-02"]
    assert ADMIN_PASSWORD not in (folder / "jupyterhub_config.py").read_text()  # never written down


def test_hub_config_tljh_and_z2jh_add_the_tables_only(folder, monkeypatch):
    monkeypatch.delenv("GAMEKERNEL_HUB_ADMIN_PASSWORD")  # their own sign-in: no admin password needed
    for platform in ("tljh", "z2jh"):
        c = _written(folder, "--tables", "2", "--platform", platform, "--cull-timeout", "3600")
        assert "port" not in c.JupyterHub and "db_url" not in c.JupyterHub and "authenticator_class" not in c.JupyterHub
        assert "services" not in c.JupyterHub  # their own culler (TLJH services.cull, Z2JH cull.enabled)
        assert len(c.JupyterHub.load_roles) == 5 and c.Spawner.mem_limit == 512 * 1024 * 1024


def test_hub_config_culling_needs_the_culler(folder, monkeypatch):
    monkeypatch.setattr(club_module.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(SystemExit) as stopped:
        _written(folder, "--tables", "1", "--cull-timeout", "600")
    assert "needs jupyterhub-idle-culler" in str(stopped.value.code)
    monkeypatch.setattr(club_module.importlib.util, "find_spec", lambda name: object())
    c = _written(folder, "--tables", "1", "--cull-timeout", "600", "--cull-every", "60")
    assert c.JupyterHub.services[0]["command"][-2:] == ["--timeout=600", "--cull-every=60"]
    culler = {"name": "idle-culler", "services": ["idle-culler"],
              "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"]}
    assert culler in c.JupyterHub.load_roles


@pytest.mark.parametrize(("args", "words"), [
    (["--tables", "0"], "expected 1 to 999 tables"),
    (["--tables", "1000"], "expected 1 to 999 tables"),
    (["--tables", "2", "--gms", "a"], "names 1 GMs for 2 tables"),
    (["--tables", "2", "--gms", "a,A"], "the GM 'a' runs two tables"),
    (["--tables", "1", "--gms", "admin"], "the admin 'admin' is also a GM"),
    (["--tables", "1", "--gms", "no way"], "is not a hub user name"),
    (["--tables", "1", "--port", "8081"], "must be three different ports"),
    (["--tables", "1", "--port", "0"], "port=0: expected 1 to 65535"),
    (["--tables", "1", "--mem", "256X"], "memory limit '256X'"),
    (["--tables", "1", "--mem", "0M"], "memory limit '0M'"),
    (["--tables", "1", "--cpu", "0"], "cpu limit 0.0"),
    (["--tables", "1", "--ip", "0.0.0.0"], "lets other machines in"),
    (["--tables", "1", "--ssl-cert", "c.pem"], "give both --ssl-cert and --ssl-key"),
])
def test_hub_config_refuses_with_one_line_and_writes_nothing(folder, capsys, args, words):
    assert hub_config([*args, "--output", str(folder / "out.py")]) == 2
    error = capsys.readouterr().err
    assert error.startswith("hub-config: ") and words in error and error.count("\n") == 1
    assert not (folder / "out.py").exists()


def test_hub_config_at_the_boundaries(folder):
    assert len(make_tables(1)) == 1 and make_tables(999)[-1] == Table("table-999", "gm-999")
    assert make_tables(3, ["Ｍｉｒａ", "jun", "kai"])[0] == Table("table-01", "mira")  # full-width: one name rule


def test_hub_config_refuses_an_edited_file_with_a_wrong_setting(folder):
    _written(folder, "--tables", "1")
    path = folder / "jupyterhub_config.py"
    path.write_text(path.read_text().replace("'cpu_limit'", "'cpus'"))
    with pytest.raises(SystemExit) as stopped:
        runpy.run_path(str(path), init_globals={"get_config": Config})
    assert str(stopped.value.code).startswith("hub config: unknown setting 'cpus'")


def test_hub_config_local_needs_the_admins_password(folder):
    club = Club(tables=make_tables(1), allow_root=True)
    with pytest.raises(SetupError, match="set GAMEKERNEL_HUB_ADMIN_PASSWORD"):
        configure_club(Config(), club, {"GAMEKERNEL_HUB_ADMIN_PASSWORD": "short"})
    with pytest.raises(SetupError, match="running as root"):
        configure_club(Config(), Club(tables=make_tables(1)), {"GAMEKERNEL_HUB_ADMIN_PASSWORD": ADMIN_PASSWORD}, euid=0)


def test_players_land_on_their_first_tables_page(folder):
    c = _written(folder, "--tables", "3")
    group = SimpleNamespace
    player = SimpleNamespace(name="alice", groups=[group(name="table-03"), group(name="table-02"), group(name="x")])
    assert c.JupyterHub.default_url(SimpleNamespace(current_user=player)) == "/user/gm-02/gamekernel/table"
    nobody_yet = SimpleNamespace(name="bob", groups=[])
    assert c.JupyterHub.default_url(SimpleNamespace(current_user=nobody_yet)) == "/hub/home"  # not /hub/spawn
    gm = SimpleNamespace(name="gm-01", groups=[])
    assert c.JupyterHub.default_url(SimpleNamespace(current_user=gm)) == ""


def test_a_gms_sign_up_waits_for_the_admin_a_players_does_not():
    pytest.importorskip("nativeauthenticator")
    from jupyterhub import orm

    from gamekernel.remote.hub.club_auth import ClubAuthenticator

    db = orm.new_session_factory("sqlite://")()
    auth = ClubAuthenticator(_deprecated_db_session=db, gm="admin", gm_password=ADMIN_PASSWORD, open_signup=True,
                             table_gms=["gm-01"], minimum_password_length=8)
    assert auth.create_user("alice", "alice's own 42").is_authorized
    assert not auth.create_user("GM-01", "squatter's 42").is_authorized  # any spelling: the admin approves
    assert auth.create_user("admin", "squatter's 42") is None  # the admin's account is the environment's
