"""Dice benchmarks: a roll with its breakdown (a) and exact distributions (b).

(a) string -> full result with per-die detail and its breakdown text:
    `gamekernel.dice.roll(text, rng).breakdown` (no parse cache exists) vs d20's default
    `d20.roll(text)` (its LFU parse cache on). d20 always builds its result string, so the fair,
    compared figure forces ours too.
(b) exact distributions:
    - vs dyce, cold: the import of the library plus the computation, once in each fresh worker
      process (bytecode caches on for both, as for any installed package);
    - vs icepool, warm: calibrated loops after a warm-up. Ours warm uses our module-level cache of
      NdS building blocks; the "ours uncached" column clears it each time.
Every figure is a pyperf benchmark (`benchmarks.harness`: fresh worker processes, CPU time); a
ratio is the peer's median over ours, both measured in the same run.
"""

from __future__ import annotations

import importlib.util
import random
import time
from collections.abc import Callable

from benchmarks import harness

ROLL_EXPRESSIONS = ["3d6", "3d6+2", "1d20+5", "4d6kh3", "10d6+1d4-2", "100d6"]

# name -> (ours, dyce, icepool); each a Python expression computing the exact answer
DISTRIBUTIONS = {
    "3d6": ('distribution("3d6")', "3 @ H(6)", "3 @ d6"),
    "10d6+5": ('distribution("10d6+5")', "10 @ H(6) + 5", "10 @ d6 + 5"),
    "4d6kh3": ('distribution("4d6kh3")', "(4 @ P(6)).at(slice(1, None))", "d6.highest(4, 3)"),
    "100d6": ('distribution("100d6")', "100 @ H(6)", "100 @ d6"),
    "20d20": ('distribution("20d20")', "20 @ H(20)", "20 @ d20"),
    "P(3d6<=12)": (
        'distribution("3d6<=12").p_success',
        "(lambda h: Fraction(h.get(True, 0), h.total))((3 @ H(6)).le(12))",
        "(3 @ d6 <= 12).probability(True)",
    ),
}
DYCE_TARGET = {"100d6": 10.0, "20d20": 10.0}  # others: 2.0
PROCESSES = 4  # worker processes per figure at most: the module has 42 figures


def installed(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def verdict(ratio: float | None, target: float) -> str:
    if ratio is None:
        return "n/a"
    return "met" if ratio >= target else "NOT met"


def print_table(title: str, header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(header[i]), *(len(r[i]) for r in rows)) for i in range(len(header))]
    print(title)
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))
    print()


