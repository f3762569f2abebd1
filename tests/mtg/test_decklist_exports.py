"""Decklists as each exporter writes them: the same 44-card deck (16 lands) with a 3-card
sideboard, exported the way MTG Arena, MTGO (.txt and .dek), Moxfield, Archidekt and MTGGoldfish write
it, with group comments and blank lines, and in Japanese card names. Files: tests/mtg/data/decklists/."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamekernel import Session
from gamekernel.errors import DataError, NotFoundError
from gamekernel.i18n import set_language
from gamekernel.mtg.rules.decklists import build_library, composition, parse_decklist, read_decklist
from gamekernel.mtg.rules.facts import bundled_facts

DATA = Path(__file__).parent / "data" / "decklists"
MAIN = {"Elvish Mystic": 4, "Llanowar Elves": 4, "Runeclaw Bear": 4, "Fire // Ice": 2, "Delver of Secrets": 2,
        "Serra Angel": 4, "Giant Growth": 4, "Breeding Pool": 2, "Steam Vents": 2, "Ornithopter": 4,
        "Forest": 12}
SIDE = {"Naturalize": 2, "Plummet": 1}


def _counts(library) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in library:
        counts[card.name] = counts.get(card.name, 0) + 1
    return counts


@pytest.mark.parametrize(("file", "fmt"), [
    ("arena.txt", "arena"), ("mtgo.txt", "mtgo"), ("mtgo.dek", "dek"), ("moxfield.txt", "arena"),
    ("moxfield_arena.txt", "arena"), ("archidekt.txt", "archidekt"), ("mtggoldfish.txt", "mtgo"),
    ("mtggoldfish_exact.txt", "mtgo"), ("groups.txt", "mtgo"), ("japanese.txt", "arena"),
    ("xmage.dck", "xmage"), ("forge.dck", "forge"),
])
def test_each_exporter_gives_the_same_library_and_sideboard(file, fmt):
    deck = read_decklist(DATA / file)
    assert deck.fmt == fmt
    library = build_library(deck, bundled_facts())
    assert _counts(library) == MAIN
    facts = bundled_facts()
    assert {facts[e.name].name: e.count for e in deck.sideboard} == SIDE
    made = composition(library, deck.sideboard_count)
    assert (made.cards, made.lands, made.colours, made.sideboard, made.warnings) == (
        44, 16, ("white", "blue", "red", "green"), 3, ())


def test_blank_lines_between_groups_are_not_a_sideboard_marker():
    """The issue's bug: `// Creatures` ... blank ... `// Lands` moved everything after the first blank
    line to the sideboard (a library of 22 cards with no lands)."""
    deck = read_decklist(DATA / "groups.txt")
    assert deck.main_count == 44 and deck.sideboard_count == 3
    deck = read_decklist(DATA / "moxfield_arena.txt")  # 'Deck' header, a blank line inside the deck
    assert deck.main_count == 44 and [e.name for e in deck.sideboard] == ["Naturalize", "Plummet"]


def test_headerless_lists_keep_the_mtgo_rule_one_blank_line_starts_the_sideboard():
    deck = read_decklist(DATA / "mtgo.txt")  # MTGO writes CRLF line ends
    assert deck.main_count == 44 and deck.sideboard_count == 3
    title_only = parse_decklist("// Mira\n4 Forest\n\n1 Plummet\n", "m.txt")  # a title is not a group
    assert title_only.main_count == 4 and title_only.sideboard_count == 1


def test_ambiguous_layout_is_refused_with_the_lines():
    with pytest.raises(DataError) as error:
        read_decklist(DATA / "ambiguous.txt")
    message = str(error.value)
    assert message.startswith("ambiguous.txt: cannot tell the main deck from the sideboard: 3 blocks")
    assert "lines 1–2, 8 cards, from '4 Elvish Mystic'" in message
    assert "lines 7–7, 12 cards, from '12 Forest'" in message and "'Sideboard'" in message


def test_a_headerless_sideboard_larger_than_the_deck_is_refused_not_guessed():
    with pytest.raises(DataError, match="2 blocks"):
        parse_decklist("4 Elvish Mystic\n4 Runeclaw Bear\n\n20 Forest\n", "m.txt")


def test_sections_and_categories_that_are_not_in_the_library():
    arena = read_decklist(DATA / "arena.txt")
    assert arena.name == "Mira's Elves" and [(e.count, e.name) for e in arena.other] == [(1, "Kitchen Finks")]
    archidekt = read_decklist(DATA / "archidekt.txt")
    assert [e.name for e in archidekt.other] == ["Sol Ring"]  # {noDeck}
    assert [e.name for e in archidekt.commander] == ["Kitchen Finks"]  # the command zone, its own zone
    assert archidekt.main[0].set_code == "m15" and archidekt.main[0].number == "173"
    assert archidekt.main[0].category == "Creature"


def test_set_codes_collector_numbers_foil_and_counts():
    deck = parse_decklist("4 Lightning Bolt (M21) 123\n1 Forest (ZNR) 280 *F*\n2x Sol Ring [C21]\n"
                          "1 Island <251> [THB]\n3 x Serra Angel\n", "m.txt")
    assert [(e.count, e.name, e.set_code, e.number, e.foil) for e in deck.main] == [
        (4, "Lightning Bolt", "M21", "123", False), (1, "Forest", "ZNR", "280", True),
        (2, "Sol Ring", "C21", None, False), (1, "Island", "THB", "251", False),
        (3, "Serra Angel", None, None, False)]


@pytest.mark.parametrize("name", ["Fire // Ice", "Fire/Ice", "Fire", "Ice", "火 // 氷", "《火》",
                                  "ｆｉｒｅ　／／　ｉｃｅ", "Delver of Secrets // Insectile Aberration",
                                  "DELVER OF SECRETS"])
def test_split_and_double_faced_names_by_either_face(name):
    assert bundled_facts().find(name).name in {"Fire // Ice", "Delver of Secrets"}


def test_every_unknown_card_is_reported_at_once_one_per_line_with_suggestions_and_the_command():
    deck = read_decklist(DATA / "typos.txt")
    with pytest.raises(NotFoundError) as error:
        build_library(deck, bundled_facts())
    lines = str(error.value).splitlines()
    assert lines == [
        "typos.txt: 4 unknown cards in the main deck (looked up in bundled card facts):",
        "  line 2 'Elvish Mistic' (did you mean 'Elvish Mystic'?)",
        "  line 4 'Fire // Ise' (did you mean 'Fire // Ice'?)",
        "  line 5 'エルフの神秘化' (did you mean 'エルフの神秘家'?)",
        "  line 7 'Zzyzx the Unprinted'",
        "cards outside the bundled set need full card data: %library data FILE (MTGJSON AtomicCards.json, "
        "a Scryfall bulk file or Forge's res/cardsfolder)"]


def test_many_unknown_cards_name_ten_then_count_the_rest():
    """A list of 54 unknown cards gave one line of thousands of characters (and took seconds)."""
    text = "\n".join(f"1 Zzyzx Unprinted {number}" for number in range(54)) + "\n4 Forest\n"
    with pytest.raises(NotFoundError) as error:
        build_library(parse_decklist(text, "many.txt"), bundled_facts())
    lines = str(error.value).splitlines()
    assert lines[0].startswith("many.txt: 54 unknown cards")
    assert lines[1] == "  line 1 'Zzyzx Unprinted 0'" and lines[10] == "  line 10 'Zzyzx Unprinted 9'"
    assert lines[11] == "  … and 44 more" and len(lines) == 13
    assert max(len(line) for line in lines) <= 160  # it was one line of thousands of characters


@pytest.mark.parametrize(("typed", "card"), [("Lorien Revealed", "Lórien Revealed"), ("Aether Vial", "Æther Vial"),
                                             ("AETHER VIAL", "Æther Vial"), ("Lórien Revealed", "Lórien Revealed"),
                                             ("Seance", "Séance"), ("Junun Efreet", "Junún Efreet")])
def test_unaccented_spellings_resolve_to_the_card(typed, card):
    from gamekernel.mtg.rules.facts import CardFacts, FactsIndex

    index = FactsIndex([CardFacts("Lórien Revealed", 5, ("blue",), ("Sorcery",)),
                        CardFacts("Æther Vial", 1, (), ("Artifact",)), CardFacts("Séance", 4, ("white",)),
                        CardFacts("Junún Efreet", 3, ("black",))])
    assert index.find(typed).name == card
    library = build_library(parse_decklist(f"4 {typed}\n", "m.txt"), index)
    assert [c.name for c in library] == [card] * 4


def test_accent_folding_keeps_japanese_voiced_kana_apart():
    from gamekernel.mtg.rules.facts import name_key

    assert name_key("ガイアの揺籃の地") != name_key("カイアの揺籃の地")
    assert name_key("Æther Vial") == name_key("aether vial")


def test_suggestions_come_from_the_index_not_a_scan_of_every_name(monkeypatch):
    """Only a few candidates are compared for each unknown name, however many cards are known."""
    import difflib

    from gamekernel.mtg.rules.facts import CardFacts, FactsIndex

    index = FactsIndex([*(CardFacts(f"Filler Card {n:05d}") for n in range(20_000)), CardFacts("Elvish Mystic")])
    compared = []
    real = difflib.get_close_matches

    def counting(word, possibilities, *args, **kwargs):
        compared.append(len(possibilities))
        return real(word, possibilities, *args, **kwargs)

    monkeypatch.setattr(difflib, "get_close_matches", counting)
    assert index.close_names("Elvish Mistic") == ["Elvish Mystic"]
    assert compared and max(compared) <= 100


def test_japanese_decklist_loads_and_prints_japanese_names():
    session = Session(seed=2)
    loaded = session.mtg.library_load("Mira", DATA / "japanese.txt")
    assert loaded.main == 44 and "44 cards (16 lands), colours: white, blue, red, green" in str(loaded)
    session.mtg.library_stack("Mira", ["《エルフの神秘家》", "ルーン爪の熊"])
    try:
        set_language("ja")
        text = str(session.mtg.check("緑2"))
        assert "《エルフの神秘家》" in text and "《ルーン爪の熊》" in text and "Elvish" not in text
        assert "エルフの神秘家" in str(session.mtg.library_view())
    finally:
        set_language("en")
    assert "Elvish Mystic" in str(session.mtg._check_from_record(session.state["mtg"].last_check["Mira"]))


def test_composition_warns_when_the_library_looks_wrong():
    session = Session(seed=2)
    loaded = session.mtg.library_load("Mira", "m.txt", text="Deck\n4 Elvish Mystic\n\nSideboard\n12 Forest\n")
    text = str(loaded)
    assert "warning: the library has no lands" in text
    assert "warning: the sideboard (12) is larger than the library (4)" in text
    fine = str(session.mtg.library_load("Mira", DATA / "arena.txt"))
    assert "warning" not in fine and "44 cards (16 lands)" in fine


def test_xmage_dck_as_the_client_writes_it():
    """XMage's exporter: NAME:, `N [SET:number] Name`, `SB: N [SET:number] Name`, then LAYOUT lines of
    the deck editor's piles (set:number only, no cards of their own)."""
    deck = read_decklist(DATA / "xmage.dck")
    assert (deck.fmt, deck.name, deck.main_count, deck.sideboard_count) == ("xmage", "Mira's Elves", 44, 3)
    first = deck.main[0]
    assert (first.count, first.name, first.set_code, first.number, first.line) == (4, "Elvish Mystic", "M15",
                                                                                    "173", 2)
    assert [(e.count, e.name, e.set_code) for e in deck.sideboard] == [(2, "Naturalize", "M15"),
                                                                         (1, "Plummet", "M15")]
    assert deck.main[3].name == "Fire // Ice"


