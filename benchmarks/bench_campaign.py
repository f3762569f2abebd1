"""Opening a campaign with 100,000 events (the campaign log): with its snapshot, and by full replay.

The campaign is written once in a temporary folder by live play of every rule set (GURPS checks
and damage, fights turn by turn, Gamma World encounters with draws, taps and flux, MtG checks,
boosts and scenes, dice rolls, notes), then opened in fresh processes, with bytecode caches on as
for any installed package. An absolute time on a shared CPU is no target: `campaign_open` with the
snapshot is compared with its floor measured in the same run - reading the campaign's files and
`json.loads` of the same log bytes (as one array, the collector paused, as the open does), which any
open must do. Each is a cold figure, once in each of pyperf's fresh worker processes
(`benchmarks.harness.once`, CPU time), the row the ratio of their medians. What a GM waits for in a
fresh kernel (with the import of the rule sets and `Session()`, wall clock) is shown beside;
`%load_ext` has its own row in bench_core. A last table times each rule set's reducers in one full
replay, against the decoding of the same events' lines.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path

EVENTS = 100_000

_OPEN = r"""
import json, sys, time
t0 = time.perf_counter()
from gamekernel import Session
session = Session()
if sys.argv[2] == "replay":
    (__import__("pathlib").Path(sys.argv[1]) / "snapshot.json").unlink(missing_ok=True)
status = session.campaign_open(sys.argv[1])
t1 = time.perf_counter()
session.campaign_close() if sys.argv[2] == "snapshot" else None
print(json.dumps({"seconds": t1 - t0, "events": len(session.log)}))
"""


DECKLIST = """Deck
4 Elvish Mystic
4 Runeclaw Bear
4 Serra Angel
4 Ornithopter
2 Lightning Bolt
2 Counterspell
12 Forest
4 Plains
"""


def build(folder: Path, events: int = EVENTS) -> dict[str, int]:
    """Fill a campaign with `events` events of live play, a mix of every rule set; returns the kinds."""
    from collections import Counter

    from gamekernel import Session

    session = Session(seed=1)
    session.campaign_open(folder)
    # This benchmark measures opening, not writing: without this, building 100k events would spend
    # its time waiting for the disk to sync each event (about 1 ms each here).
    session.campaign.current_log.fsync = False
    table = _Table(session)
    makers = table.makers()
    i = 0
    while len(session.log) < events:
        makers[i % len(makers)](i)
        i += 1
    kinds = Counter(e.kind.split(".")[0] for e in session.log)
    session.campaign_close()
    return dict(kinds)


class _Table:
    """A long campaign in miniature: GURPS checks and damage, fights turn by turn, Gamma World
    encounters (draws, taps, flux), MtG checks and boosts, rolls and notes - always something legal."""

    def __init__(self, session):
        self.s = session
        s = session
        s.gurps.char_new("Aiko", st=11, dx=13, iq=12, ht=11, skills=[("Lockpicking", 1, 9), ("Stealth", 4)],
                   traits=["Combat Reflexes"])
        s.gurps.char_new("Guard", st=11, iq=10, dr=1, activate=False)
        s.combat.npc("Orc", "ST=12 DX=11 HT=12 HP=18 weapon=Club:11:sw cr")
        s.combat.npc("Guardsman", "ST=11 DX=12 HT=12 HP=16 weapon=Broadsword:13:sw cut shield=12 side=pcs")
        s.gw.character("Rin", level=4, new=True)
        s.gw.draw("Rin")
        s.mtg.library_load("Mira", "forest-friends.txt", text=DECKLIST)

    def makers(self):
        s = self.s
        return [
            lambda i: s.roll("3d6+2 attack"),
            lambda i: s.gurps.check("Stealth" if i % 3 else "Lockpicking-5 dark", secret=i % 7 == 0),
            self.fight,
            lambda i: s.mtg.check(("green", "white", "colorless")[i % 3], 1 + i % 4, actor="Mira"),
            self.fight,
            self.encounter,
            lambda i: s.note(f"note {i}: the party presses on", gm_only=i % 5 == 0),
            lambda i: s.gurps.damage("1d+1 cut", target="Guard", secret=i % 4 == 0),
            self.fight,
            lambda i: s.roll("1d20+4", actor="Rin"),
            self.encounter,
            self.mtg_extra,
        ]

    def fight(self, i: int) -> None:
        """One combat step: start, attack, defend, next turn; end when someone falls."""
        from gamekernel.errors import GameKernelError

        s = self.s
        fight = s.combat.state
        if fight is None or fight.over:
            s.combat.start("Guardsman*2 Orc*2")
            return
        try:
            if fight.pending is not None:
                s.combat.defend(fight.pending.target)
            elif any(c.hp <= 0 or c.unconscious or c.dead for c in fight.combatants):
                s.combat.end()
            elif fight.current.chosen:
                s.combat.next()
            elif i // 12 % 7 == 3:
                s.combat.damage(fight.current.name, "1d cr")
            else:
                me = fight.current
                foe = next(c for c in fight.combatants if c.side != me.side)
                s.combat.attack(me.name, foe.name, me.weapons[0].name)
        except GameKernelError:
            s.combat.end()

    def encounter(self, i: int) -> None:
        """Gamma World: start an encounter, tap a readied card, resolve a flux, end it (new draws)."""
        from gamekernel.errors import GameKernelError

        s = self.s
        gw = s.gw.state
        if gw.flux:
            s.gw.flux("Rin", self._readied()[0])
        elif not gw.encounter:
            s.gw.encounter_start()
        else:
            pairs = zip(self._readied(), gw.readied("Rin"), strict=True)
            untapped = [name for name, uid in pairs if not gw.table.card(uid).tapped]
            try:
                if untapped and i % 4:
                    s.gw.tap("Rin", untapped[0])
                    return
            except GameKernelError:
                pass
            s.gw.encounter_end()

    def _readied(self) -> list[str]:
        gw = self.s.gw.state
        return [gw.catalog.card(gw.table.card(uid).def_id).name for uid in gw.readied("Rin")]

    def mtg_extra(self, i: int) -> None:
        """A boost after a check, a new scene, or a reshuffle of the exiled cards."""
        from gamekernel.errors import GameKernelError

        s = self.s
        try:
            (s.mtg.boost, lambda actor: s.mtg.scene(), s.mtg.library_reset)[(i // 12) % 3]("Mira")
        except GameKernelError:
            s.mtg.scene()


_OPEN_ONLY = r"""
import json, sys, time
from gamekernel import Session
session = Session()
if sys.argv[2] == "replay":
    (__import__("pathlib").Path(sys.argv[1]) / "snapshot.json").unlink(missing_ok=True)
