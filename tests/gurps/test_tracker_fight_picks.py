"""The tracker's picks, as the widget syncs them: the active fighter's weapon menu in the kernel's order
with the first pick per maneuver (GURPS-CMB-30/31), his default target on the other side, the Parry
offered once per weapon and named (GURPS-CMB-46), a used defense listed with its rule, the damage
box's first pick the last attack's target, and the side and range boxes as session calls (logged,
undoable)."""

from __future__ import annotations

from pathlib import Path

from gamekernel import Session
from gamekernel.gurps.widgets.tracker import Tracker

DATA = Path(__file__).parent / "data"


def _tracker(seed: int = 3) -> tuple[Session, Tracker]:
    s = Session(seed=seed)
    s.gurps.char_import(DATA / "gcs" / "troll.gcs", side="foes")
    s.gurps.char_import(DATA / "aiko.gcs")
    s.combat.start("Troll Aiko")
    return s, Tracker(s)


def _act(w: Tracker, **message) -> None:
    w._on_custom_message(w, message, [])
    assert not w.error, w.error


def test_the_picks_name_the_best_weapon_and_the_foe():
    s, w = _tracker()
    active = s.combat.state.current.name
    assert w.picks["name"] == active
    assert w.picks["target"] == ("Troll" if active != "Troll" else "Aiko Tanaka")
    troll = Tracker(s).session.combat.picks("Troll")
    assert troll["best"]["attack"] == "Axe"
    assert [row[1] for row in troll["menu"]] == ["Small Knife (Swung)", "Axe", "Bite", "Punch", "Kick"]
    assert [row[2] for row in troll["menu"]] == ["weapon", "weapon", "natural", "natural", "natural"]


def _hit_on_the_troll() -> tuple[Session, Tracker]:
    for seed in range(1, 60):
        s, w = _tracker(seed)
        while s.combat.state.current.name != "Aiko Tanaka":
            _act(w, action="next")
        _act(w, action="attack", attacker="Aiko Tanaka", target=w.picks["target"], weapon=w.picks["best"]["attack"])
        if s.combat.state.pending is not None:
            return s, w
    raise AssertionError("no hit waited for a defense")


def test_gurps_cmb_46_parry_is_offered_per_weapon_and_the_chosen_one_is_rolled():
    s, w = _hit_on_the_troll()
    assert w.last_target == "Troll"  # the damage box's first pick
    options = w.offered["options"]
    assert options[0] == ["parry", 10, "Parry 10 (Axe)", "Axe"]
    assert ["parry", 9, "Parry 9 (Punch)", "Natural Attacks (Punch)"] in options
    assert w.offered["refused"] == []
    _act(w, action="defend", name="Troll", kind="parry", weapon="Natural Attacks (Punch)")
    assert s.log[-1].data["args"]["weapon"] == "Natural Attacks (Punch)"
    assert "Parry (Natural Attacks (Punch))" in w.result_html


def test_gurps_cmb_46_a_used_parry_stays_listed_disabled_with_its_rule():
    """The Troll parries A's hit; B's hit in the same round finds the parry used: it is listed as
    refused, with the rule's words (one parry per turn), and Parry is not offered."""
    for seed in range(1, 80):
        s = Session(seed=seed)
        s.combat.start(["A{DX=14,pc=1,speed=7,weapon=Sword:14:sw cut}", "B{DX=14,pc=1,speed=6,weapon=Sword:14:sw cut}",
                        "T{DX=9,speed=5,weapon=Axe:12:sw cut}"])
        w = Tracker(s)
        _act(w, action="attack", attacker="A", target="T", weapon="Sword")
        if s.combat.state.pending is None:
            continue
        _act(w, action="defend", name="T", kind="parry")
        _act(w, action="next")
        _act(w, action="attack", attacker="B", target="T", weapon="Sword")
        if s.combat.state.pending is None:
            continue
        assert [o[0] for o in w.offered["options"]] == ["dodge"]
        assert w.offered["refused"] == [["parry", "already parried this turn: one parry per turn (GURPS-CMB-46)",
                                         "Parry"]]
        return
    raise AssertionError("no two hits waited for the Troll's defense")


def test_side_and_range_boxes_are_session_calls():
    s, w = _tracker()
    _act(w, action="side", name="Troll", side="neutral")
    assert s.combat.state.get("Troll").side == "neutral" and s.log[-1].kind == "combat.side"
    assert w.picks["target"] == ""  # nobody hostile left
    _act(w, action="side", name="Troll", side="foes")
    active = s.combat.state.current.name
    other = "Troll" if active != "Troll" else "Aiko Tanaka"
    _act(w, action="range", a=active, b=other, distance="５")  # full-width digits, as typed in Japanese
    assert w.picks["ranges"] == {other: 5.0}
    _act(w, action="range", a=active, b=other, distance="-1")
    assert w.picks["ranges"] == {other: 4.0}
    w._on_custom_message(w, {"action": "range", "a": active, "b": other, "distance": "far"}, [])
    assert "distance" in w.error and w.picks["ranges"] == {other: 4.0}
