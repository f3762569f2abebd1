"""Decklists as other clients write them (MTG-CHK-05: the library is the main deck): Cockatrice .cod,
every commander/group header style, MTG Arena's localised section headers; the format named in the
load line."""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.errors import DataError
from gamekernel.mtg.rules.decklists import detect_format, parse_decklist

# As Cockatrice's DeckList::saveToStream writes it (deck_list.cpp): deckname, bannerCard, comments,
# tags, then one <zone> per zone with <card number=... name=.../> lines.
COCKATRICE = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1">
    <deckname>Mira's Elves</deckname>
    <bannerCard providerId="">Elvish Mystic</bannerCard>
    <comments>Format: casual &amp; fun</comments>
    <tags/>
    <zone name="main">
        <card number="4" name="Elvish Mystic" setShortName="M15" collectorNumber="173" uuid=""/>
        <card number="4" name="Runeclaw Bear"/>
        <card number="2" name="Fire // Ice"/>
        <card number="12" name="Forest"/>
    </zone>
    <zone name="side">
        <card number="2" name="Lightning Bolt"/>
    </zone>
    <zone name="tokens">
        <card number="1" name="Elf Warrior"/>
    </zone>
</cockatrice_deck>
"""


def test_cockatrice_cod_main_side_and_tokens_zones():
    deck = parse_decklist(COCKATRICE, "mira.cod")
    assert deck.fmt == "cockatrice" and deck.detected
    assert deck.name == "Mira's Elves"
    assert deck.main_count == 22 and deck.sideboard_count == 2
    assert [e.name for e in deck.other] == ["Elf Warrior"]  # tokens are not in the library
    assert deck.main[0].set_code == "M15" and deck.main[0].number == "173"
    assert [e.line for e in deck.main] == [8, 9, 10, 11]  # each card's own line, for errors
    assert detect_format(COCKATRICE) == "cockatrice"


def test_cockatrice_forced_format_and_errors_quote_one_short_line():
    assert parse_decklist(COCKATRICE, "mira.cod", "cockatrice").detected is False
    bad = COCKATRICE.replace('number="4" name="Runeclaw Bear"', 'number="x" name="Runeclaw Bear"')
    with pytest.raises(DataError, match=r"mira\.cod:9: number of 'Runeclaw Bear'"):
        parse_decklist(bad, "mira.cod")
    with pytest.raises(DataError, match="DOCTYPE"):
        parse_decklist('<!DOCTYPE x [<!ENTITY a "b">]>' + COCKATRICE.split("\n", 1)[1], "mira.cod")
    with pytest.raises(DataError, match="<cockatrice_deck>"):
        parse_decklist("<Other/>", "x.xml")


def test_cockatrice_library_loads_and_names_its_format():
    session = Session(seed=1)
    loaded = session.mtg.library_load("Mira", "mira.cod", text=COCKATRICE)
    assert loaded.main == 22
    assert "Cockatrice" in str(loaded)


COMMANDER_GROUPS = """// COMMANDER (1)
1 Kitchen Finks

// CREATURES (2)
1 Elvish Mystic
1 Runeclaw Bear