def test_forge_dck_sections_set_codes_art_index_and_foil():
    """Forge's DeckSerializer: [metadata] Name=..., [Main], [Sideboard], empty [Avatar]/[Planes]
    sections; `N Name|SET|art|[number]`, `+` after the name for foil."""
    deck = read_decklist(DATA / "forge.dck")
    assert (deck.fmt, deck.name, deck.main_count, deck.sideboard_count) == ("forge", "Mira's Elves", 44, 3)
    angel = next(e for e in deck.main if e.name == "Serra Angel")
    assert (angel.set_code, angel.number) == ("M15", "33")
    growth = next(e for e in deck.main if e.name == "Giant Growth")
    assert growth.foil and growth.set_code == "M15"
    assert next(e for e in deck.main if e.name == "Llanowar Elves").set_code == "DOM"


def test_forge_commander_is_its_own_zone_and_other_sections_carry_no_cards():
    deck = parse_decklist("[shop]\nCredits=1200\n[metadata]\nName=Yisan\n[Commander]\n"
                          "1 Yisan, the Wanderer Bard|PRM|1\n[Main]\n4 Elvish Mystic|M15|1\nForest\n"
                          "; a comment\n[Planes]\n1 Some Plane|PCA\n", "y.dck")
    assert [(e.count, e.name) for e in deck.commander] == [(1, "Yisan, the Wanderer Bard")]
    assert [(e.count, e.name) for e in deck.main] == [(4, "Elvish Mystic"), (1, "Forest")]  # no count: one
    assert [e.name for e in deck.other] == ["Some Plane"] and deck.sideboard == ()
    assert deck.name == "Yisan" and "Credits" not in str(deck.main)


