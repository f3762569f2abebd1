"""Measure, at the play layer, every number a GM sees or rolls for the characters of a GCS library.

    python tools/measure_gcs_play.py PATH [--list N] [--kind KIND]
    GCS_LIBRARY=PATH python tools/measure_gcs_play.py

Loads each `.gcs` file under PATH as `%char load` does (`Session().gurps.char_import`), then reads
each value where the table uses it: the sheet's attributes and secondary characteristics, what
`%check` rolls against for each skill, technique and spell, `%fright`'s target and the sense rolls,
the fight's Dodge/Parry/Block (a combatant made as `%combat add` makes it, its usual defences),
each weapon's level and the damage `%attack` rolls, the point total, Basic Lift and encumbrance.
Each is compared with the value the file carries (GCS's own `calc`). Prints the agreement, the
files refused, and the differences grouped by kind and by cause. Measuring the importer's internal
recomputation is tools/measure_gcs_library.py; this one measures what reaches the table, with the
comparison `%char load` and `%char diff` report (gamekernel/gurps/gcs_play.py).
The library is never part of the project: give its path, CI does not run this.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections import Counter, defaultdict
from pathlib import Path

from gamekernel.errors import GameKernelError
from gamekernel.gurps.gcs_play import Row, play_comparisons
from gamekernel.table_session import Session


def measure(path: Path) -> list[Row]:
    """Every compared value of one file, loaded as `%char load` loads it."""
    data = json.loads(path.read_text(encoding="utf-8"))
    ch = Session().gurps.char_import(path).character
    return play_comparisons(data, ch)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, nargs="?", default=os.environ.get("GCS_LIBRARY"))
    parser.add_argument("--list", type=int, default=8, help="differences to list per kind")
    parser.add_argument("--kind", default="", help="list every difference of this kind")
    args = parser.parse_args(argv)
    if not args.path:
        parser.error("give the library's path (or set GCS_LIBRARY)")
    files = sorted(Path(args.path).rglob("*.gcs"))
    equal: Counter[str] = Counter()
    total: Counter[str] = Counter()
    differences: dict[str, list[str]] = defaultdict(list)
    files_differing: set[str] = set()
    refused: list[str] = []
    for path in files:
        try:
            rows = measure(path)
        except (GameKernelError, ValueError) as error:
            refused.append(f"{path.name}: {error}")
            continue
        except Exception:
            refused.append(f"{path.name}: TRACEBACK {traceback.format_exc().splitlines()[-1]}")
            continue
        for kind, label, gcs, ours in rows:
            total[kind] += 1
            if gcs == ours:
                equal[kind] += 1
            else:
                files_differing.add(path.name)
                differences[kind].append(f"{path.name}: {label}: GCS {gcs}, ours {ours}")
    print(f"{len(files)} character files, {len(files) - len(refused)} loaded, {len(refused)} refused")
    for line in refused:
        print("  refused:", line)
    for kind in sorted(total):
        print(f"{kind:14} {equal[kind]:6}/{total[kind]:<6} {100 * equal[kind] / total[kind]:6.2f}% equal")
    all_equal, all_total = sum(equal.values()), sum(total.values())
    if all_total:
        print(f"{'all':14} {all_equal:6}/{all_total:<6} {100 * all_equal / all_total:6.2f}% equal "
              f"({all_total - all_equal} differ, in {len(files_differing)} files)")
    for kind, lines in sorted(differences.items()):
        shown = lines if kind == args.kind else lines[: args.list]
        print(f"-- {kind}: {len(lines)} differences")
        for line in shown:
            print("  ", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
