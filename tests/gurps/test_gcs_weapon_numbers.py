"""A GCS weapon's numbers at the table equal the file's: which weapon bonuses reach which usage, the ST
a weapon's damage is read at, and each usage's own name.

Each document here is a small .gcs v5 written for the test (never a file of a public library)."""

from __future__ import annotations

from typing import Any

from gamekernel.gurps.rules.combat.sheets import combatant_from_character
from gamekernel.gurps.rules.damage import parse_damage
from gamekernel.gurps.rules.gcs import import_gcs


def doc(st: int = 10, dx: int = 10, **extra: Any) -> dict[str, Any]:
    """A minimal GCS v5 character: ST/DX bought, no traits, plus `extra` top-level entries."""
    data: dict[str, Any] = {
        "version": 5, "profile": {"name": "Probe"}, "total_points": 100,
        "attributes": [{"attr_id": "st", "adj": st - 10}, {"attr_id": "dx", "adj": dx - 10}],
        "traits": [], "skills": [], "equipment": [],
    }
    data.update(extra)
    return data


def required_skill_bonus(skill: str, level: dict[str, Any]) -> dict[str, Any]:
    """GCS's Brawling/Karate damage feature: +1 per die while `skill` is at the relative `level`."""
    return {"type": "weapon_bonus", "selection_type": "weapons_with_required_skill",
            "name": {"compare": "is", "qualifier": skill}, "level": level, "amount": 1, "per_die": True}


def natural_attacks(*usages: dict[str, Any]) -> dict[str, Any]:
    """GCS's Natural Attacks trait with the given usages."""
    return {"id": "t1", "name": "Natural Attacks", "weapons": [{"id": f"w{i}", **u} for i, u in enumerate(usages)]}


PUNCH = {"usage": "Punch", "damage": {"type": "cr", "st": "thr", "base": "-1"}, "parry": "0",
         "defaults": [{"type": "dx"}, {"type": "skill", "name": "Boxing"}, {"type": "skill", "name": "Brawling"},
                      {"type": "skill", "name": "Karate"}]}
KICK = {"usage": "Kick", "damage": {"type": "cr", "st": "thr"},
        "defaults": [{"type": "dx", "modifier": -2}, {"type": "skill", "name": "Brawling", "modifier": -2},
                     {"type": "skill", "name": "Kicking"}, {"type": "skill", "name": "Karate", "modifier": -2}]}


def damages(data: dict[str, Any]) -> dict[str, str]:
    """Each weapon's basic damage as a combatant made from the imported sheet rolls it."""
    c = combatant_from_character(import_gcs(data).character)
    return {w.name: str(parse_damage(w.damage, st=c.st)) for w in c.weapons}


def brawling(points: int, *features: dict[str, Any]) -> dict[str, Any]:
    return {"id": "s1", "name": "Brawling", "difficulty": "dx/e", "points": points, "features": list(features)}


def test_kick_at_kicking_gets_no_brawling_damage_bonus_dmg_03():
    # GURPS-DMG-03: thr + the weapon's adds; GCS gives Brawling's +1/die to the usages attacking with Brawling only
    kicking = {"id": "s2", "name": "Kicking", "difficulty": "h", "points": 2,
               "default": {"type": "skill", "name": "Brawling", "modifier": -2}}
    plus_2 = {"compare": "at_least", "qualifier": 2}
    data = doc(st=13, dx=12, traits=[natural_attacks(PUNCH, KICK)],
               skills=[brawling(4, required_skill_bonus("Brawling", plus_2)), kicking])
    # ST 13 thr 1d; Punch at Brawling DX+2: 1d-1 +1; Kick at Kicking 13 (better than Brawling-2 = 12): 1d
    assert damages(data) == {"Natural Attacks": "1d cr", "Natural Attacks (Kick)": "1d cr"}
    no_kicking = doc(st=13, dx=12, traits=[natural_attacks(PUNCH, KICK)],
                     skills=[brawling(4, required_skill_bonus("Brawling", plus_2))])
    assert damages(no_kicking)["Natural Attacks (Kick)"] == "1d+1 cr"  # Brawling-2 is the Kick's skill