def test_the_load_result_says_the_format_and_whether_it_was_detected_or_asked_for():
    session = Session(seed=2)
    detected = str(session.mtg.library_load("Mira", DATA / "xmage.dck"))
    assert "from xmage.dck (XMage .dck, detected)" in detected
    text = (DATA / "forge.dck").read_text("utf-8")
    forced = str(session.mtg.library_load("Mira", "mira.dck", text=text, fmt="forge"))
    assert "(Forge .dck, as asked with --format)" in forced


def test_format_option_forces_the_reader(ip, tmp_path):
    """`%library load Mira x.dck --format=forge`: a Forge list without any section header (all lines
    plain `N Name|SET`) is read as Forge even where detection would say otherwise."""
    path = tmp_path / "x.dck"
    path.write_text("4 Elvish Mystic|M15\n12 Forest|M15|2\n", encoding="utf-8")
    shown = str(ip.run_line_magic("library", f"load Mira {path} --format=forge"))
    assert "library of 16 cards" in shown and "(Forge .dck, as asked with --format)" in shown
    with pytest.raises(DataError, match="unknown decklist format 'lackey'"):
        parse_decklist("4 Forest\n", "x.txt", "lackey")


def test_a_forge_commander_deck_shows_its_command_zone_on_load():
    loaded = str(Session(seed=2).mtg.library_load("Mira", DATA / "forge_commander_cp1252.dck"))
    assert "library of 16 cards" in loaded
    assert "command zone (1, not in the library): Yisan, the Wanderer Bard" in loaded


