"""Many tables on one hub, measured (README "Many tables on one hub"): a club's JupyterHub on this machine
(benchmarks/club_hub.py: the config `python -m gamekernel hub-config` writes, configurable-http-proxy),
tables started one after another up to K, each with its GM's server and kernel and PLAYERS simulated
players acting through the players' page API (an intent every INTERVAL seconds each, with their own
tokens), the tables already started still playing.

Reported for each K: memory of each table (the GM's server and its kernel: RSS, and PSS, which shares
the pages the processes have in common fairly), of the hub and of the proxy; the intent round trip
(sent until the GM's kernel's reply is back) percentiles of table 1 against table 1 alone, measured in
the same run; the sizing rule it implies for 50 tables. `GAMEKERNEL_BENCH_CLUB_TABLES` sets K (4),
`GAMEKERNEL_BENCH_CLUB_SECONDS` each step's length (20 s).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import psutil

from benchmarks.club_hub import ClubHub, proxy_folder
from benchmarks.report import Target, ms, table, targets

TABLES = int(os.environ.get("GAMEKERNEL_BENCH_CLUB_TABLES", "4"))
SECONDS = float(os.environ.get("GAMEKERNEL_BENCH_CLUB_SECONDS", "20"))
PLAYERS = 5  # a table's players
INTERVAL = 2.0  # seconds between a player's actions
TARGET_GB = 0.25  # a table's memory, at most (RSS of its server and kernel)
GB = 1024 ** 3
PASSWORD = "a simulated player's own 42 "


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def memory(pid: int, with_children: bool = True) -> tuple[int, int]:
    """(RSS, PSS) in bytes of process `pid` and, if asked, everything it started."""
    root = psutil.Process(pid)
    rss = pss = 0
    for process in [root, *(root.children(recursive=True) if with_children else [])]:
        try:
            info = process.memory_full_info()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        rss, pss = rss + info.rss, pss + getattr(info, "pss", info.rss)
    return rss, pss


def gm_servers(hub_pid: int) -> dict[str, int]:
    """GM name -> their single-user server's process id (the hub's children that JupyterHub named)."""
    found = {}
    for child in psutil.Process(hub_pid).children(recursive=False):
        try:
            user = child.environ().get("JUPYTERHUB_USER", "")
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        if user:
            found[user] = child.pid
    return found


class Player(threading.Thread):
    """A player acting every INTERVAL seconds at their table; each round trip kept with when it was sent."""

    def __init__(self, hub: ClubHub, gm: str, token: str, character: str, offset: float) -> None:
        super().__init__(daemon=True)
        self.hub, self.gm, self.token, self.character, self.offset = hub, gm, token, character, offset
        self.trips: list[tuple[float, float]] = []  # (sent at, seconds)
        self.failures = 0
        self.stopped = threading.Event()

    def run(self) -> None:
        self.stopped.wait(self.offset)
        while not self.stopped.is_set():
            start = time.monotonic()
            try:
                reply = self.hub.intent(self.gm, self.token, {"action": "check", "spec": "DX"})
                if reply.get("ok"):
                    self.trips.append((start, time.monotonic() - start))
                else:
                    self.failures += 1
            except OSError:
                self.failures += 1
            self.stopped.wait(max(0.0, INTERVAL - (time.monotonic() - start)))


def _open_table(hub: ClubHub, n: int) -> list[Player]:
    gm = hub.gms[n - 1]
    players = [f"t{n}p{i}" for i in range(1, PLAYERS + 1)]
    for player in players:
        hub.sign_up_and_in(player, PASSWORD + player)
    hub.start_server(gm)
    token = hub.token_for(gm)
    kernel = hub.kernel(gm, token)
    hub.cell(gm, token, kernel, "\n".join([
        "%load_ext gamekernel", "%seed 1", *(f"%char new C{i} dx=12" for i in range(len(players))),
        *(f"%table seat {p} C{i}" for i, p in enumerate(players)), "%table serve"]))
    for player in players:  # each invitation through the hub's API with the GM server's token, as a GM does
        hub.cell(gm, token, kernel, f"%table invite {player}")
    acting = [Player(hub, gm, hub.token_for(p), f"C{i}", INTERVAL * i / len(players)) for i, p in enumerate(players)]
    for player in acting:
        player.start()
    return acting


def _run() -> None:
    if proxy_folder() is None:
        print("configurable-http-proxy is missing (make chp): the club benchmark did not run")
        return
    with tempfile.TemporaryDirectory(prefix="gk-club-") as folder:
        hub = ClubHub(Path(folder), TABLES)
        try:
            _measure(hub)
        finally:
            hub.stop()


def _measure(hub: ClubHub) -> None:
    tables: dict[int, list[Player]] = {}
    rows, per_table, overhead, trips_of_one = [], [], [], {}
    for k in range(1, TABLES + 1):
        tables[k] = _open_table(hub, k)
        time.sleep(2.0)  # the new table's first actions are past
        start = time.monotonic()
        time.sleep(SECONDS)
        servers = gm_servers(hub.pids()["hub"])
        sizes = {gm: memory(pid) for gm, pid in servers.items()}
        hub_rss = memory(hub.pids()["hub"], with_children=False)[0]
        proxy_rss = memory(hub.pids()["proxy"])[0]
        trips = [s for p in tables[1] for at, s in p.trips if at >= start]
        trips_of_one[k] = trips
        everyone = [s for ps in tables.values() for p in ps for at, s in p.trips if at >= start]
        failures = sum(p.failures for ps in tables.values() for p in ps)
        largest = max(rss for rss, _ in sizes.values())
        per_table.append(largest)
        overhead.append(hub_rss + proxy_rss)
        rows.append([str(k), f"{largest / GB:.3f}", f"{statistics.mean(p for _, p in sizes.values()) / GB:.3f}",
                     f"{hub_rss / GB:.3f}", f"{proxy_rss / GB:.3f}",
                     f"{(hub_rss + proxy_rss + sum(r for r, _ in sizes.values())) / GB:.3f}",
                     ms(percentile(trips, 0.5)), ms(percentile(trips, 0.95)), ms(percentile(trips, 0.99)),
                     str(len(everyone)), str(failures)])
    for players in tables.values():
        for player in players:
            player.stopped.set()
    table(f"many tables on one hub ({PLAYERS} players a table, an action every {INTERVAL:g} s each, "
          f"{SECONDS:g} s a step; GB = 2^30 bytes)",
          ["tables K", "table RSS max (GB)", "table PSS mean (GB)", "hub RSS", "proxy RSS", "all RSS",
           "table 1 p50", "p95", "p99", "intents", "failed"], rows)
    alone, loaded = trips_of_one[1], trips_of_one[TABLES]
    worst = max(per_table)
    fixed = max(overhead)
    fifty = fixed + 50 * worst
    targets(f"many tables: goals (same run; table 1 alone vs with {TABLES} tables)", [
        Target("memory per table (RSS, largest)", f"{worst / GB:.3f} GB", "", "", f"<= {TARGET_GB} GB",
               worst <= TARGET_GB * GB),
        Target("table 1 intent p95", ms(percentile(loaded, 0.95)), f"alone {ms(percentile(alone, 0.95))}",
               f"{percentile(loaded, 0.95) / percentile(alone, 0.95):.2f}x", "report", None),
        Target("table 1 intent p50", ms(percentile(loaded, 0.5)), f"alone {ms(percentile(alone, 0.5))}",
               f"{percentile(loaded, 0.5) / percentile(alone, 0.5):.2f}x", "report", None),
        Target("hub + proxy", f"{fixed / GB:.3f} GB", f"at K=1 {overhead[0] / GB:.3f} GB",
               f"{fixed / overhead[0]:.2f}x", "report", None),
    ])
    print(f"sizing rule from this run: memory = hub and proxy {fixed / GB:.2f} GB + {worst / GB:.3f} GB a table "
          f"-> 50 tables {fifty / GB:.1f} GB (add 50% headroom: {1.5 * fifty / GB:.1f} GB); set each GM server's "
          f"memory limit to about {2 * worst / GB:.2f} GB")


def main(*_: Any) -> None:
    _run()


if __name__ == "__main__":
    main()
