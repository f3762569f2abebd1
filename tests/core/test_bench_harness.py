"""The benchmarks' harness (benchmarks/harness.py) on pyperf, run on a tiny benchmark in pyperf's
fast mode: every figure comes from fresh worker processes, a cold figure is measured once in each,
the workers get the manager's path on their command line, and a row is the ratio of two medians of
the same run. Nothing here is timed: the tiny benchmarks report fixed seconds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.__main__ import bench_modules, chosen

ROOT = Path(__file__).resolve().parents[2]

TINY = '''
import os, sys
from pathlib import Path
from benchmarks import harness

def _pid(folder, value):
    (Path(folder) / f"{os.getpid()}.pid").write_text("")
    return value

def main():
    if not harness.is_worker():
        harness.share(sys.argv[-1])
    folder = harness.data()
    warm = harness.measured("warm", lambda: _pid(folder, 0.004))
    peer = harness.measured("peer", lambda: 0.002)
    cold = harness.once("cold", lambda: _pid(folder, 0.003))
    loops = harness.bench("loops", lambda: (lambda: None))
    if harness.is_worker():
        return
    import json
    print(json.dumps({"ratio": harness.ratio(warm, peer)[0], "text": harness.ratio_text(warm, peer),
                      "cold": list(cold.get_values()), "cold processes": harness.processes(cold),
                      "warm processes": harness.processes(warm), "loops": loops.get_nvalue() > 0}))

if __name__ == "__main__":
    main()
'''


def _run_tiny(tmp_path: Path) -> tuple[dict, Path]:
    script = tmp_path / "tiny_bench.py"
    script.write_text(TINY, encoding="utf-8")
    folder = tmp_path / "pids"
    folder.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(script), "--fast", "--min-time=0.001", "--data", str(folder)],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), folder


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    return _run_tiny(tmp_path_factory.mktemp("bench"))


def test_a_row_is_the_ratio_of_two_medians_of_the_same_run(tiny):
    figures, _ = tiny
    assert figures["ratio"] == pytest.approx(2.0)
    assert figures["text"] == "2.00x (±0%)"  # fixed seconds: no spread
    assert figures["loops"]


def test_a_cold_figure_is_one_value_in_each_fresh_process(tiny):
    figures, _ = tiny
    processes = figures["cold processes"]
    assert processes >= 3  # pyperf's fast mode: at least three processes
    assert figures["cold"] == [pytest.approx(0.003)] * processes


def test_the_workers_are_fresh_processes_that_got_the_managers_path(tiny):
    figures, folder = tiny
    pids = {path.stem for path in folder.glob("*.pid")}
    assert str(os.getpid()) not in pids
    # the warm benchmark's workers (and its calibration) and the cold one's: a process each
    assert len(pids) >= figures["warm processes"] + figures["cold processes"]


def test_benchmark_modules_are_chosen_by_short_name():
    names = bench_modules()
    assert "benchmarks.bench_dice" in names and "benchmarks.bench_core" in names
    assert chosen(["dice", "--fast"]) == ["benchmarks.bench_dice"]
    assert chosen(["bench_core"]) == ["benchmarks.bench_core"]
    assert chosen(["--fast"]) == names


def test_an_unknown_benchmark_module_is_refused_by_name():
    with pytest.raises(SystemExit, match=r"no benchmark module dyce: choose from .*dice"):
        chosen(["dyce"])
