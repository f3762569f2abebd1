"""GURPS-INJ: HP thresholds, shock, major wounds, knockdown, death checks, recovery."""

import pytest

from gamekernel.gurps.rules import injury as inj
from gamekernel.gurps.rules.injury import InjuryConfig


def faces(total: int) -> tuple[int, int, int]:
    """Three d6 faces summing to `total` (3..18)."""
    a = min(6, total - 2)
    b = min(6, total - a - 1)
    return (a, b, total - a - b)


# ---- GURPS-INJ-01: reeling at HP/3 (seed 1/3 or less by default; Basic Set "less than" by flag)

def test_gurps_inj_01_reeling_boundary_hp12_at_or_below_third():
    assert inj.hp_state(5, 12) == "healthy"
    assert inj.hp_state(4, 12) == "reeling"  # exactly HP/3, seed [004:1600] "1/3以下"
    assert inj.hp_state(1, 12) == "reeling"


def test_gurps_inj_01_reeling_strict_flag_basic_set():
    strict = InjuryConfig(reeling_at_or_below=False)
    assert not inj.is_reeling(4, 12, strict)
    assert inj.is_reeling(3, 12, strict)


def test_gurps_inj_01_reeling_hp10_non_multiple():
    assert not inj.is_reeling(4, 10)
    assert inj.is_reeling(3, 10)


def test_gurps_inj_01_halve_rounds_up():
    assert [inj.halve_up(v) for v in (1, 2, 5, 8, 9)] == [1, 1, 3, 4, 5]


# ---- GURPS-INJ-02..04 bands at 0, -1xHP, -5xHP, -10xHP (T-18)

@pytest.mark.parametrize(
    ("hp", "state"),
    [(1, "reeling"), (0, "collapse"), (-10, "collapse"), (-11, "dying1"), (-21, "dying1"), (-22, "dying2"),
     (-44, "dying4"), (-54, "dying4"), (-55, "dead"), (-109, "dead"), (-110, "destroyed")],
)
def test_gurps_inj_02_04_t18_bands_hp11(hp, state):
    assert inj.hp_state(hp, 11) == state


def test_gurps_inj_03_t18_death_lines_hp11():
    assert inj.death_checks_due(0, -11, 11) == (1,)
    assert inj.death_checks_due(-11, -21, 11) == ()
    assert inj.death_checks_due(-21, -22, 11) == (2,)
    assert inj.death_checks_due(0, -44, 11) == (1, 2, 3, 4)
    assert inj.death_checks_due(-44, -55, 11) == ()  # -5xHP: automatic death, no roll


def test_gurps_inj_02_consciousness_penalty_per_full_hp():
    assert inj.consciousness_penalty(0, 10) == 0
    assert inj.consciousness_penalty(-9, 10) == 0
    assert inj.consciousness_penalty(-10, 10) == -1
    assert inj.consciousness_penalty(-25, 10) == -2
    roll = inj.consciousness_check(12, -10, 10, faces(11))
    assert roll.target == 11 and roll.success


# ---- GURPS-INJ-05 shock, cap 4, High Pain Threshold

@pytest.mark.parametrize(("injury", "shock"), [(0, 0), (1, 1), (3, 3), (4, 4), (5, 4), (30, 4)])
def test_gurps_inj_05_shock_cap_4(injury, shock):
    assert inj.shock_penalty(injury) == shock


def test_gurps_inj_05_high_pain_threshold_no_shock():
    assert inj.shock_penalty(7, high_pain_threshold=True) == 0


# ---- GURPS-INJ-06 major wound: more than HP/2

def test_gurps_inj_06_major_wound_exactly_half_is_not():
    assert not inj.is_major_wound(5, 10)
    assert inj.is_major_wound(6, 10)


def test_gurps_inj_06_major_wound_odd_hp():
    assert not inj.is_major_wound(5, 11)
    assert inj.is_major_wound(6, 11)


# ---- GURPS-INJ-07 knockdown / stun

def test_gurps_inj_07_knockdown_success_only_shock():
    assert inj.knockdown_check(11, faces(11)).outcome == "ok"


def test_gurps_inj_07_knockdown_fail_by_4_stunned_by_5_unconscious():
    assert inj.knockdown_check(10, faces(14)).outcome == "stunned"
    assert inj.knockdown_check(10, faces(15)).outcome == "unconscious"


