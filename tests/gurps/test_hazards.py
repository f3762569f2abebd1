"""GURPS-HAZ: falling and collisions, fire, cold, heat, poison, disease, suffocation."""

from fractions import Fraction

import pytest

from gamekernel.errors import UsageError
from gamekernel.gurps.rules import hazards as hz
from gamekernel.gurps.rules.damage import DiceAdds


@pytest.mark.parametrize(
    ("metres", "velocity"),
    [(1, 5), (2, 7), (3, 8), (4, 9), (5, 10), (10, 15), (15, 18), (20, 21), (30, 26), (40, 30), (50, 33),
     (75, 40), (100, 47), (1000, 146)],
)
def test_gurps_haz_06_falling_table_rows(metres, velocity):
    assert hz.fall_velocity(metres) == velocity


def test_gurps_haz_06_between_rows_next_higher_and_catfall():
    assert hz.fall_velocity(6) == 15
    assert hz.fall_velocity(0) == 0
    assert hz.fall_velocity(8, catfall=True) == 8  # 8 - 5 = 3 m
    assert hz.fall_velocity(4, catfall=True) == 0


def test_t19_hp10_falls_3m_1d_minus_2():
    exact, dice = hz.collision_dice(10, 8)
    assert exact == Fraction(4, 5) and dice == DiceAdds(1, -2)
    result = hz.fall(10, 3, (6,))
    assert result.velocity == 8 and result.damage.basic == 4 and result.injury == 4


def test_gurps_haz_04_collision_rounding():
    assert hz.collision_dice(10, 10)[1] == DiceAdds(1, -2)  # exactly 1d -> 1d-2
    assert hz.collision_dice(10, 15)[1] == DiceAdds(2, 0)  # 1.5 -> 2d (halves up)
    assert hz.collision_dice(12, 21)[1] == DiceAdds(3, 0)  # 2.52 -> 3d


def test_gurps_haz_06_fall_dr_and_catfall_halves():
    result = hz.fall(10, 20, (6, 6), dr=2, catfall=True, dx=12, dx_faces=(3, 3, 3))
    assert result.velocity == 18  # 15 m after Catfall -> 1.8 -> 2d
    assert result.damage.penetrating == 10 and result.injury == 5


def test_gurps_haz_10_12_fire_dice_and_ignition():
    assert hz.fire_dice("pass_through") == DiceAdds(1, -3)
    assert hz.fire_dice("in_fire") == DiceAdds(1, -1)
    assert hz.fire_dice("furnace") == DiceAdds(3, 0)
    assert hz.fire_dice("clothing_part") == DiceAdds(1, -4)
    assert [hz.clothing_ignited(d) for d in (2, 3, 9, 10)] == ["", "part", "part", "all"]
    assert hz.burning_dx_penalty("part") == -2 and hz.burning_dx_penalty("all") == -3
    assert hz.fire("in_fire", (1,)).basic == 1  # minimum 1 for burning
    with pytest.raises(UsageError):
        hz.fire_dice("lava")


def test_gurps_haz_01_03_cold():
    assert [hz.cold_interval(w) for w in ("calm", "light_wind", "strong_wind")] == [30, 15, 10]
    assert hz.cold_modifier("light") == -5
    assert hz.cold_modifier("arctic", wet=True) == 0
    assert hz.cold_modifier("heated") == 10
    assert hz.cold_modifier("winter", wind_chill_c=-29) == 0
    assert hz.cold_modifier("winter", wind_chill_c=-30) == -1
    assert hz.cold_modifier("winter", wind_chill_c=-40) == -3
    assert hz.cold_check(10, (4, 4, 3), -5)[1] == 1


def test_gurps_haz_13_14_heat():
    assert not hz.heat_check_needed(21) and hz.heat_check_needed(22)
    assert not hz.heat_check_needed(35, active=False)
    assert [hz.heat_extra_fp(t) for t in (32, 33, 48, 49, 63, 64)] == [0, 1, 1, 2, 2, 0]
    assert hz.heat_check(10, (6, 6, 6), (4,))[1] == 4
    assert hz.heat_check(10, (4, 4, 3))[1] == 1


def test_gurps_haz_15_poison_modifiers():
    assert hz.poison_check(10, (4, 4, 4), "weak").target == 12
    assert hz.poison_check(10, (4, 4, 4)).target == 6
    assert hz.poison_check(10, (1, 1, 1), "irresistible").target == 2
    with pytest.raises(UsageError):
        hz.poison_modifier("deadly")


def test_gurps_haz_07_disease_range():
    assert hz.disease_check(12, (3, 3, 3), -6).target == 6
    with pytest.raises(UsageError):
        hz.disease_check(12, (3, 3, 3), -7)


def test_gurps_haz_17_20_suffocation():
    s = hz.suffocation(10, 30)
    assert s.fp_loss == 30 and s.will_rolls_from_second == 11 and not s.brain_damage_roll
    assert hz.suffocation(10, 121).brain_damage_roll
    assert not hz.suffocation(10, 239).dead and hz.suffocation(10, 240).dead
