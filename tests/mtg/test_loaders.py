"""Streaming loaders for MTGJSON v5 AtomicCards.json and Scryfall oracle bulk files, and the cache."""

import gc
import gzip
import itertools
import json

import pytest

from gamekernel.errors import DataError
from gamekernel.mtg.rules import loaders
from gamekernel.mtg.rules.loaders import detect_format, load_card_data, parse_type_line

ATOMIC = {
    "meta": {"date": "2024-01-01", "version": "5.2.2"},
    "data": {
        "Elvish Mystic": [{"name": "Elvish Mystic", "manaValue": 1.0, "colors": ["G"], "types": ["Creature"],
                           "subtypes": ["Elf", "Druid"], "supertypes": [], "layout": "normal",
                           "text": "{T}: Add {G}."}],
        "Fire // Ice": [
            {"name": "Fire // Ice", "faceName": "Fire", "side": "a", "manaValue": 4.0, "faceManaValue": 2.0,
             "colors": ["R"], "types": ["Instant"], "subtypes": [], "supertypes": [], "layout": "split"},
            {"name": "Fire // Ice", "faceName": "Ice", "side": "b", "manaValue": 4.0, "faceManaValue": 2.0,
             "colors": ["U"], "types": ["Instant"], "subtypes": [], "supertypes": [], "layout": "split"}],
        "Delver of Secrets // Insectile Aberration": [
            {"name": "Delver of Secrets // Insectile Aberration", "faceName": "Delver of Secrets", "side": "a",
             "manaValue": 1.0, "colors": ["U"], "types": ["Creature"], "subtypes": ["Human", "Wizard"],
             "supertypes": [], "layout": "transform"},
            {"name": "Delver of Secrets // Insectile Aberration", "faceName": "Insectile Aberration",
             "side": "b", "manaValue": 1.0, "colors": ["U"], "types": ["Creature"], "subtypes": ["Human"],
             "supertypes": [], "layout": "transform"}],
        "Bonecrusher Giant // Stomp": [
            {"name": "Bonecrusher Giant // Stomp", "faceName": "Bonecrusher Giant", "side": "a",
             "manaValue": 3.0, "colors": ["R"], "types": ["Creature"], "subtypes": ["Giant"],
             "supertypes": [], "layout": "adventure"},
            {"name": "Bonecrusher Giant // Stomp", "faceName": "Stomp", "side": "b", "manaValue": 3.0,
             "colors": ["R"], "types": ["Instant"], "subtypes": ["Adventure"], "supertypes": [],
             "layout": "adventure"}],
        "Snow-Covered Forest": [{"name": "Snow-Covered Forest", "manaValue": 0.0, "colors": [],
                                 "types": ["Land"], "subtypes": ["Forest"], "supertypes": ["Basic", "Snow"],
                                 "layout": "normal"}],
    },
}

SCRYFALL = [
    {"object": "card", "name": "Runeclaw Bear", "layout": "normal", "cmc": 2.0, "colors": ["G"],
     "type_line": "Creature — Bear", "oracle_text": "x"},
    {"object": "card", "name": "Assault // Battery", "layout": "split", "cmc": 5.0, "colors": ["G", "R"],
     "type_line": "Sorcery // Sorcery",
     "card_faces": [{"name": "Assault", "type_line": "Sorcery", "colors": ["R"]},
                    {"name": "Battery", "type_line": "Sorcery", "colors": ["G"]}]},
    {"object": "card", "name": "Delver of Secrets // Insectile Aberration", "layout": "transform", "cmc": 1.0,
     "type_line": "Creature — Human Wizard // Creature — Human Insect",
     "card_faces": [{"name": "Delver of Secrets", "type_line": "Creature — Human Wizard", "colors": ["U"]},
                    {"name": "Insectile Aberration", "type_line": "Creature — Human Insect", "colors": ["U"]}]},
    {"object": "card", "name": "Steam Vents", "layout": "normal", "cmc": 0.0, "colors": [],
     "type_line": "Land — Island Mountain"},
    {"object": "card", "name": "Llanowar Elves", "layout": "normal", "cmc": 1.0, "colors": ["G"],
     "type_line": "Creature — Elf Druid"},
    {"object": "card", "name": "Goblin Token", "layout": "token", "cmc": 0.0, "colors": ["R"],
     "type_line": "Token Creature — Goblin"},
    {"object": "card", "name": "Little Girl", "layout": "normal", "cmc": 0.5, "colors": ["W"],
     "type_line": "Creature — Human Child"},
    {"object": "card", "name": "Urborg, Tomb of Yawgmoth", "layout": "normal", "cmc": 0,
     "colors": [], "type_line": "Legendary Land"},
]


