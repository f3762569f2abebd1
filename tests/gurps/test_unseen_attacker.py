"""An unseen attacker (GURPS-CMB-51, seed [004:1564]): -4 to every active defense, and Parry or Block
first need a Hearing-2 roll; Dodge does not."""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.errors import RuleError
from gamekernel.gurps.rules import combat as cb
from gamekernel.gurps.rules.combat import AttackOptions, Tape
from gamekernel.gurps.rules.combat.sheets import combatant_from_character
from gamekernel.session import replay


def _fight(hearing=12, **defender):
    a = cb.quick_combatant("Ann", {"st": 11, "dx": 14, "ht": 12, "weapon": "Sword:14:sw cut"})
    d = cb.quick_combatant("Dan", {"st": 10, "dx": 12, "ht": 10, "weapon": "Sword:12:sw cut", "hearing": hearing,
                                   **defender})
    state = cb.start_combat([a, d], Tape())
    state, report = cb.attack(state, "Ann", "Dan", "Sword", Tape(faces=[3, 3, 4]), AttackOptions(unseen=True))
    assert report.attack.hit and state.pending is not None and report.hearing_needed
    return state


def test_gurps_cmb_51_hearing_roll_before_parry_then_parry_at_minus_4():
    state, report = cb.defend(_fight(), "Dan", "parry", Tape(faces=[3, 3, 4, 1, 1, 1]))
    hearing, = report.checks
    assert hearing.label == "Hearing" and hearing.target == 10 and hearing.success
    assert report.roll.label == "Parry (Sword)" and (-4, "attacker unseen") in report.roll.modifiers
    assert state.pending is None and report.damage is None


def test_gurps_cmb_51_boundary_hearing_exactly_at_target():
    _, heard = cb.defend(_fight(), "Dan", "parry", Tape(faces=[4, 3, 3, 1, 1, 1]))
    assert heard.checks[0].total == 10 and heard.checks[0].success
    _, missed = cb.defend(_fight(), "Dan", "parry", Tape(faces=[4, 4, 3]))
    assert missed.checks[0].total == 11 and not missed.checks[0].success and missed.unheard


def test_gurps_cmb_51_failed_hearing_leaves_only_dodge():
    state, report = cb.defend(_fight(), "Dan", "parry", Tape(faces=[6, 6, 5]))
    assert report.unheard and report.roll is None and [k for k, _ in report.again] == ["dodge"]
    assert state.pending is not None and state.pending.hearing == "unheard"
    with pytest.raises(RuleError, match="did not hear"):
        cb.defend(state, "Dan", "parry", Tape(faces=[1, 1, 1]))
    state, report = cb.defend(state, "Dan", "dodge", Tape(faces=[1, 1, 1]))
    assert report.checks == () and (-4, "attacker unseen") in report.roll.modifiers and state.pending is None


def test_gurps_cmb_51_dodge_needs_no_hearing_roll():
    _, report = cb.defend(_fight(), "Dan", "dodge", Tape(faces=[1, 1, 1]))
    assert report.checks == () and report.roll.label == "Dodge"


def test_gurps_cmb_51_seen_attacker_needs_no_hearing_roll():
    a = cb.quick_combatant("Ann", {"dx": 14, "ht": 12, "weapon": "Sword:14:sw cut"})
    d = cb.quick_combatant("Dan", {"weapon": "Sword:12:sw cut"})
    state = cb.start_combat([a, d], Tape())
    state, report = cb.attack(state, "Ann", "Dan", "Sword", Tape(faces=[3, 3, 4]))
    assert not report.hearing_needed
    _, report = cb.defend(state, "Dan", "parry", Tape(faces=[1, 1, 1]))
    assert report.checks == () and report.roll.label == "Parry (Sword)"  # names its weapon (GURPS-CMB-46)


def test_gurps_sr_05_hearing_below_3_is_not_rolled_and_fails():
    state, report = cb.defend(_fight(hearing=4), "Dan", "parry", Tape(faces=[]))
    assert report.checks[0].refused and report.unheard and state.pending.hearing == "unheard"


def test_gurps_cmb_51_no_defense_left_means_the_hit_lands():
    a = cb.quick_combatant("Ann", {"st": 11, "dx": 14, "ht": 12, "weapon": "Sword:14:sw cut"})
    d = cb.quick_combatant("Dan", {"weapon": "Sword:12:sw cut"})
    state = cb.start_combat([a, d], Tape())
    state, _ = cb.next_turn(state, Tape())
    state, _ = cb.choose_maneuver(state, "Dan", "all_out_defense", Tape(), option="double")
    state, _ = cb.next_turn(state, Tape())
    state, _ = cb.attack(state, "Ann", "Dan", "Sword", Tape(faces=[3, 3, 4]), AttackOptions(unseen=True))
    state, report = cb.defend(state, "Dan", "dodge", Tape(faces=[6, 6, 4]))
    assert [k for k, _ in report.again] == ["parry"]
    state, report = cb.defend(state, "Dan", "parry", Tape(faces=[6, 6, 5, 3, 3, 3, 3, 3]))
    assert report.unheard and report.damage is not None and state.pending is None


def test_gurps_cmb_51_character_hearing_includes_acute_hearing():
    s = Session(seed=1)
    c = s.gurps.char_new("Dan", iq=11, traits=[("Acute Hearing", 2)])
    assert combatant_from_character(c).hearing == 13


def test_gurps_cmb_51_through_the_session_and_magics(ip):
    from gamekernel.magics import current_session

    ip.run_line_magic("combat", "start Ann{ST=11,DX=14,HT=12,weapon=Sword:14:sw cut} "
                                "Dan{ST=10,DX=12,HT=10,per=12,weapon=Sword:12:sw cut}")
    s = current_session()
    for _ in range(30):  # attack until a non-critical hit waits for Dan's defense
        result = ip.run_line_magic("attack", "Ann -> Dan Sword unseen")
        if s.combat.state.pending is not None:
            break
        s.combat.next()
        s.combat.next()
    assert "Hearing−2" in str(result)
    answer = ip.run_line_magic("defend", "Dan parry")
    assert "Hearing" in str(answer)
    assert replay(s.active).to_dict() == s.state.to_dict()


def test_gurps_cmb_51_snapshot_round_trip_keeps_the_hearing_outcome():
    """Campaign snapshots: the pending attack's Hearing outcome and the combatants' Hearing survive."""
    state, _ = cb.defend(_fight(), "Dan", "parry", Tape(faces=[6, 6, 5]))
    again = cb.CombatState.from_dict(state.to_dict())
    assert again == state and again.pending.hearing == "unheard" and again.get("Dan").hearing == 12
