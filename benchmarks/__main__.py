"""Run every `benchmarks/bench_*.py` module's `main()` and print their tables.

Each module runs in a fresh process of its own (one named alone runs in this one): what a module
leaves behind - a heap of a million events, the collector's generations, the shells it made - made
the next ones' ratios swing (json.loads of the MtG file from 0.9 to 1.7 s, d20 against our dice
1.96x-2.13x by the state of the process). A module that fails (a peer not installed, a bug) is
reported and the others still run.
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import time
import traceback
from pathlib import Path


def bench_modules() -> list[str]:
    folder = Path(__file__).parent
    return sorted(
        f"benchmarks.{info.name}"
        for info in pkgutil.iter_modules([str(folder)])
        if info.name.startswith("bench_")
    )


def main(argv: list[str]) -> int:
    wanted = set(argv)
    chosen = [name for name in bench_modules()
              if not wanted or (short := name.removeprefix("benchmarks.")) in wanted
              or short.removeprefix("bench_") in wanted]
    failures = 0
    for name in chosen:
        short = name.removeprefix("benchmarks.")
        if len(chosen) > 1:  # a fresh process (it prints its own table): its figures owe nothing to the ones before
            failures += subprocess.run([sys.executable, "-m", "benchmarks", short], check=False).returncode != 0
            continue
        print(f"\n=== {short} ===", flush=True)
        started = time.perf_counter()
        try:
            importlib.import_module(name).main()
        except Exception:  # keep going: one broken benchmark must not hide the others
            failures += 1
            print(f"{short} failed:\n{traceback.format_exc()}", flush=True)
        print(f"({short}: {time.perf_counter() - started:.1f} s)", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