@pytest.fixture
def files(tmp_path):
    atomic = tmp_path / "AtomicCards.json"
    atomic.write_text(json.dumps(ATOMIC, indent=1), encoding="utf-8")
    scryfall = tmp_path / "oracle-cards.json"
    scryfall.write_text(json.dumps(SCRYFALL, ensure_ascii=False), encoding="utf-8")
    gz = tmp_path / "oracle-cards.json.gz"
    gz.write_bytes(gzip.compress(scryfall.read_bytes()))
    return {"atomic": atomic, "scryfall": scryfall, "gz": gz, "cache": tmp_path / "cache"}


@pytest.fixture(params=[7, 1 << 20], ids=["tiny-chunks", "big-chunks"])
def chunk(request, monkeypatch):
    monkeypatch.setattr(loaders, "CHUNK", request.param)
    return request.param


def test_mtgjson_v5_atomic_cards(files, chunk):
    index = load_card_data(files["atomic"], cache=files["cache"], use_cache=False)
    assert len(index) == 5
    assert index["Elvish Mystic"].colours == ("green",) and index["Elvish Mystic"].mana_value == 1
    assert isinstance(index["Elvish Mystic"].mana_value, int)
    fire = index["Fire // Ice"]
    assert fire.mana_value == 4 and fire.colours == ("blue", "red")  # split: combined MV, union of colours
    delver = index["Delver of Secrets"]  # front face alias
    assert delver.name == "Delver of Secrets // Insectile Aberration" and delver.subtypes == ("Human", "Wizard")
    giant = index["Bonecrusher Giant"]  # adventure: main card
    assert giant.types == ("Creature",) and giant.mana_value == 3
    assert index["Snow-Covered Forest"].is_basic_land


def test_scryfall_oracle_cards(files, chunk):
    index = load_card_data(files["scryfall"], cache=files["cache"], use_cache=False)
    assert "Goblin Token" not in index and len(index) == 7
    assert index["Assault // Battery"].mana_value == 5
    assert index["Assault // Battery"].colours == ("red", "green")
    assert index["Delver of Secrets"].colours == ("blue",)
    assert index["Delver of Secrets"].subtypes == ("Human", "Wizard")
    assert index["Steam Vents"].achievement_colours == ("blue", "red")
    assert index["Little Girl"].mana_value == 0.5
    assert index["Urborg, Tomb of Yawgmoth"].supertypes == ("Legendary",)


def test_gzipped_scryfall_file(files, chunk):
    assert len(load_card_data(files["gz"], cache=files["cache"], use_cache=False)) == 7


def test_progress_callback_reaches_the_total(files, monkeypatch):
    monkeypatch.setattr(loaders, "CHUNK", 64)
    seen = []
    load_card_data(files["atomic"], cache=files["cache"], progress=lambda done, total: seen.append((done, total)),
                   use_cache=False)
    total = files["atomic"].stat().st_size
    assert len(seen) > 5 and seen[-1] == (total, total)
    assert all(a[0] <= b[0] for a, b in itertools.pairwise(seen))


def test_cache_index_is_written_and_reused(files, monkeypatch):
    first = load_card_data(files["scryfall"], cache=files["cache"])
    written = list(files["cache"].glob("*.facts.jsonl"))
    assert len(written) == 1
    lines = written[0].read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["gamekernel_mtg_index"] == loaders.INDEX_VERSION and len(lines) == 8
    monkeypatch.setattr(loaders, "iter_scryfall", lambda stream: pytest.fail("the cache was not used"))
    second = load_card_data(files["scryfall"], cache=files["cache"])
    assert list(first) == list(second) and second["Little Girl"].mana_value == 0.5


def test_cache_folder_from_environment(files, monkeypatch, tmp_path):
    monkeypatch.setenv("GAMEKERNEL_CACHE_DIR", str(tmp_path / "envcache"))
    load_card_data(files["atomic"])
    assert list((tmp_path / "envcache").glob("AtomicCards.json.*.facts.jsonl"))