t0 = time.process_time()
session.campaign_open(sys.argv[1])
t1 = time.process_time()
session.campaign_close()
print(json.dumps({"seconds": t1 - t0, "events": len(session.log)}))
"""


# as installed: pip writes bytecode caches at install (a source checkout writes them on first import)
_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def _open_only(folder: Path, mode: str) -> float:
    """CPU seconds of `open_campaign` alone in a fresh process (imports excluded; the CPU time of that
    process, which other work on a shared machine does not add to); closing writes a snapshot."""
    out = subprocess.run([sys.executable, "-c", _OPEN_ONLY, str(folder), mode], capture_output=True, text=True,
                         check=True, env=_ENV)
    return json.loads(out.stdout)["seconds"]


def _prefix(source: Path, target: Path, events: int) -> None:
    """A campaign holding the first `events` events of `source` (every prefix of a log is a valid
    history), without a snapshot or readable state files (they name a later event)."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(".lock", "snapshot.json", "session-*.jsonl", "state"))
    index = json.loads((source / "campaign.json").read_text(encoding="utf-8"))
    lines: list[str] = []
    header = ""
    for name in index["sessions"]:  # the later opens of `source` added sessions of their own
        with open(source / "sessions" / name, encoding="utf-8") as handle:
            first_line = next(handle)  # each log starts with its header (campaign schema 3)
            header = header or first_line
            lines.extend(islice(handle, events - len(lines)))
    first = index["sessions"][0]
    (target / "sessions" / first).write_text(header + "".join(lines), encoding="utf-8")
    index.update(sessions=[first], snapshot_seq=0)
    (target / "campaign.json").write_text(json.dumps(index), encoding="utf-8")