def test_kicking_techniques_own_bonus_counts_at_its_level_over_the_default_dmg_03():
    kicking = {"id": "s2", "name": "Kicking", "difficulty": "h", "points": 3,
               "default": {"type": "skill", "name": "Brawling", "modifier": -2},
               "features": [required_skill_bonus("Kicking", {"compare": "at_least"})]}
    data = doc(dx=12, traits=[natural_attacks(KICK)], skills=[brawling(1), kicking])
    assert damages(data)["Natural Attacks"] == "1d-1 cr"  # ST 10 thr 1d-2, Kicking +2 over Brawling-2: +1


def test_at_least_without_a_qualifier_means_relative_level_0_dmg_03():
    # GCS writes no zero: Karate's first +1/die is "at least" alone, i.e. at DX+0
    karate = {"id": "s3", "name": "Karate", "difficulty": "dx/h",
              "features": [required_skill_bonus("Karate", {"compare": "at_least"}),
                           required_skill_bonus("Karate", {"compare": "at_least", "qualifier": 1})]}
    for points, expected in ((2, "1d-3 cr"), (4, "1d-2 cr"), (8, "1d-1 cr")):  # DX-1, DX+0, DX+1
        data = doc(dx=10, traits=[natural_attacks(PUNCH)], skills=[{**karate, "points": points}])
        assert damages(data)["Natural Attacks"] == expected, points


def test_encumbrance_penalty_does_not_lower_the_relative_level_a_bonus_tests_dmg_03():
    # Karate at DX+1 with Light encumbrance: level DX+0 on the sheet, still DX+1 for the damage bonus
    karate = {"id": "s3", "name": "Karate", "difficulty": "dx/h", "points": 8, "encumbrance_penalty_multiplier": 1,
              "features": [required_skill_bonus("Karate", {"compare": "at_least", "qualifier": 1})]}
    load = {"id": "e1", "description": "Sack", "equipped": True, "quantity": 1, "base_weight": "30 lb"}
    data = doc(dx=10, traits=[natural_attacks(PUNCH)], skills=[karate], equipment=[load])
    ch = import_gcs(data).character
    assert ch.encumbrance == 1 and ch.skill_level("Karate").level == 10
    assert damages(data)["Natural Attacks"] == "1d-2 cr"  # ST 10 thr 1d-2, -1, +1 per die


def test_two_usages_of_one_name_each_keep_their_own_numbers():
    # a Naginata swung and thrust with the sharp end (Polearm) and with the blunt end (Staff)
    def usage(kind: str, st: str, usage: str, notes: str, skill: str) -> dict[str, Any]:
        return {"usage": usage, "usage_notes": notes, "damage": {"type": kind, "st": st, "base": "2"},
                "parry": "0", "defaults": [{"type": "skill", "name": skill}]}
    naginata = {"id": "e1", "description": "Naginata", "equipped": True, "weapons": [
        {"id": "w1", **usage("cut", "sw", "Swung", "The sharp end", "Polearm")},
        {"id": "w2", **usage("imp", "thr", "Thrust", "The sharp end", "Polearm")},
        {"id": "w3", **usage("cr", "sw", "Swung", "The blunt end", "Staff")},
        {"id": "w4", **usage("cr", "thr", "Thrust", "The blunt end", "Staff")}]}
    skills = [{"id": "s1", "name": "Polearm", "difficulty": "dx/a", "points": 8},
              {"id": "s2", "name": "Staff", "difficulty": "dx/a", "points": 1}]
    ch = import_gcs(doc(dx=12, equipment=[naginata], skills=skills)).character
    levels = {w.name: ch.weapon_level(w) for w in ch.weapons}
    assert levels == {"Naginata": 14, "Naginata (Thrust)": 14, "Naginata (Swung)": 11,
                      "Naginata (Thrust, The blunt end)": 11}
    assert damages(doc(dx=12, equipment=[naginata], skills=skills)) == {
        "Naginata": "1d+2 cut", "Naginata (Thrust)": "1d imp", "Naginata (Swung)": "1d+2 cr",
        "Naginata (Thrust, The blunt end)": "1d cr"}


