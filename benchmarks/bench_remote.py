"""The remote table's costs, each against a plain comm round trip to the same kernel in the same run.

A real kernel (ipykernel, through jupyter_client) holds a table with 8 seated players:
- intent -> own view: a player's action sent on the table's comm until its reply and that player's new
  view are back, against a comm message echoed by a bare comm target in the same kernel;
- public event -> 8 players' views: a public roll run in the kernel until all 8 views have arrived,
  against the same echo (plus an empty cell, the floor of running any cell);
- projection cost per event against the number of players (in process): what the kernel computes for
  each event, public table plus every watched player's view, as a cost curve.
"""

from __future__ import annotations

import queue
import statistics
import time
import uuid

from benchmarks.report import Target, curve, ms, targets

ROUNDS = 30
PLAYERS = [f"p{n}" for n in range(8)]
SETUP = "\n".join(["%load_ext gamekernel", "%seed 1",
                   *(f"%char new C{n} dx=12" for n in range(8)),
                   *(f"%table seat p{n} C{n}" for n in range(8))])
ECHO = """
def _echo_target(comm, msg):
    comm.on_msg(lambda m: comm.send(m["content"]["data"]))
get_ipython().kernel.comm_manager.register_target("bench.echo", _echo_target)
"""


class Kernel:
    """A kernel, a client and two comms opened from the client side (the table and an echo)."""

    def __init__(self) -> None:
        from jupyter_client.manager import start_new_kernel

        self.manager, self.client = start_new_kernel(kernel_name="python3")
        self.run(SETUP)
        self.run(ECHO)
        self.table = self.open("gamekernel.table")
        self.echo = self.open("bench.echo")
        self.wait(lambda m: m.get("type") == "ready", self.table)
        self.send(self.table, {"type": "watch", "users": PLAYERS})
        self.collect(self.table, lambda got: sum(1 for m in got if m.get("type") == "view") >= len(PLAYERS))

    def run(self, code: str) -> None:
        reply = self.client.execute_interactive(code, timeout=60, output_hook=lambda msg: None)
        assert reply["content"]["status"] == "ok", reply["content"]

    def open(self, target: str) -> str:
        comm = uuid.uuid4().hex
        msg = self.client.session.msg("comm_open", {"comm_id": comm, "target_name": target, "data": {}})
        self.client.shell_channel.send(msg)
        return comm

    def send(self, comm: str, data: dict) -> None:
        self.client.shell_channel.send(self.client.session.msg("comm_msg", {"comm_id": comm, "data": data}))

    def collect(self, comm: str, done, timeout: float = 30.0) -> list[dict]:
        """The comm's messages until `done`: the table's come on the shell channel (to this client
        alone), the echo's on iopub; both are read, alike."""
        got: list[dict] = []
        deadline = time.monotonic() + timeout
        while not done(got):
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout} s for the comm {comm}")
            for get in (self.client.get_shell_msg, self.client.get_iopub_msg):
                try:
                    msg = get(timeout=0.002)
                except queue.Empty:
                    continue
                if msg["msg_type"] == "comm_msg" and msg["content"]["comm_id"] == comm:
                    got.append(msg["content"]["data"])
        return got

    def wait(self, predicate, comm: str) -> None:
        self.collect(comm, lambda got: any(predicate(m) for m in got))

    def stop(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


def _timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def round_trips(kernel: Kernel) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"echo": [], "intent": [], "cell": [], "public": []}
    for n in range(ROUNDS):  # alternated, so a slow moment of the machine hits every kind alike
        times["echo"].append(_timed(lambda n=n: (kernel.send(kernel.echo, {"n": n}),
                                                 kernel.collect(kernel.echo, lambda got: bool(got)))))

        def intent(n: int = n) -> None:
            kernel.send(kernel.table, {"type": "intent", "id": str(n), "user": "p0",
                                       "intent": {"action": "roll", "dice": "3d6"}})
            kernel.collect(kernel.table, lambda got: any(m.get("type") == "reply" for m in got)
                           and any(m.get("type") == "view" and m.get("user") == "p0" for m in got))

        times["intent"].append(_timed(intent))
        times["cell"].append(_timed(lambda: kernel.run("pass")))

        def public(n: int = n) -> None:
            kernel.client.execute(f"%roll 3d6 public-{n}")
            kernel.collect(kernel.table, lambda got: len({m.get("user") for m in got
                                                           if m.get("type") == "view"}) >= len(PLAYERS))

        times["public"].append(_timed(public))
    return times


def projection_curve() -> None:
    from gamekernel import Session
    from gamekernel.remote.projection import Audience, PublicTable
    from gamekernel.remote.views import view

    sizes, costs = [1, 2, 4, 8, 16, 32], []
    for players in sizes:
        s = Session(seed=1)
        for n in range(players):
            s.gurps.char_new(f"C{n}", dx=12)
            s.seats.seat(f"p{n}", f"C{n}")
        table = PublicTable(s)
        audiences = [Audience.player(f"p{n}") for n in range(players)]
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(20):
                s.roll("3d6")
                for audience in audiences:
                    view(s, audience, table)
            best = min(best, (time.perf_counter() - start) / 20)
        costs.append(best)
    curve("projection per public event: the public table and every player's view (in process)",
          "players", sizes, costs, 1.0, "linear in the players (one view each)")


def main() -> None:
    kernel = Kernel()
    try:
        times = round_trips(kernel)
    finally:
        kernel.stop()
    echo, intent = statistics.median(times["echo"]), statistics.median(times["intent"])
    cell, public = statistics.median(times["cell"]), statistics.median(times["public"])
    floor = echo + cell
    targets(f"remote table (median of {ROUNDS} alternated rounds, one kernel)", [
        Target("intent -> reply + own view", ms(intent), f"plain comm round trip {ms(echo)}",
               f"{intent / echo:.1f}x", "<= 10x", intent / echo <= 10),
        Target("GM public roll -> 8 players' views", ms(public),
               f"comm round trip + empty cell {ms(floor)}", f"{public / floor:.1f}x", "<= 10x", public / floor <= 10),
    ])
    projection_curve()


if __name__ == "__main__":
    main()
