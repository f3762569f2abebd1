"""The players' table under load, end to end: a Jupyter server with the table extension, the GM's
notebook connection (the kernel websocket, as the GM's browser holds it), 32 players' pages (the
table's websocket) and one hostile player flooding it.

Phases, in one run: idle (the GM's cells with nobody connected), 32 players x 1 action every 2 s,
32 x 1 a second (each with the hostile player sending 16 at a time, without pause), then the GM's
cells again with nobody connected. Counted: actions recorded twice, actions lost (sent, never
recorded or never answered), false "restarted" answers (all three must be 0); own view p95 (an
action sent until the player's view shows it) and GM cell p95, as ratios to the same run's idle
cells; bytes the GM's browser receives per GM event, and each player per event against a whole
view's size. `GAMEKERNEL_BENCH_REMOTE_SECONDS` sets each loaded phase's length (60 s by default).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from jupyter_server.auth.identity import IdentityProvider, User

from benchmarks.report import Target, ms, table, targets

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = [f"p{n}" for n in range(32)]
HOSTILE = "eve"
SECONDS = float(os.environ.get("GAMEKERNEL_BENCH_REMOTE_SECONDS", "60"))
GM_CELLS = 20  # the GM's cells in each quiet phase
SETUP = "\n".join(["%load_ext gamekernel", "%seed 1",
                   *(f"%char new C{n} dx=12" for n in range(len(PLAYERS) + 1)),
                   *(f"%table seat {u} C{n}" for n, u in enumerate([*PLAYERS, HOSTILE])),
                   "%table serve"])


class HeaderIdentity(IdentityProvider):
    """The signed-in user is the `X-Test-User` header (this benchmark's server only)."""

    def get_user(self, handler: Any) -> User | None:
        name = handler.request.headers.get("X-Test-User")
        return User(username=name) if name else None


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else float("nan")


class Server:
    """A Jupyter server in a process of its own, configured like the table tests' one."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="gk-bench-"))
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        config = {"ServerApp": {"jpserver_extensions": {"gamekernel.remote.server": True},
                                "identity_provider_class": "benchmarks.bench_remote_load.HeaderIdentity",
                                "authorizer_class": "gamekernel.remote.auth.PlayersAuthorizer",
                                "disable_check_xsrf": True, "open_browser": False, "root_dir": str(self.folder)},
                  "PlayersAuthorizer": {"gm": "gm"}}
        (self.folder / "jupyter_server_config.json").write_text(json.dumps(config))
        env = {**os.environ, "JUPYTER_CONFIG_DIR": str(self.folder), "JUPYTER_RUNTIME_DIR": str(self.folder / "rt"),
               "PYTHONPATH": os.pathsep.join([os.environ.get("PYTHONPATH", ""), str(ROOT)])}
        self.log = open(self.folder / "server.log", "wb")  # noqa: SIM115 - open for the server's life
        self.process = subprocess.Popen([sys.executable, "-m", "jupyter_server", f"--port={self.port}",
                                         "--ip=127.0.0.1", "--allow-root"], cwd=ROOT, env=env, stdout=self.log,
                                        stderr=subprocess.STDOUT)
        self.base = f"127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


async def _fetch(server: Server, path: str, user: str = "gm", method: str = "GET", body: str | None = None) -> Any:
    from tornado.httpclient import AsyncHTTPClient

    response = await AsyncHTTPClient().fetch(f"http://{server.base}/{path}", method=method, body=body,
                                             headers={"X-Test-User": user}, raise_error=False)
    return response


async def _socket(server: Server, path: str, user: str, on_message: Any) -> Any:
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    request = HTTPRequest(f"ws://{server.base}/{path}", headers={"X-Test-User": user})
    return await websocket_connect(request, on_message_callback=on_message, max_message_size=64 << 20)


class Notebook:
    """The GM's browser: the kernel websocket; every byte it receives is counted."""

    def __init__(self) -> None:
        self.bytes = 0
        self.replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.printed: dict[str, list[str]] = {}
        self.ws: Any = None

    async def open(self, server: Server, kernel: str) -> None:
        self.ws = await _socket(server, f"api/kernels/{kernel}/channels", "gm", self.on_message)

    def on_message(self, raw: Any) -> None:
        if raw is None:
            return
        self.bytes += len(raw)
        msg = json.loads(raw)
        parent = (msg.get("parent_header") or {}).get("msg_id")
        if msg.get("msg_type") == "stream" and parent in self.printed:
            self.printed[parent].append(msg["content"]["text"])
        if msg.get("channel") == "shell" and msg.get("msg_type") == "execute_reply" and parent in self.replies:
            self.replies.pop(parent).set_result(msg)

    async def run(self, code: str) -> tuple[float, str]:
        """Run a cell; (seconds until its reply, what it printed)."""
        number = uuid.uuid4().hex
        future = self.replies[number] = asyncio.get_running_loop().create_future()
        self.printed[number] = []
        header = {"msg_id": number, "msg_type": "execute_request", "username": "gm", "session": "bench",
                  "date": "", "version": "5.3"}
        started = time.perf_counter()
        await self.ws.write_message(json.dumps({
            "header": header, "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": False, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}))
        reply = await asyncio.wait_for(future, 600)
        assert reply["content"]["status"] == "ok", reply["content"]
        return time.perf_counter() - started, "".join(self.printed.pop(number))


class Player:
    """One player's page: sends an action every `period` s; times each until its own view shows it."""

    def __init__(self, user: str, period: float) -> None:
        self.user, self.period = user, period
        self.tag = f"{user}_{period:g}".replace(".", "h")
        self.bytes = 0
        self.sent: dict[str, float] = {}  # label -> when sent
        self.answered: dict[str, dict[str, Any]] = {}
        self.seen: dict[str, float] = {}  # label -> seconds until the view showed it
        self.by_cid: dict[str, str] = {}
        self.ws: Any = None
        self.viewed = asyncio.Event()

    def on_message(self, raw: Any) -> None:
        if raw is None:
            return
        self.bytes += len(raw)
        message = json.loads(raw)
        if message.get("type") == "view":
            self.viewed.set()
            text = json.dumps(message["view"].get("story", []))
            for label, when in self.sent.items():
                if label not in self.seen and label in text:
                    self.seen[label] = time.perf_counter() - when
        elif message.get("type") == "reply":
            reply = message["reply"]
            label = self.by_cid.get(str(reply.get("cid")))
            if label is not None and not reply.get("waiting"):
                self.answered[label] = reply

    async def act(self, label: str) -> None:
        cid = uuid.uuid4().hex
        self.by_cid[cid] = label
        self.sent[label] = time.perf_counter()
        await self.ws.write_message(json.dumps({"action": "roll", "dice": f"1d6 {label}", "cid": cid}))

    async def play(self, until: float) -> None:
        await asyncio.sleep(random.uniform(0, self.period))
        n = 0
        while time.perf_counter() < until:
            await self.act(f"{self.tag}_{n}_")  # the last _ ends it: p1_2_1_ is not inside p1_2_10_
            n += 1
            await asyncio.sleep(self.period)


class Hostile(Player):
    """Sends 16 actions at a time, without pause, as fast as the answers come back."""

    async def play(self, until: float) -> None:
        n = 0
        while time.perf_counter() < until:
            batch = []
            for _ in range(16):
                label = f"{self.tag}_{n}_"
                batch.append(label)
                n += 1
                await self.act(label)
            deadline = time.perf_counter() + 2.0
            while time.perf_counter() < deadline and not all(b in self.answered for b in batch):
                await asyncio.sleep(0.02)


async def _quiet(gm: Notebook, name: str) -> tuple[list[float], float]:
    """The GM's cells with nobody connected: their times and the bytes the GM's browser got per cell."""
    times, before = [], gm.bytes
    for n in range(GM_CELLS):
        seconds, _ = await gm.run(f"%roll 3d6 gm-{name}-{n}")
        times.append(seconds)
        await asyncio.sleep(0.1)
    return times, (gm.bytes - before) / GM_CELLS


async def _loaded(server: Server, gm: Notebook, period: float) -> dict[str, Any]:
    players = [Player(u, period) for u in PLAYERS]
    hostile = Hostile(HOSTILE, 0.0)
    hostile.tag = f"{HOSTILE}_{period:g}".replace(".", "h")  # its labels are this phase's own
    for page in [*players, hostile]:
        page.ws = await _socket(server, "gamekernel/table/api/socket", page.user, page.on_message)
    await asyncio.wait_for(asyncio.gather(*(p.viewed.wait() for p in [*players, hostile])), 120)
    gm_before, until = gm.bytes, time.perf_counter() + SECONDS
    tasks = [asyncio.ensure_future(p.play(until)) for p in [*players, hostile]]
    cells: list[float] = []
    n = 0
    while time.perf_counter() < until:
        seconds, _ = await gm.run(f"%roll 3d6 gm-load-{period}-{n}")
        cells.append(seconds)
        n += 1
        await asyncio.sleep(1.0)
    await asyncio.gather(*tasks)
    deadline = time.perf_counter() + 60  # the answers still on their way
    while time.perf_counter() < deadline and any(len(p.answered) < len(p.sent) for p in players):
        await asyncio.sleep(0.1)
    for page in [*players, hostile]:
        page.ws.close()
    events = sum(len(p.sent) for p in players) + n  # what changed every player's story
    return {"players": players, "hostile": hostile, "cells": cells, "gm_bytes": gm.bytes - gm_before,
            "events": events, "gm_events": n}


async def _run() -> None:
    server = Server()
    gm = Notebook()
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if (await _fetch(server, "api/status")).code == 200:
                    break
            except OSError:  # not listening yet
                pass
            if time.monotonic() > deadline or server.process.poll() is not None:
                raise RuntimeError(f"the Jupyter server did not start: {server.folder / 'server.log'}")
            await asyncio.sleep(0.2)
        kernel = json.loads((await _fetch(server, "api/kernels", method="POST", body="{}")).body)["id"]
        await gm.open(server, kernel)
        await gm.run(SETUP)
        view = json.loads((await _fetch(server, "gamekernel/table/api/view", "p0")).body)["view"]
        idle, idle_bytes = await _quiet(gm, "idle")
        phases = {period: await _loaded(server, gm, period) for period in (2.0, 1.0)}
        await asyncio.sleep(2.0)  # the pages' closing told to the kernel
        after, after_bytes = await _quiet(gm, "after")
        _, printed = await gm.run("import json as _j\nfrom gamekernel.magic_base import current_session as _cs\n"
                                  "print(_j.dumps([e.data['result'].get('label') for e in _cs().log"
                                  " if e.kind == 'roll']))")
        view_size = len(json.dumps(json.loads((await _fetch(server, "gamekernel/table/api/view", "p0")).body)["view"]))
        await _fetch(server, f"api/kernels/{kernel}", method="DELETE")
    finally:
        if gm.ws is not None:
            gm.ws.close()
        server.stop()
    lines = printed.strip().splitlines()  # the recorded labels (none printed: every action counts as lost)
    _report(json.loads(lines[-1]) if lines else [], phases, idle, idle_bytes, after, after_bytes,
            view_size, len(json.dumps(view)))


def _report(labels: list[str], phases: dict[float, dict[str, Any]], idle: list[float], idle_bytes: float,
            after: list[float], after_bytes: float, view_size: int, first_view: int) -> None:
    recorded: dict[str, int] = {}
    for label in labels:
        recorded[label] = recorded.get(label, 0) + 1
    rows = []
    base = p95(idle)
    for period, phase in phases.items():
        players: list[Player] = phase["players"]
        hostile: Hostile = phase["hostile"]
        sent = [label for p in players for label in p.sent]
        duplicates = sum(1 for label in sent + list(hostile.sent) if recorded.get(label, 0) > 1)
        lost = sum(1 for p in players for label in p.sent
                   if label not in p.answered or (p.answered[label].get("ok") and recorded.get(label, 0) != 1))
        restarts = sum(1 for p in [*players, hostile] for r in p.answered.values() if "restarted" in r.get("text", ""))
        own = [s for p in players for s in p.seen.values()]
        refused = sum(1 for r in hostile.answered.values() if not r.get("ok"))
        per_player = statistics.mean(p.bytes for p in players) / max(1, phase["events"])
        name = f"32 x 1/{period:g}s"
        rows.append([name, str(len(sent)), str(duplicates), str(lost), str(restarts), ms(p95(own)),
                     f"{p95(phase['cells']) / base:.1f}x", f"{len(hostile.sent)} ({refused} refused)",
                     f"{phase['gm_bytes'] / max(1, phase['gm_events']):.0f}", f"{per_player:.0f}"])
    table(f"the players' table under load ({SECONDS:g} s a phase; idle GM cell p95 {ms(base)})",
          ["phase", "actions", "twice", "lost", "restarted", "own view p95", "GM cell p95 / idle",
           "hostile sent", "GM bytes / GM cell", "player bytes / event"], rows)
    first = phases[2.0]
    own = [s for p in first["players"] for s in p.seen.values()]
    targets("the players' table: goals (32 x 1/2s, same run's idle figures)", [
        Target("actions twice / lost / restarted", rows[0][2] + " / " + rows[0][3] + " / " + rows[0][4],
               "", "", "0 / 0 / 0", rows[0][2:5] == ["0", "0", "0"]),
        Target("own view p95", ms(p95(own)), "", "", "<= 1 s", p95(own) <= 1.0),
        Target("GM cell p95 during load", ms(p95(first["cells"])), f"idle {ms(base)}",
               f"{p95(first['cells']) / base:.1f}x", "<= 3x", p95(first["cells"]) / base <= 3),
        Target("GM cell p95 after load", ms(p95(after)), f"idle {ms(base)}", f"{p95(after) / base:.1f}x", "<= 3x",
               p95(after) / base <= 3),
        Target("bytes to the GM's browser per GM cell", f"{after_bytes:.0f}", f"idle {idle_bytes:.0f}",
               f"{after_bytes / idle_bytes:.1f}x", "<= 1.5x", after_bytes / idle_bytes <= 1.5),
        Target("bytes to a player per event", rows[0][9], f"a whole view {view_size} (first {first_view})",
               f"{float(rows[0][9]) / view_size:.2f}x", "< 1x", float(rows[0][9]) < view_size),
    ])


def main() -> None:
    asyncio.run(_run())


if __name__ == "__main__":
    main()