// LANDS (3)
3 Forest
"""

COMMANDER_RULED = """// == Commander ==
1 Kitchen Finks
// == Creatures ==
1 Elvish Mystic
1 Runeclaw Bear
// == Lands ==
3 Forest
"""


@pytest.mark.parametrize("text", [COMMANDER_GROUPS, COMMANDER_RULED], ids=["count", "ruled"])
def test_commander_header_then_other_groups(text):
    deck = parse_decklist(text, "cmd.txt")
    assert [e.name for e in deck.commander] == ["Kitchen Finks"]
    assert deck.main_count == 5  # the commander is not counted in the library


def test_commander_header_then_blank_line_then_the_deck():
    deck = parse_decklist("Commander\n1 Kitchen Finks\n\n1 Elvish Mystic\n3 Forest\n", "cmd.txt")
    assert [e.name for e in deck.commander] == ["Kitchen Finks"] and deck.main_count == 4


def test_partner_commanders_stay_together():
    deck = parse_decklist("// Commander\n1 Kitchen Finks\n1 Serra Angel\n// Deck\n3 Forest\n", "cmd.txt")
    assert len(deck.commander) == 2 and deck.main_count == 3


def test_cmdr_marker_puts_the_card_in_the_command_zone():
    deck = parse_decklist("1x Kitchen Finks *CMDR*\n1x Elvish Mystic\n3x Forest\n", "tappedout.txt")
    assert [e.name for e in deck.commander] == ["Kitchen Finks"] and deck.main_count == 4


def test_mainboard_count_header_after_a_commander_group():
    deck = parse_decklist("// Commander (1)\n1 Kitchen Finks\nMainboard (4)\n1 Elvish Mystic\n// Lands\n3 Forest\n",
                          "cmd.txt")
    assert [e.name for e in deck.commander] == ["Kitchen Finks"] and deck.main_count == 4


def test_sideboard_group_is_not_ended_by_a_blank_line():
    deck = parse_decklist("Deck\n4 Forest\n\nSideboard\n1 Naturalize\n\n1 Duress\n", "side.txt")
    assert deck.main_count == 4 and deck.sideboard_count == 2


ARENA_LOCALISED = {
    "es": ("Mazo", "Banquillo", "Comandante", "Compañero"),
    "fr": ("Deck", "Réserve", "Commandant", "Compagnon"),
    "de": ("Deck", "Sideboard", "Kommandeur", "Gefährte"),
    "it": ("Mazzo", "Sideboard", "Comandante", "Compagno"),
    "pt": ("Deck", "Reserva", "Comandante", "Companheiro"),
    "ru": ("Колода", "Сайдборд", "Командир", "Компаньон"),
    "ko": ("덱", "사이드보드", "커맨더", "동료"),
    "ja": ("デッキ", "サイドボード", "統率者", "相棒"),
}


@pytest.mark.parametrize("language", sorted(ARENA_LOCALISED))
def test_arena_localised_headers(language):
    deck_word, side_word, commander_word, companion_word = ARENA_LOCALISED[language]
    text = (f"{commander_word}\n1 Kitchen Finks (SHM) 229\n\n{companion_word}\n1 Lurrus of the Dream-Den (IKO) 226\n\n"
            f"{deck_word}\n4 Elvish Mystic (M15) 173\n12 Forest (M15) 269\n\n{side_word}\n2 Naturalize (M15) 190\n")
    deck = parse_decklist(text, f"{language}.txt")
    assert deck.fmt == "arena"
    assert deck.main_count == 16 and deck.sideboard_count == 2
    assert [e.name for e in deck.commander] == ["Kitchen Finks"]
    assert [e.name for e in deck.other] == ["Lurrus of the Dream-Den"]


def test_arena_spanish_without_blank_lines_before_headers():
    deck = parse_decklist("Mazo\n4 Elvish Mystic\nBanquillo\n2 Naturalize\n", "es.txt")
    assert deck.main_count == 4 and deck.sideboard_count == 2


@pytest.mark.parametrize(("text", "name"), [
    ("4 Elvish Mystic\n12 Forest\n", "MTGO text"),
    ("Deck\n4 Elvish Mystic (M15) 173\n12 Forest (M15) 269\n", "MTG Arena"),
    (COCKATRICE, "Cockatrice"),
    ("NAME:Elves\n4 [M15:173] Elvish Mystic\n12 [M15:269] Forest\n", "XMage"),
    ("[metadata]\nName=Elves\n[Main]\n4 Elvish Mystic|M15\n12 Forest|M15\n", "Forge"),
])
def test_load_line_names_the_format(text, name):
    loaded = Session(seed=1).mtg.library_load("Mira", "deck", text=text)
    assert f"({name}" in str(loaded).splitlines()[0]


def test_arena_japanese_katakana_commander_header():
    """コマンダー as well as 統率者 heads the command zone (both seen in Japanese Arena lists)."""
    deck = parse_decklist("コマンダー\n1 Kitchen Finks (SHM) 229\n\nデッキ\n4 Elvish Mystic (M15) 173\n"
                          "\nサイドボード\n2 Naturalize (M15) 190\n", "ja.txt")
    assert [e.name for e in deck.commander] == ["Kitchen Finks"]
    assert deck.main_count == 4 and deck.sideboard_count == 2


# As Magic Workstation writes a .mwDeck (the file XMage's importer tests carry): `// NAME :` comments,
# the set in brackets before the name, `SB:` before sideboard lines, split cards as `Wear/Tear`.
MWDECK = """// Deck file for Magic Workstation (http://www.magicworkstation.com)
// NAME : Elves
// CREATOR : someone
        4 [M15] Elvish Mystic
        2 [DGM] Fire/Ice
        12 [M15] Forest
