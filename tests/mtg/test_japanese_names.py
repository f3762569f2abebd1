"""Japanese card names both ways: read from card data that carries them (MTGJSON v5
`foreignData`, Scryfall Japanese printings, the bundled table), accepted in decklists and commands
(the seed's 《エルフの神秘家》 and ルーン爪の熊), printed when the language is Japanese."""

from __future__ import annotations

import json

import pytest

from gamekernel import Session
from gamekernel.i18n import set_language
from gamekernel.mtg.rules.facts import CardFacts, FactsIndex, bundled_facts, name_key
from gamekernel.mtg.rules.loaders import load_card_data


def _face(name, face=None, side="a", layout="normal", ja=None, ja_face=None, colours=("G",), mv=1.0,
          types=("Creature",)):
    data = {"name": name, "manaValue": mv, "colors": list(colours), "types": list(types), "subtypes": [],
            "supertypes": [], "layout": layout, "side": side}
    if face:
        data["faceName"] = face
    if ja:
        entry = {"language": "Japanese", "name": ja, "text": "…", "type": "…"}
        if ja_face:
            entry["faceName"] = ja_face
        data["foreignData"] = [{"language": "German", "name": "Elfische Mystikerin"}, entry]
    return data


ATOMIC = {"meta": {"version": "5.2.2"}, "data": {
    "Elvish Mystic": [_face("Elvish Mystic", ja="エルフの神秘家")],
    "Fire // Ice": [
        _face("Fire // Ice", "Fire", "a", "split", "火 // 氷", "火", ("R",), 4.0, ("Instant",)),
        _face("Fire // Ice", "Ice", "b", "split", "火 // 氷", "氷", ("U",), 4.0, ("Instant",))],
    "Bonecrusher Giant // Stomp": [
        _face("Bonecrusher Giant // Stomp", "Bonecrusher Giant", "a", "adventure", ja="砕骨の巨人",
              ja_face="砕骨の巨人", colours=("R",), mv=3.0),
        _face("Bonecrusher Giant // Stomp", "Stomp", "b", "adventure", ja="踏み鳴らし", ja_face="踏み鳴らし",
              colours=("R",), mv=3.0, types=("Instant",))],
    "Runeclaw Bear": [_face("Runeclaw Bear", mv=2.0)],
}}

SCRYFALL_ALL = [
    {"object": "card", "name": "Runeclaw Bear", "lang": "en", "layout": "normal", "cmc": 2.0, "colors": ["G"],
     "type_line": "Creature — Bear"},
    {"object": "card", "name": "Runeclaw Bear", "lang": "ja", "printed_name": "ルーン爪の熊", "layout": "normal",
     "cmc": 2.0, "colors": ["G"], "type_line": "Creature — Bear"},
    {"object": "card", "name": "Fire // Ice", "lang": "ja", "layout": "split", "cmc": 4.0, "colors": ["U", "R"],
     "type_line": "Instant // Instant",
     "card_faces": [{"name": "Fire", "printed_name": "火", "type_line": "Instant"},
                    {"name": "Ice", "printed_name": "氷", "type_line": "Instant"}]},
]


@pytest.fixture
def atomic(tmp_path):
    path = tmp_path / "AtomicCards.json"
    path.write_text(json.dumps(ATOMIC, ensure_ascii=False), encoding="utf-8")
    return path


def test_mtgjson_foreign_data_gives_japanese_names_and_the_cache_keeps_them(atomic, tmp_path):
    for _ in range(2):  # the second load reads the cache index
        index = load_card_data(atomic, cache=tmp_path / "cache")
        assert index["Elvish Mystic"].ja_name == "エルフの神秘家"
        assert index["Fire // Ice"].ja_name == "火 // 氷"
        assert index["Bonecrusher Giant // Stomp"].ja_name == "砕骨の巨人 // 踏み鳴らし"
    for name, english in [("《エルフの神秘家》", "Elvish Mystic"), ("氷", "Fire // Ice"),
                          ("Stomp", "Bonecrusher Giant // Stomp"), ("踏み鳴らし", "Bonecrusher Giant // Stomp"),
                          ("Bonecrusher Giant", "Bonecrusher Giant // Stomp")]:
        assert index.find(name).name == english
    assert index["Runeclaw Bear"].ja_name is None


