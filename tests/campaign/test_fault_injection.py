"""Durability: `kill -9` of a kernel at a random moment loses no event it had recorded."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

from gamekernel import Session

WRITER = r"""
import sys
from gamekernel import Session
session = Session(seed=int(sys.argv[2]))
session.campaign_open(sys.argv[1])
n = 0
while True:
    n += 1
    event = session.note(f"event {n} " + "x" * (n % 97))
    print(session.log[-1].seq, flush=True)  # printed only after record() returned
"""

ITERATIONS = 25


def test_kill_9_at_random_moments_loses_no_recorded_event(tmp_path):
    folder = tmp_path / "campaign"
    chooser = random.Random(20261129)
    confirmed: set[int] = set()
    env = dict(os.environ)
    env.pop("GAMEKERNEL_SEED", None)
    for iteration in range(ITERATIONS):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(folder), str(iteration)],
            stdout=subprocess.PIPE, text=True, env=env,
        )
        # wait until it has written something, then kill it at a random moment
        first = writer.stdout.readline()
        assert first.strip(), "the writer did not start"
        time.sleep(chooser.uniform(0.0, 0.15))
        os.kill(writer.pid, signal.SIGKILL)
        out, _ = writer.communicate()
        confirmed.update(int(line) for line in [first, *out.splitlines()] if line.strip())

        reader = Session()
        status = reader.campaign_open(folder)  # takes over the dead kernel's lock
        on_disk = {e.seq for e in reader.log}
        assert confirmed <= on_disk, f"iteration {iteration}: lost {sorted(confirmed - on_disk)[:5]}"
        assert [e.seq for e in reader.log] == sorted(on_disk)
        assert all("incomplete" in n or "stale lock" in n for n in status.notices)
        reader.campaign_close()
    assert len(confirmed) > ITERATIONS