SB:  1 [DGM] Wear/Tear
SB:  2 [M15] Naturalize
"""


def test_magic_workstation_mwdeck_set_before_the_name():
    """MTG-CHK-05: the library is the main deck; a .mwDeck line's `[SET]` is the set, not part of the name."""
    deck = parse_decklist(MWDECK, "elves.mwDeck")
    assert (deck.fmt, deck.main_count, deck.sideboard_count) == ("mwdeck", 18, 3)
    assert [(e.name, e.set_code) for e in deck.main] == [("Elvish Mystic", "M15"), ("Fire/Ice", "DGM"),
                                                         ("Forest", "M15")]
    loaded = Session(seed=1).mtg.library_load("Mira", "elves.mwDeck", text=MWDECK)
    assert loaded.main == 18 and "(Magic Workstation .mwDeck" in str(loaded).splitlines()[0]


# As OCTGN writes a Magic .o8d: sections by name, the card name as the element's text.
OCTGN = """<?xml version="1.0" encoding="utf-8" standalone="yes"?>
<deck game="a6c8d2e8-7cd8-11dd-8f94-e62b56d89593">
  <section name="Main" shared="False">
    <card qty="4" id="b1a2">Elvish Mystic</card>
    <card qty="12" id="c3d4">Forest</card>
  </section>
  <section name="Sideboard" shared="False">
    <card qty="2" id="e5f6">Naturalize</card>
  </section>
  <section name="Command Zone" shared="False">
    <card qty="1" id="a7b8">Kitchen Finks</card>
  </section>
  <section name="Planes/Schemes" shared="False" />
  <notes><![CDATA[]]></notes>
</deck>
"""


def test_octgn_o8d_sections():
    """MTG-CHK-05: Main is the library; Sideboard and the Command Zone are not."""
    deck = parse_decklist(OCTGN, "elves.o8d")
    assert (deck.fmt, deck.main_count, deck.sideboard_count) == ("octgn", 16, 2)
    assert [e.name for e in deck.commander] == ["Kitchen Finks"]
    assert Session(seed=1).mtg.library_load("Mira", "elves.o8d", text=OCTGN).main == 16


def test_octgn_bad_quantity_names_the_line_in_one_line():
    bad = OCTGN.replace('qty="12"', 'qty="lots"')
    with pytest.raises(DataError) as caught:
        parse_decklist(bad, "elves.o8d")
    assert str(caught.value) == "elves.o8d:5: qty of 'Forest' must be a positive integer, got 'lots'"


def test_xmage_lines_under_section_headers_are_xmage_not_forge():
    """`[COMMANDER]` / `[COMPANION]` / `[MAIN]` headers above XMage's `1 [C16:34] Kraum` lines (commander
    lists written for XMage): the headers name the parts, the lines stay XMage's (MTG-CHK-05)."""
    text = ("NAME:Partners\n[COMMANDER]\n1 [C16:34] Kraum, Ludevic's Opus\n1 [C16:48] Tymna the Weaver\n"
            "[COMPANION]\n1 [IKO:226] Lurrus of the Dream-Den\n[MAIN]\n4 [M15:173] Elvish Mystic\n"
            "12 [M15:269] Forest\n")
    deck = parse_decklist(text, "partners.dck")
    assert (deck.fmt, deck.name, deck.main_count) == ("xmage", "Partners", 16)
    assert [e.name for e in deck.commander] == ["Kraum, Ludevic's Opus", "Tymna the Weaver"]
    assert [e.name for e in deck.other] == ["Lurrus of the Dream-Den"]
    forge = parse_decklist("[metadata]\nName=Elves\n[Main]\n4 Elvish Mystic|M15\n", "elves.dck")
    assert forge.fmt == "forge" and forge.main_count == 4  # a Forge file is still Forge's
