"""Success rolls: GURPS-SR-02..08, SR-05 refusal, worked examples T-01..T-06."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from gamekernel.errors import UsageError
from gamekernel.gurps.rules.checks import (
    Modifier,
    SuccessRoll,
    classify,
    success_roll,
)
from gamekernel.gurps.rules.odds import check_odds


def oracle(total: int, target: int) -> tuple[bool, str | None]:
    """Straight from RULES.md text, written independently of checks.py.

    SR-03: 3 and 4 always succeed; 17 and 18 always fail. SR-07: crit success on 3-4, on 5 at 15+,
    on 6 at 16+. SR-08: crit failure on 18, on 17 at target <= 15, on roll >= target + 10.
    """
    crit_success = total in (3, 4) or (total == 5 and target >= 15) or (total == 6 and target >= 16)
    if crit_success:
        return True, "success"
    if total == 18 or (total == 17 and target <= 15) or total - target >= 10:
        return False, "failure"
    if total in (17, 18):
        return False, None
    return total <= target, None


@pytest.mark.parametrize("target", range(3, 26))
def test_gurps_sr_07_08_every_crit_boundary_targets_3_to_25(target):
    """GURPS-SR-02/03/07/08: all totals 3..18 for every target 3..25 against the oracle."""
    for total in range(3, 19):
        assert classify(total, target) == oracle(total, target), (total, target)


def test_gurps_sr_05_defense_targets_below_3_use_the_same_rules():
    """GURPS-SR-05: defenses are rolled below 3; 3-4 still succeed, the rest follow SR-08."""
    for target in range(-10, 3):
        for total in range(3, 19):
            assert classify(total, target) == oracle(total, target)


def test_gurps_sr_t01_lockpicking_in_the_dark_issue_text():
    """T-01 and the issue's example line, odds checked exactly."""
    roll = success_roll(9, [(-5, "dark")], label="Lockpicking", actor="Aiko", dice=(4, 3, 4))
    assert roll.target == 4 and roll.total == 11 and not roll.success
    assert roll.margin == -7 and roll.margin_of_failure == 7 and roll.critical is None
    assert roll.odds.success == Fraction(4, 216)
    assert roll.odds.critical_success == Fraction(4, 216)
    assert roll.odds.critical_failure == Fraction(15 + 10 + 6 + 3 + 1, 216)  # 14+ = target + 10 and up
    assert str(roll) == ("Aiko · Lockpicking 9 −5 (dark) = 4 · rolled 11 [4,3,4] · failed by 7 · "
                         "odds 1.9% (crit 1.9%, crit fail 16.2%)")


def test_gurps_sr_t02_primitive_lock_target_19():
    """T-02: target 19; 3-16 succeed, 17 is an ordinary failure, 18 a critical failure."""
    for total in range(3, 17):
        assert classify(total, 19)[0] is True
    assert classify(17, 19) == (False, None)
    assert classify(18, 19) == (False, "failure")
    roll = success_roll(9, [(10, "primitive lock")], dice=(6, 6, 5))
    assert roll.target == 19 and not roll.success and roll.critical is None
    assert roll.margin_of_failure == 0
    assert "17 always fails" in str(roll)


def test_gurps_sr_t03_modifiers_are_cumulative():
    """T-03 / GURPS-SR-04: 9 - 5 + 10 = 14."""
    roll = success_roll(9, [(-5, "dark"), (10, "primitive")], dice=(1, 2, 3))
    assert roll.target == 14
    assert roll.modifiers == (Modifier(-5, "dark"), Modifier(10, "primitive"))


def test_gurps_sr_t04_margins():
    """T-04 / GURPS-SR-06: ST 12: 12 succeeds, 13 fails; 18 vs 12 -> by 6; 9 vs 12 -> fail by 3."""
    assert success_roll(12, dice=(4, 4, 4)).success
    assert not success_roll(12, dice=(4, 4, 5)).success
    assert success_roll(18, dice=(4, 4, 4)).margin_of_success == 6
    assert success_roll(9, dice=(4, 4, 4)).margin_of_failure == 3


def test_gurps_sr_t05_miss_by_ten_is_critical_failure():
    """T-05: target 6 roll 16; target 5 roll 15."""
    assert classify(16, 6) == (False, "failure")
    assert classify(15, 5) == (False, "failure")
    assert classify(15, 6) == (False, None)


