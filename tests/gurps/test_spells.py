"""GURPS-MAG: casting rolls, energy, critical spell failure."""

import pytest

from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.rules import spells


def test_gurps_mag_01_success_pays_cost():
    r = spells.cast("Fireball", 12, 3, (3, 4, 4), fp=10, fp_max=10)
    assert r.outcome == "success" and r.energy_spent == 3 and r.fatigue.fp_after == 7


def test_gurps_mag_02_critical_success_no_energy():
    r = spells.cast("Fireball", 15, 3, (1, 2, 2), fp=10, fp_max=10)
    assert r.outcome == "critical_success" and r.energy_spent == 0


def test_gurps_mag_03_failure_costs_1_or_0():
    assert spells.cast("Light", 10, 2, (4, 4, 4), fp=10, fp_max=10).energy_spent == 1
    assert spells.cast("Sense", 10, 0, (4, 4, 4), fp=10, fp_max=10).energy_spent == 0


def test_gurps_mag_04_critical_failure_full_cost_and_table():
    r = spells.cast("Fireball", 12, 3, (6, 6, 6), fp=10, fp_max=10, failure_faces=(1, 1, 1))
    assert r.outcome == "critical_failure" and r.energy_spent == 3 and r.failure_result == 3
    with pytest.raises(UsageError):
        spells.cast("Fireball", 12, 3, (6, 6, 6), fp=10, fp_max=10)


def test_gurps_mag_04_a_17_is_a_critical_failure_of_a_spell_at_skill_16():
    """The seed's magic section [004:1755]: 18, or 17 at skill <= 16 (one more than GURPS-SR-08)."""
    at_16 = spells.cast("Light", 16, 1, (6, 6, 5), fp=10, fp_max=10, failure_faces=(3, 3, 3))
    assert at_16.outcome == "critical_failure"
    at_17 = spells.cast("Light", 17, 1, (6, 6, 5), fp=10, fp_max=10)
    assert at_17.outcome == "failure"
    general = spells.cast("Light", 16, 1, (6, 6, 5), fp=10, fp_max=10, config=spells.MagicConfig(crit17_at_most=15))
    assert general.outcome == "failure"


def test_gurps_fat_02_energy_from_hp_when_fp_out():
    r = spells.cast("Heal", 12, 4, (3, 4, 4), fp=2, fp_max=10)
    assert r.fatigue.fp_after == -2 and r.fatigue.hp_loss == 2


def test_gurps_mag_10_modifiers_distance_unseen():
    assert spells.spell_modifiers(distance_hexes=3, unseen=True) == ((-3, "3 hex away"), (-5, "unseen"))
    assert spells.spell_modifiers(distance_hexes=3, touching=True) == ()
    assert spells.spell_modifiers(distance_hexes=8, kind="missile") == ()
    assert spells.spell_modifiers(injured_while_concentrating=6) == ((-4, "injured while concentrating"),)


def test_gurps_mag_09_16_energy_cost():
    assert spells.energy_cost(2, hexes=3) == 6
    assert [spells.energy_cost(2, area_diameter=d) for d in (1, 3, 5)] == [2, 4, 6]


def test_gurps_sr_05_spell_below_3_refused():
    with pytest.raises(RuleError):
        spells.cast("Light", 4, 1, (3, 3, 3), fp=10, fp_max=10, modifiers=[(-2, "far")])
