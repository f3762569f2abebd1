"""Recovery and hazards of one person as pure rules over a Combatant and a Tape (GURPS-INJ-10..19,
GURPS-FAT-02/03/10, GURPS-HAZ, GURPS-MAG-04): dice are drawn only when the rule calls for a roll."""

import pytest

from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.rules import combat as cb
from gamekernel.gurps.rules import hazards as hz
from gamekernel.gurps.rules import recovery as rec
from gamekernel.gurps.rules import spells

BREN = cb.quick_combatant("Bren", {"ST": 10, "DX": 12, "HT": 11})  # HP 10, FP 11


def person(**changes):
    return cb.copy_with(BREN, **changes)


def test_gurps_inj_13_wakes_without_a_roll_at_hp_1():
    tape = cb.Tape(faces=())
    c, out = rec.wake(person(unconscious=True, hp=1), tape)
    assert (out.rule, out.minutes, out.check, out.result) == ("auto", 15, None, "awake")
    assert not c.unconscious and tape.used == []


@pytest.mark.parametrize(("faces", "result"), [((3, 4, 4), "awake"), ((4, 4, 4), "still")])
def test_gurps_inj_14_hourly_ht_roll(faces, result):
    c, out = rec.wake(person(unconscious=True, hp=0), cb.Tape(faces=faces))
    assert (out.rule, out.minutes, out.result) == ("hourly", 60, result)
    assert c.unconscious == (result == "still")
    assert c.consciousness_checked == (result == "awake")  # HP 0: no per-turn roll until injured again


def test_gurps_inj_15_failed_12_hour_roll_needs_care_then_a_failure_is_death():
    c, out = rec.wake(person(unconscious=True, hp=-10), cb.Tape(faces=(6, 6, 1)))
    assert (out.rule, out.result, c.needs_care, c.unconscious) == ("twelve_hours", "needs_care", True, True)
    c2, out2 = rec.wake(c, cb.Tape(faces=(6, 6, 1)))
    assert out2.result == "dead" and c2.dead and not c2.unconscious
    c3, out3 = rec.wake(c, cb.Tape(faces=(1, 2, 3)), care=True)
    assert out3.result == "awake" and not c3.needs_care and not c3.unconscious


def test_gurps_fat_03_fatigue_unconscious_wakes_by_rest_not_a_roll():
    with pytest.raises(RuleError, match="fatigue"):
        rec.wake(person(unconscious=True, fp=-11), cb.Tape(faces=()))
    with pytest.raises(RuleError, match="not unconscious"):
        rec.wake(person(), cb.Tape(faces=()))


def test_gurps_inj_10_11_mortal_wound_rolls():
    mortal = person(mortal=True, hp=-12)
    c, out = rec.mortal_roll(mortal, cb.Tape(faces=(4, 4, 3)))  # 11 vs HT 11: 30 more minutes
    assert out.result == "alive" and c.mortal and out.after is None
    c, out = rec.mortal_roll(mortal, cb.Tape(faces=(4, 4, 4)))
    assert out.result == "dead" and c.dead and not c.mortal
    c, out = rec.mortal_roll(mortal, cb.Tape(faces=(1, 1, 2, 6, 6, 1)))  # critical success, then HT 13 fails
    assert (out.result, out.effect, c.mortal, c.ht, c.fp_max) == ("recovered", "lose_ht", False, 10, 10)
    c, out = rec.mortal_roll(mortal, cb.Tape(faces=(3, 3, 3, 1, 1, 1)), healed=True)  # healed: a success recovers
    assert (out.result, out.effect, c.ht) == ("recovered", "none", 11)
    with pytest.raises(RuleError):
        rec.mortal_roll(person(), cb.Tape(faces=()))


def test_gurps_inj_16_natural_healing_stops_at_full_hp():
    tape = cb.Tape(faces=(1, 1, 2) * 5)
    c, results = rec.natural_healing(person(hp=8), 5, tape)
    assert c.hp == 10 and len(results) == 2 and len(tape.used) == 6


def test_gurps_inj_18_first_aid_gain_stops_at_max_loss_does_not():
    c, result = rec.first_aid(person(hp=9), 5, 12, cb.Tape(faces=(3, 3, 3, 6)))
    assert result.hp_change > 1 and c.hp == 10
    c, result = rec.first_aid(person(hp=1), 5, 12, cb.Tape(faces=(6, 6, 6, 1)))
    assert result.hp_change == -2 and c.hp == -1


def test_gurps_fat_10_rest_ends_collapse_and_fatigue_unconsciousness():
    c = rec.rest(person(fp=-11, unconscious=True, collapsed=True), 120)
    assert (c.fp, c.unconscious, c.collapsed) == (1, False, False)
    c = rec.rest(person(fp=-11, unconscious=True), 0)
    assert c.unconscious  # still at -FP


