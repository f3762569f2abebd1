"""Dice values refuse deletion as they refuse assignment: an AttributeError, the value unchanged."""

from __future__ import annotations

import random

import pytest

from gamekernel.dice import Limits, roll
from gamekernel.dice.odds import distribution


def test_limits_refuse_deletion():
    limits = Limits(max_dice=7)
    with pytest.raises(AttributeError, match="immutable"):
        del limits.max_dice
    assert limits.max_dice == 7


def test_roll_result_and_die_refuse_deletion():
    result = roll("3d6r1", random.Random(1))
    die = result.dice[0]
    with pytest.raises(AttributeError, match="immutable"):
        del result.total
    with pytest.raises(AttributeError, match="immutable"):
        del die.value
    assert result.total == sum(d.value for d in result.dice if d.kept)
    assert die == result.dice[0]


def test_distribution_refuses_deletion():
    odds = distribution("3d6 <= 10")
    with pytest.raises(AttributeError, match="immutable"):
        del odds.text
    with pytest.raises(AttributeError, match="immutable"):
        del odds.comparison
    assert odds.text == "3d6 <= 10"
    assert odds.p_success == odds.p_le(10)
