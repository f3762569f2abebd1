"""Many tables on one hub, for real (gamekernel/remote/hub/club.py): JupyterHub + configurable-http-proxy on
127.0.0.1 with the config `python -m gamekernel hub-config --tables 3` writes, three GMs' servers and two
players a table, each player signed up and signed in through the hub's own forms, with no admin rights.

Proven: each GM invites their players from the notebook (`%table invite`, the GM server's token, no admin);
an invited player plays (an intent recorded in the GM's kernel); a player reaches only the tables they
were invited to, 403 on every route of every other table's server (the routes enumerated from the
Jupyter server this install runs, as tests/remote/test_routes.py does, never listed by hand) and on every
route but the players' page of their own table's; a GM of one table cannot change another's group, from
the notebook or with their own token; a player at two tables plays at both; a hub restart keeps every
table (its group, its players, their access).

Needs configurable-http-proxy (`make chp`); skipped without it, required in CI (GAMEKERNEL_REQUIRE_HUB=1).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from benchmarks.club_hub import ClubHub, proxy_folder, status

pytestmark = [pytest.mark.remote]

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = {"gm-01": ["p1", "p2"], "gm-02": ["p3", "p4"], "gm-03": ["p5", "p6"]}
TWO_TABLES = ("p1", "gm-02")  # p1 is invited to a second table too
PASSWORD = "a player's own 42 "
# every route the GM's Jupyter server registers with this install's extensions: (path, handler, method,
# whether the handler defines the method, whether it is the players' page), walked by test_routes' helpers
ROUTES_SCRIPT = """
import json, tempfile
from jupyter_server.serverapp import ServerApp
from gamekernel.remote.auth import is_table_handler
from tests.remote.test_routes import _requests
app = ServerApp(root_dir=tempfile.mkdtemp(), open_browser=False, port=0)
app.initialize(argv=[], find_extensions=True, new_httpserver=False)
print(json.dumps([(path, handler.__name__, method, own, is_table_handler(handler))
                  for path, handler, method, own in _requests(app.web_app) if own]))
