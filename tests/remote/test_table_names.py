"""One naming rule on both sides of the table: the hub lower-cases a user name (JupyterHub's
`Authenticator.normalize_username`), so `%table seat Alice Aiko` must seat the hub user `alice`,
whose intents then act for Aiko; and `%table serve` prints the address to give the players."""

from __future__ import annotations

import pytest

from gamekernel.magic_base import current_session
from gamekernel.remote.hub.names import normalize_user, valid_user
from gamekernel.remote.serve import players_url


@pytest.mark.parametrize("typed", ["alice", "Alice", "ALICE", " alice ", "ａｌｉｃｅ", "Ａｌｉｃｅ"])
def test_every_spelling_of_a_name_is_the_hubs_name(typed):
    assert normalize_user(typed) == "alice"
    assert valid_user(normalize_user(typed))


@pytest.mark.parametrize("typed", ["", "al ice", "al/ice", ".alice", "ali,ce", "алиса", "a" * 65])
def test_what_is_not_a_user_name(typed):
    assert not valid_user(normalize_user(typed))


def test_table_seat_alice_seats_the_hub_user_alice(ip):
    ip.run_line_magic("char", "new Aiko dx=12")
    ip.run_line_magic("char", "new Bren")
    assert repr(ip.run_line_magic("table", "seat Alice Aiko")) == "alice plays Aiko"
    assert repr(ip.run_line_magic("table", "seat ＢＯＢ Bren")) == "bob plays Bren"
    session = current_session()
    assert session.seats.state.seats == {"alice": ["Aiko"], "bob": ["Bren"]}
    assert session.seats.state.seat_of("alice") == ["Aiko"]  # what the server asks for the hub user
    assert repr(ip.run_line_magic("table", "unseat BOB")) == "bob left the table"
    assert session.seats.state.seats == {"alice": ["Aiko"]}


def test_a_bad_user_name_is_refused_in_one_line_and_changes_nothing(ip):
    ip.run_line_magic("char", "new Aiko")
    before = len(current_session().log)
    result = repr(ip.run_line_magic("table", "seat al/ice Aiko"))
    assert result.startswith("error:") and "'al/ice'" in result and "\n" not in result
    assert len(current_session().log) == before


@pytest.mark.parametrize(("env", "url"), [
    # the hub has a public URL (any address but loopback, in make table): JupyterHub says this server's
    ({"JUPYTERHUB_PUBLIC_URL": "https://table.example:8443/user/gm/", "JUPYTERHUB_SERVICE_PREFIX": "/user/gm/",
      "GAMEKERNEL_TABLE_URL": "https://elsewhere:1/"}, "https://table.example:8443/user/gm/gamekernel/table"),
    # make table on loopback: its address plus this server's prefix
    ({"JUPYTERHUB_PUBLIC_URL": "", "JUPYTERHUB_SERVICE_PREFIX": "/user/gm/", "GAMEKERNEL_TABLE_URL":
      "http://127.0.0.1:8000/"}, "http://127.0.0.1:8000/user/gm/gamekernel/table"),
    # another hub, no public URL: the path on the hub's address
    ({"JUPYTERHUB_SERVICE_PREFIX": "/user/gm/"}, "/user/gm/gamekernel/table"),
    # no hub at all: the path under this server
    ({}, "gamekernel/table"),
])
def test_the_players_address_comes_from_the_hubs_environment(env, url):
    assert players_url(env) == url


def test_table_serve_prints_the_exact_address(ip, monkeypatch, tmp_path):
    from gamekernel.remote import serve

    monkeypatch.setattr(serve, "kernel_id", lambda shell: "k-1")
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))
    monkeypatch.setenv("JUPYTERHUB_PUBLIC_URL", "")
    monkeypatch.setenv("JUPYTERHUB_SERVICE_PREFIX", "/user/gm/")
    monkeypatch.setenv("GAMEKERNEL_TABLE_URL", "http://127.0.0.1:8000/")
    said = repr(ip.run_line_magic("table", "serve"))
    assert said == ("the players' page is open: give the players http://127.0.0.1:8000/user/gm/gamekernel/table "
                    "(each signs in there with their own name and password)")
    assert (tmp_path / serve.SERVE_FILE).exists()
