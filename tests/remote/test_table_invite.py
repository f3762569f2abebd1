"""`%table invite alice` / `uninvite` (gamekernel/remote/hub/invite.py) against a stand-in hub API that
answers as JupyterHub's group API does: the call the GM's kernel makes (its server's token, its own
table's group), and each refusal as one line that changes nothing."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from gamekernel.testing import run

TOKEN = "the GM server's token"


class StandInHub(BaseHTTPRequestHandler):
    """JupyterHub's `/hub/api/groups/<name>/users`: POST adds, DELETE removes; 400 for a user never signed
    in, 403 for a group the token may not change."""

    members: ClassVar[dict[str, set[str]]] = {}
    known: ClassVar[set[str]] = {"alice", "bob", "gm-01"}
    calls: ClassVar[list[tuple[str, str, str, object]]] = []

    def _answer(self, method: str) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"null")
        self.calls.append((method, self.path, self.headers.get("Authorization", ""), body))
        group = self.path.split("/")[4]
        if self.headers.get("Authorization") != f"token {TOKEN}" or group != "table-01":
            self.send_response(404 if group == "table-03" else 403)  # JupyterHub hides what the token may not read
            self.end_headers()
            return
        if method == "POST" and not set(body["users"]) <= self.known:
            self.send_response(400)
            self.end_headers()
            return
        users = self.members.setdefault(group, set())
        users.update(body["users"]) if method == "POST" else users.difference_update(body["users"])
        data = json.dumps({"name": group, "users": sorted(users)}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        self._answer("POST")

    def do_DELETE(self) -> None:
        self._answer("DELETE")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def hub(monkeypatch):
    StandInHub.members, StandInHub.calls = {}, []
    server = ThreadingHTTPServer(("127.0.0.1", 0), StandInHub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setenv("JUPYTERHUB_API_URL", f"http://127.0.0.1:{server.server_address[1]}/hub/api")
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", TOKEN)
    monkeypatch.setenv("GAMEKERNEL_TABLE_GROUP", "table-01")
    monkeypatch.setenv("JUPYTERHUB_SERVICE_PREFIX", "/user/gm-01/")
    monkeypatch.delenv("JUPYTERHUB_PUBLIC_URL", raising=False)
    monkeypatch.delenv("GAMEKERNEL_TABLE_URL", raising=False)
    yield StandInHub
    server.shutdown()
    server.server_close()


def test_invite_adds_the_player_to_the_tables_group_with_the_servers_token(ip, hub):
    out = str(run(ip, "table", "invite Alice"))
    assert out == "alice is invited to table-01 (players: alice); they sign in and open /user/gm-01/gamekernel/table"
    assert hub.calls == [("POST", "/hub/api/groups/table-01/users", f"token {TOKEN}", {"users": ["alice"]})]
    assert "bob" in str(run(ip, "table", "invite bob"))
    assert str(run(ip, "table", "uninvite alice")) == "alice is no longer at table-01 (players: bob)"
    assert hub.calls[-1][:2] == ("DELETE", "/hub/api/groups/table-01/users")
    assert str(run(ip, "table", "uninvite bob")) == "bob is no longer at table-01 (players: nobody)"


def test_invite_someone_never_signed_in_is_one_line(ip, hub):
    out = str(run(ip, "table", "invite carol"))
    assert "carol has not signed in to the hub yet" in out and "\n" not in out
    assert hub.members.get("table-01", set()) == set()


def test_invite_to_another_tables_group_is_refused_by_the_hub(ip, hub, monkeypatch):
    monkeypatch.setenv("GAMEKERNEL_TABLE_GROUP", "table-02")  # a kernel that names another table's group
    out = str(run(ip, "table", "invite alice"))
    assert "may change only its own table's group (table-02)" in out
    monkeypatch.setenv("GAMEKERNEL_TABLE_GROUP", "table-03")
    assert "may change only its own table's group (table-03)" in str(run(ip, "table", "invite alice"))
    assert hub.members == {}


def test_invite_off_a_club_hub_says_where_it_works(ip, monkeypatch):
    for name in ("JUPYTERHUB_API_URL", "JUPYTERHUB_API_TOKEN", "GAMEKERNEL_TABLE_GROUP"):
        monkeypatch.delenv(name, raising=False)
    out = str(run(ip, "table", "invite alice"))
    assert out.startswith("error: %table invite works on a GM's server of a club hub")


def test_invite_a_bad_name_is_refused_before_the_hub_is_asked(ip, hub):
    assert "is not a Jupyter user name" in str(run(ip, "table", "invite al/ice"))
    assert hub.calls == []


def test_invite_with_the_hub_down_is_one_line(ip, hub, monkeypatch):
    monkeypatch.setenv("JUPYTERHUB_API_URL", "http://127.0.0.1:9/hub/api")  # the discard port: nobody there
    assert str(run(ip, "table", "invite alice")).startswith("error: the hub could not be reached (")