"""


def _routes() -> list[tuple[str, str, str, bool, bool]]:
    done = subprocess.run([sys.executable, "-c", ROUTES_SCRIPT], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300, check=True)
    return [tuple(row) for row in json.loads(done.stdout.strip().splitlines()[-1])]


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    if proxy_folder() is None:
        if os.environ.get("GAMEKERNEL_REQUIRE_HUB"):
            pytest.fail("required here (GAMEKERNEL_REQUIRE_HUB=1) but configurable-http-proxy is missing")
        pytest.skip("configurable-http-proxy is missing (make chp)")
    hub = ClubHub(tmp_path_factory.mktemp("club"), 3)
    yield hub
    hub.stop()


def _answer(url: str, token: str, method: str) -> int:
    if method == "WEBSOCKET":
        return status(url, token, timeout=20)  # a plain GET to a socket route: 403, or 400 "upgrade required"
    return status(url, token, method, b"{}" if method in ("POST", "PUT", "PATCH") else None, timeout=20)


def test_three_tables_two_players_each_reach_only_their_own(club):
    # the players sign up and sign in themselves; no admin approves them, and they are nobody's yet
    players = [p for names in PLAYERS.values() for p in names]
    for player in players:
        club.sign_up_and_in(player, PASSWORD + player)
    player_tokens = {p: club.token_for(p) for p in players}
    assert all(club.members(f"table-0{n}") == [] for n in (1, 2, 3))
    assert not any(club.admin(f"/hub/api/users/{p}")["admin"] for p in players)

    # each GM starts their table and invites their players from the notebook: the GM server's token
    gm_tokens, kernels = {}, {}
    for gm, names in PLAYERS.items():
        club.start_server(gm)
        gm_tokens[gm] = club.token_for(gm)
        kernels[gm] = club.kernel(gm, gm_tokens[gm])
        invited = names + ([TWO_TABLES[0]] if gm == TWO_TABLES[1] else [])
        setup = "\n".join(["%load_ext gamekernel", "%seed 1", "%char new Aiko dx=12", "%char new Bren dx=11",
                           "%char new Cato", *(f"%table seat {p} {c}" for p, c in zip(invited, ["Aiko", "Bren", "Cato"],
                                                                                        strict=False)),
                           "%table serve"])
        club.cell(gm, gm_tokens[gm], kernels[gm], setup)
        out = club.cell(gm, gm_tokens[gm], kernels[gm], f"%table invite {names[0]}")
        table = f"table-0{gm[-1]}"
        assert out.strip() == (f"{names[0]} is invited to {table} (players: {names[0]}); they sign in and open "
                               f"/user/{gm}/gamekernel/table"), out
        for player in invited[1:]:
            assert f"{player} is invited to {table}" in club.cell(gm, gm_tokens[gm], kernels[gm],
                                                                  f"%table invite {player}")
        assert club.members(table) == sorted(invited)
    tables_of = {p: {gm for gm, names in PLAYERS.items() if p in names} for p in players}
    tables_of[TWO_TABLES[0]].add(TWO_TABLES[1])

    # an invited player plays: their action recorded by the GM's kernel, stamped with their name
    for gm, names in PLAYERS.items():
        reply = club.intent(gm, player_tokens[names[0]], {"action": "check", "spec": "DX"})
        assert reply["ok"] is True and reply["text"].startswith("Aiko tries DX"), reply
    at_second = club.intent(TWO_TABLES[1], player_tokens[TWO_TABLES[0]], {"action": "check", "spec": "HT"})
    assert at_second["ok"] is True and at_second["text"].startswith("Cato tries HT"), at_second
    last = club.cell("gm-01", gm_tokens["gm-01"], kernels["gm-01"],
                     "from gamekernel.magic_base import current_session as _cs\nprint(_cs().log[-1].by)")
    assert last.strip() == "p1"

    # a GM of one table cannot change another's group: not from the notebook, not with their own token
    out = club.cell("gm-01", gm_tokens["gm-01"], kernels["gm-01"], (
        "import os\nfrom gamekernel.remote.hub import invite\nfrom gamekernel.errors import UsageError\n"
        "link = invite.HubLink(os.environ['JUPYTERHUB_API_URL'], os.environ['JUPYTERHUB_API_TOKEN'], 'table-02')\n"
        "try:\n    invite.invite(link, 'p1')\nexcept UsageError as error:\n    print(error)"))
    assert "may change only its own table's group (table-02)" in out, out
    for method in ("POST", "DELETE"):  # JupyterHub answers 404 for a group the token may not even read
        assert status(f"{club.base}/hub/api/groups/table-02/users", gm_tokens["gm-01"], method,
                      json.dumps({"users": ["p1"]}).encode()) in (403, 404)
    assert club.members("table-02") == ["p1", "p3", "p4"]

    # every route of every table's server, for every player: 403 but on their own table's players' page
    routes = _routes()
    page_routes = {path for path, _, _, _, table in routes if table}
    assert len(page_routes) == 4 and len({path for path, *_ in routes}) > 60, routes
    checks = [(p, gm, path, handler, method, table) for p in players for gm in PLAYERS
              for path, handler, method, _, table in routes]
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda c: _answer(f"{club.base}/user/{c[1]}{c[2]}", player_tokens[c[0]], c[4]),
                                checks))
    # the proxy's 503: the server closed the request without an answer (jupyter_server's public static
    # files under a base URL), refused only when the GM, the server's owner, gets no answer there either
    nobody = {(gm, path, method): _answer(f"{club.base}/user/{gm}{path}", gm_tokens[gm], method)
              for (_, gm, path, _, method, _), code in zip(checks, answers, strict=True) if code == 503}
    leaks = []
    for (player, gm, path, handler, method, table), code in zip(checks, answers, strict=True):
        own_page = table and gm in tables_of[player] and method != "OPTIONS"  # a preflight: the GM's alone
        refused = code in (403, 0) or (code == 503 and nobody[gm, path, method] == 503)
        if own_page == refused:
            leaks.append((player, gm, method, path, handler, code))
    print(f"club isolation: {len(checks)} requests ({len(routes)} routes x methods, 6 players x 3 servers), "
          f"{len(checks) - len(leaks)} as they must be, {len(nobody)} unanswered to the GM too")
    assert not leaks, f"{len(leaks)} of {len(checks)}: {leaks[:20]}"

    # a hub restart keeps every table: its group, its players, their access and their seats
    club.stop()
    club.start()
    assert [club.members(f"table-0{n}") for n in (1, 2, 3)] == [["p1", "p2"], ["p1", "p3", "p4"], ["p5", "p6"]]
    club.start_server("gm-01")
    assert status(f"{club.base}/user/gm-01/gamekernel/table", player_tokens["p2"]) == 200
    assert status(f"{club.base}/user/gm-01/gamekernel/table", player_tokens["p5"]) == 403
    assert status(f"{club.base}/user/gm-01/api/contents", player_tokens["p2"]) == 403
