"""MtG messages in both languages (DESIGN.md i18n): en and ja catalogs have the same keys and {fields},
no Japanese entry is an English copy, the seed's words are used (ライブラリー, 追放, 難易度, 達成値), every
error key the code names exists, and real errors (decklists, card facts, card data files, checks,
session, magics, library widget) come out in Japanese with set_language("ja") and in exact English."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

import gamekernel
from gamekernel import Session
from gamekernel.errors import DataError, GameKernelError, NotFoundError, RuleError, UsageError
from gamekernel.i18n import set_language
from gamekernel.mtg.rules.check import check_difficulty
from gamekernel.mtg.rules.decklists import parse_decklist, read_decklist
from gamekernel.mtg.rules.facts import bundled_facts, order_colours
from gamekernel.mtg.rules.loaders import load_card_data
from gamekernel.mtg.widgets.library import LibraryWidget

DOMAIN = "mtg"
FIELD = re.compile(r"\{([^{}:!]*)[^{}]*\}")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
ERROR_KEY = re.compile(r'"(mtg\.err\.[a-z0-9_.]+)"')
DECK = "4 Elvish Mystic\n4 Runeclaw Bear\n12 Forest\n4 Steam Vents\n4 Ornithopter\n"


def _load(lang: str) -> dict[str, str]:
    path = resources.files("gamekernel.mtg") / "i18n" / lang / f"{DOMAIN}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _has_letters(text: str) -> bool:
    return bool(re.search(r"[A-Za-z]", FIELD.sub("", text)))


def test_mtg_ja_has_exactly_the_en_keys_and_fields():
    en, ja = _load("en"), _load("ja")
    assert set(ja) == set(en)
    assert sorted(k for k in en if set(FIELD.findall(en[k])) != set(FIELD.findall(ja[k]))) == []


def test_mtg_ja_is_not_an_english_copy():
    en, ja = _load("en"), _load("ja")
    assert sorted(k for k in en if ja[k] == en[k] and _has_letters(en[k])) == []


def test_mtg_chk_seed_terms_in_japanese_errors():
    """The seed's words: ライブラリー (library), 追放 (exile, MTG-CHK-04), 難易度 (difficulty), 行動判定."""
    ja = _load("ja")
    assert "ライブラリー" in ja["mtg.err.boost_rng"] and "追放" in ja["mtg.err.boost_rng"]
    assert "難易度" in ja["mtg.err.difficulty"] and "行動判定" in ja["mtg.err.too_few"]
    assert "マナ総量" in ja["mtg.err.facts_row"]


def test_mtg_every_error_key_in_the_code_is_in_the_catalog():
    root = Path(gamekernel.__file__).parent
    used = {key for path in root.rglob("*.py") for key in ERROR_KEY.findall(path.read_text(encoding="utf-8"))}
    en = _load("en")
    assert used and sorted(used - set(en)) == []
    assert sorted(k for k in en if k.startswith("mtg.err.") and k not in used) == []


@pytest.fixture
def session(tmp_path) -> Session:
    path = tmp_path / "mira.txt"
    path.write_text(DECK, encoding="utf-8")
    session = Session(seed=5)
    session.mtg.library_load("Mira", path)
    return session


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


DEK_BAD_QUANTITY = ('<?xml version="1.0"?>\n<Deck>\n'
                    '<Cards CatID="1" Quantity="x" Sideboard="false" Name="Forest"/>\n</Deck>')

