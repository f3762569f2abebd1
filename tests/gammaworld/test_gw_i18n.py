"""Gamma World messages in both languages (DESIGN.md i18n): en and ja catalogs have the same keys and
{fields}, no Japanese entry is an English copy, the seed's words are used (アルファ突然変異, 増強,
アルファ攪乱), every error key the code names exists, and real errors (rules, card files, session,
magics, hand widget) come out in Japanese with set_language("ja") and in exact English with "en"."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

import gamekernel
from gamekernel import Session
from gamekernel.errors import DataError, GameKernelError, NotFoundError, RuleError, UsageError
from gamekernel.gammaworld.rules import starter_catalog
from gamekernel.gammaworld.rules.decks import readied_count
from gamekernel.gammaworld.rules.odds import p_card_in_draws, p_flux
from gamekernel.gammaworld.rules.schema import load_cards
from gamekernel.gammaworld.widgets.hand import HandWidget
from gamekernel.i18n import set_language

DOMAIN = "gammaworld"
FIELD = re.compile(r"\{([^{}:!]*)[^{}]*\}")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
ERROR_KEY = re.compile(r'"(gammaworld\.(?:err|what)\.[a-z0-9_.]+)"')


def _load(lang: str) -> dict[str, str]:
    path = resources.files("gamekernel.gammaworld") / "i18n" / lang / f"{DOMAIN}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _has_letters(text: str) -> bool:
    return bool(re.search(r"[A-Za-z]", FIELD.sub("", text)))


def test_gw_ja_has_exactly_the_en_keys_and_fields():
    en, ja = _load("en"), _load("ja")
    assert set(ja) == set(en)
    assert sorted(k for k in en if set(FIELD.findall(en[k])) != set(FIELD.findall(ja[k]))) == []


def test_gw_ja_is_not_an_english_copy():
    en, ja = _load("en"), _load("ja")
    assert sorted(k for k in en if ja[k] == en[k] and _has_letters(en[k])) == []


def test_gw_alpha_seed_terms_in_japanese_errors():
    """The seed's words: アルファ突然変異 (Alpha Mutation), 増強 (Overcharge), アルファ攪乱 (Alpha Flux), 大休憩."""
    ja = _load("ja")
    assert "アルファ突然変異" in ja["gammaworld.err.no_card_name"] and "増強" in ja["gammaworld.err.overcharged"]
    assert "アルファ攪乱" in ja["gammaworld.err.no_flux"] and "大休憩" in ja["gammaworld.err.deck_not_rebuilt"]


def test_gw_every_error_key_in_the_code_is_in_the_catalog():
    root = Path(gamekernel.__file__).parent
    used = {key for path in root.rglob("*.py") for key in ERROR_KEY.findall(path.read_text(encoding="utf-8"))}
    en = _load("en")
    assert used and sorted(used - set(en)) == []
    assert sorted(k for k in en if k.startswith(("gammaworld.err.", "gammaworld.what.")) and k not in used) == []


@pytest.fixture
def session() -> Session:
    session = Session(seed=3)
    session.gw.deck_new("Rin")
    for card in ("Sap Bloom", "Bristle Hide", "Sticky Pads", "Gravity Knot"):
        session.gw.deck_add("Rin", card, 2)
    session.gw.character("Rin", level=1)
    session.gw.draw("Rin")
    return session


def _bad_card_file(tmp_path: Path) -> Path:
    path = tmp_path / "mine.json"
    card = {"id": "X1", "kind": "alpha", "energy": "plasma", "name": "Fern Hair", "rarity": "common",
            "benefit": "Soft."}
    path.write_text(json.dumps({"cards": [card]}), encoding="utf-8")
    return path


SAMPLES = [
    (RuleError, lambda s, p: s.gw.deck_new("Rin"), r"Rin already has an alpha deck"),
    (NotFoundError, lambda s, p: s.gw.deck_add("Bren", "Sap Bloom"),
     r"Bren has no alpha deck \(create one with %deck new Bren alpha\)"),
    (RuleError, lambda s, p: s.gw.draw("Rin"), r"Rin already has 1 readied alpha card \(level 1: 1\)"),
    (NotFoundError, lambda s, p: s.gw.tap("Rin", "Nope"), r"Rin has no readied 'Nope' \(readied: [^()]+\)"),
    (NotFoundError, lambda s, p: s.gw.tap("Rni", "Nope"), r"no Gamma World character 'Rni'; did you mean Rin\?"),
    (RuleError, lambda s, p: s.gw.flux("Rin", None),
     r"no Alpha Flux pending for Rin \(use --force for a GM-called flux\)"),
    (RuleError, lambda s, p: [s.gw.encounter_start(), s.gw.encounter_start()],
     r"an encounter is already running \(%encounter end first\)"),
    (UsageError, lambda s, p: s.gw.deck_add("Rin", "Sap Bloom", 0), r"add at least one copy, not 0"),
    (UsageError, lambda s, p: s.gw.deck_odds("Rin", "Sap Bloom", 9), r"Rin's deck holds only 7 cards, cannot draw 9"),
    (NotFoundError, lambda s, p: starter_catalog().find("Sap Blom"),
     r"no alpha card called 'Sap Blom'; did you mean Sap Bloom\?"),
    (DataError, lambda s, p: load_cards(_bad_card_file(p)),
     r"mine\.json: cards\[0\]\.energy: unknown value 'plasma' \(one of bio, dark, psi\)"),
    (DataError, lambda s, p: load_cards(p / "missing.json"), r"missing\.json: cannot read \(.+\)"),
    (UsageError, lambda s, p: readied_count(0), r"level must be 1 or more, got 0"),
    (UsageError, lambda s, p: p_flux(-1), r"number of d20 rolls must be 0 or more, got -1"),
    (UsageError, lambda s, p: p_card_in_draws(5, 6, 1), r"need 0 <= copies \(6\) and draws \(1\) <= deck size \(5\)"),
    (UsageError, lambda s, p: HandWidget(s, "Rin").handle_action("juggle", {}), r"unknown hand action 'juggle'"),
]


@pytest.mark.parametrize(("kind", "make", "english"), SAMPLES, ids=[s[2][:40] for s in SAMPLES])
def test_gw_errors_in_japanese_and_exact_english(session, tmp_path, kind, make, english):
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
    ("gw", "Rin level x", "the level must be a whole number, got 'x'"),
    ("gw", "Rin speed 3", "unknown field 'speed': %gw Rin level 4 [bonus +2] | %gw config option=value"),
    ("deck", "new Rin beta", "only alpha decks are supported, got 'beta'"),
    ("deck", "shuffle Rin", None),
    ("draw", "omega", "usage: %draw alpha [@Name] [--gm]"),
    ("encounter", "pause", "usage: %encounter start | %encounter end (got 'pause')"),
    ("flux", "odds x", "the number of d20 rolls must be a whole number, got 'x'"),
    ("tap", '"Sap Bloom', None),
]


@pytest.mark.parametrize(("magic", "line", "english"), MAGIC_SAMPLES)
def test_gw_magic_errors_in_japanese_and_english(ip, magic, line, english):
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


def test_gw_a_refused_step_changes_nothing_in_either_language(session):
    before = session.gw.state.to_dict()
    for language in ("ja", "en"):
        set_language(language)
        with pytest.raises(GameKernelError):
            session.gw.draw("Rin")
    set_language("en")
    assert session.gw.state.to_dict() == before
