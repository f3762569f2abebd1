"""The benchmarks' worker processes (benchmarks/report.py): a row that reads several fresh processes
reads the median one, and says the spread."""

from __future__ import annotations

import platform

import pytest

from benchmarks.report import alternated, in_workers, median_index, spread


def test_median_index_picks_the_middle_value():
    assert median_index([0.19, 0.17, 0.18]) == 2
    assert median_index([3.0, 1.0, 2.0, 4.0, 5.0]) == 0
    # an even count: the lower of the two middle ones
    assert median_index([4.0, 1.0, 3.0, 2.0]) == 3
    assert median_index([7.0]) == 0


def test_spread_names_the_range_and_the_count():
    assert spread([0.18, 0.17, 0.194], "{:.0%}") == "17%-19% over 3 processes"
    assert spread([2.16, 2.27], "{:.2f}x") == "2.16x-2.27x over 2 processes"


def test_each_worker_is_a_fresh_process_returning_json():
    """Each worker runs the named function in a process of its own and hands back what it returned."""
    assert in_workers("platform:python_version", 2) == [platform.python_version()] * 2
    pids = in_workers("os:getpid", 2)
    assert len(set(pids)) == 2 and all(isinstance(pid, int) for pid in pids)


def test_a_failing_worker_says_what_failed():
    with pytest.raises(RuntimeError, match="os:no_such_function failed in a worker process"):
        in_workers("os:no_such_function", 1)


def test_alternated_runs_each_statement_every_round_and_keeps_its_fastest():
    calls: list[str] = []
    best = alternated([lambda: calls.append("a"), lambda: calls.append("b")], number=3, rounds=2)
    assert calls == ["a"] * 3 + ["b"] * 3 + ["a"] * 3 + ["b"] * 3
    assert len(best) == 2 and all(0 < seconds < 1 for seconds in best)
