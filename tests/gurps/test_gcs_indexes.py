"""The look-ups that keep a GCS import linear (for speed) give what a scan of every entry gave: the
first skill of a name, trait modifiers in sheet order, the features that may apply to a name, the
skills a placeholder specialization names, and a library entry by full name before name."""

from __future__ import annotations

from gamekernel.gurps.rules.characters import Character, Skill
from gamekernel.gurps.rules.checks import Modifier
from gamekernel.gurps.rules.gcs import import_gcs
from gamekernel.gurps.rules.gcs.calc import compute
from gamekernel.gurps.rules.gcs.features import ActiveFeature, FeatureIndex, skill_bonus, spell_bonus
from gamekernel.gurps.rules.gcs.library import LibraryEntry, LibraryIndex
from gamekernel.gurps.rules.skills import maybe_skill
from gamekernel.gurps.rules.traits import Trait


def _skill(name: str, specialization: str = "", level: int | None = 12) -> Skill:
    return Skill(name, "DX", "E", 1, level, specialization)


def test_find_skill_entry_is_the_first_skill_of_the_name_std_01():
    """GURPS-STD-01: a skill is found by its name or full name (width and case ignored) or by the
    listed skill's other name; where several match, the first on the sheet."""
    c = Character("A", skills=(_skill("Guns", "Rifle", 11), _skill("Guns", "Pistol", 13),
                               _skill("Lockpicking", level=10)))
    assert c.find_skill_entry("guns").specialization == "Rifle"
    assert c.find_skill_entry("ＧＵＮＳ (pistol)").specialization == "Pistol"
    assert c.find_skill_entry("鍵開け").name == "Lockpicking"
    assert c.find_skill_entry("Stealth") is None
    # a later full-name match does not beat an earlier match of the listed skill's own name
    c = Character("B", skills=(_skill("Lockpicking", level=10), _skill("鍵開け", level=14)))
    assert c.find_skill_entry("鍵開け").level == 10
    # one skill listed twice is rolled at the better row (GCS shows both rows)
    assert c.skill_level("鍵開け").level == 14
    c = Character("C", skills=(_skill("Guns", "Rifle", 11), _skill("Guns", "Pistol", 13)))
    assert c.skill_level("guns").level == 11  # two specializations are two skills: the first


def test_trait_modifiers_keep_the_sheet_order_adv_26():
    """GURPS-ADV-26 (Talent) and GURPS-CH-17 (Voice) on Acting, then the GCS feature bonus: in the
    order of the sheet, whichever roll key each one comes by; a zero bonus is left out."""
    acting = maybe_skill("Acting")
    voice = Trait("voice", "Voice", 10)
    talent = Trait("talent_smooth_operator", "Talent (Smooth Operator)", 30, level=2)
    bonuses = (("skill:Acting", 1, "GCS"), ("skill:Acting", 0, "zero"))
    first = Character("A", traits=(voice, talent), feature_bonuses=bonuses)
    assert first.trait_modifiers("skill", skill=acting) == (
        Modifier(2, "Voice"), Modifier(2, "Talent (Smooth Operator)"), Modifier(1, "GCS"))
    second = Character("A", traits=(talent, voice), feature_bonuses=bonuses)
    assert second.trait_modifiers("skill", skill=acting) == (
        Modifier(2, "Talent (Smooth Operator)"), Modifier(2, "Voice"), Modifier(1, "GCS"))
    assert first.trait_modifiers("dodge") == ()


def _feature(row: dict, amount: float = 1, source: str = "x") -> ActiveFeature:
    return ActiveFeature(row, amount, source)


def test_feature_index_gives_every_feature_that_may_apply_in_order():
    climbing = _feature({"type": "skill_bonus", "name": {"compare": "is", "qualifier": "CLIMBING"}}, 3, "Flex")
    stealth = _feature({"type": "skill_bonus", "name": {"compare": "is", "qualifier": "Stealth"}}, 2, "Sneak")
    prefix = _feature({"type": "skill_bonus", "name": {"compare": "starts_with", "qualifier": "Cl"}}, 1, "Cl")
    anything = _feature({"type": "skill_bonus", "selection_type": "skills_with_name"}, 1, "All")
    features = [prefix, climbing, stealth, anything]
    index = FeatureIndex(features)
    assert index.candidates("skill_bonus", "climbing") == [prefix, climbing, anything]
    assert index.candidates("skill_bonus", "Stealth") == [prefix, stealth, anything]
    assert index.candidates("skill_point_bonus", "Climbing") == []
    for name in ("Climbing", "Stealth", "Cloak", "Swimming"):
        assert (skill_bonus(index.candidates("skill_bonus", name), name, "", [])
                == skill_bonus(features, name, "", []))