def test_one_attack_only_striking_st_reads_the_bites_thr_at_more_st_dmg_01():
    # GURPS-DMG-01: thr/sw come from ST; Striking ST bought for the Bite alone (GCS: effective ST +levels
    # for the usage its replacement names, and the trait's general +ST taken back off)
    striking = {"id": "t2", "name": "Striking ST", "levels": 10, "can_level": True,
                "replacements": {"Attack": "Bite"},
                "features": [{"type": "attribute_bonus", "limitation": "striking_only", "attribute": "st",
                              "amount": 1, "per_level": True}],
                "modifiers": [{"id": "m1", "name": "One Attack Only", "use_level_from_trait": True, "features": [
                    {"type": "weapon_effective_st_bonus", "selection_type": "weapons_with_required_skill",
                     "usage": {"compare": "is", "qualifier": "@Attack@"}, "amount": 1, "leveled": True},
                    {"type": "attribute_bonus", "limitation": "striking_only", "attribute": "st", "amount": -1,
                     "per_level": True}]}]}
    bite = {"usage": "Bite", "damage": {"type": "cr", "st": "thr", "base": "-1"},
            "defaults": [{"type": "dx"}, {"type": "skill", "name": "Brawling"}]}
    data = doc(st=9, traits=[natural_attacks(bite, PUNCH), striking], skills=[brawling(1)])
    ch = import_gcs(data).character
    assert str(ch.thrust) == "1d-2"  # ST 9: the sheet's thr is unchanged
    # the Bite at ST 19 (thr 2d-1, -1), the Punch at ST 9 (1d-2, -1)
    assert damages(data) == {"Natural Attacks": "2d-2 cr", "Natural Attacks (Punch)": "1d-3 cr"}


def test_a_bows_rated_st_and_a_daggers_3x_minimum_st_set_the_st_of_its_thr_dmg_01():
    bow = {"id": "e1", "description": "Regular Bow", "equipped": True, "rated_strength": 10, "weapons": [
        {"id": "W1", "usage": "Shoot", "damage": {"type": "imp", "st": "thr", "base": "1"}, "strength": "10†",
         "accuracy": "2", "defaults": [{"type": "skill", "name": "Bow"}]}]}
    dagger = {"id": "e2", "description": "Dagger", "equipped": True, "weapons": [
        {"id": "w2", "usage": "Thrust", "damage": {"type": "imp", "st": "thr", "base": "-1"}, "strength": "4",
         "parry": "-1", "defaults": [{"type": "skill", "name": "Knife"}]}]}
    skills = [{"id": "s1", "name": "Bow", "difficulty": "dx/a", "points": 2},
              {"id": "s2", "name": "Knife", "difficulty": "dx/e", "points": 1}]
    # ST 14: thr 1d; the bow at its own ST 10 (1d-2, +1); the dagger at most ST 12 (1d-1, -1)
    assert damages(doc(st=14, equipment=[bow, dagger], skills=skills)) == {
        "Regular Bow": "1d-1 imp", "Dagger": "1d-2 imp"}
    # ST 12: the dagger's cap is not reached; the bow still shoots at 10
    assert damages(doc(st=12, equipment=[bow, dagger], skills=skills)) == {
        "Regular Bow": "1d-1 imp", "Dagger": "1d-2 imp"}
    assert damages(doc(st=11, equipment=[dagger], skills=skills)) == {"Dagger": "1d-2 imp"}  # 1d-1, -1
    assert damages(doc(st=13, equipment=[dagger], skills=skills)) == {"Dagger": "1d-2 imp"}  # capped at 12


def test_fractional_adds_per_die_count_on_all_the_dice_then_drop_the_fraction_dmg_03():
    maul = {"id": "e1", "description": "Maul", "equipped": True, "weapons": [
        {"id": "w1", "usage": "Swung", "damage": {"type": "cr", "st": "sw", "base": "4", "modifier_per_die": 0.75},
         "strength": "13‡", "parry": "0U", "defaults": [{"type": "skill", "name": "Two-Handed Axe/Mace"}]}]}
    skills = [{"id": "s1", "name": "Two-Handed Axe/Mace", "difficulty": "dx/a", "points": 4}]
    assert damages(doc(st=20, equipment=[maul], skills=skills)) == {"Maul": "3d+8 cr"}  # 3d+2 +4, 3 x 0.75 = 2
    assert damages(doc(st=13, equipment=[maul], skills=skills)) == {"Maul": "2d+4 cr"}  # 2d-1 +4, 2 x 0.75 = 1.5: 1