def test_gurps_inj_07_knockdown_crit_fail_unconscious_and_hpt_plus3():
    assert inj.knockdown_check(16, faces(18)).outcome == "unconscious"
    result = inj.knockdown_check(10, faces(13), high_pain_threshold=True)
    assert result.check.target == 13 and result.outcome == "ok"


def test_gurps_inj_08_stun_recovery_is_ht():
    assert inj.stun_recovery(11, faces(11)).success
    assert not inj.stun_recovery(11, faces(12)).success


# ---- GURPS-INJ-03, INJ-09 death checks and mortal wounds

def test_gurps_inj_03_death_check_fail_by_1_or_2_mortal_3_dead():
    assert inj.death_check(10, faces(10)).outcome == "alive"
    assert inj.death_check(10, faces(11)).outcome == "mortal"
    assert inj.death_check(10, faces(12)).outcome == "mortal"
    assert inj.death_check(10, faces(13)).outcome == "dead"


def test_gurps_inj_09_mortally_wounded_any_failure_is_death():
    assert inj.death_check(10, faces(11), mortally_wounded=True).outcome == "dead"


def test_gurps_adv_15_hard_to_kill_saves_but_collapses():
    result = inj.death_check(10, faces(12), hard_to_kill=2)
    assert result.outcome == "alive" and result.saved_by_hard_to_kill


def test_gurps_inj_10_mortal_wound_half_hour_roll():
    assert inj.mortal_wound_check(10, faces(4))[1] == "recovered"
    assert inj.mortal_wound_check(10, faces(10))[1] == "alive"
    assert inj.mortal_wound_check(10, faces(11))[1] == "dead"


def test_gurps_inj_11_recovery_from_mortal_wound():
    assert inj.mortal_recovery_after(10, faces(10))[1] == "none"
    assert inj.mortal_recovery_after(10, faces(12))[1] == "lose_ht"
    assert inj.mortal_recovery_after(10, faces(18))[1] == "lose_ht_and_disadvantage"


# ---- GURPS-INJ-13..15 waking

def test_gurps_inj_13_15_wake_rules_at_boundaries():
    assert inj.wake_rule(1, 10) == ("auto", 15)
    assert inj.wake_rule(0, 10) == ("hourly", 60)
    assert inj.wake_rule(-9, 10) == ("hourly", 60)
    assert inj.wake_rule(-10, 10) == ("twelve_hours", 720)


# ---- GURPS-INJ-16..19 recovery

def test_gurps_inj_16_natural_healing():
    assert inj.natural_healing(11, faces(11)).hp_gained == 1
    assert inj.natural_healing(11, faces(12)).hp_gained == 0
    assert inj.natural_healing(11, faces(12), modifier=1).hp_gained == 1


@pytest.mark.parametrize(
    ("tl", "minutes", "dice"),
    [(0, 30, "1d-4"), (1, 30, "1d-4"), (2, 30, "1d-3"), (3, 30, "1d-3"), (4, 30, "1d-2"), (5, 20, "1d-2"),
     (6, 20, "1d-1"), (7, 20, "1d-1"), (8, 10, "1d"), (9, 10, "1d+1"), (12, 10, "1d+1")],
)
def test_gurps_inj_19_first_aid_table_rows(tl, minutes, dice):
    row = inj.first_aid_row(tl)
    assert (row.minutes, row.dice_text) == (minutes, dice)


def test_t21_first_aid_tl8_ten_minutes_1d_roll_of_1_is_bandaging_only():
    result = inj.first_aid(8, 12, faces(10), (1,))
    assert result.row.minutes == 10 and result.minutes == 11
    assert result.hp_change == 1
    assert inj.first_aid(8, 12, faces(10), (5,)).hp_change == 5


def test_gurps_inj_18_first_aid_minimum_1_crit_max_crit_fail_minus_2():
    assert inj.first_aid(0, 12, faces(10), (2,)).hp_change == 1  # 1d-4 -> -2 -> minimum 1
    assert inj.first_aid(8, 12, faces(4), (1,)).hp_change == 6  # critical success: the maximum
    assert inj.first_aid(8, 12, faces(18), (6,)).hp_change == -2
    assert inj.first_aid(8, 12, faces(13), (6,)).hp_change == 1  # failure: bandaging HP stays


def test_gurps_inj_19_first_aid_bad_tl_and_faces():
    from gamekernel.errors import UsageError

    with pytest.raises(UsageError):
        inj.first_aid_row(-1)
    with pytest.raises(UsageError):
        inj.first_aid(8, 12, faces(10), (1, 2))
