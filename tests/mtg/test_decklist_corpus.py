"""Decklists no one here wrote: XMage's shipped sample decks, Forge's precons, MTGO exports.

The corpus and the card data are never in the repository: set GAMEKERNEL_DECKLIST_CORPUS to a folder
of decklists and GAMEKERNEL_CARD_FACTS to card data (a facts file, AtomicCards.json or a Scryfall bulk
file); the corpus test skips cleanly without them. tools/measure_decklists.py prints the same figures
with the reasons for each refusal."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from gamekernel.mtg.rules.decklists import parse_decklist

DATA = Path(__file__).parent / "data" / "decklists"
TOOL = Path(__file__).parents[2] / "tools" / "measure_decklists.py"


def _tool():
    spec = importlib.util.spec_from_file_location("measure_decklists", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_old_xmage_files_open_with_a_comment_and_carry_header_notes():
    """`//Created with Mage` and `EVENT:` lines head many of XMage's shipped sample decks."""
    deck = parse_decklist("//Created with Mage - www.magefree.com\nNAME: UW Aggro\nAUTHOR: Court Shuett\n"
                          "EVENT: Star City Games Open - 2011-OCT-02\n\n2 [M12:27] Oblivion Ring\n"
                          "SB: 2 [M12:12] Celestial Purge\n", "uw.dck")
    assert (deck.fmt, deck.name, deck.main_count, deck.sideboard_count) == ("xmage", "UW Aggro", 2, 2)


def test_the_measuring_tool_counts_loads_by_format_and_groups_the_refusals(capsys):
    tool = _tool()
    files = sorted(p for p in DATA.iterdir() if p.suffix in tool.SUFFIXES)
    loaded, refused, examples, _ = tool.measure(files, tool.facts_from(None))
    assert loaded["xmage"] == 1 and loaded["forge"] == 2 and loaded["arena"] >= 4
    assert sum(refused.values()) == 2  # ambiguous.txt (layout) and typos.txt (unknown cards)
    assert any("cannot tell the main deck from the sideboard" in why for why in examples)
    assert any("unknown card" in why for why in examples)
    assert tool.main([str(DATA)]) == 0
    assert "loaded " in capsys.readouterr().out


@pytest.mark.skipif(not (os.environ.get("GAMEKERNEL_DECKLIST_CORPUS") and os.environ.get("GAMEKERNEL_CARD_FACTS")),
                    reason="set GAMEKERNEL_DECKLIST_CORPUS and GAMEKERNEL_CARD_FACTS to measure a real corpus")
def test_a_real_corpus_loads_at_least_95_percent_and_every_refusal_says_why():
    tool = _tool()
    corpus = Path(os.environ["GAMEKERNEL_DECKLIST_CORPUS"])
    files = sorted(p for p in corpus.rglob("*") if p.suffix.lower() in tool.SUFFIXES and p.is_file())
    facts = tool.facts_from(Path(os.environ["GAMEKERNEL_CARD_FACTS"]))
    loaded, refused, examples, _ = tool.measure(files, facts)
    assert len(files) >= 1000
    assert sum(loaded.values()) >= 0.95 * len(files), (dict(loaded), dict(refused))
    for cases in examples.values():
        for case in cases:  # 'file: file:line: why' or 'file: file: why (lines a–b ...)'
            assert case.count(":") >= 2 and len(case) <= 200 + len(case.split(":")[0]), case
