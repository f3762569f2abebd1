"""Weapons on the character sheet (GURPS-CMB-14, 26, 30, 46, 47): parsing, levels that follow the
sheet, JSON round trip, GCS import of melee/ranged weapons, and fighting without %combat arm."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from gamekernel import Session
from gamekernel.display.results import ErrorResult
from gamekernel.errors import DataError, GameKernelError, NotFoundError, UsageError
from gamekernel.gurps.rules.character_files import load_character, save_character
from gamekernel.gurps.rules.characters import Character, make_skill
from gamekernel.gurps.rules.combat.sheets import combatant_from_character
from gamekernel.gurps.rules.gcs import import_gcs, load_gcs
from gamekernel.gurps.rules.weapons import CharacterWeapon, parse_character_weapon
from gamekernel.magics import current_session
from gamekernel.session import replay

DATA = Path(__file__).parent / "data"


def test_gurps_cmb_30_parse_weapon_forms():
    fixed = parse_character_weapon("Broadsword:14:sw+1 cut")
    assert (fixed.name, fixed.level, fixed.damage, fixed.parry) == ("Broadsword", 14, "sw+1 cut", 0)
    by_skill = parse_character_weapon("Shortsword:Broadsword-2:sw cut:reach=1:parry=no")
    assert (by_skill.skill, by_skill.modifier, by_skill.reach, by_skill.parry) == ("Broadsword", -2, "1", None)
    own = parse_character_weapon("Broadsword::sw+1 cut")
    assert own.skill == "" and own.skill_name == "Broadsword" and own.level is None
    bow = parse_character_weapon("Bow:Bow:1d+1 imp:ranged:acc=2")
    assert bow.ranged and bow.parry is None and bow.flags == ("ranged", "acc=2")


@pytest.mark.parametrize("text", ["Broadsword:14", "Sword:14:banana", "Sword:14:sw cut:sparkly",
                                  "Sword:14:sw cut:acc=x", "Sword:14:sw cut:parry=lots"])
def test_gurps_cmb_30_bad_weapons_are_refused(text):
    with pytest.raises(UsageError):
        parse_character_weapon(text)


def test_gurps_cmb_30_line_break_in_the_skill_is_a_format_error():
    """A line break inside the skill part (from the Python API) is the format error, not a crash."""
    with pytest.raises(UsageError, match="expected Name:skill:damage"):
        parse_character_weapon("Sword:Broad\nsword-2:sw cut")


def test_gurps_cmb_26_weapon_level_follows_the_skill():
    c = Character("Aiko", dx=13, skills=(make_skill("Broadsword", 8),),
                  weapons=(parse_character_weapon("Broadsword::sw+1 cut"),
                           parse_character_weapon("Shortsword:Broadsword-2:sw cut"),
                           parse_character_weapon("Kick:DX-2:thr+1 cr:noparry")))
    assert [c.weapon_level(w) for w in c.weapons] == [15, 13, 11]
    better = replace(c, skills=(make_skill("Broadsword", 12),))
    assert better.weapon_level("broadsword") == 16 and better.weapon("BROAD SWORD").name == "Broadsword"
    with pytest.raises(NotFoundError, match="no weapon"):
        c.weapon("Axe")


def test_gurps_ch_weapons_json_round_trip(tmp_path):
    c = Character("Aiko", dx=13, skills=(make_skill("Broadsword", 8),),
                  weapons=(parse_character_weapon("Broadsword::sw+1 cut:reach=1"),
                           parse_character_weapon("Knife:12:thr imp:dagger:parry=-1"),
                           parse_character_weapon("Sling:DX-4:sw pi:ranged:acc=0")))
    assert Character.from_dict(c.to_dict()) == c
    save_character(tmp_path / "aiko.json", c)
    assert load_character(tmp_path / "aiko.json") == c
    data = c.to_dict()
    data["weapons"][0]["flags"] = ["sparkly"]
    with pytest.raises(GameKernelError):
        Character.from_dict(data)
    data["weapons"][0] = {"damage": "1d"}
    with pytest.raises(DataError, match="weapons\\[0\\]"):
        Character.from_dict(data)
    assert "weapons" not in Character("Plain").to_dict()  # old files stay as they were


def test_gurps_gcs_import_melee_and_ranged_weapons_match_calc_level():
    result = import_gcs(json.loads((DATA / "aiko.gcs").read_text()))
    assert result.mismatches == () and result.warnings == ()
    c = result.character
    assert [w.name for w in c.weapons] == ["Broadsword", "Broadsword (Thrust)", "Large Knife", "Large Knife (Thrown)"]
    sword, thrust, knife, thrown = c.weapons
    assert (sword.damage, sword.reach, sword.parry, c.weapon_level(sword)) == ("sw+1 cut", "1", 0, 15)
    assert (thrust.damage, thrust.skill, c.weapon_level(thrust)) == ("thr+1 cr", "Broadsword", 15)
    assert (knife.skill, knife.modifier, knife.parry, knife.reach, c.weapon_level(knife)) == ("DX", -4, -1, "C", 9)
    assert thrown.parry is None and thrown.ranged and "thrown" in thrown.flags
    fighter = combatant_from_character(c)
    assert fighter.parry == 11  # Broadsword 15 / 2 + 3 + Combat Reflexes, as the file's calc.parry
    assert fighter.weapon("large knife thrown").kind == "thrown"


def test_gurps_gcs_weapon_level_mismatch_is_reported():
    doc = json.loads((DATA / "aiko.gcs").read_text())
    sword = next(e for e in doc["equipment"] if e["description"] == "Broadsword")
    sword["weapons"][0]["calc"]["level"] = 16
    assert import_gcs(doc).mismatches == (("Broadsword (weapon)", 16, 15),)
    assert load_gcs(DATA / "aiko.gcs").weapons[0].name == "Broadsword"


def test_gurps_cmb_14_session_character_fights_with_sheet_weapons():
    s = Session(seed=2)
    s.gurps.char_new("Aiko", st=11, dx=13, skills=[("Broadsword", 8)])
    s.gurps.char_add_weapon("Broadsword::sw+1 cut:reach=1")
    assert s.log[-1].kind == "gurps.char.set" and s.gurps.character("Aiko").weapons[0].name == "Broadsword"
    s.combat.start("Aiko Goblin{ST=9,DX=12,HT=11}")
    aiko = s.combat.state.get("Aiko")
    assert [(w.name, w.skill, w.damage) for w in aiko.weapons] == [("Broadsword", 15, "sw+1 cut")]
    assert aiko.parry == 10  # 15 / 2 + 3 (GURPS-CMB-46)
    result = s.combat.attack("Aiko", "Goblin", "broadsword")
    assert result.report.attack.roll.base == 15
    assert replay(s.active).to_dict() == s.state.to_dict()


def test_gurps_cmb_14_new_sheet_weapon_reaches_the_next_fight():
    s = Session(seed=2)
    s.gurps.char_new("Bren", st=13, dx=12)
    s.combat.start("Bren Goblin{ST=9,DX=12,HT=11}")
    assert [w.name for w in s.combat.state.get("Bren").weapons] == ["Punch"]
    s.combat.end()
    s.gurps.char_add_weapon("Axe:13:sw+2 cut", name="Bren")
    s.combat.start("Bren Goblin{ST=9,DX=12,HT=11}")
    assert [w.name for w in s.combat.state.get("Bren").weapons] == ["Axe"]


def test_gurps_cmb_26_unusable_weapon_skill_is_refused():
    s = Session(seed=2)
    s.gurps.char_new("Aiko")
    count = len(s.log)
    with pytest.raises(GameKernelError):
        s.gurps.char_add_weapon("Whip:Nonexistent Skill:sw cr")
    assert len(s.log) == count


def test_gurps_char_weapon_magic(ip):
    ip.run_line_magic("char", "new Aiko dx=13")
    ip.run_line_magic("char", "skill Broadsword 8")
    c = ip.run_line_magic("char", "weapon Aiko Broadsword:Broadsword:sw+1 cut")
    assert isinstance(c, Character) and c.weapon_level("Broadsword") == 15
    ip.run_line_magic("char", "weapon Knife:11:thr imp:dagger @Aiko")
    assert [w.name for w in current_session().gurps.character("Aiko").weapons] == ["Broadsword", "Knife"]
    ip.run_line_magic("char", "weapon Aiko -Knife")
    assert [w.name for w in current_session().gurps.character("Aiko").weapons] == ["Broadsword"]
    assert isinstance(ip.run_line_magic("char", "weapon Aiko"), ErrorResult)
    assert isinstance(ip.run_line_magic("char", "weapon Aiko Sword:14:sw cut:sparkly"), ErrorResult)
    assert isinstance(CharacterWeapon.from_dict(c.weapons[0].to_dict()), CharacterWeapon)


def test_gurps_cmb_46_sheet_html_lists_weapons_with_parry():
    c = load_gcs(DATA / "aiko.gcs")
    html = c._repr_html_()
    assert "gk-sheet-weapons" in html and "Large Knife (Thrown)" in html
    assert "<td" in html and ">11<" in html  # Broadsword Parry 15/2 + 3 + Combat Reflexes
