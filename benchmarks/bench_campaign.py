"""Opening a campaign with 100,000 events (issue 7): with its snapshot, and by full replay.

The campaign is written once in a temporary folder (a mix of the event kinds that the session
offers), then opened in fresh processes; the target is under 2 s with the snapshot.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

EVENTS = 100_000
RUNS = 3

_OPEN = r"""
import json, sys, time
t0 = time.perf_counter()
from gamekernel import Session
session = Session()
if sys.argv[2] == "replay":
    (__import__("pathlib").Path(sys.argv[1]) / "snapshot.json").unlink(missing_ok=True)
status = session.open_campaign(sys.argv[1])
t1 = time.perf_counter()
session.close_campaign() if sys.argv[2] == "snapshot" else None
print(json.dumps({"seconds": t1 - t0, "events": len(session.log)}))
"""


def build(folder: Path, events: int = EVENTS) -> None:
    """Fill a campaign with `events` events, mixing the kinds a session records."""
    from gamekernel import Session

    session = Session(seed=1)
    session.open_campaign(folder)
    makers = _makers(session)
    i = 0
    while len(session.log) < events:
        makers[i % len(makers)](i)
        i += 1
    session.close_campaign()


def _makers(session):
    makers = [lambda i: session.note(f"note {i}"), lambda i: session.roll("3d6+2 attack")]
    if hasattr(session, "extra_benchmark_events"):
        makers.extend(session.extra_benchmark_events())
    return makers


def _open(folder: Path, mode: str) -> dict:
    out = subprocess.run([sys.executable, "-c", _OPEN, str(folder), mode], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def main() -> None:
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "campaign"
        build(folder)
        snap = [_open(folder, "snapshot")["seconds"] for _ in range(RUNS)]
        replay = _open(folder, "replay")
    best = min(snap)
    print(f"Opening a campaign of {EVENTS:,} events in a fresh process (import included)")
    print(f"    with snapshot    median {statistics.median(snap):6.2f} s  best {best:6.2f} s   target < 2 s  "
          f"{'met' if best < 2 else 'NOT met'}")
    print(f"    full replay      {replay['seconds']:6.2f} s")


if __name__ == "__main__":
    main()
