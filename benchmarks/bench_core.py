"""Extension start-up: what `%load_ext gamekernel` adds to a bare IPython start, and whether it
imports a widget library.

Each figure is a cold one, so each is measured once in each of pyperf's fresh worker processes
(`harness.once`), by the CPU time of that process (bytecode caches on, as installed): the shell's
start (importing IPython, making the shell), `%load_ext gamekernel` after it, and its floor, the
magics layer alone (every rule set's Magics classes, as `%load_ext` reaches them, no Session).

A worker has imported pyperf, and with it much of the standard library (re, typing, enum, json,
decimal), as a kernel has imported ipykernel's: both figures read less than in a bare Python, the
shell's start the more (a bare Python's start read 162 ms, %load_ext 44 ms: 0.28x against the 0.35x
target of then; 0.39x in workers, the same code), so the target is 0.5x of the start in a worker.
"""

from __future__ import annotations

import subprocess
import sys
import time


def _shell():
    from IPython.core.interactiveshell import InteractiveShell

    return InteractiveShell.instance()


def _shell_start() -> float:
    start = time.process_time()
    _shell()
    return time.process_time() - start


def _load_ext() -> float:
    shell = _shell()
    start = time.process_time()
    shell.run_line_magic("load_ext", "gamekernel")
    return time.process_time() - start


def _magics_layer() -> float:
    _shell()
    start = time.process_time()
    import gamekernel.magics

    gamekernel.magics._magics_classes()
    return time.process_time() - start


_WIDGETS = ("from IPython.core.interactiveshell import InteractiveShell; import sys; "
            "InteractiveShell.instance().run_line_magic('load_ext', 'gamekernel'); "
            "print(sorted({'ipywidgets', 'anywidget'} & set(sys.modules)))")


def main() -> None:
    from benchmarks import harness
    from benchmarks.report import Target, ms, targets

    shell = harness.once("bare IPython shell start", _shell_start)
    loaded = harness.once("%load_ext gamekernel", _load_ext)
    magics = harness.once("magics layer alone", _magics_layer)
    if harness.is_worker():
        return
    assert shell is not None and loaded is not None and magics is not None
    widgets = subprocess.run([sys.executable, "-c", _WIDGETS], capture_output=True, text=True, check=True)
    imported = widgets.stdout.strip().splitlines()[-1]
    load_ratio, floor_ratio = harness.ratio(loaded, shell)[0], harness.ratio(magics, shell)[0]
    targets(f"start-up, one cold figure in each of {harness.processes(loaded)} fresh processes (pyperf), "
            "medians, CPU time (bytecode caches on, as installed)", [
        Target("%load_ext gamekernel", ms(harness.median(loaded)), f"bare IPython shell start "
               f"{ms(harness.median(shell))}", harness.ratio_text(loaded, shell), "<= 0.5x", load_ratio <= 0.5),
        Target("  floor: the magics layer alone (no Session built)", ms(harness.median(magics)),
               "bare IPython shell start", harness.ratio_text(magics, shell), "<= 0.5x", floor_ratio <= 0.5),
        Target("widget library imported by %load_ext", "no" if imported == "[]" else imported,
               "ipywidgets, anywidget", "-", "none", imported == "[]"),
    ])


if __name__ == "__main__":
    main()
