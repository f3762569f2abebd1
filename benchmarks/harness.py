"""The timing harness of the benchmarks: pyperf, with a row's figure a ratio of two of its benchmarks.

pyperf does what a fair timing on a shared machine needs: every benchmark runs in fresh worker
processes (each with its own address-space layout and hash seed), the loops per value are
calibrated, warm-up values are dropped, and the figures come with their spread. A benchmark module
registers its benchmarks on the process's one `pyperf.Runner` (`bench`, `measured`, `once`); the module's
process is the manager, and the same module, run again by pyperf with `--worker`, is each worker.
Only the manager gets every `Benchmark` back, so a module prints its rows after `if is_worker():
return`. A row compares two benchmarks of the same run with `ratio` (their medians), with the
spread of both (their standard deviations over their means, combined).

Times are the CPU time of the worker process (`time.process_time`): other work on a shared machine
does not count in it. The command line takes pyperf's options (`--fast`, `--rigorous`,
`--processes=N`...).
"""

from __future__ import annotations

import gc
import math
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pyperf

# a module's defaults: fewer processes than pyperf's 20 keep `make bench` within minutes
PROCESSES = 6
VALUES = 3
MIN_TIME = 0.05  # seconds per value: the loops are calibrated to this

_runner: pyperf.Runner | None = None


def runner() -> pyperf.Runner:
    """The process's one runner (pyperf allows one); its workers run the module that made it."""
    global _runner
    if _runner is None:
        main = sys.modules["__main__"]
        spec = getattr(main, "__spec__", None)
        # `python -m benchmarks.bench_x`: the workers run the same module; a script runs as a script
        program = ("-m", spec.name) if spec is not None and spec.name else (sys.argv[0],)
        _runner = pyperf.Runner(processes=PROCESSES, values=VALUES, min_time=MIN_TIME, program_args=program,
                                add_cmdline_args=_pass_data)
        _runner.argparser.add_argument("--data", default="", help="a path the manager made for its workers")
        # one line per benchmark (its mean and spread); the rows' ratios carry the spread too
        _runner.argparser.set_defaults(quiet=True)
        _runner.parse_args()
    return _runner


def _pass_data(cmd: list[str], args: Any) -> None:
    if args.data:
        cmd.extend(("--data", args.data))


def is_worker() -> bool:
    return bool(runner().args.worker)


def data() -> str:
    """The path the manager set with `share` (a campaign folder, a card file): workers get it on their
    command line, since pyperf gives them a clean environment."""
    return str(runner().args.data)


def share(path: str) -> None:
    """Hand `path` to the workers of every benchmark registered after this (see `data`)."""
    runner().args.data = path


def bench(name: str, setup: Callable[[], Callable[[], object]], *, collector: bool = True,
          clock: Callable[[], float] = time.process_time, processes: int | None = None) -> pyperf.Benchmark | None:
    """Time `setup()`'s callable in pyperf's worker processes: setup runs once per worker, untimed;
    then each value is `loops` calls. `collector=False` pauses the cyclic collector while timing
    (collected first), as timeit does. The manager gets the Benchmark; a worker gets None."""
    made: list[Callable[[], object]] = []

    def time_func(loops: int) -> float:
        if not made:
            made.append(setup())
        stmt = made[0]
        if not collector:
            gc.collect()
            gc.disable()
        try:
            start = clock()
            for _ in range(loops):
                stmt()
            return clock() - start
        finally:
            if not collector:
                gc.enable()

    with _settings(processes=processes):
        return runner().bench_time_func(name, time_func)


def measured(name: str, measure: Callable[[], float], *, processes: int | None = None,
             values: int | None = None) -> pyperf.Benchmark | None:
    """Like `bench`, for a figure that times itself: `measure()` returns the seconds of what it
    timed (a run of operations whose set-up, between them, must not count)."""
    with _settings(processes=processes, values=values):
        return runner().bench_time_func(name, lambda loops: sum(measure() for _ in range(loops)))


def once(name: str, measure: Callable[[], float], *, processes: int | None = None) -> pyperf.Benchmark | None:
    """A cold figure: `measure()` (its own seconds) once in each fresh worker process, no warm-up, one
    loop - what a first import or a first open costs, which only a fresh process shows."""
    with _settings(processes=processes, values=1, warmups=0, loops=1):
        return runner().bench_time_func(name, lambda loops: sum(measure() for _ in range(loops)))


@contextmanager
def _settings(**overrides: int | None) -> Iterator[None]:
    """pyperf's settings for the benchmarks registered inside (the manager passes them to the workers
    on their command line; a worker reads its own); `processes` is a ceiling (`--fast` halves it)."""
    args = runner().args
    saved = {name: getattr(args, name) for name in overrides}
    if not args.worker:
        for name, value in overrides.items():
            if value is not None:
                setattr(args, name, min(value, args.processes) if name == "processes" else value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(args, name, value)


def median(benchmark: pyperf.Benchmark) -> float:
    return float(benchmark.median())


def spread(benchmark: pyperf.Benchmark) -> float:
    """Relative spread of a benchmark's values (standard deviation / mean; 0 with one value)."""
    if benchmark.get_nvalue() < 2:
        return 0.0
    return float(benchmark.stdev() / benchmark.mean())


def ratio(measured: pyperf.Benchmark, peer: pyperf.Benchmark) -> tuple[float, float]:
    """The ratio of the medians, and its relative spread (both benchmarks' spreads combined)."""
    return median(measured) / median(peer), math.hypot(spread(measured), spread(peer))


def ratio_text(measured: pyperf.Benchmark, peer: pyperf.Benchmark, fmt: str = "{:.2f}x") -> str:
    value, relative = ratio(measured, peer)
    return f"{fmt.format(value)} (±{relative:.0%})"


def processes(benchmark: pyperf.Benchmark) -> int:
    """Worker processes whose values the benchmark holds (the calibration run has none)."""
    return sum(1 for run in benchmark.get_runs() if run.values)
