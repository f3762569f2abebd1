"""SIGINT at random moments ("Interrupt kernel" again and again) loses no event and every campaign
reopens: a writer records notes and undos, each interrupt ends only the command it hit (as a
kernel does), and what the writer confirmed must be in the reopened campaign, numbered 1, 2, 3 ...

The fast suite runs a small seeded sample; `-m slow` runs 50 writers (GAMEKERNEL_SIGINT_RUNS for more).
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time

import pytest

from gamekernel import Session

WRITER = r"""
import os
import signal
import sys
from gamekernel import Session
signal.signal(signal.SIGINT, signal.default_int_handler)  # as a kernel does, even if started with it ignored
session = Session(seed=int(sys.argv[2]))
session.campaign_open(sys.argv[1])
print("ready", flush=True)
done = interrupted = 0
finished = False
while not finished:
    try:  # a second interrupt can land while the first is being counted: counted here, out of the loop
        while True:
            try:  # the whole loop body: a kernel catches an interrupt wherever it lands
                if os.path.exists(sys.argv[3]):  # the parent's sign that it sent every interrupt
                    finished = True
                    break
                if done % 7 == 6:
                    session.undo()
                else:
                    session.note(f"event {done} " + "x" * (done % 97))
                done += 1
                print("ok", session.log[-1].seq, flush=True)  # printed only once record() returned
            except KeyboardInterrupt:
                interrupted += 1
    except KeyboardInterrupt:
        interrupted += 1
session.campaign_close()
# a new line first: an "ok N" print an interrupt cut before its newline would otherwise run into it
print("\ninterrupted", interrupted, flush=True)
print("end", session.log[-1].seq, flush=True)
"""


def run_writer(folder, seed: int, chooser: random.Random, interrupts: int = 12) -> dict:
    """One writer interrupted `interrupts` times at random moments; what it confirmed and reported."""
    env = {k: v for k, v in os.environ.items() if k != "GAMEKERNEL_SEED"}
    stop = folder.parent / f"{folder.name}.stop"
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(folder), str(seed), str(stop)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert writer.stdout.readline().strip() == "ready"
        for _ in range(interrupts):
            time.sleep(chooser.uniform(0.0, 0.03))
            os.kill(writer.pid, signal.SIGINT)
    finally:
        stop.touch()
    out, err = writer.communicate(timeout=120)
    assert writer.returncode == 0, (out[-300:], err[-3000:])
    # a line an interrupt cut in the middle of its print ("ok 12ok 13") confirms nothing
    words = [line.split() for line in out.splitlines() if re.fullmatch(r"[a-z]+ \d+", line)]
    return {"confirmed": {int(w[1]) for w in words if w[0] == "ok"},
            "interrupted": next(int(w[1]) for w in words if w[0] == "interrupted"),
            "end": next(int(w[1]) for w in words if w[0] == "end")}


def check_runs(tmp_path, runs: int, seed: int) -> tuple[int, int]:
    chooser = random.Random(seed)
    interrupted = confirmed = 0
    for run in range(runs):
        folder = tmp_path / f"campaign-{run}"
        outcome = run_writer(folder, run, chooser)
        reader = Session()
        reader.campaign_open(folder)  # every campaign reopens
        seqs = [e.seq for e in reader.log]
        assert seqs == list(range(1, len(seqs) + 1))
        assert outcome["confirmed"] <= set(seqs), f"run {run}: lost {sorted(outcome['confirmed'] - set(seqs))[:5]}"
        assert seqs[-2] == outcome["end"]  # memory and disk agreed at the end (the last is this campaign.open)
        reader.campaign_close()
        interrupted += outcome["interrupted"]
        confirmed += len(outcome["confirmed"])
    return interrupted, confirmed


def test_sigint_at_random_moments_loses_nothing_seeded_sample(tmp_path):
    interrupted, confirmed = check_runs(tmp_path, runs=2, seed=20261201)
    assert interrupted >= 5 and confirmed > 20


@pytest.mark.slow
def test_sigint_at_random_moments_loses_nothing_50_runs(tmp_path):
    runs = int(os.environ.get("GAMEKERNEL_SIGINT_RUNS", "50"))
    interrupted, confirmed = check_runs(tmp_path, runs=runs, seed=7)
    print(f"{runs} runs, {interrupted} interrupts, {confirmed} confirmed events, 0 lost")
    assert interrupted >= runs * 5
