"""kill -9 at random moments: a writer records events into a campaign in a loop (notes, undos and
snapshot saves, so that some kills land inside an atomic write) and is SIGKILLed after a seeded
random delay; then the campaign reopens. Checked: every event the writer confirmed (printed after
`record` returned) is in the reopened campaign, the events are numbered 1, 2, 3 ... with no gap,
and no `.tmp` file is left in the folder after the opening.

    python tools/kill_campaign.py --runs 90 --seed 1

The CI test (`tests/campaign/test_kill9.py`) runs a seeded sample of the same code.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

WRITER = r"""
import sys
from gamekernel import Session
session = Session(seed=int(sys.argv[2]))
session.campaign_open(sys.argv[1])
print("ready", flush=True)
done = 0
while True:
    if done % 7 == 6:
        session.undo()
    elif done % 5 == 4:
        session.campaign_save()  # an atomic snapshot write: a kill may land inside it
    else:
        session.note(f"event {done} " + "x" * (done % 97))
    done += 1
    print("ok", session.log[-1].seq, flush=True)  # printed only once record() returned
"""


@dataclass
class Outcome:
    """The figures of a series of runs."""

    runs: int = 0
    confirmed: int = 0
    lost: list[tuple[int, list[int]]] = field(default_factory=list)  # (run, seqs confirmed but missing)
    gaps: list[int] = field(default_factory=list)  # runs whose reopened log is not numbered 1, 2, 3 ...
    temps_before: int = 0  # runs whose folder held a .tmp file when the writer died
    temps_after: list[tuple[int, list[str]]] = field(default_factory=list)  # .tmp files left after opening
    seconds: float = 0.0

    @property
    def failures(self) -> list[object]:
        return [*self.lost, *self.gaps, *self.temps_after]

    def summary(self) -> str:
        return (f"{self.runs} runs killed with SIGKILL, {self.confirmed} confirmed events, "
                f"{sum(len(seqs) for _, seqs in self.lost)} lost, {len(self.gaps)} numbering gaps; "
                f".tmp left by the kill in {self.temps_before} of {self.runs} runs, "
                f"left after reopening in {len(self.temps_after)}; {self.seconds:.1f} s")


def temps(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*.tmp"))


def kill_writer(folder: Path, seed: int, delay: float) -> set[int]:
    """Start a writer on `folder`, SIGKILL it `delay` seconds after it is ready; the seqs it confirmed."""
    env = {k: v for k, v in os.environ.items() if k != "GAMEKERNEL_SEED"}
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(folder), str(seed)],
                              stdout=subprocess.PIPE, text=True, env=env)
    try:
        if writer.stdout is None or writer.stdout.readline().strip() != "ready":
            raise RuntimeError(f"the writer did not start (exit {writer.poll()})")
        time.sleep(delay)
    finally:
        writer.send_signal(signal.SIGKILL)
    out, _ = writer.communicate(timeout=60)
    # a line the kill cut in the middle ("ok 1") may be a prefix of the real number: only whole lines count
    lines = out.splitlines()
    if lines and not out.endswith("\n"):
        lines = lines[:-1]
    return {int(m.group(1)) for line in lines if (m := re.fullmatch(r"ok (\d+)", line))}


def check_runs(root: Path, runs: int, seed: int, *, longest: float = 0.4) -> Outcome:
    """`runs` writers, each killed after a seeded random delay of up to `longest` seconds."""
    from gamekernel import Session

    started = time.perf_counter()
    chooser = random.Random(seed)
    outcome = Outcome()
    for run in range(runs):
        folder = root / f"campaign-{run}"
        confirmed = kill_writer(folder, run, chooser.uniform(0.0, longest))
        outcome.runs += 1
        outcome.confirmed += len(confirmed)
        outcome.temps_before += bool(temps(folder))
        reader = Session()
        reader.campaign_open(folder)
        left = temps(folder)
        seqs = [e.seq for e in reader.log]
        reader.campaign_close()
        if left:
            outcome.temps_after.append((run, left))
        if seqs != list(range(1, len(seqs) + 1)):
            outcome.gaps.append(run)
        missing = sorted(confirmed - set(seqs))
        if missing:
            outcome.lost.append((run, missing[:10]))
    outcome.seconds = time.perf_counter() - started
    return outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=90, help="how many writers to kill")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the kill moments")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gk-kill-") as scratch:
        outcome = check_runs(Path(scratch), args.runs, args.seed)
    print(outcome.summary())
    for failure in outcome.failures[:20]:
        print(" ", failure)
    return 1 if outcome.failures else 0


if __name__ == "__main__":
    sys.exit(main())