def test_leveled_base_damage_adds_once_per_level_of_its_trait_dmg_03():
    curse = {"id": "t2", "name": "Grave Curse", "can_level": True, "levels": 2, "weapons": [
        {"id": "w1", "damage": {"type": "cr", "st": "thr", "base_leveled": "1"}, "reach": "C",
         "defaults": [{"type": "dx"}]}]}
    assert damages(doc(st=18, traits=[curse])) == {"Grave Curse": "1d+4 cr"}  # thr 1d+2, +1 x 2
    crossbow = {"id": "t3", "name": "Built-in Crossbow", "levels": 1, "weapons": [
        {"id": "W1", "damage": {"type": "imp", "st": "thr", "base_leveled": "5"}, "accuracy": "4",
         "defaults": [{"type": "dx", "modifier": -4}]}]}
    assert damages(doc(st=13, traits=[crossbow])) == {"Built-in Crossbow": "1d+5 imp"}


def test_a_weapons_own_st_and_fractional_adds_survive_the_saved_sheet():
    from gamekernel.gurps.rules.weapons import CharacterWeapon

    weapon = CharacterWeapon(name="Maul", damage="sw+4 cr", per_die=0.75, rated_st=10, st_bonus=2, max_st=39)
    saved = weapon.to_dict()
    assert saved["per_die"] == 0.75 and saved["rated_st"] == 10 and saved["st_bonus"] == 2 and saved["max_st"] == 39
    assert CharacterWeapon.from_dict(saved) == weapon
    assert CharacterWeapon.from_dict(CharacterWeapon(name="Punch", damage="thr cr", per_die=1).to_dict()).per_die == 1


def test_the_sheet_shows_the_dice_the_fight_rolls_for_a_weapon_of_its_own_st():
    from gamekernel.gurps.render import weapon_rows

    bow = {"id": "e1", "description": "Regular Bow", "equipped": True, "rated_strength": 10, "weapons": [
        {"id": "W1", "usage": "Shoot", "damage": {"type": "imp", "st": "thr", "base": "1"}, "accuracy": "2",
         "defaults": [{"type": "skill", "name": "Bow"}]}]}
    ch = import_gcs(doc(st=14, equipment=[bow], skills=[{"id": "s1", "name": "Bow", "difficulty": "dx/a",
                                                           "points": 2}])).character
    assert [(row["name"], row["damage"]) for row in weapon_rows(ch)] == [("Regular Bow", "1d-1 imp")]


def test_enhanced_parry_for_one_skill_raises_that_weapons_parry_only_cmb_46():
    # GURPS-CMB-46: Parry = floor(skill / 2) + 3 + the weapon's bonus; GCS's Enhanced Parry (Rapier) is a
    # weapon_parry_bonus for the usages attacking with Rapier, +1 per level
    enhanced = {"id": "t2", "name": "Enhanced Parry (@Melee weapon skill@)", "levels": 2, "can_level": True,
                "replacements": {"Melee weapon skill": "Rapier"},
                "features": [{"type": "weapon_parry_bonus", "selection_type": "weapons_with_required_skill",
                              "name": {"compare": "is", "qualifier": "@Melee weapon skill@"}, "amount": 1,
                              "leveled": True}]}

    def sword(description: str, skill: str) -> dict[str, Any]:
        return {"id": description, "description": description, "equipped": True, "weapons": [
            {"id": f"w{description}", "usage": "Thrust", "damage": {"type": "imp", "st": "thr", "base": "1"},
             "parry": "0", "defaults": [{"type": "skill", "name": skill}]}]}
    skills = [{"id": "s1", "name": "Rapier", "difficulty": "dx/a", "points": 8},
              {"id": "s2", "name": "Broadsword", "difficulty": "dx/a", "points": 8}]
    ch = import_gcs(doc(dx=12, traits=[enhanced], skills=skills,
                        equipment=[sword("Rapier", "Rapier"), sword("Broadsword", "Broadsword")])).character
    parries = {w.name: ch.weapon_parry(w) for w in ch.weapons}
    assert parries == {"Rapier": 12, "Broadsword": 10}  # skill 14: 7 + 3, the Rapier +2
    c = combatant_from_character(ch)
    from gamekernel.gurps.gcs_play import usual_parry
    from gamekernel.gurps.rules.combat import Tape, start_combat

    state = start_combat([c], Tape(faces=[]))
    assert {w.name: usual_parry(state, c, w) for w in c.weapons} == parries  # the fight offers the same