SAMPLES = [
    (DataError, lambda s, p: parse_decklist("4 Elvish Mystic\nfoo bar", "deck.txt"),
     r"deck\.txt:2: expected '<count> <card name>' \(e\.g\. '4 Llanowar Elves \(M19\) 314'\), got 'foo bar'"),
    (DataError, lambda s, p: parse_decklist("0 Forest", "deck.txt"),
     r"deck\.txt:1: a card count must be at least 1, got 0"),
    (DataError, lambda s, p: parse_decklist("", "deck.txt"),
     r"deck\.txt: no main-deck cards found \(expected lines like '4 Llanowar Elves'\)"),
    (DataError, lambda s, p: parse_decklist("4 Forest", "deck.txt", "csv"),
     r"deck\.txt: unknown decklist format 'csv': use one of .+"),
    (DataError, lambda s, p: parse_decklist(DEK_BAD_QUANTITY, "deck.dek", "dek"),
     r"deck\.dek:3: Quantity of 'Forest' must be a positive integer, got 'x'"),
    (DataError, lambda s, p: parse_decklist("<Deck><Cards", "deck.dek", "dek"),
     r"deck\.dek:1: malformed XML at column \d+"),
    (DataError, lambda s, p: read_decklist(p / "missing.txt"), r".*missing\.txt: cannot read the decklist \(.+\)"),
    (NotFoundError, lambda s, p: bundled_facts().lookup("Elvish Mystc"),
     r"unknown card 'Elvish Mystc' in bundled card facts; did you mean 'Elvish Mystic'\?"),
    (NotFoundError, lambda s, p: bundled_facts().lookup("Zzyzx Qwerty"),
     r"unknown card 'Zzyzx Qwerty' in bundled card facts; cards outside the bundled set need full card data: "
     r"%library data FILE \(MTGJSON AtomicCards.json or a Scryfall bulk file\)"),
    (DataError, lambda s, p: order_colours(["purple"]),
     r"unknown colour 'purple': use one of white, blue, black, red, green or W U B R G"),
    (DataError, lambda s, p: load_card_data(p / "nope.json"), r".*nope\.json: no such card data file"),
    (DataError, lambda s, p: load_card_data(_write(p, "cards.json", '{"data" 5}'), use_cache=False),
     r"cards\.json: malformed JSON near byte \d+: expected ':', found '5'"),
    (DataError, lambda s, p: load_card_data(_write(p, "cards.json", '{"data": {"X": 5}}'), use_cache=False),
     r"cards\.json: data\['X'\] should be a list of faces"),
    (DataError, lambda s, p: load_card_data(_write(p, "cards.json", "[5]"), use_cache=False),
     r"cards\.json: expected card objects with a 'name'"),
    (DataError, lambda s, p: load_card_data(_write(p, "cards.json", "{}"), fmt="csv", use_cache=False),
     r"unknown card data format 'csv': use 'mtgjson' or 'scryfall'"),
    (UsageError, lambda s, p: check_difficulty("2"), r"difficulty must be a whole number, got '2'"),
    (RuleError, lambda s, p: s.mtg.boost("Mira"),
     r"Mira has no check to boost in this scene: boost right after a check"),
    (UsageError, lambda s, p: s.mtg.library_peek(0, "Mira"),
     r"the number of cards to look at must be a whole number of at least 1, got 0"),
    (NotFoundError, lambda s, p: s.mtg.library_stack("Mira", ["Serra Angel"]), r"Serra Angel is not in Mira's library"),
    (NotFoundError, lambda s, p: s.mtg.library_view("Mria"), r"'Mria' has no library; did you mean Mira\?"),
    (UsageError, lambda s, p: LibraryWidget(s, "Mira").handle_action("juggle", {}),
     r"unknown library widget action 'juggle'"),
]


@pytest.mark.parametrize(("kind", "make", "english"), SAMPLES, ids=[s[2][:40] for s in SAMPLES])
def test_mtg_errors_in_japanese_and_exact_english(session, tmp_path, kind, make, english):
    try:
        set_language("ja")
        with pytest.raises(kind) as japanese:
            make(session, tmp_path)
        assert JAPANESE.search(str(japanese.value)), str(japanese.value)
        assert "\n" not in str(japanese.value) and not re.fullmatch(english, str(japanese.value))
        set_language("en")
        with pytest.raises(kind) as error:
            make(session, tmp_path)
        assert re.fullmatch(english, str(error.value)), str(error.value)
    finally:
        set_language("en")


MAGIC_SAMPLES = [
    ("boost", "now please", "%boost takes only @Name, got 'now please'"),
    ("check", "green 2", "no character has a library yet: %library load Mira mira.txt"),
    ("library", "frobnicate", None),
]


@pytest.mark.parametrize(("magic", "line", "english"), MAGIC_SAMPLES)
def test_mtg_magic_errors_in_japanese_and_english(ip, magic, line, english):
    try:
        set_language("ja")
        japanese = ip.run_line_magic(magic, line)
        assert JAPANESE.search(japanese.message) and "\n" not in japanese.message, japanese.message
        set_language("en")
        result = ip.run_line_magic(magic, line)
        assert not JAPANESE.search(result.message), result.message
        if english is not None:
            assert result.message == english
    finally:
        set_language("en")


def test_mtg_chk_04_a_refused_check_changes_nothing_in_either_language(tmp_path):
    """MTG-CHK-04: with at most one card left no check is possible; the message is translated, nothing moves."""
    session = Session(seed=5)
    session.mtg.library_load("Mira", _write(tmp_path, "one.txt", "1 Forest\n"))
    before = session.state["mtg"].table.to_dict()
    for language in ("ja", "en"):
        set_language(language)
        with pytest.raises(GameKernelError) as error:
            session.mtg.check("green", 2, actor="Mira")
        assert bool(JAPANESE.search(str(error.value))) == (language == "ja")
    set_language("en")
    assert session.state["mtg"].table.to_dict() == before