def curve_open(folder: Path) -> None:
    """Campaign open vs events, with and without snapshot: 1k, 10k, 100k and 1M (the 1M campaign is
    built by live play, about three minutes; GAMEKERNEL_BENCH_QUICK=1 leaves it out)."""
    from benchmarks.report import curve

    sizes = [1_000, 10_000, EVENTS]
    with tempfile.TemporaryDirectory() as temp:
        folders = {}
        for size in sizes[:-1]:
            folders[size] = Path(temp) / f"c{size}"
            _prefix(folder, folders[size], size)
        folders[EVENTS] = folder
        if not os.environ.get("GAMEKERNEL_BENCH_QUICK"):
            sizes.append(1_000_000)
            folders[1_000_000] = Path(temp) / "c1m"
            build(folders[1_000_000], 1_000_000)
        replay, snapshot = [], []
        for size in sizes:
            replay.append(_open_only(folders[size], "replay"))  # its close writes the snapshot
            snapshot.append(min(_open_only(folders[size], "snapshot") for _ in range(2)))
    curve("campaign open by full replay vs events", "events", sizes, replay, 1.0,
          "O(n): every event is read and reduced once")
    curve("campaign open with snapshot vs events", "events", sizes, snapshot, 1.0,
          "O(n) reading the log (reducers skipped up to the snapshot); the state itself is bounded")


def _open_cold(folder: Path) -> float:
    """CPU seconds of `campaign_open` with the snapshot in this fresh process (the import and
    `Session()` before it not counted); closing writes the snapshot again."""
    from gamekernel import Session

    session = Session()
    start = time.process_time()
    session.campaign_open(folder)
    seconds = time.process_time() - start
    session.campaign_close()
    return seconds


def _open_with_import(folder: Path) -> float:
    """Wall-clock seconds of what a GM waits for in a fresh kernel: the import, `Session()`, the open."""
    start = time.perf_counter()
    from gamekernel import Session

    session = Session()
    session.campaign_open(folder)
    seconds = time.perf_counter() - start
    session.campaign_close()
    return seconds


def _floor_cold(folder: Path) -> float:
    """CPU seconds to read the campaign's files and decode its log as the open does (one array, the
    collector paused): what any open must do."""
    import gc

    gc.disable()
    try:
        start = time.process_time()
        index = json.loads((folder / "campaign.json").read_bytes())
        snapshot = folder / "snapshot.json"
        json.loads(snapshot.read_bytes()) if snapshot.exists() else None
        for name in index["sessions"]:
            raw = (folder / "sessions" / name).read_bytes()
            body = raw[raw.index(b"\n") + 1:].rstrip(b"\n")  # the events, after the session's header line
            json.loads(b"[" + body.replace(b"\n", b",") + b"]") if body else None
        return time.process_time() - start
    finally:
        gc.enable()


def _opens(folder: Path) -> tuple:
    """The open with the snapshot, its floor, and the open with the import: pyperf benchmarks whose
    workers read the folder from their command line (`harness.data`)."""
    from benchmarks import harness

    return (harness.once("campaign_open with snapshot", lambda: _open_cold(folder)),
            harness.once("floor: read + json.loads", lambda: _floor_cold(folder)),
            harness.once("open with the import", lambda: _open_with_import(folder)))


def _line_decoding(folder: Path, kind: str) -> tuple[int, float]:
    """The events of rule set `kind` in the campaign's first log and the seconds `json.loads` takes
    over their lines one by one (best of three): what reading an event costs, a floor for applying it."""
    import gc
    import time

    first = json.loads((folder / "campaign.json").read_text(encoding="utf-8"))["sessions"][0]
    raw = (folder / "sessions" / first).read_bytes()
    marker = f'"kind":"{kind}.'.encode()
    lines = [line for line in raw.split(b"\n") if marker in line]
    best = float("inf")
    for _ in range(3):
        gc.disable()
        try:
            start = time.perf_counter()
            for line in lines:
                json.loads(line)
            best = min(best, time.perf_counter() - start)
        finally:
            gc.enable()
    return len(lines), best