def test_a_fencing_parry_loses_the_encumbrance_level_after_halving_cmb_46():
    # GURPS-CMB-46: floor(skill / 2) + 3; a GCS "F" weapon (not in the seed, carried as GCS computes it):
    # skill 13 at Light encumbrance is 12 to hit, and Parry 13 // 2 + 3 - 1 = 8 (not 12 // 2 + 3 = 9)
    rapier = {"id": "e1", "description": "Rapier", "equipped": True, "weapons": [
        {"id": "w1", "usage": "Thrust", "damage": {"type": "imp", "st": "thr", "base": "1"}, "parry": "0F",
         "defaults": [{"type": "skill", "name": "Rapier"}], "calc": {"level": 12}}]}
    saber = {"id": "e2", "description": "Saber", "equipped": True, "weapons": [
        {"id": "w2", "usage": "Swung", "damage": {"type": "cut", "st": "sw"}, "parry": "0",
         "defaults": [{"type": "skill", "name": "Rapier"}]}]}
    load = {"id": "e3", "description": "Sack", "equipped": True, "quantity": 1, "base_weight": "30 lb"}
    skills = [{"id": "s1", "name": "Rapier", "difficulty": "dx/a", "points": 4}]
    ch = import_gcs(doc(dx=12, skills=skills, equipment=[rapier, saber, load])).character
    assert ch.encumbrance == 1 and ch.skill_level("Rapier").level == 13
    by_name = {w.name: w for w in ch.weapons}
    assert ch.weapon_level(by_name["Rapier"]) == 12 and ch.weapon_parry(by_name["Rapier"]) == 8
    assert ch.weapon_parry(by_name["Saber"]) == 9  # not fencing: 13 // 2 + 3
    c = combatant_from_character(ch)
    from gamekernel.gurps.gcs_play import usual_parry
    from gamekernel.gurps.rules.combat import Tape, start_combat

    state = start_combat([c], Tape(faces=[]))
    assert {w.name: usual_parry(state, c, w) for w in c.weapons} == {"Rapier": 8, "Saber": 9}
    unloaded = import_gcs(doc(dx=12, skills=skills, equipment=[rapier])).character
    assert unloaded.weapon_parry(unloaded.weapons[0]) == 9  # no encumbrance: 12 // 2 + 3 (file's level 12)


def test_knowing_your_own_strength_files_lift_as_gcs_and_seed_files_as_the_seed_ch_12():
    # GURPS-CH-12: BL = ST x ST / 5 lb, whole lb from 10 lb; a file set to "knowing your own strength"
    # (its own optional rule) lifts 2 x 10^(ST/10) lb as GCS computes it
    kyos = {"damage_progression": "knowing_your_own_strength"}
    lifts = {st: import_gcs(doc(st=st, settings=kyos)).character.basic_lift for st in (3, 13, 14, 25)}
    assert lifts == {3: 2.0, 13: 20.0, 14: 25.0, 25: 315.0}  # 4, 40, 50, 630 lb
    assert import_gcs(doc(st=14)).character.basic_lift == 19.5  # 39.2 lb -> 39 lb


def test_a_weight_written_with_a_thousands_comma_is_read_whole():
    from gamekernel.gurps.gcs_play import load_rows
    from gamekernel.gurps.rules.gcs.calc import weight_lb

    assert weight_lb("1,280 lb") == 1280 and weight_lb("2.5 lb") == 2.5
    boulder = {"id": "e1", "description": "Boulder", "equipped": True, "quantity": 1, "base_weight": "1,200 lb",
               "calc": {"extended_weight": "1,200 lb"}}
    data = doc(st=80, equipment=[boulder], calc={"basic_lift": "1,280 lb"})
    ch = import_gcs(data).character
    assert ch.basic_lift == 640 and ch.encumbrance == 0
    assert ("basic lift", "Basic Lift", 640, 640) in list(load_rows(data, ch))