def test_windows_1252_text_is_read_with_a_one_line_warning_naming_the_line():
    """Real Forge files carry curly quotes in Windows-1252 (0x92) in their description line."""
    deck = read_decklist(DATA / "forge_commander_cp1252.dck")
    assert deck.name == "Yisan\u2019s Verses" and deck.main_count == 16
    assert deck.warnings == ("warning: forge_commander_cp1252.dck is not UTF-8 text from line 4 on; read it as "
                             "Windows-1252 (check the accented letters and quotes there)",)
    loaded = str(Session(seed=2).mtg.library_load("Mira", DATA / "forge_commander_cp1252.dck"))
    assert loaded.splitlines()[0] == deck.warnings[0]
    assert read_decklist(DATA / "forge.dck").warnings == ()  # UTF-8: no warning


def test_a_forge_card_line_inside_metadata_is_refused_naming_the_line():
    """A real Forge duel deck lists its cards right under [metadata] (no [Main]): Forge itself reads
    no cards there, so the list is refused with the line, not loaded empty or guessed."""
    with pytest.raises(DataError) as error:
        parse_decklist("[duel]\n[metadata]\nName=Evangelyne 3\nDeck Type=constructed\n13 Forest\n", "e.dck")
    assert str(error.value) == ("e.dck:5: a card line '13 Forest' in the [metadata] section: Forge reads cards only "
                                "under [Main], [Sideboard], [Commander] ...; add a [Main] line above it")