def test_damaged_cache_is_rebuilt(files):
    load_card_data(files["atomic"], cache=files["cache"])
    index_file = next(files["cache"].glob("*.facts.jsonl"))
    index_file.write_text("garbage\n", encoding="utf-8")
    assert len(load_card_data(files["atomic"], cache=files["cache"])) == 5


def test_detect_format_and_errors(files, tmp_path):
    assert detect_format(files["atomic"]) == "mtgjson" and detect_format(files["scryfall"]) == "scryfall"
    assert detect_format(files["gz"]) == "scryfall"
    bad = tmp_path / "bad.json"
    bad.write_text('{"data": {"X": [', encoding="utf-8")
    with pytest.raises(DataError, match=r"bad\.json: malformed JSON"):
        load_card_data(bad, use_cache=False)
    text = tmp_path / "notes.txt"
    text.write_text("hello", encoding="utf-8")
    with pytest.raises(DataError, match="not an MTGJSON v5"):
        load_card_data(text, use_cache=False)
    with pytest.raises(DataError, match="no such card data file"):
        load_card_data(tmp_path / "missing.json")


def test_parse_type_line():
    assert parse_type_line("Legendary Creature — Elf Druid") == (("Creature",), ("Elf", "Druid"), ("Legendary",))
    assert parse_type_line("Basic Snow Land — Forest") == (("Land",), ("Forest",), ("Basic", "Snow"))
    assert parse_type_line("Instant") == (("Instant",), (), ())


def test_the_cached_index_answers_every_name_the_fresh_parse_does_without_normalising_again(files, monkeypatch):
    """The index keeps each card's name and alias keys: reading it back finds faces ('Ice', 'Stomp'),
    whole split names and other spellings as the parse did, and runs no name normalisation."""
    fresh = load_card_data(files["atomic"], cache=files["cache"])
    from gamekernel.mtg.rules import facts

    def refuse(name):
        raise AssertionError(f"name_key({name!r}) ran while reading the cached index")

    monkeypatch.setattr(facts, "name_key", refuse)
    cached = load_card_data(files["atomic"], cache=files["cache"])
    monkeypatch.undo()
    assert list(cached) == list(fresh)
    for name in ("Ice", "Fire // Ice", "fire/ice", "Stomp", "insectile aberration", "SNOW-COVERED FOREST"):
        assert cached.find(name) == fresh.find(name) is not None, name


def test_an_index_of_the_previous_form_is_rebuilt(files):
    load_card_data(files["atomic"], cache=files["cache"])
    index_file = next(files["cache"].glob("*.facts.jsonl"))
    header, *rows = index_file.read_text(encoding="utf-8").splitlines()
    old = [json.dumps(json.loads(row)[2]) for row in rows]  # version 2 wrote the bare row
    index_file.write_text("\n".join([header, *old]) + "\n", encoding="utf-8")
    assert len(load_card_data(files["atomic"], cache=files["cache"])) == 5
    assert len(json.loads(index_file.read_text(encoding="utf-8").splitlines()[1])) == 3  # written anew


def test_the_cached_index_gives_the_same_facts_field_for_field(files):
    """MTG-CHK-09: every fact the check reads (colours, types, land types) comes back from the index
    exactly as the parse made it, Japanese names included."""
    fresh = load_card_data(files["atomic"], cache=files["cache"])
    cached = load_card_data(files["atomic"], cache=files["cache"])
    for name in fresh:
        a, b = fresh[name], cached[name]
        assert (a, a.ja_name, a.achievement_colours, a.land_type_colours) == (
            b, b.ja_name, b.achievement_colours, b.land_type_colours), name


def test_reading_the_index_pauses_the_collector_and_restores_it(files, monkeypatch):
    """The index builds many objects that all stay alive: no collection walks them while it is read."""
    load_card_data(files["atomic"], cache=files["cache"])
    states = []
    real = loaders._index_line

    def watching(line, where):
        states.append(gc.isenabled())
        return real(line, where)

    monkeypatch.setattr(loaders, "_index_line", watching)
    assert gc.isenabled()
    load_card_data(files["atomic"], cache=files["cache"])
    assert states and not any(states) and gc.isenabled()
