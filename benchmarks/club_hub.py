"""A club's hub on this machine, for the live test (tests/remote_browser/test_hub_club_live.py) and the
capacity benchmark (bench_club.py): the config `python -m gamekernel hub-config` writes, JupyterHub and
configurable-http-proxy on free loopback ports, and the calls a club admin, a GM's notebook and a
player make: sign up and sign in (the hub's own forms), start a GM's server, run a GM's cell, send a
player's intent. A test service token (admin) only starts servers and hands out tokens; everything a GM
or a player does goes with their own credentials.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from gamekernel.remote.hub.club_cli import main as hub_config

ADMIN_PASSWORD = secrets.token_urlsafe(12)
BIN = Path(sys.executable).parent
CHP_DIRS = [Path(sys.prefix) / "node" / "node_modules" / ".bin"]


def proxy_folder() -> str | None:
    """Where configurable-http-proxy is (`make chp` puts it in the venv), or None."""
    for folder in CHP_DIRS:
        if (folder / "configurable-http-proxy").exists():
            return str(folder)
    found = shutil.which("configurable-http-proxy")
    return str(Path(found).parent) if found else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def api(base: str, path: str, token: str, method: str = "GET", body: Any = None, timeout: float = 60) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Authorization": f"token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        text = response.read()
    return json.loads(text) if text else {}


def status(url: str, token: str, method: str = "GET", body: bytes | None = None, timeout: float = 60) -> int:
    """The HTTP status `url` answers a request with `token` (no redirect followed; 0: connection closed
    without an answer; -1: no answer within `timeout` seconds)."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    request = urllib.request.Request(url, data=body, method=method, headers={"Authorization": f"token {token}"})
    try:
        with opener.open(request, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except TimeoutError:
        return -1
    except (ConnectionError, urllib.error.URLError) as error:
        return -1 if isinstance(getattr(error, "reason", None), TimeoutError) else 0


class ClubHub:
    """JupyterHub with `tables` tables (GMs gm-01 ..., groups table-01 ...) in `folder`."""

    def __init__(self, folder: Path, tables: int, *, cull_timeout: int = 0) -> None:
        self.folder = folder
        self.port, self.hub_port, self.proxy_port = free_port(), free_port(), free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.token = secrets.token_hex(16)
        self.gms = [f"gm-{n:02d}" for n in range(1, tables + 1)]
        argv = ["--tables", str(tables), "--port", str(self.port), "--hub-port", str(self.hub_port),
                "--proxy-port", str(self.proxy_port), "--state", str(folder / "state"),
                "--homes", str(folder / "homes"), "--cull-timeout", str(cull_timeout),
                "--output", str(folder / "club_config.py")]
        if os.geteuid() == 0:  # a container's root (CI): the GMs' servers run only when that is asked for
            argv.append("--allow-root")
        if hub_config(argv) != 0:
            raise RuntimeError(f"hub-config refused {argv}")
        (folder / "test_config.py").write_text(
            f"load_subconfig({str(folder / 'club_config.py')!r})\n"
            "c.JupyterHub.services.append({'name': 'club-test', 'api_token': " + repr(self.token) + "})\n"
            "c.JupyterHub.load_roles.append({'name': 'club-test', 'services': ['club-test'], "
            "'scopes': ['admin:users', 'admin:servers', 'tokens', 'read:groups', 'read:roles']})\n",
            encoding="utf-8")
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    # -- the hub process ---------------------------------------------------------------------------

    def start(self) -> None:
        chp = proxy_folder()
        if chp is None:
            raise RuntimeError("configurable-http-proxy is missing (make chp)")
        env = {**{k: v for k, v in os.environ.items() if not k.startswith(("GAMEKERNEL_", "JUPYTERHUB_"))},
               "GAMEKERNEL_HUB_ADMIN_PASSWORD": ADMIN_PASSWORD,
               "PATH": os.pathsep.join([chp, str(BIN), os.environ.get("PATH", "")])}
        self.log = open(self.folder / "hub.log", "ab")  # noqa: SIM115  (closed in stop)
        self.process = subprocess.Popen([str(BIN / "jupyterhub"), "-f", str(self.folder / "test_config.py")],
                                        cwd=self.folder, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        self.wait(lambda: self.admin("/hub/api/"), 120)

    def stop(self) -> None:
        """Stop the hub (it stops the GMs' servers and the proxy, as on a machine's shutdown)."""
        if self.process is None:
            return
        try:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=20)
        self.process = None
        self.log.close()

    def tail(self, chars: int = 6000) -> str:
        """The hub's log, less this harness's own polling."""
        lines = (self.folder / "hub.log").read_text(errors="replace").splitlines()
        return "\n".join(line for line in lines if "(club-test@" not in line)[-chars:]

    def wait(self, probe: Callable[[], Any], seconds: float) -> Any:
        deadline = time.monotonic() + seconds
        while True:
            try:
                return probe()
            except (OSError, urllib.error.URLError, ValueError, KeyError):
                dead = self.process is None or self.process.poll() is not None
                if time.monotonic() > deadline or dead:
                    raise RuntimeError(self.tail()) from None
                time.sleep(0.3)

    def pids(self) -> dict[str, int]:
        """The hub's and the proxy's process ids."""
        assert self.process is not None
        proxy = int((self.folder / "state" / "proxy.pid").read_text().strip())
        return {"hub": self.process.pid, "proxy": proxy}

    # -- as the club's test service (admin) ---------------------------------------------------------

    def admin(self, path: str, method: str = "GET", body: Any = None) -> Any:
        return api(self.base, path, self.token, method, body)

    def token_for(self, user: str) -> str:
        """A token of `user`'s own (the scopes they hold, nothing more)."""
        return str(self.admin(f"/hub/api/users/{user}/tokens", "POST", {"note": "club test"})["token"])

    def start_server(self, gm: str, seconds: float = 180) -> None:
        try:
            self.admin(f"/hub/api/users/{gm}/server", "POST", {})
        except urllib.error.HTTPError as error:
            if error.code not in (201, 202, 400):
                raise RuntimeError(self.tail()) from None

        def ready() -> bool:
            if not self.admin(f"/hub/api/users/{gm}")["servers"][""]["ready"]:
                raise ValueError("not yet")
            return True

        self.wait(ready, seconds)

    def members(self, group: str) -> list[str]:
        return sorted(self.admin(f"/hub/api/groups/{group}")["users"])

    # -- as a player, through the hub's own forms ---------------------------------------------------

    def sign_up_and_in(self, user: str, password: str) -> None:
        """Sign up at /hub/signup and sign in at /hub/login, as a browser does (cookies and XSRF)."""
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

        def form(path: str, fields: dict[str, str]) -> str:
            with opener.open(self.base + path, timeout=60) as page:
                page.read()
            xsrf = next(c.value for c in jar if c.name == "_xsrf")
            data = urllib.parse.urlencode({**fields, "_xsrf": xsrf}).encode()
            with opener.open(urllib.request.Request(self.base + path, data=data), timeout=60) as answer:
                return str(answer.url) + "\n" + answer.read().decode(errors="replace")

        signed_up = form("/hub/signup", {"username": user, "signup_password": password,
                                         "signup_password_confirmation": password})
        if "alert-success" not in signed_up:  # open sign-up: in at once (reaching no table until invited)
            said = signed_up.split('role="alert">', 1)[-1].split("</div>", 1)[0].strip()
            raise RuntimeError(f"{user}'s sign-up was refused: {said[:300]}")
        landed = form("/hub/login", {"username": user, "password": password}).split("\n", 1)[0]
        if not landed.endswith("/hub/home") or not any(c.name == "jupyterhub-hub-login" for c in jar):
            raise RuntimeError(f"{user} could not sign in: landed on {landed}")

    def intent(self, gm: str, token: str, intent: dict[str, Any]) -> dict[str, Any]:
        # the server answers within its REPLY_TIMEOUT (bridge.py: 120 s, "still waits" after that)
        answer = api(self.base, f"/user/{gm}/gamekernel/table/api/intent", token, "POST", intent, timeout=150)
        return dict(answer["reply"])

    # -- as a GM, in their notebook -------------------------------------------------------------------

    def kernel(self, gm: str, token: str) -> str:
        return str(api(self.base, f"/user/{gm}/api/kernels", token, "POST", {})["id"])

    def cell(self, gm: str, token: str, kernel: str, code: str) -> str:
        """Run `code` in the GM's kernel (a thread of its own: a caller may hold an event loop); its text."""
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, _execute(self.base, gm, token, kernel, code)).result()


