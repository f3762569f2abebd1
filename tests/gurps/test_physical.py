"""GURPS-PHY: jumping, lifting, throwing, running, swimming, hiking, climbing."""

from fractions import Fraction

import pytest

from gamekernel.errors import RuleError
from gamekernel.gurps.rules import physical as ph
from gamekernel.gurps.rules.damage import DiceAdds


def test_t12_jumps_move_6():
    assert ph.high_jump_cm(6) == 65
    assert ph.broad_jump_cm(6) == 270


def test_gurps_phy_08_09_running_jumps_capped_at_double():
    assert ph.high_jump_cm(6, 2) == 95
    assert ph.high_jump_cm(6, 10) == 130
    assert ph.broad_jump_cm(6, 2) == 390
    assert ph.broad_jump_cm(6, 20) == 540


def test_t12_sprint_move_7():
    assert ph.sprint_speed(7, 1) == 7
    assert ph.sprint_speed(7, 2) == Fraction(42, 5)  # 8.4 m/s
    assert ph.paced_speed(7) == Fraction(7, 2)


def test_t13_lifting_bl10():
    got = {lift.kind: (lift.max_kg, lift.seconds) for lift in ph.lift_table(10)}
    assert got == {"one_hand": (20, 2), "two_hands": (80, 4), "shove": (120, None), "shove_running": (240, None),
                   "carry_on_back": (150, None), "shift_slightly": (500, None)}


def test_t20_throwing_distance():
    assert ph.throw_distance(10, 10, 1).distance_m == 25
    three = ph.throw_distance(10, 10, 3.2)
    assert three.row_ratio == Fraction(2, 5) and three.distance_m == 10


@pytest.mark.parametrize(
    ("ratio", "modifier"),
    [("0.01", "3.5"), ("0.05", "3.5"), ("0.06", "2.5"), ("0.15", "2.0"), ("0.2", "1.5"), ("0.5", "0.8"),
     ("1", "0.6"), ("1.5", "0.4"), ("2", "0.3"), ("2.5", "0.25"), ("3", "0.2"), ("4", "0.15"), ("6", "0.1"),
     ("8", "0.06")],
)
def test_gurps_phy_19_throw_rows(ratio, modifier):
    assert ph.throw_distance(10, 10, Fraction(ratio) * 10).modifier == Fraction(modifier)


def test_gurps_phy_17_too_heavy_and_hands():
    with pytest.raises(RuleError):
        ph.throw_distance(10, 10, 81)
    assert ph.throw_distance(10, 10, 20).hands == 1
    assert ph.throw_distance(10, 10, 21).hands == 2


def test_gurps_phy_21_thrown_damage_by_weight():
    thr = DiceAdds(2, -1)
    assert ph.thrown_damage(thr, 16, 2) == DiceAdds(2, -5)  # BL/8: -2/die
    assert ph.thrown_damage(thr, 16, 4) == DiceAdds(2, -3)
    assert ph.thrown_damage(thr, 16, 8) == DiceAdds(2, -1)
    assert ph.thrown_damage(thr, 16, 16) == DiceAdds(2, 1)  # BL: +1/die
    assert ph.thrown_damage(thr, 16, 32) == DiceAdds(2, -1)
    assert ph.thrown_damage(DiceAdds(3, 0), 16, 64) == DiceAdds(3, -1)  # -1/2 per die, floored
    assert ph.thrown_damage(thr, 16, 128) == DiceAdds(2, -3)
    with pytest.raises(RuleError):
        ph.thrown_damage(thr, 16, 129)


def test_gurps_phy_14_16_swimming():
    assert ph.water_move(6) == 1 and ph.water_move(4) == 1 and ph.water_move(10) == 2
    assert ph.swimming_modifier(2) == -4 and ph.swimming_modifier(0, on_purpose=True) == 3


def test_gurps_phy_05_07_hiking():
    assert ph.hiking_km(5) == 75
    assert ph.hiking_km(5, "very_bad") == 15
    assert ph.hiking_km(4, "good", hiking_success=True) == 90


def test_gurps_phy_02_04_climbing():
    assert ph.climbing_modifier("ladder_up") is None
    assert ph.climbing_modifier("tree", 1) == 4
    assert ph.climbing_modifier("cliff", 2) == -5
