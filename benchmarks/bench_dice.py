"""Dice benchmarks: a roll with its breakdown (a) and exact distributions (b).

(a) string -> full result with per-die detail and its breakdown text:
    `gamekernel.dice.roll(text, rng).breakdown` (no parse cache exists) vs d20's default
    `d20.roll(text)` (its LFU parse cache on). d20 always builds its result string, so the fair,
    compared figure forces ours too; the last columns show ours without the text, for reference.
(b) exact distributions:
    - vs dyce, cold: a fresh Python process per run that measures, inside the child, the
      import of the library plus the computation (interpreter start-up excluded, same for both;
      bytecode caches on for both, as for any installed package).
    - vs icepool, warm: timeit after a warm-up, in this process. Ours warm uses our
      module-level cache of NdS building blocks; the "ours uncached" column clears it each time.
Every timing is the minimum over repeats (the machine is shared and noisy); ours and the peer
are interleaved repeat by repeat so that load spikes hit both. (a) runs in several fresh processes
and reads the median one (see `report.in_workers`).
"""

from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
import timeit
from pathlib import Path

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
ROOT = Path(__file__).resolve().parent.parent


def installed(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def best(stmt, number: int, repeat: int) -> float:
    """Minimum microseconds per call over `repeat` runs of `number` calls."""
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number * 1e6


def interleaved(stmts, number: int, rounds: int) -> list[float]:
    """Minimum µs per call of each statement, measuring them in turn `rounds` times."""
    from benchmarks.report import alternated

    return [seconds * 1e6 for seconds in alternated(stmts, number, rounds)]


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


def roll_times() -> dict[str, list[float | None]]:
    """Per expression: µs of ours with its text, ours without, ours parsed beforehand, and d20 (None
    when d20 is not installed); one process's figures (`bench_rolls` reads several)."""
    from gamekernel.dice import parse, roll

    has_d20 = installed("d20")
    if has_d20:
        import d20
    rng = random.Random(1)
    found: dict[str, list[float | None]] = {}
    for text in ROLL_EXPRESSIONS:
        number = 300 if text == "100d6" else 2000
        # compared: ours with its breakdown text forced (d20 always builds its result string)
        parsed = parse(text)  # for the reference column only: what parsing costs of the whole
        stmts = [lambda text=text: roll(text, rng).breakdown, lambda text=text: roll(text, rng),
                 lambda parsed=parsed: roll(parsed, rng).breakdown]
        if has_d20:
            d20.roll(text)
            stmts.append(lambda text=text: d20.roll(text))
        times: list[float | None] = list(interleaved(stmts, number, rounds=15))
        found[text] = times if has_d20 else [*times, None]
    return found


def bench_rolls() -> None:
    from benchmarks.report import in_workers, median_index, spread

    workers = in_workers("benchmarks.bench_dice:roll_times")
    has_d20 = workers[0][ROLL_EXPRESSIONS[0]][3] is not None
    rows = []
    for text in ROLL_EXPRESSIONS:
        figures = [worker[text] for worker in workers]
        ratios = [peer / ours_text if peer else 0.0 for ours_text, _ours, _preparsed, peer in figures]
        ours_text, ours, preparsed, peer = figures[median_index(ratios)]
        ratio = peer / ours_text if peer else None
        target = 5.0 if text == "100d6" else 2.0
        rows.append([
            text, fmt(ours_text), fmt(peer), f"{ratio:.2f}x" if ratio else "-",
            spread(ratios, "{:.2f}x") if peer else "-",
            f">={target:g}x", verdict(ratio, target), fmt(ours), f"{peer / ours:.2f}x" if peer else "-",
            f"{fmt(preparsed)} ({(ours_text - preparsed) / ours_text:.0%})",
        ])
    print_table(
        "(a) string -> result with every die and its breakdown text: gamekernel.dice.roll(text, rng).breakdown"
        " (parsed anew each time, no parse cache) vs d20 1.1.2 d20.roll (default: LFU parse cache on,"
        f" result string always built); in {len(workers)} fresh processes, each row the median one's"
        + ("" if has_d20 else " [d20 not installed]"),
        ["expression", "ours+text µs", "d20 µs", "ratio", "ratio in each process", "target", "met?",
         "ours, no text µs", "ratio, no text", "ours+text parsed beforehand µs (parse share)"],
        rows,
    )


# ----- (b) distributions

_CHILD = r"""
import sys, time
sys.path.insert(0, {root!r})
t0 = time.perf_counter()
{imports}
value = {expr}
t1 = time.perf_counter()
print((t1 - t0) * 1e6)
"""


def _child_env() -> dict[str, str]:
    # Bytecode caching on, as in any installed package (pip byte-compiles dyce on install; our
    # modules are compiled by the untimed warm-up run below).
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def cold(imports: str, expr: str, runs: int) -> float:
    """Minimum µs for import + computation in a fresh interpreter, measured inside the child."""
    script = _CHILD.format(root=str(ROOT), imports=imports, expr=expr)
    times = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=_child_env()
        )
        times.append(float(out.stdout.split()[-1]))
    return min(times)


