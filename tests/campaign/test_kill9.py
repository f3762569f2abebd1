"""kill -9 for real: a writer recording into a campaign is SIGKILLed at seeded random moments
(`tools/kill_campaign.py`, whose code this runs); the campaign reopens with no confirmed event lost,
numbered 1, 2, 3 ... and no `.tmp` file left after the opening (a kill inside an atomic write
leaves one; the opening removes it). The full run: `python tools/kill_campaign.py --runs 90`."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "kill_campaign.py"


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("kill_campaign", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules["kill_campaign"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("kill_campaign", None)


def test_sigkill_at_random_moments_loses_nothing_and_leaves_no_tmp_after_open(tmp_path, tool):
    outcome = tool.check_runs(tmp_path, runs=20, seed=20261201)
    assert outcome.runs == 20 and outcome.confirmed > 20
    assert outcome.failures == [], outcome.summary()


def test_without_the_cleanup_on_open_the_temps_a_kill_left_are_reported(tmp_path, tool, monkeypatch):
    """The check can fail: with the opening's stale-temp cleanup switched off, every run whose kill
    left a `.tmp` is reported as one left after reopening."""
    from gamekernel import campaign

    monkeypatch.setattr(campaign, "remove_stale_temps", lambda root: 0)
    outcome = tool.check_runs(tmp_path, runs=6, seed=5)
    assert len(outcome.temps_after) == outcome.temps_before
    assert not outcome.lost and not outcome.gaps


def test_temps_finds_a_temp_file_anywhere_in_the_folder(tmp_path, tool):
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / ".core.json.1a2b3c4d.tmp").write_text("half", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert tool.temps(tmp_path) == [str(Path("state") / ".core.json.1a2b3c4d.tmp")]
