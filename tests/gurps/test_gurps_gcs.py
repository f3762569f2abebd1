"""GCS .gcs v5 import: attributes, traits, skills (levels equal calc.level), equipment, DR."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamekernel.errors import DataError
from gamekernel.gurps.rules.character_files import load_character
from gamekernel.gurps.rules.gcs import import_gcs, load_gcs

DATA = Path(__file__).parent / "data"


def _doc():
    return json.loads((DATA / "aiko.gcs").read_text())


def test_gcs_import_attributes_and_secondary():
    c = load_gcs(DATA / "aiko.gcs")
    assert (c.name, c.st, c.dx, c.iq, c.ht) == ("Aiko Tanaka", 10, 13, 12, 11)
    assert c.per == 13 and c.will == 12 and c.fp_lost == 2 and c.budget == 175
    assert c.points().total == 175


def test_gcs_every_skill_level_equals_calc_level_std_01_02():
    """GURPS-STD-01/02: every computed level equals the file's calc.level (incl. Flexibility +3, Wildcard)."""
    doc = _doc()
    result = import_gcs(doc)
    assert result.mismatches == () and result.warnings == ()
    levels = {}

    def walk(rows):
        for row in rows:
            if "children" in row:
                walk(row["children"])
            else:
                levels[row["name"]] = row["calc"]["level"]

    walk(doc["skills"])
    assert len(levels) == 14
    for name, level in levels.items():
        assert result.character.skill_level(name).level == level, name


def test_gcs_traits_with_points_and_appearance():
    c = load_gcs(DATA / "aiko.gcs")
    points = {t.name: t.points for t in c.traits}
    assert points["Combat Reflexes"] == 15 and points["Acute Vision"] == 4 and points["Weirdness Magnet"] == -15
    assert points["Collects keys"] == -1 and c.appearance == "attractive"
    assert c.trait_level("Acute Vision") == 2 and c.has_trait("Bad Temper").cr == 12
    assert c.dodge == 10  # floor(6) + 3 + Combat Reflexes, as the file's calc.dodge[0]


def test_gcs_equipment_and_dr():
    c = load_gcs(DATA / "aiko.gcs")
    assert c.equipment == ("Leather Armor", "Broadsword", "Large Knife", "Backpack", "Lockpicks", "Rope, 10 yards")
    assert c.dr == 2


def test_gcs_mismatch_is_reported():
    doc = _doc()
    doc["skills"][0]["calc"]["level"] = 99
    assert import_gcs(doc).mismatches == (("Lockpicking", 99, 14),)


def test_gcs_bad_files(tmp_path):
    doc = _doc()
    doc["version"] = 9
    with pytest.raises(DataError, match="version"):
        import_gcs(doc, "x.gcs")
    (tmp_path / "broken.gcs").write_text("{not json")
    with pytest.raises(DataError, match=r"broken\.gcs"):
        load_character(tmp_path / "broken.gcs")
