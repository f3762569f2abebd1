"""Range and reach as numbers: `%combat range Aiko Orc 12m` sets a pair's distance once, a step moves
it; a ranged attack then takes the size and speed/range modifier of the seed's table (GURPS-CMB-37,
CMB-39, seed [004:1501-1520]) named in the roll, and a melee attack out of its weapon's reach is
refused in one line (GURPS-CMB-14: "the target must be within reach", seed [004:1401]), changing
nothing. Both are events, replayed and undone; a pair never set is neither refused nor modified."""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.combat_specs import parse_distance
from gamekernel.gurps.rules.combat import CombatState
from gamekernel.gurps.rules.combat.picks import reach_span, reaches
from gamekernel.testing import run


def _fight() -> Session:
    s = Session(seed=4)
    s.combat.start(["Aiko{DX=14,pc=1,weapon=Spear:14:thr+2 imp:reach=1-2,weapon=Knife:13:thr-1 imp:reach=C,"
                    "weapon=Bow:14:1d+2 imp:ranged:acc=2}", "Orc{DX=9}"])
    return s


@pytest.mark.parametrize("reach, distance, ok", [
    ("C", 0, True), ("C", 1, False), ("1", 1, True), ("1", 0, False), ("1", 2, False), ("C,1", 0, True),
    ("C,1", 1, True), ("C,1", 1.5, False), ("1-2", 2, True), ("1,2", 0.5, True), ("1,2", 3, False),
    ("2*", 2, True), ("2*", 1, False), ("", 5, None), ("spear", 1, None)])
def test_gurps_cmb_14_a_weapons_reach_against_a_distance(reach, distance, ok):
    """C is close combat (0 m); a number is metres; a fraction counts as the next whole metre (CMB-39's
    reading of a value between rows); no reach given or one not read: not known, never refused."""
    assert reaches(reach, distance) is ok


@pytest.mark.parametrize("name, distance, ok", [
    ("Natural Attacks Punch", 1, True), ("Punch", 0, True), ("パンチ", 1, True), ("Punch", 2, False),
    ("Knife", 1, False)])
def test_gurps_cmb_14_a_punch_reaches_close_and_one_metre(name, distance, ok):
    """GCS and the weapon tables print a punch's reach "C"; a bare-handed fighter reaches close combat
    and 1 yard (Basic Set p. 101-102): a punch at an adjacent foe is not refused."""
    assert reaches("C", distance, name) is ok


def test_reach_spans():
    assert reach_span("C-2") == (0.0, 2.0) and reach_span("C, 1") == (0.0, 1.0) and reach_span("") is None


def test_gurps_cmb_14_melee_out_of_reach_is_refused_in_one_line_and_changes_nothing():
    s = _fight()
    s.combat.range("Aiko", "Orc", "3m")
    before = (len(s.log), s.rng.getstate(), s.combat.state)
    s.combat.maneuver("Aiko", "attack")
    chosen = s.combat.state
    with pytest.raises(RuleError) as err:
        s.combat.attack("Aiko", "Orc", "Spear")
    assert str(err.value) == ("Aiko's Spear reaches 1-2; Orc is 3 m away (GURPS-CMB-14: a melee target must be "
                              "within reach)")
    assert s.combat.state is chosen and len(s.log) == before[0] + 1
    s.combat.range("Aiko", "Orc", "-1")  # a step closer: 2 m, the Spear reaches
    assert s.combat.distance("Orc", "Aiko") == 2.0
    with pytest.raises(RuleError, match="Knife reaches C"):
        s.combat.attack("Aiko", "Orc", "Knife")
    s.combat.attack("Aiko", "Orc", "Spear")
    assert s.log[-1].kind == "combat.attack"


def test_gurps_cmb_39_the_range_set_gives_the_speed_range_modifier_named_in_the_roll():
    """Seed table [004:1504-1516]: 12 m is read on the 15 m row (the larger, CMB-39 [004:1520]): -5;
    3 m: -1."""
    s = _fight()
    s.combat.range("Aiko", "Orc", "12m")
    s.combat.maneuver("Aiko", "attack")
    r = s.combat.attack("Aiko", "Orc", "Bow")
    roll = r.report.attack.roll
    assert (-5, "speed+range 12 m") in tuple(roll.modifiers)
    typed = _fight()
    typed.combat.maneuver("Aiko", "attack")
    r = typed.combat.attack("Aiko", "Orc", "Bow", range_m=3)  # typed on the attack: wins over none set
    assert (-1, "speed+range 3 m") in tuple(r.report.attack.roll.modifiers)


def test_no_distance_set_refuses_nothing_and_adds_nothing():
    s = _fight()
    s.combat.maneuver("Aiko", "attack")
    r = s.combat.attack("Aiko", "Orc", "Knife")
    assert not any("range" in label for _, label in r.report.attack.roll.modifiers)


def test_range_magic_steps_undo_and_replay(ip):
    run(ip, "combat", "start Aiko{pc=1} Orc{DX=9}")
    from gamekernel.magics import current_session

    s = current_session()
    out = run(ip, "combat", "range Aiko Orc 12m")
    assert "Aiko and Orc are 12 m apart" in repr(out)
    run(ip, "combat", "range Orc Aiko +2")
    assert s.combat.distance("Aiko", "Orc") == 14.0
    run(ip, "combat", "range Orc Aiko -20")  # never below 0
    assert s.combat.distance("Aiko", "Orc") == 0.0
    assert "Orc and Aiko are 0 m apart" in str(s.log_view()).splitlines()[-1]
    run(ip, "undo")
    assert s.combat.distance("Aiko", "Orc") == 14.0
    rebuilt = CombatState.from_dict(s.combat.state.to_dict())
    assert rebuilt.ranges == (("Aiko", "Orc", 14.0),)
    for bad in ("range Aiko Orc", "range Aiko Orc far", "range Aiko Aiko 3m"):
        assert repr(run(ip, "combat", bad)).startswith("error: ")
    assert s.combat.distance("Aiko", "Orc") == 14.0


def test_a_step_needs_a_distance_first_and_a_leaver_takes_his_distances_along():
    s = _fight()
    with pytest.raises(RuleError, match="no distance is set between Aiko and Orc"):
        s.combat.range("Aiko", "Orc", "+1")
    s.combat.join("Goblin{DX=10}")
    s.combat.range("Goblin", "Orc", 4)
    s.combat.range("Goblin", "Aiko", 2)
    s.combat.leave("Goblin")
    assert s.combat.state.ranges == ()


def test_distance_words():
    assert parse_distance("12m") == (12.0, False) and parse_distance("+1") == (1.0, True)
    assert parse_distance("-2m") == (-2.0, True) and parse_distance("0.5") == (0.5, False)
    assert parse_distance(3) == (3.0, False)
    for bad in ("", "m", "1e9", "twelve", "--1"):
        with pytest.raises(UsageError, match="distance"):
            parse_distance(bad)


def test_an_old_fight_without_ranges_reads_back():
    s = _fight()
    data = s.combat.state.to_dict()
    assert "ranges" not in data  # none set: the record is today's
    assert CombatState.from_dict(data).ranges == ()