def test_point_total_rounds_a_reduced_cost_up_and_counts_attributes_without_a_sheet_field_ch_05():
    # GURPS-CH-05: attribute costs; GCS takes 10% per SM off ST and HP and rounds the fraction up
    settings = {"attributes": [
        {"id": "st", "cost_per_point": 10, "cost_adj_percent_per_sm": 10},
        {"id": "hp", "cost_per_point": 2, "cost_adj_percent_per_sm": 10},
        {"id": "fright_check", "name": "Fright Check", "base": "$will", "cost_per_point": 2},
        {"id": "mp", "name": "MP", "full_name": "Magicka Points", "base": "$iq", "cost_per_point": 3}]}
    data = doc(settings=settings, profile={"name": "Ox", "SM": 2})
    data["attributes"] += [{"attr_id": "hp", "adj": 4}, {"attr_id": "fright_check", "adj": 1},
                           {"attr_id": "mp", "adj": 4}]
    ch = import_gcs(data).character
    assert ch.secondary_points()["hp_adj"] == 7  # 8 points, 20% off: 6.4 -> 7
    lines = {t.name: t.points for t in ch.traits}
    assert lines == {"Fright Check +1": 2, "Magicka Points +4": 12}
    assert ch.points().total == 7 + 2 + 12
    assert ch.resolve("Fright Check").target == 11  # the bonus stays in the roll, once


def _shock_after(st: int, injury: int) -> int:
    from gamekernel.table_session import Session

    session = Session(seed=3)
    session.combat.start(f"Big{{ST={st},DX=10,HT=10}} Orc{{ST=12,DX=11}}")
    assert session.combat.state.get("Big").hp_max == st
    session.combat.damage("Big", f"{injury} cr")
    return session.combat.state.get("Big").shock


def test_gurps_inj_05_shock_is_the_injury_up_to_4_at_19_and_at_20_hp():
    # GURPS-INJ-05: -(injury), max -4; the Basic Set's 20+ HP scaling (-1 per HP/10) is not the seed's
    assert [_shock_after(19, 3), _shock_after(20, 3), _shock_after(20, 6)] == [3, 3, 4]


def test_a_creature_with_0_fp_keeps_its_dodge_move_and_lift_whole_fat_01():
    # GURPS-FAT-01: halved below 1/3 of max FP; 0 FP of 0 is not below 0 (GCS halves at 0 FP)
    ch = import_gcs(doc(st=13, attributes=[{"attr_id": "st", "adj": 3}, {"attr_id": "fp", "adj": -10}])).character
    assert ch.fp == 0 and ch.basic_lift == 17 and ch.dodge == 8
    assert combatant_from_character(ch).dodge == 8


def test_a_reeling_dodge_halves_the_whole_dodge_inj_01():
    # GURPS-INJ-01: HP at 1/3 or less halves Dodge, rounded up: Basic Speed 5.75 -> Dodge 8 -> 4
    data = doc(attributes=[{"attr_id": "st", "adj": 0}, {"attr_id": "dx", "adj": 0},
                           {"attr_id": "ht", "adj": 0}, {"attr_id": "basic_speed", "adj": 0.75},
                           {"attr_id": "hp", "adj": 0, "damage": 8}])
    ch = import_gcs(data).character
    assert ch.basic_speed == 5.75 and ch.current_hp == 2 and ch.dodge == 4


def test_the_gcs_sheet_names_the_seed_rules_it_keeps(tmp_path):
    import json

    from gamekernel.gurps.render import character_html
    from gamekernel.table_session import Session

    path = tmp_path / "probe.gcs"
    path.write_text(json.dumps(doc()), encoding="utf-8")
    html = character_html(Session().gurps.char_import(path).character)
    assert all(rule in html for rule in ("GURPS-INJ-01", "GURPS-INJ-05", "GURPS-FAT-01", "GURPS-CMB-45"))
    assert "20 HP or more" in html and "0 FP" in html


def test_a_weapon_without_a_damage_type_in_the_file_shows_none_and_rolls_x1_dmg_07():
    # GURPS-DMG-07 multiplies by type; GCS's Elephant trunk names none: shown as its dice alone, x1
    from gamekernel.gurps.render import weapon_rows
    from gamekernel.gurps.rules.damage import injury_from, parse_damage

    trunk = {"id": "t2", "name": "Trunk", "weapons": [
        {"id": "w1", "usage": "Club", "damage": {"type": "", "base": "1d+1"}, "parry": "0",
         "defaults": [{"type": "dx"}]}]}
    touch = {"id": "t3", "name": "Innate Attack", "levels": 1, "weapons": [
        {"id": "w2", "usage": "Touch", "damage": {"type": "", "base_leveled": "2"}, "defaults": [{"type": "dx"}]}]}
    ch = import_gcs(doc(traits=[trunk, touch])).character
    assert [(row["name"], row["damage"]) for row in weapon_rows(ch)] == [("Trunk", "1d+1"), ("Innate Attack", "2")]
    assert damages(doc(traits=[trunk, touch])) == {"Trunk": "1d+1", "Innate Attack": "2"}
    spec = parse_damage(combatant_from_character(ch).weapon("Trunk").damage)
    assert spec.kind == "none" and injury_from(5, 2, spec.kind) == (3, 3)
    assert str(parse_damage("3d")) == "3d cr"  # a typed-in damage without a type is still crushing


