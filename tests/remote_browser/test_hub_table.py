"""The remote table for real: JupyterHub + configurable-http-proxy on 127.0.0.1, the GM's server with
the players' page, a GM and two players in separate Chromium contexts. Every websocket frame each
player's page receives is recorded: no canary of the GM's secrets in any; a player's own action and
the GM's public roll reach the pages; the GM's server answers the players 403 everywhere else.

Needs Chromium and configurable-http-proxy (`make chp`); skipped without them, required in CI
(GAMEKERNEL_REQUIRE_HUB=1).
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest

pytestmark = [pytest.mark.remote, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "gamekernel" / "remote" / "hub" / "jupyterhub_config.py"
CHP_DIRS = [Path(sys.prefix) / "node" / "node_modules" / ".bin"]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--disable-dev-shm-usage"]
GM_PASSWORD = secrets.token_urlsafe(12)  # the GM's own (GAMEKERNEL_TABLE_GM_PASSWORD)
PASSWORD = secrets.token_urlsafe(12)  # each player signs up with their own: this plus their name
CANARY = "Qx7canary"


def _proxy() -> str | None:
    for folder in CHP_DIRS:
        if (folder / "configurable-http-proxy").exists():
            return str(folder)
    found = shutil.which("configurable-http-proxy")
    return str(Path(found).parent) if found else None


def _require() -> str:
    folder = _proxy()
    missing = [what for what, ok in (("Chromium", Path(CHROMIUM).exists()), ("configurable-http-proxy", folder),
                                     ("jupyterhub", shutil.which("jupyterhub", path=str(Path(sys.executable).parent))))
               if not ok]
    if missing:
        if os.environ.get("GAMEKERNEL_REQUIRE_HUB"):
            pytest.fail(f"required here (GAMEKERNEL_REQUIRE_HUB=1) but missing: {', '.join(missing)}")
        pytest.skip(f"missing {', '.join(missing)} (make chp; apt-get install -y chromium)")
    assert folder is not None
    return folder


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _api(base: str, path: str, token: str, method: str = "GET", body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Authorization": f"token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read()
    return json.loads(text) if text else {}


def _status(url: str, headers: dict) -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


class Hub:
    def __init__(self, tmp: Path, **extra_env: str):
        """A hub on free ports; `extra_env` adds GAMEKERNEL_TABLE_* settings ("{port}": the players' port)."""
        self.port = _free_port()
        scheme = "https" if extra_env.get("GAMEKERNEL_TABLE_SSL_CERT") else "http"
        self.base = f"{scheme}://127.0.0.1:{self.port}"
        self.token = secrets.token_hex(16)
        config = tmp / "test_config.py"
        config.write_text(
            f"load_subconfig({str(CONFIG)!r})\n"
            "c.JupyterHub.services = [{'name': 'table-test', 'api_token': " + repr(self.token) + "}]\n"
            "c.JupyterHub.load_roles.append({'name': 'table-test', 'services': ['table-test'], "
            "'scopes': ['admin:users', 'admin:servers', 'tokens', 'access:servers']})\n",
            encoding="utf-8")
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("GAMEKERNEL_TABLE_")},
               "GAMEKERNEL_TABLE_GM_PASSWORD": GM_PASSWORD, "GAMEKERNEL_TABLE_PORT": str(self.port),
               "GAMEKERNEL_TABLE_HUB_PORT": str(_free_port()), "GAMEKERNEL_TABLE_PROXY_PORT": str(_free_port()),
               "GAMEKERNEL_TABLE_DIR": str(tmp / "table"),
               **{k: v.replace("{port}", str(self.port)) for k, v in extra_env.items()}, "PATH": os.pathsep.join(
                   [_require(), str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
        if os.geteuid() == 0:  # a container's root: the GM's server runs only when that is asked for
            env["GAMEKERNEL_TABLE_ALLOW_ROOT"] = "1"
        self.log = open(tmp / "hub.log", "wb")  # noqa: SIM115  (closed in stop)
        self.process = subprocess.Popen([str(Path(sys.executable).parent / "jupyterhub"), "-f", str(config)],
                                        cwd=tmp, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        self.tmp = tmp
        self._wait(lambda: _api(self.base, "/hub/api/", self.token), 90)

    def _wait(self, probe, seconds: float):
        deadline = time.monotonic() + seconds
        while True:
            try:
                return probe()
            except (OSError, urllib.error.URLError, ValueError, KeyError):  # KeyError: the server not listed yet
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError((self.tmp / "hub.log").read_text(errors="replace")[-4000:]) from None
                time.sleep(0.3)

    def start_gm_server(self) -> str:
        """Start the GM's server and return a token of the GM's own (the owner may do everything)."""
        try:
            _api(self.base, "/hub/api/users/gm/server", self.token, "POST", {})
        except urllib.error.HTTPError as error:
            assert error.code in (201, 202, 400), (self.tmp / "hub.log").read_text(errors="replace")[-3000:]
        self._wait(lambda: _api(self.base, "/hub/api/users/gm", self.token)["servers"][""]["ready"] or int("x"), 120)
        return _api(self.base, "/hub/api/users/gm/tokens", self.token, "POST", {"note": "table test"})["token"]

    def stop(self):
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.log.close()


async def _execute(base: str, token: str, kernel: str, code: str) -> None:
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
    while True:
        message = json.loads(await asyncio.wait_for(socket_.read_message(), 60))
        if message.get("parent_header", {}).get("msg_id") == msg_id and message["msg_type"] == "execute_reply":
            assert message["content"]["status"] == "ok", message["content"]
            break
    socket_.close()


def _gm_runs(base: str, token: str, kernel: str, code: str) -> None:
    """Run a cell in the GM's kernel (on a thread of its own: Playwright's sync API holds this one's loop)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _execute(base, token, kernel, code)).result()


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    _require()
    running = Hub(tmp_path_factory.mktemp("hub"))
    yield running
    running.stop()


def sign_up(page, hub: Hub, user: str, password: str) -> str:
    """A player's sign-up at /hub/signup; the page's answer."""
    page.goto(f"{hub.base}/hub/signup")
    page.fill("input[name=username]", user)
    page.fill("input[name=signup_password]", password)
    page.fill("input[name=signup_password_confirmation]", password)
    page.click("#signup_submit")
    page.wait_for_selector(".alert")
    return page.inner_text(".alert")



LOCKED = "Too many failed sign-ins"  # nativeauthenticator's words on its sign-in page
INVALID = "Invalid username or password"


def sign_in_outcome(page) -> str:
    """What the sign-in form answered: signed in, a wrong password, a locked account, or waiting."""
    text = page.inner_text("body") if "/hub/login" in page.url else ""
    if LOCKED in text:
        return "locked"
    if INVALID in text:
        return "invalid"
    return "waiting" if "waiting for the GM's approval" in text else f"signed in at {page.url}"


def sign_in(page, hub: Hub, user: str, password: str, then: str = "") -> str:
    """The sign-in form at /hub/login (going on to `then`, if given); the URL the browser lands on."""
    page.goto(f"{hub.base}/hub/login" + (f"?next={urllib.parse.quote(then)}" if then else ""))
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", password)
    page.click("input[type=submit], button[type=submit]")
    page.wait_for_load_state()
    return page.url


def gm_approves(browser, hub: Hub, *users: str) -> None:
    """The GM signs in and clicks "Authorize" for each player at /hub/authorize (nativeauthenticator)."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(20_000)
    sign_in(page, hub, "gm", GM_PASSWORD, then="/hub/authorize")
    for user in users:
        page.click(f"a[href$='authorize/{user}']:has-text('Authorize')")
        page.wait_for_selector(f"a[href$='authorize/{user}']:has-text('Unauthorize')")
    context.close()


def _player(browser, hub: Hub, user: str):
    context = browser.new_context()
    page = context.new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    page.set_default_timeout(20_000)
    assert "sent to the admin" in sign_up(page, hub, user, user + PASSWORD)  # the GM approves each sign-up
    gm_approves(browser, hub, user)
    sign_in(page, hub, user, user + PASSWORD)
    page.goto(f"{hub.base}/user/gm/gamekernel/table")
    if page.locator("text=Authorize access").count():  # the hub asks once: identify me to the GM's server
        page.locator("input[type=submit][value=Authorize], button:has-text('Authorize')").first.click()
    try:
        page.wait_for_function("(u) => document.getElementById('who')?.textContent.startsWith(u)", arg=user)
    except Exception:
        (ROOT / "test-artifacts").mkdir(exist_ok=True)
        page.screenshot(path=str(ROOT / "test-artifacts" / f"remote-{user}-failed.png"), full_page=True)
        log = (hub.tmp / "hub.log").read_text(errors="replace")
        raise AssertionError(f"{user}'s page at {page.url}: {page.inner_text('body')[:500]}\n{log[-6000:]}") from None
    return context, page, frames


def _quiet(page, *frame_lists: list[str], seconds: float = 1.0) -> None:
    """Wait until no frame has reached any of the pages for `seconds` (what was in flight has come)."""
    while True:
        counts = [len(f) for f in frame_lists]
        page.wait_for_timeout(seconds * 1000)
        if [len(f) for f in frame_lists] == counts:
            return


def _story_has(page, text: str, timeout: float = 10.0) -> float:
    """Wait until the page's story shows `text`; the seconds it took (the test waits for the state)."""
    start = time.monotonic()
    page.wait_for_function("(t) => document.body.innerText.includes(t)", arg=text, timeout=timeout * 1000)
    return time.monotonic() - start


def test_players_at_their_own_browsers_see_their_view_and_no_secret(hub):
    from playwright.sync_api import sync_playwright

    gm_token = hub.start_gm_server()
    kernel = _api(hub.base, "/user/gm/api/kernels", gm_token, "POST", {})["id"]
    setup = ("%load_ext gamekernel\n%seed 1\n%char new Aiko dx=12\n%char new Bren\n"
             "%table seat alice Aiko\n%table seat bob Bren\n%table serve")
    _gm_runs(hub.base, gm_token, kernel, setup)
    timings = {}
    with sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        alice_context, alice, alice_frames = _player(browser, hub, "alice")
        bob_context, bob, bob_frames = _player(browser, hub, "bob")
        # a player's own action, through the page's own buttons
        alice.fill("#spec", "DX")
        start = time.monotonic()
        alice.click("#check-typed")
        alice.wait_for_function("() => document.body.innerText.includes('Aiko tries DX')", timeout=10_000)
        timings["own action -> own view"] = time.monotonic() - start
        alice.wait_for_function("() => document.getElementById('reply').textContent.startsWith('Aiko')")
        _story_has(bob, "Aiko tries DX")  # the other player's view of it
        _quiet(alice, alice_frames, bob_frames)
        # the GM's secrets: no frame at all reaches a player, and no canary ever
        before = (len(alice_frames), len(bob_frames))
        secrets_cell = f"%roll 3d6 {CANARY} --secret\n%check Per --secret @Aiko\n%note {CANARY} --gm"
        _gm_runs(hub.base, gm_token, kernel, secrets_cell)
        alice.wait_for_timeout(1500)
        during = alice_frames[before[0]:] + bob_frames[before[1]:]
        assert (len(alice_frames), len(bob_frames)) == before, [f[:300] for f in during]
        # the GM's public roll reaches both
        _gm_runs(hub.base, gm_token, kernel, "%roll 3d6 public-stairs")
        timings["GM public roll (cell done) -> alice"] = _story_has(alice, "public-stairs")
        timings["GM public roll (cell done) -> bob"] = _story_has(bob, "public-stairs")
        # everything else on the GM's server is the GM's
        cookies = {c["name"]: c["value"] for c in alice_context.cookies()}
        header = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
        for path in ("api/contents", "api/kernels", "api/sessions", "api/terminals", f"api/kernels/{kernel}"):
            response = alice.request.get(f"{hub.base}/user/gm/{path}", headers=header)
            assert response.status == 403, (path, response.status)
        refused = alice.evaluate("""(url) => new Promise((done) => {
            const ws = new WebSocket(url); ws.onopen = () => done('open'); ws.onerror = () => done('refused');
            ws.onclose = () => done('refused'); })""",
            hub.base.replace("http", "ws") + f"/user/gm/api/kernels/{kernel}/channels")
        assert refused == "refused"
        for frames in (alice_frames, bob_frames):
            assert frames and not any(CANARY in f for f in frames)
        assert not any("Aiko tries Per" in f for f in bob_frames + alice_frames)
        (ROOT / "test-artifacts").mkdir(exist_ok=True)
        alice.screenshot(path=str(ROOT / "test-artifacts" / "remote-alice.png"), full_page=True)
        bob_context.close()
        alice_context.close()
        browser.close()
    print("remote table timings (s):", json.dumps({k: round(v, 3) for k, v in timings.items()}))
