"""Decklist formats (MTG Arena, MTGO text, MTGO .dek XML): the library is the main deck."""

import pytest

from gamekernel.errors import DataError, NotFoundError
from gamekernel.mtg.rules.decklists import build_library, detect_format, parse_decklist, read_decklist
from gamekernel.mtg.rules.facts import bundled_facts

ARENA = """About
Name Mira's Elves

Companion
1 Lurrus of the Dream-Den (IKO) 226

Deck
4 Elvish Mystic (M15) 173
4x Runeclaw Bear (M15) 199 *F*
2 Fire // Ice [MH2] 290
12 Forest (M15) 269

Sideboard
2 Naturalize (M15) 190
"""

MTGO = """// Mira
4 Elvish Mystic
4 Runeclaw Bear
12 Forest

2 Naturalize
SB: 1 Plummet
"""

DEK = """<?xml version="1.0" encoding="utf-8"?>
<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <NetDeckID>0</NetDeckID>
  <Cards CatID="53930" Quantity="4" Sideboard="false" Name="Elvish Mystic" Annotation="0" />
  <Cards CatID="53931" Quantity="4" Sideboard="false" Name="Runeclaw Bear" Annotation="0" />
  <Cards CatID="53932" Quantity="12" Sideboard="false" Name="Forest" Annotation="0" />
  <Cards CatID="53933" Quantity="2" Sideboard="true" Name="Naturalize" Annotation="0" />
</Deck>
"""


def test_arena_sections_set_codes_1x_and_foil():
    deck = parse_decklist(ARENA, "mira.txt")
    assert deck.fmt == "arena" and deck.name == "Mira's Elves"
    assert [(e.count, e.name) for e in deck.main] == [
        (4, "Elvish Mystic"), (4, "Runeclaw Bear"), (2, "Fire // Ice"), (12, "Forest")]
    assert deck.main[0].set_code == "M15" and deck.main[0].number == "173"
    assert deck.main[1].foil and deck.main[2].set_code == "MH2"
    assert [(e.count, e.name) for e in deck.sideboard] == [(2, "Naturalize")]
    assert deck.main_count == 22  # the companion is not in the library


def test_mtgo_text_blank_line_and_sb_prefix_are_sideboard():
    deck = parse_decklist(MTGO, "mira.txt")
    assert deck.fmt == "mtgo" and deck.main_count == 20
    assert [(e.count, e.name) for e in deck.sideboard] == [(2, "Naturalize"), (1, "Plummet")]


def test_mtgo_text_sb_lines_without_blank_line():
    deck = parse_decklist("4 Elvish Mystic\nSB: 2 Naturalize\n4 Forest\n")
    assert deck.main_count == 8 and deck.sideboard_count == 2


def test_mtgo_dek_xml():
    deck = parse_decklist(DEK, "mira.dek")
    assert deck.fmt == "dek" and deck.main_count == 20 and deck.sideboard_count == 2
    assert deck.main[2].line == 6


def test_dek_refuses_entities():
    evil = '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Deck>&x;</Deck>'
    with pytest.raises(DataError, match="DOCTYPE and ENTITY"):
        parse_decklist(evil, "evil.dek")


def test_dek_errors_name_the_line():
    bad = DEK.replace('Quantity="12"', 'Quantity="lots"')
    with pytest.raises(DataError, match=r"mira.dek:6: Quantity of 'Forest'"):
        parse_decklist(bad, "mira.dek")
    with pytest.raises(DataError, match=r"mira.dek:3: malformed XML"):
        parse_decklist("<Deck>\n<Cards Name='x'>\n</Deck>", "mira.dek")


def test_text_errors_name_file_and_line():
    with pytest.raises(DataError, match=r"mira.txt:2: expected '<count> <card name>'"):
        parse_decklist("4 Forest\nElvish Mystic\n", "mira.txt")
    with pytest.raises(DataError, match=r"mira.txt:1: a card count must be at least 1"):
        parse_decklist("0 Forest\n", "mira.txt")
    with pytest.raises(DataError, match="no main-deck cards"):
        parse_decklist("// nothing\n", "mira.txt")


def test_detect_format():
    assert detect_format(ARENA) == "arena" and detect_format(MTGO) == "mtgo" and detect_format(DEK) == "dek"
    assert detect_format("4 Forest (M15) 269\n") == "arena"


def test_build_library_resolves_names_with_file_and_line_in_errors():
    library = build_library(parse_decklist(ARENA, "mira.txt"), bundled_facts())
    assert len(library) == 22 and library[0].name == "Elvish Mystic" and library[-1].name == "Forest"
    assert library[8].name == "Fire // Ice" and library[8].mana_value == 4
    with pytest.raises(NotFoundError, match=r"mira.txt: 1 unknown card.*:\n  line 2 'Runeclaw Baer' "
                                            r"\(did you mean 'Runeclaw Bear'\?\)"):
        build_library(parse_decklist("4 Forest\n4 Runeclaw Baer\n", "mira.txt"), bundled_facts())


def test_read_decklist_from_files(tmp_path):
    (tmp_path / "mira.dek").write_text(DEK, encoding="utf-8")
    (tmp_path / "mira.txt").write_text("\ufeff" + ARENA, encoding="utf-8")
    assert read_decklist(tmp_path / "mira.dek").main_count == 20
    assert read_decklist(tmp_path / "mira.txt").source == "mira.txt"
    with pytest.raises(DataError, match="cannot read the decklist"):
        read_decklist(tmp_path / "missing.txt")
