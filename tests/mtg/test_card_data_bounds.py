"""A card database is bounded whatever its shape: its decompressed size (a .gz is never judged by its
compressed size alone: more than BOMB_RATIO times it is a bomb), any one value (decoded again at each
chunk while incomplete, so a huge value would cost quadratic time), and its number of entries - each
refused in one line naming the option that raises the limit, after reading only what the limit allows."""

from __future__ import annotations

import gzip
import json
import re

import pytest

from gamekernel import limits
from gamekernel.errors import DataError
from gamekernel.mtg.rules import loaders


@pytest.fixture
def counted_reads(monkeypatch):
    """How many characters the loader decompressed."""
    seen = []
    real = loaders._Stream.more

    def more(self):
        result = real(self)
        seen.append(self.read)
        return result

    monkeypatch.setattr(loaders._Stream, "more", more)
    return seen


def write_gz(path, *parts) -> None:
    with gzip.open(path, "wb", compresslevel=9) as handle:
        for part in parts:
            handle.write(part)


def test_one_huge_value_is_refused_after_reading_about_the_limit(tmp_path, counted_reads):
    path = tmp_path / "bomb.json.gz"
    write_gz(path, b'{"meta": {}, "data": {"Bomb": [{"name": "Bomb", "text": "', b"A" * 20_000_000, b'"}]}}')
    with pytest.raises(DataError, match=r"^bomb\.json\.gz: one value at character \d+ is longer than 1024 KB"
                       r".*max_data_value_kb\)$"):
        loaders.load_card_data(path, use_cache=False, fmt="mtgjson")
    assert max(counted_reads) <= limits.current().max_data_value_kb * 1_000 + 2 * loaders.CHUNK


def test_a_decompression_bomb_of_blanks_is_refused_by_its_ratio(tmp_path, counted_reads):
    path = tmp_path / "blanks.json.gz"
    write_gz(path, b'{"meta": {}, ', b" " * 60_000_000, b'"data": {}}')
    compressed = path.stat().st_size
    with pytest.raises(DataError, match=r"^blanks\.json\.gz: decompresses to more than \d+ MB .*a decompression bomb"):
        loaders.load_card_data(path, use_cache=False, fmt="mtgjson")
    assert max(counted_reads) <= loaders.BOMB_RATIO * compressed + 2 * loaders.CHUNK


def test_too_many_cards_are_refused_at_the_limit(tmp_path, counted_reads):
    path = tmp_path / "many.json"
    cards = {f"Card {i}": [{"name": f"Card {i}", "type": "Creature", "types": ["Creature"], "manaValue": 1}]
             for i in range(3_000)}
    path.write_text(json.dumps({"meta": {}, "data": cards}), encoding="utf-8")
    previous = limits.current().max_data_cards
    limits.configure(max_data_cards=1_000)
    try:
        with pytest.raises(DataError, match=r"^many\.json: more than 1000 cards, refused .*max_data_cards\)$"):
            loaders.load_card_data(path, use_cache=False, fmt="mtgjson")
    finally:
        limits.configure(max_data_cards=previous)
    assert len(loaders.load_card_data(path, use_cache=False, fmt="mtgjson").keyed_cards()) == 3_000  # under it: read


def test_a_real_sized_file_is_read_whole(tmp_path):
    path = tmp_path / "cards.json.gz"
    cards = {f"Card {i}": [{"name": f"Card {i}", "type": "Creature", "types": ["Creature"], "manaValue": 1}]
             for i in range(2_000)}
    write_gz(path, json.dumps({"meta": {}, "data": cards}, indent=2).encode())
    index = loaders.load_card_data(path, use_cache=False, fmt="mtgjson")
    assert len(index.keyed_cards()) == 2_000 and index["Card 1999"].name == "Card 1999"


MTGJSON_SHAPES = {
    "meta": {"version": "5.2.2", "n": 12345678901234567890},
    "data": {
        "Elvish Mystic": [{"name": "Elvish Mystic", "manaValue": 1.0, "colors": ["G"], "types": ["Creature"],
                           "subtypes": ["Elf", "Druid"], "foreignData": [
                               {"language": "Japanese", "name": "ラノワールのエルフ"}]}],
        "Fire // Ice": [
            {"name": "Fire // Ice", "faceName": "Fire", "side": "a", "manaValue": 4, "colors": ["R"],
             "types": ["Instant"], "layout": "split"},
            {"name": "Fire // Ice", "faceName": "Ice", "side": "b", "manaValue": 4, "colors": ["U"],
             "types": ["Instant"], "layout": "split"}],
        "Back First": [{"name": "Back First", "side": "b", "manaValue": 9, "colors": ["B"], "types": ["Sorcery"]},
                       {"name": "Back First", "side": "a", "manaValue": 2.5, "colors": ["W", "G"],
                        "types": ["Creature", "Creature"], "supertypes": ["Legendary"]}],
        'Number "Edge" \u00e9': [{"name": "x", "manaValue": 1234567890, "colors": [], "types": ["Land"]}],
        "Old Style": [{"name": "Old Style", "convertedManaCost": 3.0, "types": ["Artifact"]}],
    },
}


