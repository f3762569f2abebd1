"""A GCS character at the table: the numbers the sheet shows and the fight rolls equal the file's.

Each document here is a small .gcs v5 written for the test (never a file of a public library)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gamekernel.gurps.combat_render import combat_lines
from gamekernel.gurps.render import character_text
from gamekernel.gurps.rules.combat import (
    Tape,
    attack,
    choose_maneuver,
    parse_weapon,
    quick_combatant,
    start_combat,
)
from gamekernel.gurps.rules.combat.sheets import combatant_from_character
from gamekernel.gurps.rules.gcs import import_gcs
from gamekernel.table_session import Session


def doc(st: int = 10, dx: int = 10, **extra: Any) -> dict[str, Any]:
    """A minimal GCS v5 character: ST/DX bought, no traits, plus `extra` top-level entries."""
    data: dict[str, Any] = {
        "version": 5, "profile": {"name": "Probe"}, "total_points": 100,
        "attributes": [{"attr_id": "st", "adj": st - 10}, {"attr_id": "dx", "adj": dx - 10}],
        "traits": [], "skills": [], "equipment": [],
    }
    data.update(extra)
    return data


def punch_trait(**damage: Any) -> dict[str, Any]:
    """A natural-attack trait with one Punch usage (thr-1 cr unless `damage` says otherwise)."""
    return {"id": "t1", "name": "Natural Attacks", "weapons": [{
        "id": "w1", "usage": "Punch", "damage": {"type": "cr", "st": "thr", "base": "-1", **damage},
        "defaults": [{"type": "dx"}, {"type": "skill", "name": "Brawling"}], "parry": "0"}]}


def fight_damage(data: dict[str, Any], weapon: str = "Natural Attacks") -> str:
    """The basic damage a combatant made from the imported sheet rolls with `weapon`."""
    c = combatant_from_character(import_gcs(data).character)
    w = c.weapon(weapon)
    from gamekernel.gurps.rules.damage import parse_damage

    return str(parse_damage(w.damage, st=c.st))


def test_brawling_at_dx_plus_2_adds_one_per_die_to_punch_dmg_03():
    # GURPS-DMG-03: a weapon's damage is thr/sw plus its adds; GCS's Brawling feature: +1 per die at DX+2
    brawling = {"id": "s1", "name": "Brawling", "difficulty": "dx/e", "points": 4, "calc": {"level": 12},
                "features": [{"type": "weapon_bonus", "selection_type": "weapons_with_required_skill",
                              "name": {"compare": "is", "qualifier": "Brawling"},
                              "level": {"compare": "at_least", "qualifier": 2}, "amount": 1, "per_die": True}]}
    with_it = doc(traits=[punch_trait()], skills=[brawling])
    assert fight_damage(with_it) == "1d-2 cr"  # ST 10 thr 1d-2, -1, +1 per die
    brawling_low = {**brawling, "points": 1, "calc": {"level": 10}}  # DX+0: below the feature's level
    assert fight_damage(doc(traits=[punch_trait()], skills=[brawling_low])) == "1d-3 cr"


def test_weapon_modifier_per_die_is_rolled_dmg_03():
    assert fight_damage(doc(st=13, traits=[punch_trait(modifier_per_die=2)])) == "1d+1 cr"  # 1d-1 -1 +2


def test_this_weapon_bonus_and_weapon_master_by_name():
    trait = punch_trait()
    trait["features"] = [{"type": "weapon_bonus", "selection_type": "this_weapon", "amount": 2}]
    master = {"id": "t2", "name": "Weapon Master", "features": [
        {"type": "weapon_bonus", "selection_type": "weapons_with_name",
         "name": {"compare": "is", "qualifier": "Natural Attacks"}, "amount": 1, "per_die": True}]}
    assert fight_damage(doc(traits=[trait, master])) == "1d cr"  # 1d-2 -1 +2 +1


def test_striking_st_and_the_files_progression_reach_sheet_and_fight_dmg_02():
    striking = {"id": "t3", "name": "Striking ST", "levels": 5, "features": [
        {"type": "attribute_bonus", "attribute": "st", "limitation": "striking_only", "amount": 1,
         "per_level": True}]}
    ch = import_gcs(doc(traits=[punch_trait(), striking])).character
    assert (str(ch.thrust), str(ch.swing)) == ("1d+1", "2d+1")  # ST 15's row (GURPS-DMG-02)
    assert ch.st == 10 and fight_damage(doc(traits=[punch_trait(), striking])) == "1d cr"
    kyos = doc(st=9, traits=[punch_trait()], settings={"damage_progression": "knowing_your_own_strength"})
    ch = import_gcs(kyos).character
    assert str(ch.thrust) == "1d-3" and fight_damage(kyos) == "1d-4 cr"


def test_st_0_creature_loads_and_shows_without_a_traceback(tmp_path: Path):
    path = tmp_path / "slime.gcs"
    path.write_text(json.dumps(doc(st=0, traits=[punch_trait()])), encoding="utf-8")
    session = Session()
    ch = session.gurps.char_import(path).character
    assert ch.st == 0 and str(ch.thrust) == "1d-6"  # GCS continues the table below ST 1
    assert "1d-6/1d-5" in character_text(ch)
    assert fight_damage(doc(st=0, traits=[punch_trait()])) == "1d-7 cr"


@pytest.mark.parametrize(("weapon", "strong"), [("Club:12:2d cr", 0), ("Axe:12:sw+2 cut", 2)])
def test_gurps_cmb_17_strong_adds_only_to_st_based_damage(weapon: str, strong: int):
    # GURPS-CMB-17: All-Out Attack (Strong): +2 or +1 per die, ST-based thr/sw weapons only
    hitter = quick_combatant("Hitter", {"st": 10, "dx": 12, "ht": 12, "weapon": weapon}, pc=True)
    state = start_combat([hitter, quick_combatant("Dummy", {"dx": 8})], Tape(faces=[]))
    state, _ = choose_maneuver(state, "Hitter", "all_out_attack", Tape(), option="strong")
    state, _ = attack(state, "Hitter", "Dummy", parse_weapon(weapon).name, Tape(faces=[3, 3, 3]))
    assert state.pending.strong_adds == strong


def test_strong_still_adds_to_a_sheet_weapon_worked_out_from_st():
    # GURPS-CMB-17: a sheet weapon rolled from its own table (adds per die) stays ST-based
    ch = import_gcs(doc(st=13, traits=[punch_trait(modifier_per_die=2)])).character
    hitter = combatant_from_character(ch)
    state = start_combat([hitter, quick_combatant("Dummy", {"dx": 8})], Tape(faces=[]))
    state, _ = choose_maneuver(state, "Probe", "all_out_attack", Tape(), option="strong")
    state, _ = attack(state, "Probe", "Dummy", "Natural Attacks", Tape(faces=[3, 3, 3]))
    assert state.pending.strong_adds == 2


def test_fright_check_and_senses_take_the_files_trait_features_men_01_men_10(tmp_path: Path):
    # GURPS-MEN-10: Fright Check vs Will (+2 Combat Reflexes); GURPS-MEN-01: sense rolls vs Per + Acute
    reflexes = {"id": "t4", "name": "Combat Reflexes", "features": [
        {"type": "attribute_bonus", "attribute": "fright_check", "amount": 2}]}
    acute = {"id": "t5", "name": "Acute Vision", "levels": 3, "features": [
        {"type": "attribute_bonus", "attribute": "vision", "amount": 1, "per_level": True}]}
    path = tmp_path / "probe.gcs"
    path.write_text(json.dumps(doc(traits=[reflexes, acute])), encoding="utf-8")
    session = Session()
    session.gurps.char_import(path)
    assert session.gurps.check_target("Fright Check") == 12
    assert session.gurps.check_target("Vision") == 13 and session.gurps.check_target("Hearing") == 10
    assert session.gurps.fright().roll.target == 12


def test_shield_db_and_combat_reflexes_count_once_in_the_fight_cmb_43_adv_05():
    # GURPS-CMB-43: a ready shield's DB adds to every defense once; GURPS-ADV-05: Combat Reflexes +1
    reflexes = {"id": "t6", "name": "Combat Reflexes", "features": [
        {"type": "attribute_bonus", "attribute": kind, "amount": 1} for kind in ("dodge", "parry", "block")]}
    shield = {"id": "e1", "description": "Medium Shield", "equipped": True, "features": [
        {"type": "attribute_bonus", "attribute": kind, "amount": 2} for kind in ("dodge", "parry", "block")]}
    sword = {"id": "e2", "description": "Broadsword", "equipped": True, "weapons": [{
        "id": "w2", "usage": "Swing", "damage": {"type": "cut", "st": "sw", "base": "1"}, "parry": "0",
        "defaults": [{"type": "skill", "name": "Broadsword"}]}]}
    skills = [{"id": "s2", "name": "Broadsword", "difficulty": "dx/a", "points": 8},
              {"id": "s3", "name": "Shield", "specialization": "Shield", "difficulty": "dx/e", "points": 4}]
    ch = import_gcs(doc(dx=12, traits=[reflexes], skills=skills, equipment=[shield, sword])).character
    c = combatant_from_character(ch)
    from gamekernel.gurps.rules.combat import effective_defenses

    usual = {kind: value[0] for kind, value in effective_defenses(start_combat([c], Tape(faces=[])), c.name).items()}
    # Broadsword 14 -> 10, Shield 14 -> 10, Dodge 8; each +2 DB and +1 CR, once
    assert usual == {"dodge": 11, "parry": 13, "block": 13}
    assert ch.dodge == 11 and ch.resolve("Dodge").target == 11  # the sheet and %check Dodge agree


def test_point_total_takes_size_and_cost_reductions_and_granted_speed_ch_05():
    # GURPS-CH-05: ST costs 10/level; GCS takes 10% off per SM above 0 and No Fine Manipulators' 40%
    settings = {"attributes": [{"id": key, "cost_adj_percent_per_sm": 10} for key in ("st", "hp")]}
    no_fine = {"id": "t7", "name": "No Fine Manipulators", "calc": {"points": -30}, "features": [
        {"type": "cost_reduction", "attribute": "st", "percentage": 40}]}
    big = doc(st=20, settings=settings, profile={"name": "Ox", "SM": 1}, traits=[no_fine])
    ch = import_gcs(big).character
    assert ch.attribute_points()["st"] == 50  # 100 points less 10% (SM +1) and 40%
    assert ch.points().total == 50 - 30
    speedy = {"id": "t8", "name": "Increased Basic Speed", "levels": 2, "calc": {"points": 10}, "features": [
        {"type": "attribute_bonus", "attribute": "basic_speed", "amount": 0.25, "per_level": True}]}
    ch = import_gcs(doc(traits=[speedy])).character
    assert ch.basic_speed == 5.5 and ch.secondary_points()["speed_adj"] == 0 and ch.points().total == 10


def _mage() -> Session:
    session = Session(seed=2)
    session.gurps.char_new("Mage", dx=11, iq=13, ht=10, skills=[("Acrobatics", 4)])
    return session


def test_gurps_inj_05_shock_reaches_check_in_a_fight_but_not_ht_or_defenses():
    # GURPS-INJ-05: -(injury) to DX, IQ and their skills on the victim's next turn, max 4
    session = _mage()
    before = session.gurps.check_target("Acrobatics")
    session.combat.start("Mage Orc{ST=12,DX=11}")
    session.combat.damage("Mage", "3 cr")
    while session.combat.state.current.name != "Mage":
        session.combat.next()
    assert session.gurps.check("Acrobatics", actor="Mage").target == before - 3
    assert session.gurps.check("IQ", actor="Mage").target == 13 - 3
    assert session.gurps.check("HT", actor="Mage").target == 10
    session.combat.next()  # the turn ends: the shock is gone
    while session.combat.state.current.name != "Mage":
        session.combat.next()
    assert session.gurps.check("Acrobatics", actor="Mage").target == before


def test_gurps_inj_05_shock_reaches_a_spell_cast_in_a_fight_and_cast_needs_concentrate():
    session = _mage()
    session.combat.start("Mage Orc{ST=12,DX=11}")
    session.combat.damage("Mage", "2 cr")
    while session.combat.state.current.name != "Mage":
        session.combat.next()
    count = len(session.log)
    with pytest.raises(Exception, match="Concentrate"):  # GURPS-MAG-05
        session.combat.cast("Mage", "Light", 1, 14)
    assert len(session.log) == count
    session.combat.maneuver("Mage", "concentrate")
    result = session.combat.cast("Mage", "Light", 1, 14)
    assert "shock" in str(combat_lines(result)[0]) and "12" in str(combat_lines(result)[0])  # 14 - 2


def test_gurps_inj_01_reeling_halves_dodge_outside_combat_at_a_third_or_less():
    # GURPS-INJ-01 (the seed's "1/3 or less", as the fight counts it): Dodge halved, round up
    session = Session()
    session.gurps.char_new("Bob", st=12, dx=12, ht=12)  # HP 12, Dodge 9
    assert session.gurps.check_target("Dodge") == 9
    session.gurps.char_set("Bob", hp_lost=7)  # HP 5 of 12: not reeling
    assert session.gurps.check_target("Dodge") == 9 and "reeling" not in session.gurps.character("Bob").conditions
    session.gurps.char_set("Bob", hp_lost=8)  # HP 4 = 12/3: reeling, as combat has it
    bob = session.gurps.character("Bob")
    assert "reeling" in bob.conditions and bob.dodge == 5
    assert session.gurps.check_target("Dodge") == 5
    assert combatant_from_character(bob).reeling


def test_the_sheet_shows_the_damage_and_parry_the_fight_uses_and_names_the_seed_rules(tmp_path: Path):
    from gamekernel.gurps.render import character_html, weapon_rows

    # GURPS-CMB-46: Parry = skill/2 + 3 + bonuses, + a ready shield's DB (CMB-43), as the fight has it
    shield = {"id": "e1", "description": "Small Shield", "equipped": True, "features": [
        {"type": "attribute_bonus", "attribute": kind, "amount": 1} for kind in ("dodge", "parry", "block")]}
    data = doc(st=13, traits=[punch_trait(modifier_per_die=2)], equipment=[shield])
    path = tmp_path / "probe.gcs"
    path.write_text(json.dumps(data), encoding="utf-8")
    ch = Session().gurps.char_import(path).character
    row = weapon_rows(ch)[0]
    c = combatant_from_character(ch)
    assert row["damage"] == "1d+1 cr" == fight_damage(data)
    assert int(row["parry"]) == c.parry_with(c.weapons[0]) + c.shield_db == 10 // 2 + 3 + 1
    assert "GURPS-INJ-01" in character_html(ch)  # the seed's choices, named once on a GCS sheet


def test_char_set_name_is_a_one_line_refusal_not_a_traceback(ip):
    ip.run_line_magic("char", "new Bob")
    from gamekernel.errors import UsageError
    from gamekernel.magic_base import current_session

    session = current_session()
    count = len(session.log)
    with pytest.raises(UsageError, match="cannot edit 'name'"):
        session.gurps.char_set("Bob", name="X")
    assert len(session.log) == count and session.gurps.character("Bob").name == "Bob"
    refused = ip.run_line_magic("char", "set name=X")
    assert refused.message == "cannot edit 'name'" and len(session.log) == count


def test_gurps_cmb_33_weapon_minimum_st_from_the_weapon_text_and_the_file():
    from gamekernel.gurps.rules.weapons import parse_character_weapon

    # GURPS-CMB-33: a weapon whose ST is above yours: -1 per point short
    session = Session()
    session.gurps.char_new("Bob", st=11, dx=12, skills=[("Broadsword", 4)])  # Broadsword 13
    session.gurps.char_add_weapon("Greatsword:Broadsword:sw+3 cut:st=14")
    assert parse_character_weapon("Greatsword:Broadsword:sw+3 cut:st=14").min_st == 14
    assert session.gurps.character("Bob").weapon_level("Greatsword") == 13 - 3
    session.gurps.char_set("Bob", st=14)
    assert session.gurps.character("Bob").weapon_level("Greatsword") == 13
    with pytest.raises(Exception, match="st= needs a number"):
        parse_character_weapon("Greatsword:Broadsword:sw+3 cut:st=big")
    heavy = {"id": "e3", "description": "Maul", "equipped": True, "weapons": [{
        "id": "w3", "usage": "Swing", "damage": {"type": "cr", "st": "sw", "base": "4"}, "strength": "13‡",
        "parry": "0U", "defaults": [{"type": "dx", "modifier": -5}]}]}
    ch = import_gcs(doc(st=11, dx=12, equipment=[heavy])).character
    assert ch.weapon_level("Maul") == 12 - 5 - 2
    assert ch.with_attribute("st", 13).weapon_level("Maul") == 12 - 5  # the sheet follows ST


def test_imported_trait_shows_its_chosen_modifier_dis_20():
    # GURPS-DIS-20: Sense of Duty -20 for every living being; GCS says it with an enabled modifier
    duty = {"id": "t9", "name": "Sense of Duty", "calc": {"points": -20}, "modifiers": [
        {"id": "m1", "name": "Adventuring Companions", "cost_adj": "-5", "disabled": True},
        {"id": "m2", "name": "Every Living Being", "cost_adj": "-20"}]}
    trait = next(t for t in import_gcs(doc(traits=[duty])).character.traits if t.name.startswith("Sense"))
    assert (trait.name, trait.option, trait.points) == ("Sense of Duty (Every Living Being)", "every_living_being", -20)


def test_cast_takes_the_sheets_spell_level_without_skill(ip, tmp_path: Path):
    from gamekernel.magic_base import current_session

    spell = {"id": "p1", "name": "Light", "difficulty": "iq/h", "points": 1, "calc": {"level": 12}}
    path = tmp_path / "mage.gcs"
    path.write_text(json.dumps(doc(spells=[spell], profile={"name": "Mage"})), encoding="utf-8")
    ip.run_line_magic("char", f"load {path}")
    result = ip.run_line_magic("cast", "Light 1 @Mage")
    assert "12" in str(combat_lines(result)[0])
    session = current_session()
    count = len(session.log)
    refused = ip.run_line_magic("cast", "Fireball 1 @Mage")  # not on the sheet: give skill=
    assert "skill=14" in refused.message and len(session.log) == count


def test_char_load_report_is_short_and_true_and_char_diff_lists_all(ip, tmp_path: Path):
    from gamekernel.magic_base import current_session

    # a weapon level the file says 15 while the sheet's skill gives 12: the file's is used, truly
    sword = {"id": "e4", "description": "Sword", "equipped": True, "weapons": [{
        "id": "w4", "usage": "Swing", "damage": {"type": "cut", "st": "sw"}, "parry": "0",
        "defaults": [{"type": "dx", "modifier": 2}], "calc": {"level": 15, "damage": "1d cut"}}]}
    # five beams whose file says 2d+1 where its own row says 2d: the table rolls the row's 2d
    divided = [{"id": f"e{n}", "description": f"Beam {n}", "equipped": True, "weapons": [{
        "id": f"W{n}", "damage": {"type": "burn", "base": "2d", "armor_divisor": 2},
        "defaults": [{"type": "dx"}], "accuracy": "2", "calc": {"level": 10, "damage": "2d+1(2) burn"}}]}
        for n in range(5)]
    path = tmp_path / "probe.gcs"
    path.write_text(json.dumps(doc(equipment=[sword, *divided])), encoding="utf-8")
    loaded = ip.run_line_magic("char", f"load {path}")
    ch = loaded.character
    assert ch.weapon_level("Sword") == 15 and combatant_from_character(ch).weapon("Sword").skill == 15
    assert ch.with_attribute("dx", 11).weapon_level("Sword") == 16  # still follows DX from here
    assert loaded.differences[0] == "1 of the file's numbers differ from our own computation: the file's are used"
    assert loaded.differences[1] == "values at the table that differ from the file: 5 (%char diff Probe lists them all)"
    assert len(loaded.differences) == 2 + 3
    full = current_session().gurps.char_diff("Probe")
    assert full.lines[0] == "Sword (weapon): GCS 15, ours 12 — using GCS"
    assert sum("(damage): file 2d+1(2)burn, at the table 2d(2)burn" in line for line in full.lines) == 5


def test_the_files_modifying_dice_plus_adds_setting_turns_big_adds_into_dice():
    from gamekernel.gurps.rules.damage import dice_from_adds

    assert [dice_from_adds(1, adds) for adds in (3, 4, 5, 7, -2)] == [(1, 3), (2, 0), (2, 1), (3, 0), (1, -2)]
    mace = punch_trait(base="7")  # thr+7 at ST 10: 1d+5
    assert fight_damage(doc(traits=[mace])) == "1d+5 cr"  # the seed keeps the adds
    assert fight_damage(doc(traits=[mace], settings={"use_modifying_dice_plus_adds": True})) == "2d+1 cr"


def test_a_negative_parry_feature_and_combat_reflexes_both_count_in_the_fight_adv_05():
    # GURPS-ADV-05: Combat Reflexes +1; a trait's own -2 to Parry (a Draug's Natural Attacks) stays
    reflexes = {"id": "t6", "name": "Combat Reflexes", "features": [
        {"type": "attribute_bonus", "attribute": kind, "amount": 1} for kind in ("dodge", "parry", "block")]}
    clumsy = punch_trait()
    clumsy["features"] = [{"type": "attribute_bonus", "attribute": "parry", "amount": -2}]
    c = combatant_from_character(import_gcs(doc(dx=12, traits=[reflexes, clumsy])).character)
    assert c.parry_with(c.weapon("Natural Attacks")) == 12 // 2 + 3 + 1 - 2
    blast = {"id": "e9", "description": "Blaster", "equipped": True, "weapons": [{
        "id": "W9", "damage": {"type": "burn", "base_leveled": "1d"}, "defaults": [{"type": "dx"}],
        "accuracy": "2", "calc": {"level": 12, "damage": "3d(5) burn [1d tox]"}}]}
    ch = import_gcs(doc(dx=12, equipment=[blast])).character
    assert ch.weapon("Blaster").damage == "3d(5) burn"  # the divisor kept, the follow-up dropped


def test_a_shield_without_a_db_blocks_and_adds_nothing_else_cmb_45():
    # GURPS-CMB-45: Block = Shield/2 + 3 with a ready shield; CMB-43: only a DB adds to the defenses
    reflexes = {"id": "t6", "name": "Combat Reflexes", "features": [
        {"type": "attribute_bonus", "attribute": kind, "amount": 1} for kind in ("dodge", "parry", "block")]}
    shield = {"id": "e5", "description": "Large Shield, Heavy", "equipped": True, "weapons": [{
        "id": "w5", "usage": "Shield Bash", "damage": {"type": "cr", "st": "thr"}, "block": "0",
        "defaults": [{"type": "skill", "name": "Shield", "specialization": "Shield"}]}]}
    skills = [{"id": "s3", "name": "Shield", "specialization": "Shield", "difficulty": "dx/e", "points": 4}]
    ch = import_gcs(doc(dx=12, traits=[reflexes], skills=skills, equipment=[shield])).character
    c = combatant_from_character(ch)
    from gamekernel.gurps.rules.combat import effective_defenses

    usual = {kind: value[0] for kind, value in effective_defenses(start_combat([c], Tape(faces=[])), c.name).items()}
    assert ch.defense_db == 0 and usual["dodge"] == 8 + 1 and usual["block"] == 14 // 2 + 3 + 1


def test_a_multiplied_damage_weapon_is_kept_with_the_files_damage_not_a_traceback(tmp_path: Path):
    lash = {"id": "t10", "name": "Psychokinetic Lash", "weapons": [{
        "id": "w10", "usage": "Lash", "damage": {"type": "cr", "base": "3dx5"}, "parry": "0",
        "defaults": [{"type": "dx"}], "calc": {"level": 10, "damage": "3dx5 cr"}}]}
    path = tmp_path / "mind.gcs"
    path.write_text(json.dumps(doc(traits=[lash])), encoding="utf-8")
    loaded = Session().gurps.char_import(path)
    (weapon,) = loaded.character.weapons  # kept, its damage shown as the file writes it
    assert loaded.character.damage_shown(weapon) == "3dx5 cr" and not loaded.warnings


@pytest.mark.parametrize(("st", "kg"), [(7, 4.9), (8, 6.5), (9, 8.0), (12, 14.5), (0, 0.0), (-1, 0.0)])
def test_gurps_ch_12_basic_lift_is_rounded_in_lb_from_10_lb_as_the_seed_says(st: int, kg: float):
    # GURPS-CH-12: BL = ST x ST / 10 kg; "if BL is 10 lbs. or more, round to the nearest whole number"
    # (lb): ST 7 = 9.8 lb keeps its fraction, ST 8 = 12.8 lb -> 13 lb = 6.5 kg, ST 12 = 28.8 -> 29 lb
    from gamekernel.gurps.rules.characters import Character, basic_lift_kg

    assert float(basic_lift_kg(st)) == kg
    if st > 0:
        assert Character("S", st=st).basic_lift == kg


def test_gurps_ch_12_a_gcs_sheet_shows_basic_lift_and_encumbrance_as_gcs_does(tmp_path: Path):
    # GURPS-CH-12 + GURPS-STD-04: ST 12 lifts 29 lb = 14.5 kg, so 29 lb carried is still no encumbrance
    from gamekernel.gurps.render import character_html

    pack = {"id": "e1", "description": "Pack", "equipped": True, "quantity": 1, "weight": "29 lb",
            "calc": {"extended_weight": "29 lb"}}
    path = tmp_path / "probe.gcs"
    path.write_text(json.dumps(doc(st=12, equipment=[pack], calc={"basic_lift": "29 lb"})), encoding="utf-8")
    ch = Session().gurps.char_import(path).character
    assert ch.basic_lift == 14.5 and ch.encumbrance == 0
    assert "14.5 kg" in character_html(ch)


def _trait(name: str, points: int, **extra: Any) -> dict[str, Any]:
    return {"id": name, "name": name, "calc": {"points": points}, **extra}


def test_alternative_abilities_count_the_costliest_in_full_and_the_rest_at_a_fifth_rounded_up():
    # GCS (Basic Set) alternative abilities: 24 in full, 7 -> 2 and 19 -> 4 (1/5 rounded up) = 30, not 50;
    # an alternative that is itself a container (Ray) is reduced as a whole
    ray = {"id": "ray", "name": "Ray", "calc": {"points": 19}, "children": [_trait("Innate Attack", 10),
                                                                            _trait("Range", 9)]}
    spells = {"id": "aa", "name": "Spellcasting", "container_type": "alternative_abilities",
              "calc": {"points": 30}, "children": [_trait("Detect", 7), ray, _trait("Empowerment", 24)]}
    ch = import_gcs(doc(traits=[spells, _trait("Fit", 5)])).character
    assert ch.points().total == 30 + 5
    assert {trait.name: trait.points for trait in ch.traits} == {
        "Detect": 2, "Innate Attack": 4, "Range": 0, "Empowerment": 24, "Fit": 5}
    # two equally costly alternatives: one is paid in full, the other at 1/5
    twins = {"id": "tw", "name": "Twins", "container_type": "alternative_abilities",
             "children": [_trait("Left", 10), _trait("Right", 10)]}
    assert import_gcs(doc(traits=[twins])).character.points().total == 10 + 2
