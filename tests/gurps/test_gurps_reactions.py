"""Reactions GURPS-RR-01..04 (every band), influence MEN-06..08, fright MEN-10/11, self-control CH-28."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gamekernel.errors import RuleError
from gamekernel.gurps.rules.contests import roll_quick_contest
from gamekernel.gurps.rules.fright import fright_check
from gamekernel.gurps.rules.influence import influence_outcome
from gamekernel.gurps.rules.reactions import reaction_band, reaction_odds, reaction_roll
from gamekernel.gurps.rules.selfcontrol import self_control_roll, situation_modifier
from gamekernel.gurps.rules.traits import find_trait

BANDS = [(-5, "disastrous"), (0, "disastrous"), (1, "very_bad"), (3, "very_bad"), (4, "bad"), (6, "bad"),
         (7, "poor"), (9, "poor"), (10, "neutral"), (12, "neutral"), (13, "good"), (15, "good"),
         (16, "very_good"), (18, "very_good"), (19, "excellent"), (30, "excellent")]


@pytest.mark.parametrize("total,key", BANDS)
def test_gurps_rr_04_every_band_edge(total, key):
    assert reaction_band(total).key == key


def test_gurps_rr_02_modifiers_add_to_the_dice():
    result = reaction_roll([(2, "Voice"), (-1, "OPH")], dice=(3, 4, 5), npc="Guard")
    assert result.total == 13 and result.band.key == "good"
    assert "+2 (Voice)" in str(result) and "Good" in str(result)
    assert type(result).from_dict(result.to_dict()) == result


def test_gurps_rr_odds_sum_to_one():
    odds = reaction_odds(0)
    assert sum(odds.values()) == 1
    assert odds["neutral"] == Fraction(27 + 27 + 25, 216)
    assert odds["disastrous"] == 0
    assert reaction_odds(-3)["disastrous"] == Fraction(1, 216)


def _contest(a_dice, b_dice, a=12, b=12):
    return roll_quick_contest(a, b, a_label="Sex Appeal", b_label="Will", dice=[*a_dice, *b_dice])


def test_gurps_men_07_win_good_or_very_good():
    win = _contest((1, 2, 3), (6, 6, 4))
    assert influence_outcome(win, "Fast-Talk").band.key == "good"
    assert influence_outcome(win, "Sex Appeal").band.key == "very_good"


def test_gurps_men_07_loss_and_tie_bad_intimidation_very_bad():
    loss = _contest((6, 6, 4), (1, 2, 3))
    assert influence_outcome(loss, "Fast-Talk").band.key == "bad"
    assert influence_outcome(loss, "Intimidation").band.key == "very_bad"
    tie = _contest((3, 3, 3), (3, 3, 3))
    assert tie.winner is None and influence_outcome(tie, "Streetwise").band.key == "bad"


def test_gurps_men_08_diplomacy_takes_the_better_reaction():
    loss = _contest((6, 6, 4), (1, 2, 3))
    reaction = reaction_roll([], dice=(6, 6, 5))
    assert influence_outcome(loss, "Diplomacy", reaction).band.key == "very_good"
    assert influence_outcome(loss, "Fast-Talk", reaction).band.key == "bad"


def test_gurps_men_11_fright_outcomes():
    steady = fright_check(12, dice=(3, 4, 4))
    assert steady.outcome == "steady"
    stunned = fright_check(10, dice=(4, 4, 4), outcome_dice=(2, 3))
    assert stunned.outcome == "stunned" and stunned.duration == 2 + 5 and stunned.unit == "seconds"
    faint = fright_check(10, dice=(6, 6, 6), outcome_dice=(4,))
    assert faint.outcome == "faint" and faint.duration == 8 + 4 and faint.unit == "minutes"
    assert type(faint).from_dict(faint.to_dict()) == faint


def test_gurps_men_10_fright_modifiers_and_rule_of_14_flag():
    result = fright_check(12, [(2, "Combat Reflexes"), (2, "Fearlessness")], dice=(5, 5, 5), outcome_dice=(1, 1))
    assert result.roll.target == 16
    capped = fright_check(12, [(2, "Combat Reflexes"), (2, "Fearlessness")], dice=(5, 5, 4), outcome_dice=(1, 1),
                          rule_of_14=True)
    assert capped.roll.target == 13 and capped.outcome == "stunned"


def test_gurps_ch_28_self_control_is_12():
    assert self_control_roll("Bad Temper", dice=(4, 4, 4)).resisted
    failed = self_control_roll("Bad Temper", dice=(4, 4, 5))
    assert not failed.resisted and failed.roll.target == 12 and "temper" in failed.failure_effect
    with pytest.raises(RuleError):
        self_control_roll("Jealousy", dice=(4, 4, 4))


def test_gurps_dis_19_phobia_situations():
    phobia = find_trait("Phobia")
    assert situation_modifier(phobia, "mere threat") == 4
    assert self_control_roll(phobia, [(4, "threat")], dice=(5, 5, 6)).resisted
    assert situation_modifier(find_trait("Truthfulness"), "telling a lie") == -5
    assert situation_modifier(find_trait("Lecherousness"), "Very") == -10
