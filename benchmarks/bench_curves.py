"""Cost curves (the performance work): how the cost of an operation grows with the size of its input.

Each curve prints a table, the growth we expect, the measured exponent (log-log slope) and a flag
when the slope is clearly steeper than expected. The MtG check-odds curve is in bench_mtg and the
campaign-open curve in bench_campaign (they reuse what those modules build).
"""

from __future__ import annotations

import copy
import json
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.report import curve, ms, table

ROOT = Path(__file__).resolve().parent.parent


def best_of(function, repeat: int = 3, budget: float = 0.5) -> float:
    """Minimum seconds of one call over `repeat` calls (fewer when one call exceeds `budget`)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
        if times[-1] > budget:
            break
    return min(times)


def curve_distributions() -> None:
    from gamekernel.dice import DiceError, distribution, exact, odds

    def fresh(text: str):
        exact.plain_dice.cache_clear()
        odds._modified.cache_clear()
        return distribution(text)

    expectation = ("the answer itself is O(n^2) bits (5n+1 counts of up to 2.6n bits each) and one big-integer "
                   "pow makes it; CPython multiplies by Karatsuba, so ~O((n^2)^1.58)")
    for sides, sizes in ((6, [10, 30, 100, 300, 600, 1000]), (20, [10, 30, 100, 200])):
        measured_sizes, times, refused = [], [], []
        for n in sizes:
            text = f"{n}d{sides}"
            start = time.perf_counter()
            try:
                fresh(text)
            except DiceError:  # past the size limit a user is refused at once; the curve goes on past it
                refused.append((n, time.perf_counter() - start))
            limit, exact.MAX_BITS = exact.MAX_BITS, 1 << 40
            try:
                seconds = best_of(lambda text=text: fresh(text))
            finally:
                exact.MAX_BITS = limit
            measured_sizes.append(n)
            times.append(seconds)
        note = "; ".join(f"{n}d{sides} is past the size limit (a user is refused in {ms(s)}); measured with the "
                         "limit lifted" for n, s in refused)
        curve(f"exact distribution of Nd{sides} (uncached)", "dice", measured_sizes, times, 3.17,
              f"O(n^3.2): {expectation}", note)


def _fight(count: int):
    from gamekernel import Session, limits

    limits.configure(max_combatants=max(count, limits.current().max_combatants))  # the curve goes past the default
    session = Session(seed=9)
    session.combat.npc("Orc", "ST=13 DX=11 HT=12 HP=15 weapon=Axe:12:sw+2 cut")
    session.combat.npc("Elf", "ST=10 DX=14 HT=11 weapon=Bow:14:1d+2 imp:ranged:acc=2 weapon=Sword:13:sw cut")
    session.combat.start(f"Orc*{count // 2} Elf*{count - count // 2}")
    return session


TRACKER_SIZES = [10, 30, 100, 300, 1000]
TRACKER_UPDATES = 60  # per size and side, alternated


def _tracker_times(count: int) -> tuple[float, float]:
    """Median seconds of one damage update through the session (rules, event, reducer, observers) in
    a fight of `count`, without and with the tracker widget open (its rows refreshed and the patch
    sent): two fights alike, their updates alternated so that other work hits both, the collector
    paused as timeit does."""
    import gc
    import random

    from gamekernel.gurps.widgets.tracker import Tracker

    bare, shown = _fight(count), _fight(count)
    tracker = Tracker(shown)
    names = [c.name for c in bare.combat.state.combatants]
    rng = random.Random(1)
    targets = [rng.choice(names) for _ in range(TRACKER_UPDATES + 1)]
    for session in (bare, shown):
        session.combat.damage(targets[0], "1d cut")
    times: tuple[list[float], list[float]] = ([], [])
    clock = time.perf_counter
    gc.collect()
    gc.disable()
    try:
        for name in targets[1:]:
            for session, each in zip((bare, shown), times, strict=True):
                start = clock()
                session.combat.damage(name, "1d cut")
                each.append(clock() - start)
    finally:
        gc.enable()
        tracker.close()
    return statistics.median(times[0]), statistics.median(times[1])


def curve_tracker() -> None:
    """The damage update's cost curve without and with the tracker widget open, and the ratio at
    every size (target: the widget at most triples it)."""
    from benchmarks.report import Target, targets

    pairs = [_tracker_times(count) for count in TRACKER_SIZES]
    bare, shown = [p[0] for p in pairs], [p[1] for p in pairs]
    curve("tracker damage update vs combatants", "combatants", TRACKER_SIZES, bare, 1.0,
          "O(n) at most: the immutable combat state is rebuilt per update (O(1) would need a persistent state)")
    curve("tracker damage update vs combatants, tracker widget open", "combatants", TRACKER_SIZES, shown, 1.0,
          "O(n) at most: only the rows the event can change are computed again (its fighters, the active one "
          "before and after, the pending attack's target) and only their changed fields are sent")
    targets(f"tracker update with the widget open (median of {TRACKER_UPDATES} updates, alternated)", [
        Target(f"damage update, {count:,} fighters, tracker open", ms(with_widget),
               f"the same update without a widget {ms(without)}", f"{with_widget / without:.2f}x", "<= 3x",
               with_widget / without <= 3)
        for count, without, with_widget in zip(TRACKER_SIZES, bare, shown, strict=True)
    ])


def _scaled_gcs(data: dict, factor: int) -> dict:
    """The real-shaped character with its traits, skills and equipment repeated `factor` times
    (renamed, so that every entry is a distinct one)."""
    scaled = copy.deepcopy(data)
    for key in ("traits", "skills", "equipment"):
        entries = []
        for copy_index in range(factor):
            for entry in data.get(key, ()):
                clone = copy.deepcopy(entry)
                if copy_index:
                    clone["id"] = f"{entry.get('id', key)}-{copy_index}"
                    if "name" in clone:
                        clone["name"] = f"{entry['name']} {copy_index}"
                    if "description" in clone:
                        clone["description"] = f"{entry['description']} {copy_index}"
                entries.append(clone)
        scaled[key] = entries
    return scaled


def curve_gcs() -> None:
    from gamekernel import limits
    from gamekernel.gurps.rules.gcs import load_gcs

    # the largest synthetic file is past the input limits on purpose: this curve measures the growth
    limits.configure(max_lines=10**7, max_entries=10**6, max_file_mb=1000)

    data = json.loads((ROOT / "tests" / "gurps" / "data" / "aiko.gcs").read_text(encoding="utf-8"))
    factors = [1, 4, 16, 64]
    sizes, times = [], []
    with tempfile.TemporaryDirectory() as folder:
        for factor in factors:
            path = Path(folder) / f"aiko-{factor}.gcs"
            path.write_text(json.dumps(_scaled_gcs(data, factor), indent=2), encoding="utf-8")
            sizes.append(path.stat().st_size // 1000)
            times.append(best_of(lambda path=path: load_gcs(path)))
    curve("GCS import vs file size", "kB", sizes, times, 1.0,
          "O(n): one pass over the entries, each skill, weapon and feature looked up in an index built once")


def main() -> None:
    started = time.perf_counter()
    curve_distributions()
    curve_tracker()
    curve_gcs()
    table("curves in this module", ["time"], [[ms(time.perf_counter() - started)]])


if __name__ == "__main__":
    main()