def fmt(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"


# ----- (a) rolling


def _ours(text: str) -> Callable[[], Callable[[], object]]:
    def setup() -> Callable[[], object]:
        from gamekernel.dice import roll

        rng = random.Random(1)
        return lambda: roll(text, rng).breakdown

    return setup


def _d20(text: str) -> Callable[[], Callable[[], object]]:
    def setup() -> Callable[[], object]:
        import d20

        return lambda: d20.roll(text)

    return setup


def bench_rolls() -> Callable[[], None]:
    has_d20 = installed("d20")
    pairs = {text: (harness.bench(f"roll {text} (ours)", _ours(text), processes=PROCESSES),
                    harness.bench(f"roll {text} (d20)", _d20(text), processes=PROCESSES) if has_d20 else None)
             for text in ROLL_EXPRESSIONS}

    def show() -> None:
        rows = []
        for text, (ours, peer) in pairs.items():
            assert ours is not None
            target = 5.0 if text == "100d6" else 2.0
            ratio = harness.ratio(peer, ours)[0] if peer else None
            rows.append([text, fmt(harness.median(ours) * 1e6), fmt(harness.median(peer) * 1e6) if peer else "-",
                         harness.ratio_text(peer, ours) if peer else "-", f">={target:g}x", verdict(ratio, target)])
        print_table(
            "(a) string -> result with every die and its breakdown text: gamekernel.dice.roll(text, rng).breakdown"
            " (parsed anew each time, no parse cache) vs d20 1.1.2 d20.roll (default: LFU parse cache on,"
            " result string always built); pyperf medians, CPU time" + ("" if has_d20 else " [d20 not installed]"),
            ["expression", "ours+text µs", "d20 µs", "ratio", "target", "met?"], rows)

    return show


# ----- (b) distributions


def _cold(imports: str, expr: str) -> Callable[[], float]:
    """Seconds of `imports` then `expr` in this (fresh) process: its first import and computation."""

    def measure() -> float:
        start = time.process_time()
        namespace: dict[str, object] = {}
        exec(imports, namespace)
        eval(expr, namespace)
        return time.process_time() - start

    return measure


def bench_cold() -> Callable[[], None]:
    has_dyce = installed("dyce")
    ours_imports = "from gamekernel.dice import distribution"
    dyce_imports = "from fractions import Fraction\nfrom dyce import H, P"
    pairs = {name: (harness.once(f"cold {name} (ours)", _cold(ours_imports, ours), processes=PROCESSES),
                    harness.once(f"cold {name} (dyce)", _cold(dyce_imports, dyce), processes=PROCESSES)
                    if has_dyce else None)
             for name, (ours, dyce, _) in DISTRIBUTIONS.items()}

    def show() -> None:
        rows = []
        for name, (ours, peer) in pairs.items():
            assert ours is not None
            target = DYCE_TARGET.get(name, 2.0)
            ratio = harness.ratio(peer, ours)[0] if peer else None
            rows.append([name, fmt(harness.median(ours) * 1e6), fmt(harness.median(peer) * 1e6) if peer else "-",
                         harness.ratio_text(peer, ours) if peer else "-", f">={target:g}x", verdict(ratio, target)])
        print_table(
            "(b1) exact distribution, cold (import + compute, once in each fresh process) vs dyce 0.7.0"
            + ("" if has_dyce else " [dyce not installed]"),
            ["expression", "ours µs", "dyce µs", "ratio", "target", "met?"], rows)

    return show


def _warm(expr: str, *, uncached: bool = False, icepool: bool = False) -> Callable[[], Callable[[], object]]:
    def setup() -> Callable[[], object]:
        from fractions import Fraction

        from gamekernel.dice import distribution, exact, odds

        namespace: dict[str, object] = {"distribution": distribution, "Fraction": Fraction}
        if icepool:
            import icepool as ice

            namespace.update(d6=ice.d6, d20=ice.d20)
        code = compile(expr, "<bench>", "eval")
        if not uncached:
            return lambda: eval(code, namespace)

        def fresh() -> object:
            exact.plain_dice.cache_clear()
            odds._modified.cache_clear()
            return eval(code, namespace)

        return fresh

    return setup


def bench_warm() -> Callable[[], None]:
    has_icepool = installed("icepool")
    triples = {name: (harness.bench(f"warm {name} (ours)", _warm(ours), processes=PROCESSES),
                      harness.bench(f"warm {name} (ours uncached)", _warm(ours, uncached=True), processes=PROCESSES),
                      harness.bench(f"warm {name} (icepool)", _warm(ice, icepool=True), processes=PROCESSES)
                      if has_icepool else None)
               for name, (ours, _, ice) in DISTRIBUTIONS.items()}

    def show() -> None:
        rows = []
        for name, (ours, uncached, peer) in triples.items():
            assert ours is not None and uncached is not None
            ratio = harness.ratio(peer, ours)[0] if peer else None
            rows.append([name, fmt(harness.median(ours) * 1e6), fmt(harness.median(uncached) * 1e6),
                         fmt(harness.median(peer) * 1e6) if peer else "-",
                         harness.ratio_text(peer, ours, "{:.1f}x") if peer else "-",
                         harness.ratio_text(peer, uncached) if peer else "-", ">=1x", verdict(ratio, 1.0)])
        print_table(
            "(b2) exact distribution, warm (calibrated loops after a warm-up) vs icepool 2.1.3"
            + ("" if has_icepool else " [icepool not installed]"),
            ["expression", "ours µs", "ours uncached µs", "icepool µs", "ratio", "ratio uncached", "target", "met?"],
            rows)

    return show


def main() -> None:
    shows = [bench_rolls(), bench_cold(), bench_warm()]
    if harness.is_worker():
        return
    for show in shows:
        show()


if __name__ == "__main__":
    main()
