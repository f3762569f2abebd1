"""Characters: GURPS-CH-01..29, STD-01..03, T-08..T-11, reactions from the sheet, save/load."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamekernel.errors import DataError, NotFoundError, RuleError
from gamekernel.gurps.rules.character_files import load_character, save_character
from gamekernel.gurps.rules.characters import (
    Character,
    Language,
    Reputation,
    make_skill,
    roll_check,
)
from gamekernel.gurps.rules.skills import points_for_relative, relative_level
from gamekernel.gurps.rules.traits import make_trait


def test_gurps_ch_05_attribute_costs():
    c = Character("X", st=12, dx=11, iq=9, ht=8)
    assert c.attribute_points() == {"st": 20, "dx": 20, "iq": -20, "ht": -20}


def test_gurps_ch_08_to_12_t09_t10_secondary():
    c = Character("X", dx=10, ht=11)
    assert c.basic_speed == 5.25 and c.base_dodge == 8 and c.basic_move == 5  # T-09
    assert Character("Y", dx=12, ht=11).basic_speed == 5.75 and Character("Y", dx=12, ht=11).basic_move == 5
    ten = Character("Z")
    assert (ten.hp, ten.fp, ten.will, ten.per, ten.basic_lift) == (10, 10, 10, 10, 10.0)  # T-10
    assert Character("S", st=9).basic_lift == 8.0  # 8.1 -> 8
    assert Character("S", st=7).basic_lift == 4.9  # below 5 kg keeps the fraction (OPEN)
    assert Character("S", st=13).damage == "1d/2d-1"


def test_gurps_ch_10_dodge_with_combat_reflexes_and_enhanced_dodge():
    c = Character("X", traits=(make_trait("Combat Reflexes"), make_trait("Enhanced Dodge")))
    assert c.dodge == c.base_dodge + 2 and c.defense_bonus("parry") == 1


def test_gurps_ch_01_03_t08_points_and_limit():
    """T-08: 125 budget, 75 of advantages, -15 of disadvantages -> 65 unspent; 150 -> limit -75."""
    c = Character("X", budget=125, traits=(
        make_trait("Luck"), make_trait("Combat Reflexes"),
        make_trait("Danger Sense"), make_trait("Daredevil"), make_trait("Empathy"),
        make_trait("Greed")))
    pts = c.points()
    assert pts.advantages == 75 and pts.disadvantages == -15 and pts.unspent == 65
    assert Character("Y", budget=150).points().disadvantage_limit == -75


def test_gurps_ch_03_disadvantage_limit_counts_low_attributes_and_is_configurable():
    c = Character("X", st=7, traits=(make_trait("Bad Sight", option="uncorrectable"),))
    assert c.points().disadvantages == -55
    assert any(i.field == "disadvantages" for i in c.validate())
    assert not any(i.field == "disadvantages" for i in replace(c, disadvantage_limit=60).validate())


def test_gurps_ch_validation_messages():
    c = Character("X", st=0, dx=22, iq=7, skills=(make_skill("Stealth", 3),),
                  traits=(make_trait("Acute Hearing", level=2), make_trait("Hard of Hearing"),
                          make_trait("Bloodlust")), reputations=(Reputation(5, "hero"),))
    text = " | ".join(str(i) for i in c.validate())
    assert "below the human minimum" in text and "above 20" in text and "GM may forbid" in text
    assert "not a table spend" in text and "cannot be taken with Acute Hearing" in text
    assert "villain" in text and "beyond -4..+4" in text


@pytest.mark.parametrize("diff,table", [
    ("E", {1: 0, 2: 1, 4: 2, 8: 3, 12: 4, 16: 5}),
    ("A", {1: -1, 2: 0, 4: 1, 8: 2, 12: 3, 16: 4}),
    ("H", {1: -2, 2: -1, 4: 0, 8: 1, 12: 2, 16: 3}),
    ("VH", {1: -3, 2: -2, 4: -1, 8: 0, 12: 1, 16: 2}),
])
def test_gurps_std_01_02_skill_cost_table(diff, table):
    for points, relative in table.items():
        assert relative_level(diff, points) == relative
        assert points_for_relative(diff, relative) == points


@given(st.sampled_from(["E", "A", "H", "VH"]), st.integers(1, 200))
def test_gurps_std_02_formula_property(diff, points):
    base = {"E": 0, "A": -1, "H": -2, "VH": -3}[diff]
    bonus = 0 if points == 1 else 1 if points < 4 else 2 + (points - 4) // 4
    assert relative_level(diff, points) == base + bonus


def test_gurps_std_03_defaults():
    c = Character("X", dx=12, iq=11, ht=10)
    assert c.skill_level("Climbing").level == 7 and c.skill_level("Climbing").source == "default DX-5"
    assert c.skill_level("Hiking").level == 5
    assert c.skill_level("Throwing").level == 9
    assert c.skill_level("Diagnosis").level == 5
    assert c.skill_level("Swimming").level == 6
    assert c.skill_level("Shield").level == 8  # Easy: attribute-4
    with pytest.raises(RuleError, match="no default"):
        c.skill_level("Karate")
    with pytest.raises(NotFoundError, match="did you mean"):
        c.skill_level("Lockpickin")


def test_gurps_std_03_default_never_beats_points_below_it():
    c = Character("X", dx=14, skills=(make_skill("Throwing", 1),))
    # 1 point: DX-1 = 13; default DX-3 = 11 -> 13
    assert c.skill_level("Throwing").level == 13


def test_gurps_adv_skill_bonuses_talent_flexibility_voice_truthfulness():
    c = Character("X", iq=12, skills=(make_skill("Fast-Talk", 2), make_skill("Climbing", 1)),
                  traits=(make_trait("Flexibility"), make_trait("Voice"), make_trait("Truthfulness"),
                          make_trait("Talent (Smooth Operator)", level=2)))
    assert c.skill_level("Climbing").level == 9 + 3
    assert c.skill_level("Fast-Talk").level == 12 + 2 + 2 - 5


def test_gurps_men_01_sense_rolls_use_per_and_acute_senses():
    c = Character("X", iq=12, per_adj=1, traits=(make_trait("Acute Vision", level=2), make_trait("Bad Sight",
                                                                                                  option="correctable")))
    resolved = c.resolve("Vision+1")
    assert resolved.base == 13 and resolved.target == 13 + 2 - 6 + 1


def test_gurps_checks_resolve_fallback_best_and_japanese():
    c = Character("Aiko", iq=12, skills=(make_skill("Lockpicking", 1, level=9),))
    assert c.resolve("Lockpicking | IQ-5").label == "Lockpicking"
    c2 = replace(c, skills=(make_skill("Lockpicking", 1, level=5),))
    assert c2.resolve("Lockpicking | IQ-5").label == "IQ"
    roll = roll_check(c, "鍵開け-5 dark", dice=(4, 3, 4))
    assert roll.label == "Lockpicking" and roll.target == 4


def test_gurps_fright_check_traits():
    c = Character("X", iq=11, traits=(make_trait("Combat Reflexes"), make_trait("Fearlessness", level=2)))
    assert c.resolve("Fright Check").target == 11 + 2 + 2


def test_gurps_rr_03_character_reaction_modifiers():
    c = Character("X", appearance="handsome", traits=(make_trait("Charisma", level=2), make_trait("Voice"),
                                                      make_trait("Odious Personal Habit", level=1),
                                                      make_trait("Delusion", option="major")),
                  reputations=(Reputation(-2, "thief"),), status=2)
    mods = dict((label, value) for value, label in c.reaction_modifiers())
    assert mods["Appearance (Handsome/Beautiful)"] == 2 and mods["Charisma"] == 2 and mods["Voice"] == 2
    assert mods["Odious Personal Habit"] == -1 and mods["Delusion"] == -2
    assert mods["Reputation: thief"] == -2 and mods["Status"] == 2
    assert dict((label, v) for v, label in c.reaction_modifiers(attracted=True))[
        "Appearance (Handsome/Beautiful)"] == 4


def test_gurps_ch_18_to_26_social_costs():
    c = Character("X", appearance="attractive", wealth="wealthy", status=1, tl=-1,
                  reputations=(Reputation(2, "brave"),),
                  languages=(Language("Japanese", "native", "broken", native=True),
                             Language("English", "accented", "broken")))
    costs = dict(c.feature_points())
    assert costs["Appearance (Attractive)"] == 4 and costs["Wealth (Wealthy)"] == 20
    assert costs["Status 1"] == 5 and costs["Low TL -1"] == -5 and costs["Reputation +2"] == 10
    assert costs["Language: Japanese"] == -2 and costs["Language: English"] == 3


def test_gurps_character_save_load_roundtrip_atomic(tmp_path):
    c = Character("Aiko", dx=12, traits=(make_trait("Combat Reflexes"),), skills=(make_skill("Stealth", 4),),
                  languages=(Language("Japanese", native=True),), reputations=(Reputation(1, "kind"),),
                  equipment=("rope",), dr=2)
    path = save_character(tmp_path / "aiko.json", c)
    assert load_character(path) == c
    assert [p.name for p in tmp_path.iterdir()] == ["aiko.json"]  # no temp file left behind
    data = json.loads(path.read_text())
    data["dx"] = "twelve"
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(DataError, match="'dx' must be an integer"):
        load_character(tmp_path / "bad.json")
    with pytest.raises(NotFoundError):
        load_character(tmp_path / "missing.json")


@given(st.integers(1, 20), st.integers(1, 20), st.integers(1, 20), st.integers(1, 20))
def test_gurps_ch_dict_roundtrip_property(s, d, i, h):
    c = Character("P", st=s, dx=d, iq=i, ht=h)
    assert Character.from_dict(c.to_dict()) == c


def test_with_attribute_changes_only_whole_number_fields():
    """`with_attribute` sets a number field (DX, HP adjustment) and refuses a name or a trait list,
    which a number would break; the character is unchanged."""
    from gamekernel.errors import UsageError

    hero = Character(name="Hero")
    assert hero.with_attribute("DX", 12).dx == 12
    assert hero.with_attribute("hp_adj", 2).hp_adj == 2
    for name in ("name", "traits", "sparkle"):
        with pytest.raises(UsageError, match=f"unknown field '{name}'"):
            hero.with_attribute(name, 3)
    assert hero.name == "Hero" and hero.traits == ()


def test_gurps_std_01_skill_levels_kept_per_character_follow_every_edit():
    """A character works out a skill's level once (checks, sheet rows and attacks all ask), so the kept
    answer must be the one a fresh work-out gives, and an edited character (a new frozen Character)
    must work out its own: DX 12 -> 14 raises a bought DX/A skill and a DX default by 2 (STD-01, STD-03)."""
    c = Character("X", dx=12, iq=11, ht=10, skills=(make_skill("Lockpicking", 8), make_skill("Climbing", 2)))
    first = c.skill_level("Lockpicking")
    assert c.skill_level("Lockpicking") is first  # kept
    assert first == c._work_out_skill_level("Lockpicking", 0) and first.level == 13  # IQ/A, 8 points: IQ+2
    assert c.skill_level("Stealth").level == 7  # DX-5, not bought
    faster = c.with_attribute("dx", 14)
    assert faster.skill_level("Stealth").level == 9 and faster.skill_level("Climbing").level == 14
    assert c.skill_level("Stealth").level == 7 and c.skill_level("Climbing").level == 12  # the old sheet's own
    more = replace(c, skills=(make_skill("Lockpicking", 12), make_skill("Climbing", 2)))
    assert more.skill_level("Lockpicking").level == 14  # 12 points in an Average skill: IQ+3


def test_gurps_std_03_a_refused_skill_level_is_refused_again():
    """A refusal is not kept: asked twice, an unknown skill names itself both times (with its hints),
    and a skill with no default (Karate) refuses both times."""
    c = Character("X", dx=12)
    for _ in range(2):
        with pytest.raises(NotFoundError, match="Lockpickin"):
            c.skill_level("Lockpickin")
        with pytest.raises(RuleError):
            c.skill_level("Karate")
    assert "Lockpickin" not in c._skill_levels and "Karate" not in c._skill_levels
