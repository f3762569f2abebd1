"""Damage: GURPS-DMG-02 table (every row), DMG-03 notation, DMG-04..08, T-15, T-16."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.rules.damage import (
    damage_for_st,
    damage_notation,
    injury_from,
    parse_damage,
    roll_damage,
)

# Typed from RULES.md GURPS-DMG-02 (seed 004:331-352) and the OPEN continuation.
SEED_ROWS = {
    1: ("1d-6", "1d-5"), 2: ("1d-6", "1d-5"), 3: ("1d-5", "1d-4"), 4: ("1d-5", "1d-4"), 5: ("1d-4", "1d-3"),
    6: ("1d-4", "1d-3"), 7: ("1d-3", "1d-2"), 8: ("1d-3", "1d-2"), 9: ("1d-2", "1d-1"), 10: ("1d-2", "1d"),
    11: ("1d-1", "1d+1"), 12: ("1d-1", "1d+2"), 13: ("1d", "2d-1"), 14: ("1d", "2d"), 15: ("1d+1", "2d+1"),
    16: ("1d+1", "2d+2"), 17: ("1d+2", "3d-1"), 18: ("1d+2", "3d"), 19: ("2d-1", "3d+1"), 20: ("2d-1", "3d+2"),
}
OPEN_ROWS = {21: ("2d", "4d-1"), 22: ("2d", "4d"), 23: ("2d+1", "4d+1"), 24: ("2d+1", "4d+2"),
             25: ("2d+2", "5d-1"), 26: ("2d+2", "5d")}


@pytest.mark.parametrize("st", sorted(SEED_ROWS))
def test_gurps_dmg_02_every_seed_row(st):
    thrust, swing = damage_for_st(st, extended=False)
    assert (str(thrust), str(swing)) == SEED_ROWS[st]


@pytest.mark.parametrize("st", sorted(OPEN_ROWS))
def test_gurps_dmg_02_open_extension_is_a_flag(st):
    thrust, swing = damage_for_st(st, extended=True)
    assert (str(thrust), str(swing)) == OPEN_ROWS[st]
    with pytest.raises(RuleError):
        damage_for_st(st, extended=False)


def test_gurps_dmg_02_out_of_table():
    with pytest.raises(RuleError):
        damage_for_st(0)


@pytest.mark.parametrize(("st", "thrust", "swing"), [
    (27, "3d-1", "5d+1"), (30, "3d", "5d+2"), (40, "4d+1", "7d-1"), (45, "5d", "7d+1"),
    (50, "5d+2", "8d-1"), (60, "7d-1", "9d"), (70, "8d", "10d"), (100, "11d", "13d"),
])
def test_gurps_dmg_02_open_beyond_26_follows_the_standard_continuation(st, thrust, swing):
    """OPEN after GURPS-DMG-02: ST above the table's 26 has damage (the Basic Set continuation)."""
    assert tuple(map(str, damage_for_st(st))) == (thrust, swing)
    with pytest.raises(RuleError):
        damage_for_st(st, extended=False)


def test_gurps_dmg_03_t10_st13_notation():
    assert damage_notation(13) == "1d/2d-1"


def test_gurps_dmg_04_minimum_damage_by_type():
    """0 for crushing, 1 for every other type."""
    assert roll_damage("1d-6 cr", dice=(1,)).basic == 0
    assert roll_damage("1d-6 cut", dice=(1,)).basic == 1
    assert roll_damage("1d-6 pi-", dice=(2,)).basic == 1


def test_gurps_dmg_05_06_t15_dr():
    """T-15: DR 4, 6 damage -> 2 penetrating; DR sums (2 + 12 = 14); nothing through when basic <= DR."""
    assert injury_from(6, 4, "cr") == (2, 2)
    assert injury_from(14, 2 + 12, "cr") == (0, 0)
    assert injury_from(3, 0, "cr") == (3, 3)


def test_gurps_dmg_07_08_t16_wounding_and_minimum_injury():
    """T-16: 5 cutting -> 7 (7.5 floored); 1 small piercing -> 1 (minimum)."""
    assert injury_from(5, 0, "cut") == (5, 7)
    assert injury_from(1, 0, "pi-") == (1, 1)
    assert injury_from(3, 0, "imp") == (3, 6)
    assert injury_from(3, 0, "pi+") == (3, 4)
    assert injury_from(3, 0, "burn") == (3, 3)


def test_gurps_dmg_roll_text_and_replay():
    result = roll_damage("2d+1 cut", dr=4, dice=(3, 5), target="Goblin")
    assert (result.raw, result.penetrating, result.injury, result.multiplier) == (9, 5, 7, Fraction(3, 2))
    assert str(result) == "Goblin · 2d+1 cut: rolled 9 [3,5] · DR 4 → 5 penetrating · ×1.5 → injury 7"
    assert type(result).from_dict(result.to_dict()) == result


def test_gurps_dmg_thr_sw_need_st():
    assert parse_damage("sw+2 cut", st=13).dice == 2 and parse_damage("sw+2 cut", st=13).adds == 1
    with pytest.raises(UsageError):
        parse_damage("sw cut")
    with pytest.raises(UsageError, match="unknown damage type"):
        parse_damage("2d slash")


def test_gurps_dmg_04_half_damage_beyond_half_range():
    assert roll_damage("2d pi", dice=(3, 4), half=True).basic == 3
