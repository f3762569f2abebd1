"""Shared printing for the benchmarks: target rows and cost curves.

A target row says what was measured, against which peer or baseline measured in the same run,
the ratio, the target and whether it is met. A cost curve is a table of (size, time) with the
growth we expect, the measured log-log slope, and a flag when the slope is clearly steeper than
expected; with matplotlib importable (the `bench` extra installs it) it is also saved as a PNG
under benchmarks/output/ (gitignored), with the expected slope drawn through the first point.
"""

from __future__ import annotations

import importlib.util
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "benchmarks" / "output"
# a measured exponent this much above the expected one is flagged as super-linear growth
SLOPE_TOLERANCE = 0.25


@dataclass
class Target:
    """One compared figure: `measured` against `baseline`, with `ratio` judged by `met`."""

    name: str
    measured: str
    baseline: str
    ratio: str
    target: str
    met: bool | None  # None: could not be measured (a peer missing)


def table(title: str, header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(header[i]), *(len(r[i]) for r in rows)) if rows else len(header[i])
              for i in range(len(header))]
    print(title)
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip())
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    print()


def targets(title: str, rows: list[Target]) -> None:
    table(title, ["measured", "value", "peer / baseline (same run)", "ratio", "target", "met?"],
          [[r.name, r.measured, r.baseline, r.ratio, r.target,
            "n/a" if r.met is None else "met" if r.met else "NOT met"] for r in rows])


def ms(seconds: float) -> str:
    value = seconds * 1e3
    if value >= 100:
        return f"{value:,.0f} ms"
    return f"{value:.2f} ms" if value >= 1 else f"{value * 1e3:.0f} µs"


def slope(sizes: list[float], times: list[float]) -> float:
    """Least-squares slope of log(time) against log(size): 1 is linear, 2 quadratic."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(t, 1e-12)) for t in times]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else 0.0


def curve(title: str, unit: str, sizes: list[int], times: list[float], expected: float, expected_text: str,
          note: str = "", *, value: Callable[[float], str] | None = None, value_name: str = "time") -> float:
    """Print one cost curve (of seconds, or of what `value` formats); returns the measured exponent."""
    measured = slope(sizes, times)
    show = value or ms
    rows = [[f"{size:,}", show(seconds)] for size, seconds in zip(sizes, times, strict=True)]
    table(f"curve: {title}", [unit, value_name], rows)
    flag = measured > expected + SLOPE_TOLERANCE
    print(f"  expected growth {expected_text} (exponent {expected:g}); measured exponent {measured:.2f}"
          f"  {'SUPER-LINEAR beyond expectation' if flag else 'as expected'}" + (f"  ({note})" if note else ""))
    print()
    _plot(title, unit, sizes, times, measured, expected, "ms" if value is None else value_name)
    return measured


def _plot(title: str, unit: str, sizes: list[int], times: list[float], measured: float, expected: float,
          ylabel: str = "ms") -> None:
    if importlib.util.find_spec("matplotlib") is None:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    OUTPUT.mkdir(exist_ok=True)
    figure, axes = plt.subplots(figsize=(5, 3.5))
    scale = 1e3 if ylabel == "ms" else 1.0
    axes.loglog(sizes, [t * scale for t in times], marker="o", label=f"measured (exponent {measured:.2f})")
    first, start = sizes[0], times[0] * scale
    axes.loglog(sizes, [start * (size / first) ** expected for size in sizes], linestyle="--", color="grey",
                label=f"expected (exponent {expected:g})")
    axes.legend(fontsize=8)
    axes.set_xlabel(unit)
    axes.set_ylabel(ylabel)
    axes.set_title(title, fontsize=9)
    figure.tight_layout()
    name = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    figure.savefig(OUTPUT / f"{name}.png", dpi=100)
    plt.close(figure)