def test_spell_bonus_candidates_by_spell_college_and_power_source():
    """A spell bonus for all colleges applies whatever its `name` says; the others by the name
    they test (the spell's, one of its colleges, its power source)."""
    rows = [
        {"type": "spell_bonus", "match": "all_colleges", "name": {"compare": "is", "qualifier": "Ignored"}},
        {"type": "spell_bonus", "match": "college_name", "name": {"compare": "is", "qualifier": "Fire"}},
        {"type": "spell_bonus", "match": "spell_name", "name": {"compare": "is", "qualifier": "Fireball"}},
        {"type": "spell_bonus", "match": "power_source_name", "name": {"compare": "is", "qualifier": "Arcane"}},
        {"type": "spell_bonus", "match": "college_name", "name": {"compare": "is", "qualifier": "Water"}},
    ]
    features = [_feature(row, 2 ** n) for n, row in enumerate(rows)]
    index = FeatureIndex(features)
    found = index.candidates("spell_bonus", "Fireball", "Fire", "Arcane")
    assert found == features[:4]
    assert spell_bonus(found, "Fireball", ["Fire"], [], power_source="Arcane") == 15
    assert spell_bonus(features, "Fireball", ["Fire"], [], power_source="Arcane") == 15
    assert index.candidates("spell_bonus", "Ice Dagger", "Water", "") == [features[0], features[4]]


def _doc(skills: list[dict]) -> dict:
    return {"version": 5, "profile": {"name": "Gunner"}, "skills": skills,
            "attributes": [{"attr_id": "dx", "adj": 2}]}


def test_a_placeholder_specialization_takes_any_of_that_skill_only_std_03():
    """GURPS-STD-03: a default from "Guns (@Type@)" takes the best Guns specialization, and no other
    skill whose name merely starts the same (Gunsmith is not Guns)."""
    data = _doc([
        {"name": "Guns", "specialization": "Pistol", "difficulty": "dx/e", "points": 4},
        {"name": "Guns", "specialization": "Rifle", "difficulty": "dx/e", "points": 1},
        {"name": "Gunsmith", "difficulty": "dx/e", "points": 24},
        {"name": "Beam Weapons", "specialization": "Pistol", "difficulty": "dx/e", "points": 0,
         "defaults": [{"type": "skill", "name": "Guns", "specialization": "@Type@", "modifier": -4}]},
    ])
    levels = {row.full_name: row.level for row in compute(data).skills}
    assert levels["Guns (Pistol)"] == 14 and levels["Guns (Rifle)"] == 12 and levels["Gunsmith"] == 19
    assert levels["Beam Weapons (Pistol)"] == 10


def test_a_zero_point_skill_row_without_a_name_is_imported():
    data = _doc([{"difficulty": "dx/e", "points": 0, "defaults": [{"type": "dx", "modifier": -4}]}])
    character = import_gcs(data, where="nameless.gcs").character
    assert [(s.name, s.level) for s in character.skills] == [("?", 8)]


def test_library_find_by_full_name_before_name_per_kind():
    entries = [LibraryEntry("skill", "Guns", "Pistol"), LibraryEntry("skill", "Guns", "Rifle"),
               LibraryEntry("equipment", "Guns")]
    library = LibraryIndex("lib", entries)
    assert library.find("guns") is entries[2]  # its full name is the name asked for
    assert library.find("GUNS", "skill") is entries[0]  # no full-name match: the first by name
    assert library.find("guns (rifle)", "skill") is entries[1]
    assert library.find("Guns", "equipment") is entries[2]


def test_a_library_folder_name_too_long_or_with_nul_is_a_one_line_refusal(tmp_path, monkeypatch):
    """Found by tools/fuzz_magics.py: `%gurps library xxx...x` (300 characters) raised OSError."""
    import pytest

    from gamekernel import Session
    from gamekernel.errors import GameKernelError

    monkeypatch.chdir(tmp_path)
    session = Session(seed=1)
    events = len(session.log)
    for folder in ("x" * 300, "a\x00b", "/".join(["y" * 200] * 30)):
        with pytest.raises(GameKernelError) as refused:
            session.gurps.library(folder)
        assert "\n" not in str(refused.value)
    assert len(session.log) == events
