"""Run every `benchmarks/bench_*.py` module's `main()` in this one process and print their tables.

A module that fails (a peer not installed, a bug) is reported and the others still run.
"""

from __future__ import annotations

import importlib
import pkgutil
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
    failures = 0
    for name in bench_modules():
        short = name.removeprefix("benchmarks.")
        if wanted and short not in wanted and short.removeprefix("bench_") not in wanted:
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