def _open(folder: Path, mode: str) -> dict:
    out = subprocess.run([sys.executable, "-c", _OPEN, str(folder), mode], capture_output=True, text=True,
                         check=True, env=_ENV)
    return json.loads(out.stdout)


def main() -> None:
    from benchmarks import harness
    from benchmarks.report import Target, targets

    if harness.is_worker():  # the manager built the campaign and named it on the command line
        _opens(Path(harness.data()))
        return
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "campaign"
        kinds = build(folder)
        _open(folder, "snapshot")  # writes the bytecode caches of a source checkout
        harness.share(str(folder))
        snap, floor, with_import = _opens(folder)
        replay = _open_only(folder, "replay")  # its close writes the snapshot again
        costs = _reducer_costs(folder)
        decoded, decoding = _line_decoding(folder, "combat")
        curve_open(folder)

    assert snap and floor and with_import
    mix = ", ".join(f"{kind} {count:,}" for kind, count in sorted(kinds.items(), key=lambda kv: -kv[1]))
    print(f"Opening a campaign of {EVENTS:,} events, once in each of {harness.processes(snap)} fresh processes")
    print(f"    events by rule set: {mix}")
    print(f"    with snapshot    median {harness.median(snap):6.2f} s  (campaign_open alone, CPU time)")
    print(f"    floor            median {harness.median(floor):6.2f} s  "
          "(read the files, json.loads of the same log bytes, CPU time)")
    print(f"    with snapshot    median {harness.median(with_import):6.2f} s  (with the import of gamekernel and "
          "Session(), wall clock: what a GM waits for on this machine now)")
    print(f"    full replay      {replay:6.2f} s  (campaign_open alone, CPU time)")
    print("Replay cost by rule set (reducers only, in this process)")
    for kind, (count, seconds) in sorted(costs.items(), key=lambda kv: -kv[1][1]):
        print(f"    {kind:<10} {count:7,} events  {seconds:6.2f} s  {seconds / count * 1e6:7.1f} µs/event")
    print()
    open_ratio = harness.ratio(snap, floor)[0]
    count, seconds = costs.get("combat", (0, 0.0))
    per_event = seconds / count * 1e6 if count else float("nan")
    per_line = decoding / decoded * 1e6 if decoded else float("nan")
    reducer_ratio = per_event / per_line
    targets("campaign open and replay (pyperf medians of fresh processes, CPU time)", [
        Target(f"open {EVENTS:,} events with snapshot (campaign_open, fresh process)",
               f"{harness.median(snap):.2f} s",
               f"floor: read its files + json.loads of the same bytes {harness.median(floor):.2f} s",
               harness.ratio_text(snap, floor), "<= 1.5x", open_ratio <= 1.5),
        Target("combat reducers (one full replay)", f"{per_event:.1f} µs/event",
               f"json.loads of the same {decoded:,} lines one by one {per_line:.1f} µs/line",
               f"{reducer_ratio:.2f}x", "<= 3x", reducer_ratio <= 3),
    ])


def _reducer_costs(folder: Path) -> dict[str, tuple[int, float]]:
    """Time each event's reducer during one full replay, grouped by rule set (the kind's prefix)."""
    import time

    from gamekernel.campaign import CampaignStore
    from gamekernel.events import EVENT_KINDS, gc_paused
    from gamekernel.session import active_events
    from gamekernel.state import TableState

    store = CampaignStore(folder)
    store.open()
    try:
        active, _ = active_events(store.load().events)
    finally:
        store.release()
    state = TableState()
    costs: dict[str, list] = {}
    clock = time.perf_counter
    with gc_paused():
        for event in active:
            reducer = EVENT_KINDS[event.kind].apply
            if reducer is None:
                continue
            started = clock()
            reducer(state, event.data)
            entry = costs.setdefault(event.kind.split(".")[0], [0, 0.0])
            entry[0] += 1
            entry[1] += clock() - started
    return {kind: (count, seconds) for kind, (count, seconds) in costs.items()}


if __name__ == "__main__":
    main()