def test_a_flails_own_block_is_not_a_shield_cmb_45():
    # GURPS-CMB-45: Block needs a ready shield; a nunchaku with a Block column does not give one
    nunchaku = {"id": "e1", "description": "Nunchaku", "equipped": True, "weapons": [
        {"id": "w1", "usage": "Swung", "damage": {"type": "cr", "st": "sw", "base": "1"}, "parry": "0U",
         "block": "-1", "defaults": [{"type": "skill", "name": "Flail"}]}]}
    shield = {"id": "e2", "description": "Small Shield", "equipped": True, "weapons": [
        {"id": "w2", "usage": "Shield Bash", "damage": {"type": "cr", "st": "thr"}, "block": "0",
         "defaults": [{"type": "skill", "name": "Shield", "specialization": "Shield"}]}]}
    skills = [{"id": "s1", "name": "Flail", "difficulty": "dx/h", "points": 4},
              {"id": "s2", "name": "Shield", "specialization": "Shield", "difficulty": "dx/e", "points": 4}]
    assert combatant_from_character(import_gcs(doc(equipment=[nunchaku], skills=skills)).character).block is None
    armed = combatant_from_character(import_gcs(doc(equipment=[nunchaku, shield], skills=skills)).character)
    assert armed.block == 12 // 2 + 3


def test_an_enhanced_dodge_row_without_features_adds_no_dodge_as_in_gcs_adv_10():
    # GURPS-ADV-10 gives +1 Dodge; a GCS row that grants none (limited to small projectiles: no
    # feature) is counted as GCS counts it, and a row with its feature still gives the +1
    limited = {"id": "t2", "name": "Enhanced Dodge", "levels": 1,
               "modifiers": [{"id": "m1", "name": "Limited, Small Projectiles", "cost_adj": "-40%"}]}
    featured = {**limited, "modifiers": [],
                "features": [{"type": "attribute_bonus", "attribute": "dodge", "amount": 1}]}
    assert import_gcs(doc(traits=[limited])).character.dodge == 8
    assert import_gcs(doc(traits=[featured])).character.dodge == 9
    assert combatant_from_character(import_gcs(doc(traits=[limited])).character).dodge == 8


def test_a_cloaks_block_is_3_plus_half_cloak_skill_plus_db_not_the_files_column_cmb_45(tmp_path, ip):
    # GURPS-CMB-45 (seed 004:1540-1544): Block = floor(skill / 2) + 3 with a shield, cloak or other large
    # object; a ready shield's DB adds to every defense (004:1533). GCS's "block" default on a cloak
    # counts the Block twice: Cloak 14 writes 15 (11 + 3 + DB 1); the seed's 7 + 3 + 1 = 11, and the
    # sheet's seed-rules line names the reading
    import json

    cloak = {"id": "e1", "description": "Light Cloak", "quantity": 1, "equipped": True,
             "features": [{"type": "attribute_bonus", "attribute": attribute, "amount": 1}
                          for attribute in ("dodge", "parry", "block")],
             "weapons": [{"id": "w1", "damage": {"type": "-"}, "block": "0",
                          "defaults": [{"type": "block", "name": "Cloak"}],
                          "calc": {"level": 11, "damage": "-", "block": "15"}}],
             "calc": {"weight": "2 lb", "extended_weight": "2 lb"}}
    skill = {"id": "s1", "name": "Cloak", "difficulty": "dx/a", "points": 4, "calc": {"level": 14}}
    path = tmp_path / "thief.gcs"
    path.write_text(json.dumps(doc(dx=13, skills=[skill], equipment=[cloak])), encoding="utf-8")
    ip.run_line_magic("char", f"load {path}")
    ip.run_line_magic("combat", "start Probe Orc{ST=10}")
    status = str(ip.run_line_magic("combat", "status"))
    assert "Block 11" in status.split("Probe:")[1].splitlines()[0]
    sheet = ip.run_line_magic("char", "")._repr_html_()
    assert "3 + half its skill + its DB" in sheet and "GURPS-CMB-45" in sheet
