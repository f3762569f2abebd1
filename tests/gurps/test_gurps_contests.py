"""Contests GURPS-SR-10..12, T-07, exact contest odds."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from gamekernel.errors import UsageError
from gamekernel.gurps.rules.checks import success_roll
from gamekernel.gurps.rules.contests import (
    QuickContest,
    RegularContest,
    margin_of_victory,
    quick_contest,
    regular_contest,
    roll_quick_contest,
)
from gamekernel.gurps.rules.odds import quick_contest_odds, regular_contest_odds


def test_gurps_sr_11_t07_success_5_vs_failure_5_is_10():
    a = success_roll(12, dice=(2, 2, 3))  # 7: by 5
    b = success_roll(10, dice=(5, 5, 5))  # 15: fail by 5
    contest = quick_contest(a, b)
    assert contest.winner == "a" and contest.margin == 10 == margin_of_victory(a, b)


def test_gurps_sr_11_t07_success_2_vs_success_1_is_1():
    a = success_roll(12, dice=(3, 3, 4))  # 10: by 2
    b = success_roll(12, dice=(3, 4, 4))  # 11: by 1
    assert quick_contest(a, b).winner == "a" and quick_contest(a, b).margin == 1


def test_gurps_sr_10_both_fail_smaller_failure_wins_and_ties():
    a = success_roll(8, dice=(3, 3, 4))  # fail by 2
    b = success_roll(8, dice=(4, 4, 4))  # fail by 4
    assert quick_contest(a, b).winner == "a" and quick_contest(a, b).margin == 2
    assert quick_contest(a, a).winner is None


def test_gurps_sr_10_quick_contest_odds_are_complementary_and_symmetric():
    odds = quick_contest_odds(14, 12)
    assert odds.a_wins + odds.b_wins + odds.tie == 1
    mirror = quick_contest_odds(12, 14)
    assert (mirror.a_wins, mirror.b_wins) == (odds.b_wins, odds.a_wins)
    even = quick_contest_odds(10, 10)
    assert even.a_wins == even.b_wins


def test_gurps_sr_10_odds_against_simulation_free_enumeration():
    """Brute force over all 216 x 216 dice pairs with the real judge."""
    wins = 0
    faces = [(a, b, c) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)]
    for fa in faces[::7]:
        for fb in faces[::5]:
            contest = quick_contest(success_roll(11, dice=fa), success_roll(9, dice=fb))
            wins += contest.winner == "a"
    assert wins > 0  # the loop ran; exact check below uses all outcomes
    total = 0
    for fa in faces:
        ra = success_roll(11, dice=fa)
        for fb in faces:
            total += quick_contest(ra, success_roll(9, dice=fb)).winner == "a"
    assert quick_contest_odds(11, 9).a_wins == Fraction(total, 216 * 216)


def test_gurps_sr_12_regular_contest_keeps_every_round():
    dice = [4, 4, 4, 4, 4, 4,  # both succeed
            6, 6, 6, 6, 6, 6,  # both fail
            1, 1, 1, 6, 6, 6]  # A only
    contest = regular_contest(12, 12, dice=dice)
    assert len(contest.rounds) == 3 and contest.winner == "a"
    assert RegularContest.from_dict(contest.to_dict()) == contest


def test_gurps_sr_12_regular_contest_cap():
    contest = regular_contest(18, 18, rng=random.Random(5), max_rounds=3)
    assert len(contest.rounds) <= 3
    if contest.winner is None:
        assert len(contest.rounds) == 3 and contest.capped
    with pytest.raises(UsageError):
        regular_contest(10, 10, rng=random.Random(1), max_rounds=0)


def test_gurps_sr_12_regular_odds_formula():
    odds = regular_contest_odds(12, 10)
    assert odds.a_wins + odds.b_wins == 1 and odds.a_wins > odds.b_wins


def test_gurps_sr_10_contest_below_3_still_rolls_and_roundtrips():
    contest = roll_quick_contest(1, 10, dice=[1, 1, 2, 6, 6, 6])
    assert contest.a.refused is None and contest.winner == "a"
    assert QuickContest.from_dict(contest.to_dict()) == contest
