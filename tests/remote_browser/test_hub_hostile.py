"""A hostile player at the real table (JupyterHub + configurable-http-proxy + Chromium): signed up,
approved, signed in, holding the hub's cookie for the GM's server. Every path of that server but the
players' page answers her 403: the JupyterLab settings and workspaces (the keyboard-shortcut attack:
Shift+Enter mapped to "replace the GM's cell and run it"), `/metrics` (a secret roll moves its last
activity), `/api/me`, `/lab/api/*`, the contents, kernels, sessions and terminals APIs and their
websockets; the GM's shortcut settings stay as they were. She cannot sign in as the GM with her own
password under any spelling of the name, and guessing locks the GM's account. While the GM rolls in
secret and a hidden fighter attacks her character, her page and every frame it receives hold no
canary.

Needs Chromium and configurable-http-proxy (`make chp`), like test_hub_table.py whose helpers it uses.
"""

from __future__ import annotations

import json

import pytest

from tests.remote_browser.test_hub_table import (
    CHROMIUM,
    CHROMIUM_ARGS,
    GM_PASSWORD,
    PASSWORD,
    Hub,
    _api,
    _gm_runs,
    _player,
    _require,
    sign_in,
    sign_in_outcome,
)

pytestmark = [pytest.mark.remote, pytest.mark.browser]

PLAYER = "mallory"
TRIES = 3  # GAMEKERNEL_TABLE_LOCKOUT_TRIES for this hub
CANARY = "Qx7canary"
GHOST = f"{CANARY}ghost"  # the fighter the GM hides
SHORTCUTS = "lab/api/settings/@jupyterlab/shortcuts-extension:shortcuts"
ATTACK = {"shortcuts": [{"command": "notebook:replace-selection", "keys": ["Shift Enter"],
                         "selector": ".jp-Notebook", "args": {"text": "import os; os.system('id')"}}]}
GM_ONLY = ["lab/api/settings", SHORTCUTS, "lab/api/workspaces", "lab/api/workspaces/default", "metrics", "api/me",
           "api/status", "api", "lab/api/extensions", "lab/api/build", "lab/api/listings/@jupyterlab/extensionmanager"
           "-extension/listings.json", "lab/api/themes", "lab/api/licenses", "lab/api/translations", "api/contents",
           "api/contents/01-dice-and-odds.ipynb", "api/kernels", "api/kernelspecs", "api/sessions", "api/terminals",
           "api/config/notebook", "lab", "tree", "notebooks/x.ipynb", "files/mira.txt", "view/mira.txt", "edit/x",
           "static/style/index.css", "nbconvert/html/x.ipynb", "logout", "no/such/page"]
SETUP = f"""%load_ext gamekernel
%seed 3
%char new Aiko dx=12
%table seat {PLAYER} Aiko
%table serve"""
SECRETS = f"""%roll 3d6 {CANARY}roll --secret
%note {CANARY}note --gm
from gamekernel.magic_base import current_session
s = current_session()
s.combat.npc("{GHOST}", "ST=10 DX=14 HT=10 HP=10 weapon=Knife:14:thr-1 imp")
s.seats.hide("{GHOST}")
s.combat.start(["Aiko", "{GHOST}"])
s.combat.attack("{GHOST}", "Aiko", "Knife")
print("the ghost attacked")"""


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    _require()
    running = Hub(tmp_path_factory.mktemp("hub"), GAMEKERNEL_TABLE_LOCKOUT_TRIES=str(TRIES),
                  GAMEKERNEL_TABLE_LOCKOUT_SECONDS="600")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def table(hub):
    """The GM's server, a kernel serving the table with the player seated; the GM's token and kernel."""
    token = hub.start_gm_server()
    kernel = _api(hub.base, "/user/gm/api/kernels", token, "POST", {})["id"]
    _gm_runs(hub.base, token, kernel, SETUP)
    return token, kernel


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as play:
        launched = play.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def mallory(hub, table, browser):
    """The hostile player, signed up, approved and on the players' page; every frame it receives."""
    context, page, frames = _player(browser, hub, PLAYER)
    yield page, frames
    context.close()


def _gm_shortcuts(hub: Hub, token: str) -> str:
    return _api(hub.base, f"/user/gm/{SHORTCUTS}", token)["raw"]


