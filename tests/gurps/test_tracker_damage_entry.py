"""The tracker's damage box is `%damage SPEC @NAME`: one parser of damage (GURPS-DMG-01..08), so the box
accepts exactly what the magic accepts, records the same event with the same dice, and refuses what the
magic refuses with the same one-line error, changing nothing."""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.gurps.widgets.tracker import ACTIONS, Tracker
from gamekernel.magics import current_session

FIGHT = "A{DX=10} B{DX=10}"
SPECS = [
    "2d+1 cut", "7 cut", "7", "0", "10001", "3dx5 cr", "1d+2(2) pi", "２d+1 cut", "thr imp",  # accepted or not:
    "7 zap", "-3", "sw+1 cut", "1d(0) cr", "abc", "2d+1 cut cut", "0d cr",  # the magic decides, both agree
]


def _by_tracker(spec: str) -> tuple[str, list[tuple[str, dict]], int]:
    s = Session(seed=1)
    s.combat.start(FIGHT)
    w = Tracker(s)
    before = len(s.log)
    w._on_custom_message(w, {"action": "damage", "name": "B", "spec": spec}, [])
    return w.error, [(e.kind, e.data) for e in s.log[before:]], s.combat.state.get("B").hp


def _by_magic(ip, spec: str) -> tuple[str, list[tuple[str, dict]], int]:
    ip.run_line_magic("combat", f"start {FIGHT}")
    s = current_session()
    before = len(s.log)
    shown = repr(ip.run_line_magic("damage", f"{spec} @B"))
    error = shown.removeprefix("error: ") if shown.startswith("error: ") else ""
    return error, [(e.kind, e.data) for e in s.log[before:]], s.combat.state.get("B").hp


@pytest.mark.parametrize("spec", SPECS)
def test_the_damage_box_accepts_and_refuses_what_percent_damage_does(ip, spec):
    tracker, magic = _by_tracker(spec), _by_magic(ip, spec)
    assert tracker == magic
    error, events, _hp = tracker
    assert bool(error) != bool(events)  # refused: nothing recorded; accepted: no error


def test_both_kinds_of_entry_are_accepted_and_bad_ones_refused(ip):
    """The cases above cover both sides: rolled and table-rolled damage pass, bad text is refused."""
    outcomes = {spec: bool(_by_tracker(spec)[0]) for spec in ("2d+1 cut", "7 cut", "7 zap", "abc", "1d(0) cr")}
    assert outcomes == {"2d+1 cut": False, "7 cut": False, "7 zap": True, "abc": True, "1d(0) cr": True}


def test_every_tracker_action_is_one_entry_of_the_table():
    assert set(ACTIONS) == {"next", "maneuver", "attack", "defend", "damage", "end", "mortal", "wake", "join", "leave",
                            "side", "range", "condition", "lift"}
    s = Session(seed=1)
    s.combat.start(FIGHT)
    w = Tracker(s)
    w._on_custom_message(w, {"action": "fly", "name": "A"}, [])
    assert "fly" in w.error
