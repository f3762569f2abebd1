"""Measure the GCS importer on a whole GCS library folder (e.g. a checkout of GCS's master library).

    python tools/measure_gcs_library.py PATH [--list N]

Imports every `.gcs` file under PATH and counts how many attribute values, skill/technique/spell
levels, Dodge, Parry, Block and thrust/swing our computation gets equal to the file's `calc`.
Prints the % per kind, the files refused, and the remaining differences grouped by kind.
It needs the library locally, so CI does not run it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from gamekernel.errors import GameKernelError
from gamekernel.gurps.rules.gcs import import_gcs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--list", type=int, default=15, help="differences to list per kind")
    args = parser.parse_args(argv)
    files = sorted(args.path.rglob("*.gcs"))
    equal: Counter[str] = Counter()
    total: Counter[str] = Counter()
    differences: dict[str, list[str]] = defaultdict(list)
    refused: list[str] = []
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            result = import_gcs(data, where=path.name)
        except (GameKernelError, ValueError) as error:
            refused.append(f"{path.name}: {error}")
            continue
        for kind, label, gcs, ours in result.comparisons:
            total[kind] += 1
            if gcs == ours:
                equal[kind] += 1
            else:
                differences[kind].append(f"{path.name}: {label}: GCS {gcs}, ours {ours}")
    print(f"{len(files)} character files, {len(files) - len(refused)} imported, {len(refused)} refused")
    for line in refused:
        print("  refused:", line)
    all_equal = sum(equal.values())
    all_total = sum(total.values())
    for kind in sorted(total):
        print(f"{kind:12} {equal[kind]:6}/{total[kind]:<6} {100 * equal[kind] / total[kind]:6.2f}% equal")
    if all_total:
        print(f"{'all':12} {all_equal:6}/{all_total:<6} {100 * all_equal / all_total:6.2f}% equal")
    for kind, lines in sorted(differences.items()):
        print(f"-- {kind}: {len(lines)} differences")
        for line in lines[: args.list]:
            print("  ", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
