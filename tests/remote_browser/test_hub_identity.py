"""The table's hub for real (JupyterHub + configurable-http-proxy + Chromium), attacked by a signed-in
player: no spelling of the GM's name takes the GM's account, by sign-up or sign-in; wrong passwords
lock an account out, the GM's too, so that even the right password is refused during the lock-out;
the player reaches the players' page as themself. And the GM's first evening: signed in, the GM
lands in JupyterLab in the table folder with the examples there, and `%table serve` prints the exact
address to give the players.

Needs Chromium and configurable-http-proxy (`make chp`), like test_hub_table.py whose helpers it uses.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.remote_browser.test_hub_table import (
    CHROMIUM,
    CHROMIUM_ARGS,
    GM_PASSWORD,
    Hub,
    _api,
    _require,
    gm_approves,
    sign_in,
    sign_in_outcome,
    sign_up,
)

pytestmark = [pytest.mark.remote, pytest.mark.browser]

MALLORY = "mallory's own password 7"
TRIES = 5  # GAMEKERNEL_TABLE_LOCKOUT_TRIES for this hub


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    _require()
    running = Hub(tmp_path_factory.mktemp("hub"), GAMEKERNEL_TABLE_LOCKOUT_TRIES=str(TRIES),
                  GAMEKERNEL_TABLE_LOCKOUT_SECONDS="600")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as play:
        launched = play.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def _page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(30_000)
    return context, page



async def _cell_output(base: str, token: str, kernel: str, code: str) -> str:
    """Run `code` in the GM's kernel; the text/plain of what it displayed."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    url = base.replace("http", "ws") + f"/user/gm/api/kernels/{kernel}/channels"
    socket_ = await websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {token}"}))
    msg_id = uuid.uuid4().hex
    socket_.write_message(json.dumps({
        "header": {"msg_id": msg_id, "msg_type": "execute_request", "session": uuid.uuid4().hex, "username": "gm",
                   "version": "5.3", "date": "2026-01-01T00:00:00Z"},
        "parent_header": {}, "metadata": {}, "channel": "shell",
        "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                    "allow_stdin": False, "stop_on_error": True}}))
    out = []
    while True:
        message = json.loads(await asyncio.wait_for(socket_.read_message(), 60))
        if message.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        if message["msg_type"] in ("execute_result", "display_data"):
            out.append(message["content"]["data"].get("text/plain", ""))
        elif message["msg_type"] == "stream":
            out.append(message["content"]["text"])
        elif message["msg_type"] == "execute_reply":
            assert message["content"]["status"] == "ok", message["content"]
            break
    socket_.close()
    return "\n".join(out)


def test_the_gms_first_evening_lands_in_jupyterlab_in_the_table_folder_with_the_examples(hub, browser):
    context, page = _page(browser)
    page.set_default_timeout(180_000)  # the GM's server starts on the way in
    sign_in(page, hub, "gm", GM_PASSWORD)
    page.wait_for_url("**/user/gm/lab**")
    page.wait_for_selector("text=01-dice-and-odds.ipynb")  # JupyterLab's file browser, in the table folder
    assert page.locator("text=mira.txt").count() >= 1
    assert (hub.tmp / "table" / "01-dice-and-odds.ipynb").exists()
    context.close()


def test_table_serve_prints_the_address_to_give_the_players(hub, served):
    assert f"give the players {hub.base}/user/gm/gamekernel/table " in served, served


@pytest.fixture(scope="module")
def served(hub):
    """The GM's server running with a kernel serving the players' page; its `%table serve` answer."""
    token = hub.start_gm_server()
    kernel = _api(hub.base, "/user/gm/api/kernels", token, "POST", {})["id"]
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _cell_output(hub.base, token, kernel, "%load_ext gamekernel\n%table serve")
                           ).result()


def test_a_hostile_player_cannot_become_the_gm_and_reaches_only_their_own_page(hub, browser, served):
    context, page = _page(browser)
    for spelling in ("gm", "GM", " gm", "ｇｍ"):  # a sign-up under the GM's name, in any spelling
        answer = sign_up(page, hub, spelling, MALLORY)
        assert "sent to the admin" not in answer and "successful" not in answer, (spelling, answer)
    assert "sent to the admin" in sign_up(page, hub, "mallory", MALLORY)
    sign_in(page, hub, "mallory", MALLORY)
    assert sign_in_outcome(page) == "waiting"  # not before the GM approves
    # a link she slips to the GM (followed from another page of the hub, or opened directly) approves nobody
    gm_context, gm = _page(browser)
    sign_in(gm, hub, "gm", GM_PASSWORD, then="/hub/home")
    with gm.expect_response(lambda r: r.url.endswith("/hub/authorize/mallory")) as followed:
        gm.evaluate("(url) => { location.href = url; }", f"{hub.base}/hub/authorize/mallory")
    assert followed.value.status == 403
    gm.wait_for_url(f"{hub.base}/hub/authorize/mallory")
    gm.wait_for_load_state()
    assert gm.goto(f"{hub.base}/hub/authorize/mallory").status == 403
    gm_context.close()
    sign_in(page, hub, "mallory", MALLORY)
    assert sign_in_outcome(page) == "waiting"
    gm_approves(browser, hub, "mallory")
    for spelling in ("gm", "GM", " gm", "ｇｍ"):  # her own password on the GM's name
        sign_in(page, hub, spelling, MALLORY)
        assert sign_in_outcome(page) == "invalid", spelling
    landed = sign_in(page, hub, "Mallory", MALLORY)
    assert "/user/gm/gamekernel/table" in landed or "/hub/api/oauth2/authorize" in landed, landed
    if page.locator("text=Authorize access").count():  # the hub asks once: identify me to the GM's server
        page.locator("input[type=submit][value=Authorize], button:has-text('Authorize')").first.click()
    page.wait_for_function("() => document.getElementById('who')?.textContent.startsWith('mallory')")
    assert page.url.endswith("/user/gm/gamekernel/table")
    # the GM's server's own APIs stay the GM's (every other route: the deny-by-default route test's job)
    for path in ("api/contents", "api/kernels", "api/terminals"):
        assert page.request.get(f"{hub.base}/user/gm/{path}").status == 403, path
    context.close()


@pytest.mark.parametrize(("who", "password"), [("mallory", MALLORY), ("gm", GM_PASSWORD)])
def test_wrong_passwords_lock_the_account_out_and_then_the_right_one_is_refused(hub, browser, who, password):
    """Run after the tests above: a lock-out of 600 s, outcomes counted. The GM's account already holds
    the hostile player's four failures (her password on `gm`, `GM`, ` gm`, `ｇｍ`: one account)."""
    context, page = _page(browser)
    outcomes = []
    for n in range(50):
        sign_in(page, hub, who, f"guess number {n}")
        outcomes.append(sign_in_outcome(page))
    checked = outcomes.index("locked")  # the guesses whose password the hub looked at
    assert 1 <= checked <= TRIES and outcomes == ["invalid"] * checked + ["locked"] * (50 - checked), outcomes
    sign_in(page, hub, who.upper(), password)  # the right password, during the lock-out, any spelling
    assert sign_in_outcome(page) == "locked"
    sign_in(page, hub, who, password)
    assert sign_in_outcome(page) == "locked"
    context.close()


def test_off_loopback_the_table_speaks_only_tls_and_its_cookies_are_secure(tmp_path_factory, monkeypatch, browser):
    """The README's self-signed certificate for a LAN, on every address (so TLS is required)."""
    import shutil
    import ssl
    import subprocess
    import urllib.error
    import urllib.request

    _require()
    if not shutil.which("openssl"):
        pytest.skip("openssl is needed to make the README's self-signed certificate")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "table.crt", folder / "table.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-keyout", str(key),
                    "-out", str(cert), "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # this test's own HTTPS requests trust the table's certificate
    hub = Hub(folder, GAMEKERNEL_TABLE_IP="0.0.0.0", GAMEKERNEL_TABLE_SSL_CERT=str(cert),
              GAMEKERNEL_TABLE_SSL_KEY=str(key), GAMEKERNEL_TABLE_URL="https://127.0.0.1:{port}/")
    try:
        assert hub.base.startswith("https://")
        with pytest.raises((urllib.error.URLError, ConnectionError, ssl.SSLError)):  # no plain HTTP
            urllib.request.urlopen(hub.base.replace("https://", "http://") + "/hub/login", timeout=10).read()
        context = browser.new_context(ignore_https_errors=True)  # the browser's one warning, accepted
        page = context.new_page()
        page.set_default_timeout(30_000)
        assert sign_in(page, hub, "gm", GM_PASSWORD, then="/hub/authorize").endswith("/hub/authorize")
        cookies = context.cookies()
        assert {"jupyterhub-session-id", "jupyterhub-hub-login"} <= {c["name"] for c in cookies}
        assert all(c["secure"] for c in cookies), [(c["name"], c["secure"]) for c in cookies]
        context.close()
    finally:
        hub.stop()