def test_gurps_sr_t06_derived_edges():
    """T-06: 14/5 ordinary; 15/5 crit; 16/6 crit; 16/17 ordinary failure; 15/17 crit failure."""
    assert classify(5, 14) == (True, None)
    assert classify(5, 15) == (True, "success")
    assert classify(6, 16) == (True, "success")
    assert classify(17, 16) == (False, None)
    assert classify(17, 15) == (False, "failure")


def test_gurps_sr_05_refuses_below_3_with_reason_and_no_dice():
    """GURPS-SR-05: target 2 is not rolled; the result says why."""
    roll = success_roll(9, [(-7, "")], rng=random.Random(1))
    assert roll.refused and "below 3" in roll.refused
    assert roll.dice == () and roll.total is None and not roll.success
    assert "not rolled" in str(roll)
    assert success_roll(3, dice=(1, 1, 1)).refused is None


def test_gurps_sr_05_defenses_always_roll():
    roll = success_roll(1, label="Dodge", dice=(1, 1, 2), defense=True)
    assert roll.refused is None and roll.success and roll.critical == "success"


def test_gurps_sr_rng_and_replay_roundtrip():
    rng = random.Random(42)
    roll = success_roll(12, [(-2, "rain")], label="Climbing", rng=rng)
    again = SuccessRoll.from_dict(roll.to_dict())
    assert again == roll


def test_gurps_sr_bad_dice_are_usage_errors():
    with pytest.raises(UsageError):
        success_roll(10, dice=(1, 2))
    with pytest.raises(UsageError):
        success_roll(10, dice=(0, 2, 3))
    with pytest.raises(UsageError):
        success_roll(10)


def test_gurps_sr_odds_match_enumeration_for_all_targets():
    """Odds are exact counts over 216 outcomes, the same predicate as the verdict."""
    for target in range(-5, 26):
        odds = check_odds(target)
        ways = {"s": 0, "cs": 0, "cf": 0}
        for a in range(1, 7):
            for b in range(1, 7):
                for c in range(1, 7):
                    ok, crit = oracle(a + b + c, target)
                    ways["s"] += ok
                    ways["cs"] += crit == "success"
                    ways["cf"] += crit == "failure"
        assert (odds.success, odds.critical_success, odds.critical_failure) == (
            Fraction(ways["s"], 216), Fraction(ways["cs"], 216), Fraction(ways["cf"], 216))


def test_gurps_sr_html_escapes_labels():
    roll = success_roll(10, [(1, "<b>x</b>")], label="<Lock>", actor="A&B", dice=(3, 3, 3))
    html = roll._repr_html_()
    assert "<b>x</b>" not in html and "&lt;b&gt;" in html and "A&amp;B" in html
    assert roll._repr_html_() == html  # deterministic


def test_best_alternative_is_the_one_choice_of_a_fallback_chain():
    """"A | B" keeps the alternative with the highest effective target, numbers or names alike; an
    alternative the character cannot use is skipped; none usable raises the first one's error."""
    from gamekernel.errors import NotFoundError
    from gamekernel.gurps.rules.checks import (
        ResolvedCheck,
        best_alternative,
        parse_check_spec,
        parse_side,
        split_vs,
    )

    assert best_alternative(parse_check_spec("12 | 14")).target == 14
    assert best_alternative(parse_check_spec("14-3 | 12")).target == 12
    assert best_alternative(parse_check_spec("12 | 12+0")).target == 12

    def resolve(alt, defense):
        if alt.name == "Known":
            return ResolvedCheck("Known", 11, alt.modifiers, defense)
        if alt.name is None:
            return ResolvedCheck("", alt.number, alt.modifiers, defense, "raw")
        raise NotFoundError(f"no {alt.name}")

    assert best_alternative(parse_check_spec("Unknown | Known-1 | 9"), resolve).label == "Known"
    assert best_alternative(parse_check_spec("Known | 13"), resolve).target == 13
    with pytest.raises(NotFoundError, match="no Unknown"):
        best_alternative(parse_check_spec("Unknown | Other"), resolve)
    with pytest.raises(UsageError):
        best_alternative(parse_check_spec("Known | 12"))  # a name needs a character
    assert split_vs("Aiko:Stealth vs Guard:Per") == ["Aiko:Stealth", "Guard:Per"]
    assert split_vs("14 対 12") == ["14", "12"]
    side = parse_side("Aiko:Stealth-2")
    assert side.actor == "Aiko" and side.alternatives[0].name == "Stealth"
    assert side.alternatives[0].modifiers[0].value == -2
    assert parse_side("S:Stealth").actor is None and parse_side("14").alternatives[0].number == 14
