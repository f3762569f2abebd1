"""What `%char` and `%check` show when reeling or tired, as the fight already does: Move halved (round
up) when reeling and again when tired (GURPS-INJ-01, seed 004 line 1600; GURPS-FAT-01, line 1658,
"all effects are cumulative"), ST halved for ST rolls when tired (line 1658; not ST-based values)."""

from __future__ import annotations

import pytest

from gamekernel.gurps.rules.characters import Character
from gamekernel.gurps.rules.combat.sheets import combatant_from_character


@pytest.mark.parametrize(("hp_lost", "fp_lost", "move"), [
    (0, 0, 5),
    (8, 0, 5),   # HP 5 of 13: above a third, not reeling
    (9, 0, 3),   # HP 4 of 13: reeling, 5 -> 3 (round up)
    (0, 8, 5),   # FP 4 of 12: not below a third
    (0, 9, 3),   # FP 3 of 12: tired
    (9, 9, 2),   # both: 5 -> 3 -> 2
])
def test_gurps_inj_01_fat_01_move_on_the_sheet_is_the_fights(hp_lost, fp_lost, move) -> None:
    ch = Character(name="Aiko", st=13, ht=12, hp_lost=hp_lost, fp_lost=fp_lost)
    assert ch.move == move == combatant_from_character(ch).move


def test_char_shows_the_halved_move(ip) -> None:
    ip.run_line_magic("char", "new Aiko st=13 ht=12")
    ip.run_line_magic("char", "set hp_lost=9 fp_lost=9")
    shown = str(ip.run_line_magic("char", ""))
    assert "Move 2" in shown and "Move 5" not in shown


@pytest.mark.parametrize(("fp_lost", "target"), [(8, 13), (9, 7), (12, 7)])
def test_gurps_fat_01_st_roll_halved_when_tired(ip, fp_lost, target) -> None:
    ip.run_line_magic("char", "new Aiko st=13 ht=12")
    ip.run_line_magic("char", f"set fp_lost={fp_lost}")
    roll = ip.run_line_magic("check", "ST")
    assert roll.target == target  # 13 -> 7 (round up) below FP 4 of 12
    assert ip.run_line_magic("check", "ST+2").target == target + 2
    assert ip.run_line_magic("check", "DX").target == 10  # only ST is halved


def test_tired_st_is_not_st_based_values() -> None:
    ch = Character(name="Aiko", st=13, ht=12, fp_lost=9)
    assert (ch.hp, ch.damage, ch.basic_lift) == (13, "1d/2d-1", Character(name="B", st=13).basic_lift)
