"""Opening a campaign with 100,000 events (the campaign log): with its snapshot, and by full replay.

The campaign is written once in a temporary folder by live play of every rule set (GURPS checks
and damage, fights turn by turn, Gamma World encounters with draws, taps and flux, MtG checks,
boosts and scenes, dice rolls, notes), then opened in fresh processes, with bytecode caches on as
for any installed package. An absolute time on a shared CPU is no target: `campaign_open` with the
snapshot is compared with its floor measured in the same run, in fresh processes alternating with
the opens - reading the campaign's files and `json.loads` of the same log bytes (as one array,
the collector paused, as the open does), which any open must do; the fastest of each counts. This
machine's slow spells last seconds (one run's five opens all took 0.87-1.0 s, another's 0.63-0.8 s,
the same campaign: the ratio read 1.07x, 1.52x and 1.30x in three runs), so each is measured nine
times, alternated; each open's ratio to the floor measured right after it is printed too. What a
GM waits for in a fresh kernel (with the import of the rule sets and `Session()`) is shown beside; `%load_ext` has its
own row in bench_core. A last table times each rule set's reducers in one full replay, against
the decoding of the same events' lines.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from itertools import islice
from pathlib import Path

EVENTS = 100_000
RUNS = 9  # opens and floors alternate; the fastest of each counts (the least disturbed by other work)

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
        s.combat_npc("Orc", "ST=12 DX=11 HT=12 HP=18 weapon=Club:11:sw cr")
        s.combat_npc("Guardsman", "ST=11 DX=12 HT=12 HP=16 weapon=Broadsword:13:sw cut shield=12 side=pcs")
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
        fight = s.combat_state
        if fight is None or fight.over:
            s.combat_start("Guardsman*2 Orc*2")
            return
        try:
            if fight.pending is not None:
                s.combat_defend(fight.pending.target)
            elif any(c.hp <= 0 or c.unconscious or c.dead for c in fight.combatants):
                s.combat_end()
            elif fight.current.chosen:
                s.combat_next()
            elif i // 12 % 7 == 3:
                s.combat_damage(fight.current.name, "1d cr")
            else:
                me = fight.current
                foe = next(c for c in fight.combatants if c.side != me.side)
                s.combat_attack(me.name, foe.name, me.weapons[0].name)
        except GameKernelError:
            s.combat_end()

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


_FLOOR = r"""
import gc, json, sys, time
from pathlib import Path
folder = Path(sys.argv[1])
gc.disable()  # as the open does while it decodes (gamekernel.events.gc_paused)
t0 = time.process_time()
index = json.loads((folder / "campaign.json").read_bytes())
snapshot = folder / "snapshot.json"
state = json.loads(snapshot.read_bytes()) if snapshot.exists() else None
records = []
for name in index["sessions"]:
    raw = (folder / "sessions" / name).read_bytes()
    body = raw[raw.index(b"\n") + 1:].rstrip(b"\n")  # the events, after the session's header line
    records += json.loads(b"[" + body.replace(b"\n", b",") + b"]") if body else []
t1 = time.process_time()
print(json.dumps({"seconds": t1 - t0, "events": len(records)}))
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


def _floor(folder: Path) -> tuple[float, int]:
    """CPU seconds to read the campaign's files and decode its log in a fresh process, and the events read."""
    out = json.loads(subprocess.run([sys.executable, "-c", _FLOOR, str(folder)], capture_output=True, text=True,
                                    check=True, env=_ENV).stdout)
    return out["seconds"], out["events"]


def _opens_and_floors(folder: Path) -> tuple[list[float], list[float], list[float]]:
    """`campaign_open` with the snapshot, its floor, and the open with the import, alternated run by
    run so that a burst of load elsewhere hits them alike."""
    snap, floor, with_import = [], [], []
    for _ in range(RUNS):
        snap.append(_open_only(folder, "snapshot"))
        floor.append(_floor(folder)[0])
        with_import.append(_open(folder, "snapshot")["seconds"])
    return snap, floor, with_import


def _line_decoding(folder: Path, kind: str) -> tuple[int, float]:
    """The events of rule set `kind` in the campaign's first log and the seconds `json.loads` takes
    over their lines one by one (best of three): what reading an event costs, a floor for applying it."""
    import gc
    import time

    raw = (folder / "sessions" / "session-001.jsonl").read_bytes()
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
    from benchmarks.report import Target, targets

    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "campaign"
        kinds = build(folder)
        _open(folder, "snapshot")  # writes the bytecode caches of a source checkout
        snap, floor, with_import = _opens_and_floors(folder)
        replay = _open_only(folder, "replay")  # its close writes the snapshot again
        costs = _reducer_costs(folder)
        decoded, decoding = _line_decoding(folder, "combat")
        curve_open(folder)

    mix = ", ".join(f"{kind} {count:,}" for kind, count in sorted(kinds.items(), key=lambda kv: -kv[1]))
    print(f"Opening a campaign of {EVENTS:,} events in a fresh process ({RUNS} runs, alternated)")
    print(f"    events by rule set: {mix}")
    print(f"    with snapshot    best {min(snap):6.2f} s  median {statistics.median(snap):6.2f} s  "
          "(campaign_open alone, CPU time)")
    print(f"    floor            best {min(floor):6.2f} s  median {statistics.median(floor):6.2f} s  "
          "(read the files, json.loads of the same log bytes, CPU time)")
    print(f"    with snapshot    best {min(with_import):6.2f} s  median {statistics.median(with_import):6.2f} s  "
          "(with the import of gamekernel and Session(), wall clock: what a GM waits for on this machine now)")
    paired = [opened / floored for opened, floored in zip(snap, floor, strict=True)]
    print(f"    each open against the floor measured right after it: {', '.join(f'{r:.2f}x' for r in paired)}")
    print(f"    full replay      {replay:6.2f} s  (campaign_open alone, CPU time)")
    print("Replay cost by rule set (reducers only, in this process)")
    for kind, (count, seconds) in sorted(costs.items(), key=lambda kv: -kv[1][1]):
        print(f"    {kind:<10} {count:7,} events  {seconds:6.2f} s  {seconds / count * 1e6:7.1f} µs/event")
    print()
    open_ratio = min(snap) / min(floor)
    count, seconds = costs.get("combat", (0, 0.0))
    per_event = seconds / count * 1e6 if count else float("nan")
    per_line = decoding / decoded * 1e6 if decoded else float("nan")
    reducer_ratio = per_event / per_line
    targets(f"campaign open and replay (best of {RUNS} alternated fresh processes)", [
        Target(f"open {EVENTS:,} events with snapshot (campaign_open, fresh process)", f"{min(snap):.2f} s",
               f"floor: read its files + json.loads of the same bytes {min(floor):.2f} s",
               f"{open_ratio:.2f}x", "<= 1.5x", open_ratio <= 1.5),  # CPU times
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