async def _execute(base: str, gm: str, token: str, kernel: str, code: str) -> str:
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    url = base.replace("http", "ws", 1) + f"/user/{gm}/api/kernels/{kernel}/channels"
    link = await websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {token}"}))
    msg_id = uuid.uuid4().hex
    link.write_message(json.dumps({
        "header": {"msg_id": msg_id, "msg_type": "execute_request", "session": uuid.uuid4().hex, "username": gm,
                   "version": "5.3", "date": "2026-01-01T00:00:00Z"},
        "parent_header": {}, "metadata": {}, "channel": "shell",
        "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                    "allow_stdin": False, "stop_on_error": True}}))
    texts: list[str] = []
    replied = idle = False  # the shell's reply and iopub's idle arrive in either order: both end the cell
    while not (replied and idle):
        message = json.loads(await asyncio.wait_for(link.read_message(), 120))
        if message.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        content = message["content"]
        if message["msg_type"] == "stream":
            texts.append(content["text"])
        elif message["msg_type"] in ("execute_result", "display_data"):
            texts.append(content["data"].get("text/plain", "") + "\n")
        elif message["msg_type"] == "status":
            idle = content["execution_state"] == "idle"
        elif message["msg_type"] == "execute_reply":
            if content["status"] != "ok":
                raise RuntimeError(f"the GM's cell failed: {content}")
            replied = True
    link.close()
    return "".join(texts)