def bench_cold(runs: int = 7) -> None:
    has_dyce = installed("dyce")
    ours_imports = "from gamekernel.dice import distribution"
    dyce_imports = "from fractions import Fraction\nfrom dyce import H, P"
    cold(ours_imports, "None", 1)  # warm-up: writes our bytecode caches
    if has_dyce:
        cold(dyce_imports, "None", 1)
    rows = []
    for name, (ours_expr, dyce_expr, _) in DISTRIBUTIONS.items():
        ours_times, dyce_times = [], []
        for _ in range(runs):  # interleave fresh processes
            ours_times.append(cold(ours_imports, ours_expr, 1))
            if has_dyce:
                dyce_times.append(cold(dyce_imports, dyce_expr, 1))
        ours = min(ours_times)
        peer = min(dyce_times) if dyce_times else None
        ratio = peer / ours if peer else None
        target = DYCE_TARGET.get(name, 2.0)
        rows.append([name, fmt(ours), fmt(peer), f"{ratio:.2f}x" if ratio else "-", f">={target:g}x",
                     verdict(ratio, target)])
    print_table(
        "(b1) exact distribution, cold (fresh process: import + compute, start-up excluded) vs dyce 0.7.0"
        + ("" if has_dyce else " [dyce not installed]"),
        ["expression", "ours µs", "dyce µs", "ratio", "target", "met?"],
        rows,
    )


def bench_warm() -> None:
    from fractions import Fraction

    from gamekernel.dice import distribution, exact, odds

    has_icepool = installed("icepool")
    namespace = {"distribution": distribution, "Fraction": Fraction}
    if has_icepool:
        import icepool

        namespace.update(d6=icepool.d6, d20=icepool.d20)

    def clear():
        exact.plain_dice.cache_clear()
        odds._modified.cache_clear()

    rows = []
    for name, (ours_expr, _, ice_expr) in DISTRIBUTIONS.items():
        ours_code = compile(ours_expr, "<ours>", "eval")
        ours = lambda code=ours_code: eval(code, namespace)  # noqa: E731
        uncached = lambda code=ours_code: (clear(), eval(code, namespace))  # noqa: E731
        stmts = [ours, uncached]
        if has_icepool:
            ice_code = compile(ice_expr, "<icepool>", "eval")
            ice = lambda code=ice_code: eval(code, namespace)  # noqa: E731
            stmts.append(ice)
        for stmt in stmts:  # warm-up
            stmt()
        slow = name in ("100d6", "20d20")
        times = interleaved(stmts, number=20 if slow else 200, rounds=7)
        peer = times[2] if has_icepool else None
        ratio = peer / times[0] if peer else None
        ratio_uncached = peer / times[1] if peer else None
        rows.append([
            name, fmt(times[0]), fmt(times[1]), fmt(peer),
            f"{ratio:.1f}x" if ratio else "-", f"{ratio_uncached:.2f}x" if ratio_uncached else "-",
            ">=1x", verdict(ratio, 1.0),
        ])
    print_table(
        "(b2) exact distribution, warm (timeit after warm-up) vs icepool 2.1.3"
        + ("" if has_icepool else " [icepool not installed]"),
        ["expression", "ours µs", "ours uncached µs", "icepool µs", "ratio", "ratio uncached", "target", "met?"],
        rows,
    )


def main() -> None:
    bench_rolls()
    bench_cold()
    bench_warm()


if __name__ == "__main__":
    main()
