"""Run every `benchmarks/bench_*.py` module and print their tables: `python -m benchmarks [dice ...]
[pyperf options]`.

Each module runs as `python -m benchmarks.bench_<name>` in a process of its own: what a module leaves
behind (a heap of a million events, the shells it made) must not move the next one's figures, and a
module that times with pyperf (`benchmarks.harness`) is run again by pyperf as its worker processes.
Options (words starting with `-`, such as `--fast` or `--rigorous`) go to every module's pyperf
runner; GAMEKERNEL_BENCH_QUICK=1 adds `--fast`. A module that fails (a peer not installed, a bug) is
reported and the others still run.
"""

from __future__ import annotations

import os
import pkgutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def bench_modules() -> list[str]:
    folder = Path(__file__).parent
    return sorted(
        f"benchmarks.{info.name}"
        for info in pkgutil.iter_modules([str(folder)])
        if info.name.startswith("bench_")
    )


def chosen(words: list[str]) -> list[str]:
    """The modules `words` name (`dice` or `bench_dice`), every one when none is named; an unknown
    name is refused, naming the known ones."""
    names = bench_modules()
    wanted = [word for word in words if not word.startswith("-")]
    short = {name.removeprefix("benchmarks."): name for name in names}
    short.update({key.removeprefix("bench_"): name for key, name in list(short.items())})
    unknown = [word for word in wanted if word not in short]
    if unknown:
        raise SystemExit(f"no benchmark module {', '.join(unknown)}: choose from "
                         f"{', '.join(name.removeprefix('benchmarks.bench_') for name in names)}")
    return [name for name in names if not wanted or name in {short[word] for word in wanted}]


def main(argv: list[str]) -> int:
    modules = chosen(argv)
    options = [word for word in argv if word.startswith("-")]
    if os.environ.get("GAMEKERNEL_BENCH_QUICK") and "--fast" not in options:
        options.append("--fast")
    failures = 0
    for name in modules:
        short = name.removeprefix("benchmarks.")
        print(f"\n=== {short} ===", flush=True)
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", name, *options], cwd=ROOT, check=False)
        if done.returncode != 0:  # keep going: one broken benchmark must not hide the others
            failures += 1
            print(f"{short} failed (exit status {done.returncode})", flush=True)
        print(f"({short}: {time.perf_counter() - started:.1f} s)", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
