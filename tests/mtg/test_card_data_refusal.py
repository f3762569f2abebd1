"""`%library data FILE` refuses a card database of too many entries in one line, changing nothing, at
entry max_data_cards + 1: the two-million-card file of the benchmark (about 11 MB gzipped) at the
default limit, and the same generator's files at a lowered one (one under it is read whole). How long
the refusal takes is measured in benchmarks/bench_card_data.py, against gunzip of the same file."""

from __future__ import annotations

import pytest

from benchmarks.bench_card_data import write_many_cards
from gamekernel import limits
from gamekernel import magic_base as _base
from gamekernel.display.results import ErrorResult
from gamekernel.mtg.rules.facts import bundled_facts


@pytest.fixture
def cards_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEKERNEL_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _refused(ip, path) -> str:
    session = _base.current_session()
    before = len(session.log)
    result = ip.run_line_magic("library", f"data {path}")
    assert isinstance(result, ErrorResult), result
    assert len(session.log) == before
    return repr(result)


def test_one_entry_past_a_lowered_limit_is_refused_and_the_limit_itself_read(ip, tmp_path, cards_cache):
    previous = limits.current().max_data_cards
    ip.run_line_magic("config", "GameKernel.max_data_cards = 1000")
    try:
        assert limits.current().max_data_cards == 1000
        message = _refused(ip, write_many_cards(tmp_path / "over.json.gz", 1_001))
        assert message == ("error: over.json.gz: more than 1000 cards, refused "
                           "(%config GameKernel.max_data_cards)")
        assert not cards_cache.exists() or not any(cards_cache.iterdir())  # nothing cached
        loaded = ip.run_line_magic("library", f"data {write_many_cards(tmp_path / 'at.json.gz', 1_000)}")
        assert not isinstance(loaded, ErrorResult), loaded
        assert f"card data: {1_000 + len(bundled_facts())} cards from" in repr(loaded)  # with the bundled ones
    finally:
        limits.configure(max_data_cards=previous)


@pytest.mark.slow
def test_a_two_million_card_file_is_refused_in_one_line(ip, tmp_path, cards_cache):
    path = write_many_cards(tmp_path / "many.json.gz")
    assert 9_000_000 < path.stat().st_size < 13_000_000  # the file of the report: about 11 MB gzipped
    assert _refused(ip, path) == ("error: many.json.gz: more than 100000 cards, refused "
                                  "(%config GameKernel.max_data_cards)")
