"""Foundation benchmarks: magic overhead (c) and extension start-up (d).

(c) a `%roll 3d+2` cell through IPython's run_cell: gamekernel's own share of it, the cell less its floor
    (a magic publishing a ready-made result from the same line), beside an empty magic; the floor cells
    run without gamekernel's every-cell pass, so all that gamekernel adds to the cell counts as its own;
    measured in several fresh processes, the row reading the median one (see `report.in_workers`);
(d) what `%load_ext gamekernel` adds to a bare IPython start, and whether it imports ipywidgets.
"""

from __future__ import annotations

import io
import os
import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout

CELL_REPEATS = 60
CELL_NUMBER = 30
START_RUNS = 7

_START_SCRIPT = r"""
import sys, time  # CPU time of this process: other work on a shared machine does not count
t0 = time.process_time()
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
t1 = time.process_time()
if {load} == "magics":  # the floor: the magics layer without creating the Session
    import gamekernel.magics
    gamekernel.magics._magics_classes()  # every rule set's Magics classes, as %load_ext reaches them
elif {load}:
    shell.run_line_magic("load_ext", "gamekernel")
t2 = time.process_time()
print(t1 - t0, t2 - t1, "ipywidgets" in sys.modules, "anywidget" in sys.modules)
"""


class _Constant:
    """A result that costs nothing to make: the floor of displaying any result at all."""

    def __repr__(self) -> str:
        return "x"

    def _repr_html_(self) -> str:
        return "<b>x</b>"


class _PublishedConstant(_Constant):
    """The same, published the way gamekernel's results are (gamekernel.display.Displayable)."""

    def _ipython_display_(self) -> None:
        from IPython.display import publish_display_data

        publish_display_data({"text/plain": repr(self), "text/html": self._repr_html_()})


def _cell_costs() -> tuple[float, ...]:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "gamekernel")
    shell.run_line_magic("seed", "1")

    def noop(line):  # the baseline: a magic that does nothing and returns nothing
        return None

    shell.register_magic_function(noop, "line", "noop")
    shell.register_magic_function(lambda line: _Constant(), "line", "constant")
    shell.register_magic_function(lambda line: _PublishedConstant(), "line", "published")

    cells = ("%roll 3d+2", "%noop", "%constant", "%published", "%noop 3d+2", "%published 3d+2")
    # the same cell text with a magic that does nothing / publishes a ready-made result: IPython
    # tokenizes the line twice (input transforms, then the displayhook's `;` check) whatever the magic
    best = dict.fromkeys(cells, float("inf"))
    sink = io.StringIO()
    with redirect_stdout(sink):
        for cell in cells:
            for _ in range(20):
                shell.run_cell(cell, store_history=False)
        # round by round, every cell once, in short rounds of this process's CPU time (timeit pauses
        # the collector): other work on a shared machine neither counts nor hits one cell only, and
        # each cell's fastest round counts
        for _ in range(CELL_REPEATS):
            for cell in cells:
                with _ipython_alone(shell, cell != cells[0]):
                    seconds = timeit.timeit(lambda cell=cell: shell.run_cell(cell, store_history=False),
                                            number=CELL_NUMBER, timer=time.process_time)
                best[cell] = min(best[cell], seconds / CELL_NUMBER)
    return tuple(best[cell] for cell in cells)


@contextmanager
def _ipython_alone(shell, alone: bool) -> Iterator[None]:
    """The floor cells run without gamekernel's every-cell pass (magics/echo.py), which gamekernel
    adds to every cell of a notebook: what it costs counts in gamekernel's share, not IPython's."""
    from gamekernel.magics import echo

    names = echo.registered(shell).names if alone else None
    if names is not None:
        echo.unregister(shell)
    try:
        yield
    finally:
        if names is not None:
            echo.register(shell, names)


