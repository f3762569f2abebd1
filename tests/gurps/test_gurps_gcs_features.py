"""GCS import with GCS's numbers: features of traits and equipment, talents, techniques, spells,
natural attacks, shields, encumbrance, zero-point skills, older JSON versions, XML-era refusal and
the visible mismatch line. The files under data/gcs are hand-made (not copies of GCS's library)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamekernel.errors import DataError
from gamekernel.gurps.rules.gcs import import_gcs, read_gcs
from gamekernel.gurps.rules.gcs.features import matches, matches_list

DATA = Path(__file__).parent / "data" / "gcs"


@pytest.fixture(scope="module")
def knight():
    return read_gcs(DATA / "features_v5.gcs")


def _compared(result, kind, what):
    return next((gcs, ours) for k, label, gcs, ours in result.comparisons if k == kind and label == what)


def test_attribute_bonus_per_level_raises_st_and_is_paid_in_the_trait_ch_05(knight):
    """Increased Strength 2 (attribute_bonus st +1 per level): ST 13 = 10 + 1 bought + 2 granted;
    GURPS-CH-05 costs only the bought level (the trait carries the other 20 points)."""
    c = knight.character
    assert c.st == 13 and c.hp == 13 and dict(c.granted)["st"] == 2
    assert c.attribute_points()["st"] == 10
    assert _compared(knight, "attribute", "st") == (13, 13)


def test_disabled_traits_and_unequipped_items_grant_nothing(knight):
    assert knight.character.dx == 12  # "Disabled Gift" DX+5 is off
    assert knight.character.st == 13  # the unequipped Anvil's ST+5 is off


def test_talent_skill_bonus_by_name_counts_once_on_a_default_adv_26(knight):
    """GURPS-ADV-26: Talent +2 on Survival and on Camouflage; Camouflage from Survival-2 uses Survival
    without its Talent (10 + 2 = 12 for Survival, 12 - 2 - 2 + 2 = 10 for Camouflage)."""
    assert _compared(knight, "skill", "Survival (Woodlands)") == (12, 12)
    assert _compared(knight, "skill", "Camouflage") == (10, 10)


def test_skill_bonus_by_specialization_and_by_tag(knight):
    assert _compared(knight, "skill", "Guns (Pistol)") == (13, 13)  # DX 12 + 0 (E, 1 pt) + 1
    assert _compared(knight, "skill", "Broadsword") == (15, 15)  # DX 12 + 2 (A, 8 pts) + 1 (tag "Sword")


def test_skill_point_bonus_and_encumbrance_penalty_std_04(knight):
    """4 free points in Stealth (DX/A: DX+1 = 13), minus the Light encumbrance level (48 lb carried
    against Basic Lift 34 lb: GURPS-STD-04) for a skill with an encumbrance penalty."""
    assert knight.encumbrance == 1 and knight.character.encumbrance == 1
    assert "encumbrance_1" in knight.character.conditions
    assert _compared(knight, "skill", "Stealth") == (12, 12)


def test_zero_point_skill_outside_our_list_is_imported_not_refused(knight):
    """Merchant with 0 points: its default IQ-5 from the file, no refusal."""
    assert _compared(knight, "skill", "Merchant") == (5, 5)
    assert knight.character.skill_level("Merchant").level == 5


def test_technique_from_its_parent_skill(knight):
    """Feint (H, 3 pts): Broadsword 15 + 2, within its limit of +4."""
    assert _compared(knight, "technique", "Feint") == (17, 17)
    assert knight.character.skill_level("Feint").level == 17


def test_spell_with_magery_spell_bonus(knight):
    """Ignite Fire IQ/H 1 pt = IQ-2 = 8, Magery 2 (spell_bonus all colleges) = 10; its college kept."""
    assert _compared(knight, "spell", "Ignite Fire") == (10, 10)
    spell = knight.character.find_skill_entry("Ignite Fire")
    assert spell.kind == "spell" and spell.college == "Fire"


def test_natural_attack_and_every_weapon_usage(knight):
    names = [w.name for w in knight.character.weapons]
    assert names == ["Broadsword", "Broadsword (Thrust)", "Medium Shield", "Claws"]
    assert _compared(knight, "weapon", "Claws") == (12, 12)
    assert knight.character.weapon("Broadsword (Thrust)").damage == "thr+2 imp"


def test_shield_db_and_combat_reflexes_reach_dodge_parry_block_cmb_44(knight):
    """Dodge = floor(5.75) + 3 + 1 (Combat Reflexes) + 2 (shield DB) = 11 unencumbered (the file's
    first Dodge), 10 on the sheet at Light encumbrance (- level, as the file's second); Parry
    15/2+3+1+2 = 13; Block = 14/2 + 3 + 1 + 2 = 13."""
    assert knight.encumbrance == 1 and knight.character.dodge == 10
    assert _compared(knight, "dodge", "Dodge") == (11, 11)
    assert _compared(knight, "parry", "Broadsword") == (13, 13)
    assert _compared(knight, "block", "Medium Shield") == (13, 13)
    assert knight.character.defense_bonus("block") == 1 and knight.character.defense_db == 2  # CR, the shield's DB


def test_dr_reaction_and_conditional_modifiers(knight):
    c = knight.character
    assert c.dr == 1  # Tough Skin: dr_bonus on the torso
    assert (1, "from others") in c.conditionals and (-2, "on rolls to resist seduction") in c.conditionals


def test_current_hp_fp_and_damage_from_the_file(knight):
    c = knight.character
    assert (c.current_hp, c.current_fp) == (10, 9)
    assert _compared(knight, "thrust", "thrust") == ("1d", "1d")
    assert _compared(knight, "swing", "swing") == ("2d-1", "2d-1")


def test_a_difference_uses_the_file_value_and_says_so_in_one_line(knight):
    """Thaumatology IQ/VH 1 pt is IQ-3 = 7 for us; the file says 15: 15 is used, and one line says so."""
    assert knight.mismatch_lines() == ("Thaumatology: GCS 15, ours 7 — using GCS",)
    assert knight.character.skill_level("Thaumatology").level == 15


def test_older_json_version_with_advantages_and_typed_rows():
    result = read_gcs(DATA / "old_v2.gcs")
    c = result.character
    assert (c.name, c.st, c.dx) == ("Old Timer", 11, 11)
    assert result.mismatches == () and result.warnings == ()
    assert c.skill_level("Merchant").level == 5 and c.weapon_level("Axe") == 11
    assert c.points().total == 32  # DX +1 (20) + Increased Strength (10) + Axe/Mace (2); granted ST is free


def test_xml_era_file_is_refused_in_one_line_naming_the_file(tmp_path):
    old = tmp_path / "ancient.gcs"
    old.write_text('<?xml version="1.0"?>\n<character version="4">\n</character>\n')
    with pytest.raises(DataError) as error:
        read_gcs(old)
    message = str(error.value)
    assert "ancient.gcs" in message and "XML" in message and "\n" not in message


@pytest.mark.parametrize("version", [1, 6, None])
def test_unsupported_json_version_names_the_file(version):
    with pytest.raises(DataError, match=r"odd\.gcs"):
        import_gcs({"version": version}, where="odd.gcs")


def test_string_criteria():
    assert matches({"compare": "starts_with", "qualifier": "fast-draw"}, "Fast-Draw")
    assert not matches({"compare": "is", "qualifier": "Guns"}, "Gunner")
    assert matches(None, "anything")
    assert matches_list({"compare": "contains", "qualifier": "sword"}, ["Combat", "Sword"])
    assert not matches_list({"compare": "does_not_contain", "qualifier": "sword"}, ["Combat", "Sword"])
    assert not matches_list({"compare": "is", "qualifier": "x"}, [])


def test_char_load_shows_the_mismatch_line_in_the_result(ip):
    """`%char load` says in a few lines how many of the file's numbers replaced ours and which values
    at the table still differ; `%char diff` lists every line (Thaumatology among them)."""
    loaded = ip.run_line_magic("char", f"load {DATA / 'features_v5.gcs'}")
    assert loaded.differences[0] == "1 of the file's numbers differ from our own computation: the file's are used"
    from gamekernel.display import HTML, TEXT, renderer

    text = renderer(type(loaded), TEXT)(loaded)
    assert text.splitlines()[0] == loaded.differences[0]
    assert len(loaded.differences) == 1  # a file that says no weights nor trait points: not compared on those
    assert "HP 10/13 FP 9/11" in text
    assert "the file&#x27;s are used" in renderer(type(loaded), HTML)(loaded)
    full = ip.run_line_magic("char", "diff")
    assert full.lines[0] == "Thaumatology: GCS 15, ours 7 — using GCS"


def test_char_name_without_at_sign(ip):
    ip.run_line_magic("char", "new Cara")
    ip.run_line_magic("char", "new Bo")
    assert ip.run_line_magic("char", "Cara").name == "Cara"
    assert ip.run_line_magic("char", "@Cara").name == "Cara"
    assert "'Nobody'" in ip.run_line_magic("char", "Nobody").message


def test_gurps_adv_26_talent_counts_once_when_a_skill_defaults_from_another():
    """GURPS-ADV-26: Outdoorsman 2 adds +2 to Survival and to Camouflage; Camouflage defaulting from
    Survival-2 is (Survival 11 without Talent) - 2 + 2 = 11, not 13 (the Talent counted twice)."""
    from gamekernel.gurps.rules.characters import Character, make_skill
    from gamekernel.gurps.rules.traits import make_trait

    c = Character("A", traits=(make_trait("Talent (Outdoorsman)", level=2),), skills=(make_skill("Survival", 4),))
    assert c.skill_level("Survival").level == 13
    camouflage = c.skill_level("Camouflage")
    assert (camouflage.level, camouflage.source) == (11, "default Survival-2")


def test_catalog_knows_every_basic_set_skill_and_char_skill_forms(ip):
    """The Basic Set catalog (facts built by tools/build_gurps_skill_facts.py): Axe/Mace DX/A and
    Guns (Pistol) DX/E resolve by name; any skill works as NAME ATTR/DIFF POINTS (GURPS-STD-01/02)."""
    from gamekernel.gurps.rules.skills import default_options, find_skill

    assert (find_skill("Axe/Mace").attribute, find_skill("Axe/Mace").difficulty) == ("DX", "A")
    assert "Pistol" in find_skill("Guns").specialties
    assert default_options(find_skill("Merchant"))[0] == ("IQ", -5)
    ip.run_line_magic("char", "new Gil dx=12")
    gil = ip.run_line_magic("char", "skill Axe/Mace 4")
    assert gil.skill_level("Axe/Mace").level == 13  # DX 12, A with 4 points = DX+1
    gil = ip.run_line_magic("char", "skill Two-Handed Axe/Mace 2")
    assert gil.skill_level("Two-Handed Axe/Mace").level == 12  # DX+0 for 2 points, not a difficulty word
    gil = ip.run_line_magic("char", "skill Guns (Pistol) 1")
    assert gil.skill_level("Guns (Pistol)").level == 12
    gil = ip.run_line_magic("char", "skill Starship Piloting DX/H 8")
    assert gil.skill_level("Starship Piloting").level == 13  # H with 8 points = DX+1
    assert "Wombat" in ip.run_line_magic("char", "skill Wombat Juggling 4").message


def _library(folder):
    (folder / "Skills").mkdir(parents=True)
    (folder / "Skills" / "Odd Skills.skl").write_text(
        '{"version": 5, "rows": [{"name": "Dream Walking", "difficulty": "iq/h", "points": 1,'
        ' "defaults": [{"type": "iq", "modifier": -6}]}]}')
    (folder / "Spells.spl").write_text(
        '{"version": 5, "rows": [{"name": "Glow Worm", "difficulty": "iq/h", "college": ["Light"]}]}')
    (folder / "Gear.eqp").write_text('{"version": 5, "rows": [{"description": "Lantern", "value": 20,'
                                     ' "weight": "2 lb"}]}')
    (folder / "Traits.adq").write_text('{"version": 5, "rows": [{"name": "Night Owl", "base_points": 5}]}')
    (folder / "broken.skl").write_text("not json")


def test_gcs_library_folder_is_the_catalog(ip, tmp_path):
    """`%gurps library PATH` indexes a GCS library folder (cached as JSON, reused when unchanged);
    names resolve with close matches, and `%char skill` buys a skill only the library knows."""
    _library(tmp_path / "lib")
    cache = tmp_path / "cache"
    loaded = ip.run_line_magic("gurps", f"library {tmp_path / 'lib'} --cache {cache}")
    assert dict(loaded.counts) == {"skill": 1, "spell": 1, "trait": 1, "equipment": 1}
    assert loaded.skipped == ("broken.skl",) and not loaded.from_cache
    assert [p.suffix for p in cache.iterdir()] == [".json"]
    again = ip.run_line_magic("gurps", f"library {tmp_path / 'lib'} --cache {cache}")
    assert again.from_cache
    assert ip.run_line_magic("gurps", "find glow worm").entry.facts["college"] == ["Light"]
    assert "Lantern" in ip.run_line_magic("gurps", "find Lanturn").message  # did you mean
    ip.run_line_magic("char", "new Nia iq=12")
    nia = ip.run_line_magic("char", "skill Dream Walking 4")
    assert nia.skill_level("Dream Walking").level == 12  # IQ/H with 4 points = IQ+0


def test_gurps_find_without_a_library_says_how_to_load_one(ip):
    assert "%gurps library PATH" in ip.run_line_magic("gurps", "find Fireball").message


def test_char_save_gcs_writes_hp_fp_and_conditions_into_a_copy(ip, tmp_path):
    """GCS users keep using GCS: `%char save NAME.gcs` copies the imported file with current HP/FP
    damage and the conditions (HP below 1/3: reeling, GURPS-INJ-01); the original is untouched."""
    import json
    import shutil

    original = tmp_path / "knight.gcs"
    shutil.copy(DATA / "features_v5.gcs", original)
    before = original.read_text()
    ip.run_line_magic("char", f"load {original}")
    ip.run_line_magic("char", "set hp_lost=10")
    saved = ip.run_line_magic("char", f"save {tmp_path / 'knight-now.gcs'}")
    assert saved.path.endswith("knight-now.gcs") and original.read_text() == before
    copy = json.loads((tmp_path / "knight-now.gcs").read_text())
    hp = next(a for a in copy["attributes"] if a["attr_id"] == "hp")
    assert hp["damage"] == 10
    assert "reeling" in copy["notes"][-1]["text"]
    again = read_gcs(tmp_path / "knight-now.gcs").character
    assert again.current_hp == 3 and "reeling" in again.conditions
    refused = ip.run_line_magic("char", f"save {original}")
    assert "original" in refused.message and original.read_text() == before


def test_char_save_gcs_needs_a_gcs_character(ip, tmp_path):
    ip.run_line_magic("char", "new Plain")
    assert "Plain" in ip.run_line_magic("char", f"save {tmp_path / 'plain.gcs'}").message