def _socket(page, url: str) -> str:
    """Whether the page's own browser opens a websocket to `url` (its cookies, its origin)."""
    return page.evaluate("""(url) => new Promise((done) => {
        const ws = new WebSocket(url); ws.onopen = () => { ws.close(); done('open'); };
        ws.onerror = () => done('refused'); ws.onclose = () => done('refused'); })""", url)


def test_every_path_of_the_gms_server_but_the_table_answers_the_player_403(hub, table, mallory):
    token, kernel = table
    page, _frames = mallory
    before = _gm_shortcuts(hub, token)
    server = f"{hub.base}/user/gm/"
    # her browser holds the GM's server's XSRF cookie (the hub sets it as it signs her in there): sent back
    # as the header, a PUT is hers as far as the XSRF check goes, so only deny-by-default stops it
    xsrf = [c["value"] for c in page.context.cookies() if c["name"] == "_xsrf" and c["path"].startswith("/user/gm")]
    assert xsrf, page.context.cookies()
    statuses = {}
    for path in [*GM_ONLY, f"api/kernels/{kernel}"]:
        for method in ("GET", "PUT", "POST", "PATCH", "DELETE"):
            body = json.dumps({"raw": json.dumps(ATTACK)}) if method != "GET" else None
            response = page.request.fetch(server + path, method=method, data=body, max_redirects=0,
                                          headers={"X-XSRFToken": xsrf[0]})
            statuses[(method, path)] = response.status
            assert b"os.system" not in response.body() and b"last_activity" not in response.body(), (method, path)
    refused = {key for key, status in statuses.items() if status == 403}
    assert refused == set(statuses), {key: s for key, s in statuses.items() if s != 403}
    # the page's own browser: no kernel or terminal socket either
    ws = hub.base.replace("http", "ws") + "/user/gm/"
    for path in (f"api/kernels/{kernel}/channels", "terminals/websocket/1", "api/events/subscribe",
                 "lsp/ws/pylsp"):
        assert _socket(page, ws + path) == "refused", path
    assert _socket(page, ws + "gamekernel/table/api/socket") == "open"  # her own socket, the one she has
    # the attack changed nothing of the GM's, and the GM still has all of it
    assert _gm_shortcuts(hub, token) == before and "os.system" not in before
    assert _api(hub.base, "/user/gm/api/me", token)["identity"]["username"] == "gm"
    print(f"hostile player: {len(statuses)} requests on {len(GM_ONLY) + 1} paths, all 403; 4 sockets refused")


def test_the_gms_secrets_and_hidden_fighter_reach_no_byte_of_the_players_page(hub, table, mallory):
    token, kernel = table
    page, frames = mallory
    page.wait_for_function("() => document.getElementById('who')?.textContent.startsWith('mallory')")
    before = len(frames)
    _gm_runs(hub.base, token, kernel, SECRETS)
    # a public event after the secret ones: once it shows, every frame of the GM's cell has come (one socket)
    _gm_runs(hub.base, token, kernel, "%roll 3d6 public-stairs")
    page.wait_for_function("() => document.body.innerText.includes('public-stairs')", timeout=20_000)
    assert len(frames) > before
    assert not any(CANARY.lower() in frame.lower() for frame in frames), [f[:300] for f in frames if CANARY in f]
    assert CANARY.lower() not in page.content().lower()
    assert CANARY.lower() not in page.inner_text("body").lower()



def test_the_player_cannot_sign_in_as_the_gm_and_guessing_locks_the_gms_account(hub, browser, mallory):
    """Run last: it locks the GM's account for 600 s (the GM's token, held by the test, still works)."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(30_000)
    outcomes = []
    for spelling in ("gm", "GM", " gm"):
        for password in (PLAYER + PASSWORD, PLAYER):  # her own password (the test's: her name plus PASSWORD)
            sign_in(page, hub, spelling, password)
            outcomes.append(sign_in_outcome(page))
    assert not any(o.startswith("signed in") for o in outcomes), outcomes
    for n in range(TRIES + 2):
        sign_in(page, hub, "gm", f"guess number {n}")
        outcomes.append(sign_in_outcome(page))
    assert outcomes[-1] == "locked", outcomes
    sign_in(page, hub, "gm", GM_PASSWORD)  # even the right password, during the lock-out
    assert sign_in_outcome(page) == "locked"
    context.close()
