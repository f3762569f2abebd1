"""GURPS-FAT: FP thresholds, FP loss into HP, fight and march costs, rest."""

import pytest

from gamekernel.gurps.rules import fatigue as fat


@pytest.mark.parametrize(
    ("fp", "state"), [(12, "rested"), (4, "rested"), (3, "tired"), (1, "tired"), (0, "collapse"),
                      (-11, "collapse"), (-12, "unconscious")],
)
def test_gurps_fat_01_03_fp_bands_fp12(fp, state):
    assert fat.fp_state(fp, 12) == state


def test_gurps_fat_01_tired_is_strictly_below_third():
    assert not fat.is_tired(4, 12) and fat.is_tired(3, 12)
    assert not fat.is_tired(4, 10) and fat.is_tired(3, 10)


def test_gurps_fat_02_fp_below_zero_costs_hp():
    loss = fat.lose_fp(2, 10, 4)
    assert (loss.fp_after, loss.hp_loss) == (-2, 2)


def test_gurps_fat_03_fp_floor_at_minus_fp_then_hp_only():
    loss = fat.lose_fp(-9, 10, 3)
    assert (loss.fp_after, loss.hp_loss) == (-10, 3)


def test_gurps_fat_04_fight_of_10s_free_11s_costs_1_plus_enc():
    assert fat.combat_fatigue(10, 2) == 0
    assert fat.combat_fatigue(11, 0) == 1
    assert fat.combat_fatigue(11, 2) == 3
    assert fat.combat_fatigue(60, 1, made_attack_or_defense=False) == 0


def test_t14_gurps_fat_05_march_light_2fp_per_hour():
    assert fat.march_fatigue(1, 1) == 2
    assert fat.march_fatigue(3, 0) == 3


def test_gurps_fat_06_endurance_interval_and_loss():
    assert fat.endurance_interval(True) == 15 and fat.endurance_interval(False) == 60
    assert fat.endurance_check(10, (4, 4, 3))[1] == 1
    assert fat.endurance_check(10, (4, 3, 3))[1] == 0


def test_gurps_fat_07_08_hunger_thirst_sleep():
    assert fat.hunger_fatigue(2) == 2
    assert fat.thirst_loss(16) == (2, 0)
    assert fat.thirst_loss(24, 1) == (4, 1)
    assert fat.missed_sleep_fatigue(16) == 0
    assert fat.missed_sleep_fatigue(17) == 1
    assert fat.missed_sleep_fatigue(20) == 2


def test_gurps_fat_10_rest_one_fp_per_10_minutes_capped():
    assert fat.rest_recovery(29) == 2
    assert fat.rest(3, 10, 30) == 6
    assert fat.rest(9, 10, 60) == 10
    assert fat.rest(3, 10, 30, good_meal=True) == 7


def test_gurps_fat_11_sleep_recovery_literal():
    assert fat.sleep_recovery(7) == 0
    assert fat.sleep_recovery(8) == 1
    assert fat.sleep_recovery(10) == 3


def test_gurps_fat_02_will_to_act():
    assert fat.will_to_act(10, (3, 3, 4)).success
    assert not fat.will_to_act(10, (5, 3, 3)).success