def _loaded(path, fmt):
    return [(key, aliases, card, card.ja_name)
            for key, aliases, card in loaders.load_card_data(path, use_cache=False, fmt=fmt).keyed_cards()]


@pytest.mark.parametrize("indent", [None, 0, 3], ids=["compact", "lines", "indented"])
@pytest.mark.parametrize("fmt", ["mtgjson", "scryfall"])
def test_every_chunk_edge_reads_the_same_cards(tmp_path, monkeypatch, indent, fmt):
    """A member or item whole in the buffer is read at C speed, one cut by a chunk edge the careful way
    (MTG-CHK-09 facts: colours, types, mana value): every cut gives the same cards, and the same ones the
    careful reader alone gives."""
    from tests.mtg.test_loaders import SCRYFALL

    document = MTGJSON_SHAPES if fmt == "mtgjson" else SCRYFALL
    path = tmp_path / "cards.json"
    separators = (",", ":") if indent is None else (" ,\t", " :\r\n ")
    path.write_text(json.dumps(document, indent=indent, ensure_ascii=False, separators=separators), encoding="utf-8")
    whole = _loaded(path, fmt)
    assert len(whole) == (5 if fmt == "mtgjson" else len(SCRYFALL) - 1)  # Scryfall: the token is skipped
    for chunk in (1, 2, 3, 5, 7, 11, 64, 333):
        monkeypatch.setattr(loaders, "CHUNK", chunk)
        assert _loaded(path, fmt) == whole, chunk
    monkeypatch.setattr(loaders, "_KEY_START", re.compile("(?!)"))  # the fast paths never match
    monkeypatch.setattr(loaders, "_ITEM_START", re.compile("(?!)"))
    assert _loaded(path, fmt) == whole


def test_the_fast_path_keeps_the_facts_of_each_face_layout():
    """Side 'a' is the front even when listed second; split faces united; duplicates once; an old file's
    convertedManaCost; the Japanese name from foreignData (MTG-CHK-09 colours in WUBRG order)."""
    facts = {name: loaders.mtgjson_facts(name, faces) for name, faces in MTGJSON_SHAPES["data"].items()}
    back_first = facts["Back First"]
    assert (back_first.mana_value, back_first.colours, back_first.types, back_first.supertypes) == (
        2.5, ("white", "green"), ("Creature",), ("Legendary",))
    assert facts["Fire // Ice"].colours == ("blue", "red") and facts["Fire // Ice"].types == ("Instant",)
    assert facts["Old Style"].mana_value == 3 and type(facts["Old Style"].mana_value) is int
    assert facts["Elvish Mystic"].ja_name == "ラノワールのエルフ" and facts["Fire // Ice"].ja_name is None


@pytest.mark.parametrize("chunk", [7, loaders.CHUNK])
@pytest.mark.parametrize("fmt", ["mtgjson", "scryfall"])
def test_the_count_refuses_at_exactly_one_past_the_limit(tmp_path, monkeypatch, chunk, fmt):
    """max_data_cards entries are read; one more is refused in one line, whichever path reads it."""
    monkeypatch.setattr(loaders, "CHUNK", chunk)
    previous = limits.current().max_data_cards
    limits.configure(max_data_cards=5)
    try:
        for count, refused in ((5, False), (6, True)):
            cards = [{"name": f"Card {i}", "types": ["Creature"], "manaValue": 1} for i in range(count)]
            document = {"meta": {}, "data": {c["name"]: [c] for c in cards}} if fmt == "mtgjson" else cards
            if fmt == "scryfall":
                for card in cards:
                    card["type_line"] = "Creature"
            path = tmp_path / f"{count}.json"
            path.write_text(json.dumps(document), encoding="utf-8")
            if refused:
                with pytest.raises(DataError, match=r"^6\.json: more than 5 cards, refused "
                                                    r"\(%config GameKernel\.max_data_cards\)$"):
                    loaders.load_card_data(path, use_cache=False, fmt=fmt)
            else:
                assert len(loaders.load_card_data(path, use_cache=False, fmt=fmt)) == 5
    finally:
        limits.configure(max_data_cards=previous)


@pytest.mark.parametrize("text", ['{"meta": {}, "data": {"A": [{"name": "A"}] "B": []}}',
                                  '{"meta": {}, "data": {"A": [{"name": "A"}], }}',
                                  '{"meta": {}, "data": {"A" [{"name": "A"}]}}',
                                  '{"meta": {}, "data": {"A": [{"name": "A"}]'])
def test_broken_json_is_refused_in_one_line_at_every_chunk_size(tmp_path, monkeypatch, text):
    path = tmp_path / "broken.json"
    path.write_text(text, encoding="utf-8")
    messages = set()
    for chunk in (1, 4, loaders.CHUNK):
        monkeypatch.setattr(loaders, "CHUNK", chunk)
        with pytest.raises(DataError) as raised:
            loaders.load_card_data(path, use_cache=False, fmt="mtgjson")
        messages.add(str(raised.value).split(" at byte ")[0])
        assert "\n" not in str(raised.value) and str(raised.value).startswith("broken.json")
    assert len(messages) == 1, messages