def test_gurps_fat_02_03_suffer_outside_a_fight():
    c = cb.suffer(person(fp=1), hp=2, fp=3)  # 1 FP to 0, then 2 FP below 0 cost 2 HP
    assert (c.hp, c.fp, c.unconscious) == (6, -2, False)
    c = cb.suffer(person(fp=-10), fp=1)
    assert (c.fp, c.unconscious) == (-11, True)


def d6_from(faces):
    tape = cb.Tape(faces=faces)
    return tape, tape.d6


def test_gurps_haz_06_fall_with_catfall_takes_5_m_off_and_rolls_dx():
    tape, d6 = d6_from((6, 6, 1, 1, 1))  # 8 m - 5 = 3 m: 8 m/s, HP 10 -> 1d-2; DX 12 roll of 3 halves
    out = hz.expose("fall", d6, ht=11, hp_max=10, dx=12, metres=8, catfall=True)
    assert out.fall.velocity == 8 and str(out.fall.dice) == "1d-2"
    assert out.damage.injury == 4 and out.injury == 2 and out.check.success
    assert len(tape.used) == 4


def test_gurps_haz_13_heatstroke_loses_1d_fp():
    tape, d6 = d6_from((6, 6, 6, 5))
    assert hz.expose("heat", d6, ht=11, hp_max=10).fp_loss == 5
    tape, d6 = d6_from((6, 6, 1))
    assert hz.expose("heat", d6, ht=11, hp_max=10).fp_loss == 1 and len(tape.used) == 3


def test_gurps_haz_unknown_kind_draws_no_dice():
    tape, d6 = d6_from(())
    with pytest.raises(UsageError, match="lava"):
        hz.expose("lava", d6, ht=11, hp_max=10)
    assert tape.used == []


def test_gurps_mag_04_a_17_at_skill_16_rolls_the_failure_table():
    tape = cb.Tape(faces=(6, 6, 5, 2, 2, 2))
    result = spells.cast_rolling("Ignite Fire", 16, 2, tape.roll3, fp=10, fp_max=10)
    assert result.outcome == "critical_failure" and result.failure_result == 6 and len(tape.used) == 6
    tape = cb.Tape(faces=(6, 6, 5))
    cast = spells.cast_rolling("Ignite Fire", 16, 2, tape.roll3, fp=10, fp_max=10, config=spells.MagicConfig(15))
    assert cast.outcome == "failure"


@pytest.mark.parametrize(("before", "after", "free"), [
    ("standing", "crouching", True), ("crouching", "standing", True), ("standing", "kneeling", True),
    ("kneeling", "standing", True), ("standing", "lying_down", False), ("kneeling", "crouching", False),
])
def test_gurps_cmb_06_10_free_posture_changes(before, after, free):
    assert cb.is_free_posture_change(before, after) is free


def test_gurps_cmb_05_a_new_fight_starts_on_do_nothing_with_nothing_carried_over():
    worn = person(maneuver="attack", chosen=True, shock=2, feint_on="Orc", feint_amount=3, aim_turns=2,
                  parry_used=True, hp=4, stunned=True)
    fresh = cb.fresh_for_fight(worn)
    assert (fresh.maneuver, fresh.chosen, fresh.shock, fresh.feint_on, fresh.aim_turns, fresh.parry_used) == \
        ("do_nothing", False, 0, "", 0, False)
    assert (fresh.hp, fresh.stunned) == (4, True)  # injury and conditions stay


def test_gurps_adv_19_luck_once_per_period_right_after_ones_own_roll():
    from gamekernel.gurps.rules.luck import LuckLevel, require_luck

    luck = LuckLevel("luck", "Luck", 60)
    roll = {"total": 14}
    assert require_luck("Aiko", luck, 0, roll, "gurps.check") is luck
    for level, spent, last, since, why in [
        (None, 0, roll, "gurps.check", "Luck"), (luck, 1, roll, "gurps.check", "60"),
        (luck, 0, None, None, "Aiko"), (luck, 0, {"luck": True}, "gurps.check", "Aiko"),
        (luck, 0, roll, "gurps.damage", "gurps.damage"),
    ]:
        with pytest.raises(RuleError, match=why):
            require_luck("Aiko", level, spent, last, since)


@pytest.mark.parametrize(("kind", "options"), [("cold", {"clothing": "bikini"}), ("poison", {"strength": "mild"}),
                                               ("disease", {"modifier": 5}), ("in_lava", {})])
def test_gurps_haz_a_refused_hazard_draws_no_dice(kind, options):
    tape, d6 = d6_from(())
    with pytest.raises(UsageError):
        hz.expose(kind, d6, ht=11, hp_max=10, **options)
    assert tape.used == []


def test_gurps_mag_01_a_spell_below_skill_3_is_refused_before_any_die():
    tape = cb.Tape(faces=())
    with pytest.raises(RuleError):
        spells.cast_rolling("Ignite Fire", 8, 2, tape.roll3, fp=10, fp_max=10, modifiers=[(-6, "far")])
    assert tape.used == []