def _echo_cost(cell: str) -> float:
    """Seconds the every-cell pass adds to one cell: IPython's transforms of it (its input transforms,
    the parse, its AST transforms with the extra walk of the tree while any AST transformer is
    registered), with gamekernel's pass less without it."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "gamekernel")  # the cells ran in worker processes

    def transforms() -> None:
        shell.transform_ast(shell.compile.ast_parse(shell.transform_cell(cell)))

    number = 1000
    both = min(timeit.repeat(transforms, number=number, repeat=CELL_REPEATS, timer=time.process_time))
    with _ipython_alone(shell, True):
        alone = min(timeit.repeat(transforms, number=number, repeat=CELL_REPEATS, timer=time.process_time))
    return max(both - alone, 0.0) / number


def _starts() -> tuple[list, list, list]:
    """Fresh processes, bare and loaded interleaved run by run so that load spikes hit both."""
    # Bytecode caching on, as for any installed package (pip compiles .pyc files at install);
    # the first, discarded runs write the caches of a source checkout.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def one(load: bool | str) -> tuple[float, float, bool, bool]:
        out = subprocess.run(
            [sys.executable, "-c", _START_SCRIPT.format(load=repr(load))], capture_output=True, text=True,
            check=True, env=env,
        ).stdout.split()
        return float(out[0]), float(out[1]), out[2] == "True", out[3] == "True"

    one(False), one(True)
    bare, loaded, magics = [], [], []
    for _ in range(START_RUNS):
        bare.append(one(False))
        loaded.append(one(True))
        magics.append(one("magics"))
    return bare, loaded, magics


def main() -> None:
    from benchmarks.report import Target, in_workers, median_index, ms, spread, targets

    workers = in_workers("benchmarks.bench_core:_cell_costs")
    shares = [(costs[0] - costs[5]) / costs[0] for costs in workers]
    roll, noop, constant, published, noop_text, published_text = workers[median_index(shares)]
    print(f"(c) one cell through InteractiveShell.run_cell (best of {CELL_REPEATS} rounds x {CELL_NUMBER}, "
          "the cells alternated, CPU time of the process; all but %roll without gamekernel's every-cell pass),"
          f" in {len(workers)} fresh processes: the median one's")
    print(f"    %roll 3d+2   {roll * 1e6:9.1f} µs   ({roll / noop:.2f}x the empty magic)")
    print(f"    %noop        {noop * 1e6:9.1f} µs   (an empty magic: returns None, so nothing is displayed)")
    print(f"    %constant    {constant * 1e6:9.1f} µs   ({constant / noop:.2f}x: a ready-made result object shown by "
          "IPython's formatters - the floor for any magic that returns a result)")
    print(f"    %published   {published * 1e6:9.1f} µs   ({published / noop:.2f}x: the same object published directly, "
          "as gamekernel's results are)")
    print(f"    %noop 3d+2   {noop_text * 1e6:9.1f} µs   ({noop_text / noop:.2f}x: the empty magic given "
          "the same line)")
    print(f"    %published 3d+2 {published_text * 1e6:6.1f} µs   ({published_text / noop:.2f}x: a ready-made result "
          "published from the same cell text - the floor for %roll 3d+2)")
    own = roll - published_text
    print(f"    gamekernel's own work in the %roll cell: {own * 1e6:.0f} µs (parse, dice, event, render); "
          "the rest is IPython's")
    print(f"    its share in each process: {', '.join(f'{share:.1%}' for share in shares)}")
    echo = _echo_cost("%roll 3d+2")
    print(f"    the every-cell pass (its gate, the AST pass and IPython's extra walk when armed) adds "
          f"{echo * 1e6:5.1f} µs to the %roll cell ({echo / roll:.1%} of it)")
    print()
    bare, loaded, magics = _starts()
    floor = statistics.median(r[1] / r[0] for r in magics)
    # each loaded process times its own bare start first, then %load_ext: a same-process ratio
    ratio = statistics.median(r[1] / r[0] for r in loaded)
    load_ext = statistics.median(r[1] for r in loaded)
    start = statistics.median(r[0] for r in bare)
    widgets = any(r[2] or r[3] for r in loaded)
    targets(f"(c, d) core costs; (d) in fresh processes, median of {START_RUNS}, CPU time (bytecode caches on, "
            "as installed)", [
        Target("%roll 3d+2 cell: gamekernel's own share (median process)", f"{own * 1e6:.0f} µs of {roll * 1e6:.0f} µs",
               f"floor: a ready-made result published from the same line {published_text * 1e6:.0f} µs",
               f"{own / roll:.0%} of the cell ({spread(shares, '{:.0%}')})", "<= 20%", own / roll <= 0.20),
        Target("%load_ext gamekernel", ms(load_ext), f"bare IPython shell start {ms(start)}", f"{ratio:.2f}x",
               "<= 0.35x", ratio <= 0.35),
        Target("  floor: the magics layer alone (no Session built)", ms(statistics.median(r[1] for r in magics)),
               "bare IPython shell start (same process)", f"{floor:.2f}x", "<= 0.35x", floor <= 0.35),
        Target("widget library imported by %load_ext", "yes" if widgets else "no", "ipywidgets, anywidget", "-",
               "none", not widgets),
    ])


if __name__ == "__main__":
    main()
