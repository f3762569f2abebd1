"""A card database is bounded whatever its shape: its decompressed size (a .gz is never judged by its
compressed size alone: more than BOMB_RATIO times it is a bomb), any one value (decoded again at each
chunk while incomplete, so a huge value would cost quadratic time), and its number of entries - each
refused in one line naming the option that raises the limit, after reading only what the limit allows."""

from __future__ import annotations

import gzip
import json

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