def test_scryfall_japanese_printings_give_printed_names(tmp_path):
    path = tmp_path / "all-cards.json"
    path.write_text(json.dumps(SCRYFALL_ALL, ensure_ascii=False), encoding="utf-8")
    index = load_card_data(path, use_cache=False)
    assert len(index) == 2
    assert index["Runeclaw Bear"].ja_name == "ルーン爪の熊" and index["Fire // Ice"].ja_name == "火 // 氷"


def test_bundled_facts_carry_japanese_names_including_the_seed_cards():
    facts = bundled_facts()
    assert sum(1 for card in facts.cards() if card.ja_name) >= 100
    assert facts["エルフの神秘家"].name == "Elvish Mystic" and facts["《ルーン爪の熊》"].name == "Runeclaw Bear"
    assert facts["師範の占い独楽"].name == "Sensei's Divining Top"  # seed 002:61
    assert [facts[n].name for n in ("平地", "島", "沼", "山", "森")] == [
        "Plains", "Island", "Swamp", "Mountain", "Forest"]  # seed 002:32


@pytest.mark.parametrize(("english", "japanese"), [
    ("Mutavault", "変わり谷"), ("Nightmare", "夢魔"), ("Juggernaut", "巨大戦車"),
    ("Jace, the Living Guildpact", "ギルドパクトの体現者、ジェイス"), ("Wear // Tear", "摩耗 // 損耗"),
    ("Delver of Secrets", "秘密を掘り下げる者")])
def test_bundled_japanese_names_are_the_printed_ones(english, japanese):
    """Checked against MTGJSON Japanese foreignData: the first four were mistyped from memory, a split card
    joins its halves' names, a double-faced card keeps its front face's name."""
    facts = bundled_facts()
    assert facts[english].ja_name == japanese and facts[japanese].name == english


def test_loaded_data_without_japanese_names_keeps_the_bundled_ones():
    loaded = FactsIndex([CardFacts("Elvish Mystic", 1, ("green",), ("Creature",))], source="oracle")
    merged = loaded.merged(bundled_facts())
    assert merged["エルフの神秘家"].name == "Elvish Mystic" and merged["Elvish Mystic"].ja_name == "エルフの神秘家"


@pytest.mark.parametrize(("a", "b"), [
    ("ＥＬＶＩＳＨ　ＭＹＳＴＩＣ", "elvish mystic"), ("《エルフの神秘家》", "エルフの神秘家"),
    ("Fire/Ice", "fire // ice"), ("Ajani’s Pridemate", "ajani's pridemate")])
def test_one_name_normalisation_for_width_case_brackets_and_slashes(a, b):
    assert name_key(a) == name_key(b)


def test_rows_with_and_without_japanese_names_round_trip():
    card = CardFacts("Elvish Mystic", 1, ("green",), ("Creature",), ja_name="エルフの神秘家")
    assert CardFacts.from_row(card.to_row()).ja_name == "エルフの神秘家"
    assert len(CardFacts("Forest").to_row()) == 6 and CardFacts.from_row(["Forest", 0, "", [], [], []]).ja_name is None


def test_seed_example_in_japanese_names_through_the_session():
    """Seed 002:45-55: 《エルフの神秘家》 then 《ルーン爪の熊》 in a green [2] check: target 3, achievement 7."""
    session = Session(seed=1)
    session.mtg.library_load("PC", "seed.txt", text="4 《エルフの神秘家》\n4 ルーン爪の熊\n12 森\n")
    session.mtg.library_stack("PC", ["《エルフの神秘家》", "ルーン爪の熊"])
    result = session.mtg.check("緑2")
    assert (result.first.name, result.target, result.second.name, result.achievement, result.success) == (
        "Elvish Mystic", 3, "Runeclaw Bear", 7, True)
    try:
        set_language("ja")
        text = str(result)
        assert "1枚目《エルフの神秘家》" in text and "2枚目《ルーン爪の熊》" in text
        view = str(session.mtg.library_view())
        assert "《エルフの神秘家》→目標値3" in view
    finally:
        set_language("en")
    assert "1st Elvish Mystic" in str(result)
