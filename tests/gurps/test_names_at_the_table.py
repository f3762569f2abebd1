"""Names a magic reaches whole (GURPS-STD-01, MAG-01): a skill with an apostrophe and a semicolon, quoted
or not; `%cast` reads the whole spell name before its cost; a skill listed twice is rolled at the better
row (GCS keeps both rows; the player rolls the better); the spell Shield is not the skill Shield.
Each document is a small .gcs v5 written for the test."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gamekernel.gurps.rules.character_parts import Skill
from gamekernel.gurps.rules.characters import Character
from gamekernel.magics import current_session

AREA = "Area Knowledge (Jupiter's Moons; Lived there)"


@pytest.mark.parametrize("line", [AREA, f'"{AREA}"', f"'{AREA}'", f"{AREA} -2", f'"{AREA}"-2',
                                  AREA.replace("'", "\u2019")])
def test_a_skill_name_with_an_apostrophe_and_a_semicolon_quoted_or_not(ip, line) -> None:
    ip.run_line_magic("char", "new Aiko iq=12")
    ip.run_line_magic("char", f"skill {AREA} 2")
    roll = ip.run_line_magic("check", line)
    assert roll.label == AREA and roll.target == 13 - (2 if "-2" in line else 0)


@pytest.mark.parametrize(("line", "target"), [('"Many IQ-based skills at 16-20"', 16),
                                              ('"Many IQ-based skills at 16-20" -2 dark', 14),
                                              ("'Many IQ-based skills at 16-20'+1", 17)])
def test_gurps_sr_04_a_quoted_name_ending_in_a_number_is_whole(ip, line, target) -> None:
    # GURPS-SR-04: a modifier changes the target, never the name; a GCS row "Many IQ-based skills at
    # 16-20" (a monster's) once read as the skill "Many IQ-based skills at 16" even quoted
    ip.run_line_magic("char", "new Aiko iq=12")
    ip.run_line_magic("char", "skill Many IQ-based skills at 16-20 IQ/A 16")
    roll = ip.run_line_magic("check", line)
    assert roll.label == "Many IQ-based skills at 16-20" and roll.target == target


def test_tokens_keep_quoted_words_and_apostrophes() -> None:
    from gamekernel.syntax import tokenize

    assert [tok.raw for tok in tokenize("'Old Guard'{DX=9} Aiko's 'x y'")] == ["'Old Guard'{DX=9}", "Aiko's", "'x y'"]
    assert [tok.raw for tok in tokenize(f"'{AREA}' @Aiko")] == [f"'{AREA}'", "@Aiko"]


def spells_doc() -> dict[str, Any]:
    return {"version": 5, "profile": {"name": "Mage"}, "total_points": 150,
            "attributes": [{"attr_id": "iq", "adj": 4}, {"attr_id": "fp", "adj": 10}],
            "traits": [], "equipment": [],
            "skills": [{"id": "s1", "name": "Shield", "difficulty": "dx/e", "points": 1, "calc": {"level": 10}},
                       {"id": "s2", "name": "Navigation", "specialization": "Sea", "difficulty": "iq/a",
                        "points": 1, "calc": {"level": 13}},
                       {"id": "s3", "name": "Navigation", "specialization": "Sea", "difficulty": "iq/a",
                        "points": 4, "calc": {"level": 15}}],
            "spells": [{"id": "p1", "name": "Shield", "difficulty": "iq/h", "college": ["Protection"],
                        "points": 8, "calc": {"level": 16}},
                       {"id": "p2", "name": "Recover Energy", "difficulty": "iq/h", "college": ["Meta"],
                        "points": 4, "calc": {"level": 15}},
                       {"id": "p3", "name": "Recover", "difficulty": "iq/h", "college": ["Meta"],
                        "points": 1, "calc": {"level": 12}}]}


@pytest.fixture
def mage(ip, tmp_path):
    path = tmp_path / "mage.gcs"
    path.write_text(json.dumps(spells_doc()), encoding="utf-8")
    ip.run_line_magic("char", f"load {path}")
    return current_session().gurps.character("Mage")


def test_gurps_mag_01_cast_reads_the_whole_spell_name_before_the_cost(ip, mage) -> None:
    shown = str(ip.run_line_magic("cast", "Recover Energy 1 @Mage"))
    assert "Recover Energy" in shown and "15" in shown
    quoted = str(ip.run_line_magic("cast", '"Recover Energy" 1 @Mage'))
    assert "Recover Energy" in quoted and "15" in quoted
    short = str(ip.run_line_magic("cast", "Recover 1 @Mage"))
    assert "12" in short


def test_gurps_mag_01_the_spell_shield_is_not_the_skill_shield(ip, mage) -> None:
    assert mage.spell_level("Shield").level == 16
    assert mage.skill_level("Shield").level == 10  # %check Shield: the skill
    assert "16" in str(ip.run_line_magic("cast", "Shield 2 @Mage"))


def test_gurps_std_01_a_skill_listed_twice_rolls_at_the_better_row(mage) -> None:
    assert [s.points for s in mage.find_skill_entries("Navigation (Sea)")] == [1, 4]  # both rows kept
    assert mage.skill_level("Navigation (Sea)").level == 15
    twice = Character(name="B", iq=12, skills=(Skill("Navigation", "IQ", "A", 4, specialization="Sea"),
                                               Skill("Navigation", "IQ", "A", 1, specialization="Sea")))
    assert twice.skill_level("Navigation (Sea)").level == 13  # IQ 12 + 1 (4 points), not 11 (1 point)


def test_the_play_comparison_reads_spells_and_duplicates_as_the_magics_do(mage) -> None:
    from gamekernel.gurps.gcs_play import play_comparisons

    rows = {(kind, name): (gcs, ours) for kind, name, gcs, ours in play_comparisons(spells_doc(), mage)
            if kind in ("skill", "spell")}
    assert rows[("spell", "Shield")] == (16, 16) and rows[("skill", "Shield")] == (10, 10)
    assert rows[("skill", "Navigation (Sea)")] == (15, 15)  # %check rolls the better of the two rows
