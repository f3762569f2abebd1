"""Vocabulary lives in data files read by the rules and the widgets: GURPS combat
words (data/vocabulary.json) and MtG colours (data/colours.json). Every alias resolves to its key,
and every key has a word in both catalogs (en, ja)."""

import json
from pathlib import Path

import pytest

from gamekernel.errors import UsageError
from gamekernel.gurps.rules import vocabulary as voc
from gamekernel.gurps.rules.attacks import combat_tables
from gamekernel.i18n import catalog
from gamekernel.mtg.rules.facts import COLOURS, LETTER_TO_COLOUR, colour_words
from gamekernel.mtg.rules.kinds import KINDS, parse_kind

LANGUAGES = ("en", "ja")
GROUPS = [(group, key, alias) for group in voc.GROUPS for key, aliases in voc.vocabulary()[group].items()
          for alias in (key, *aliases)]


@pytest.mark.parametrize(("group", "key", "alias"), GROUPS)
def test_every_gurps_alias_resolves_to_its_key(group, key, alias):
    assert voc.resolve(group, alias) == key
    assert voc.resolve(group, alias.upper()) == key  # case does not matter
    assert voc.resolve(group, "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in alias)) == key


@pytest.mark.parametrize("group", voc.GROUPS)
def test_gurps_words_exist_in_en_and_ja_and_no_alias_is_ambiguous(group):
    for language in LANGUAGES:
        words = catalog(language)
        missing = [k for k in voc.keys(group) if f"combat.word.{k}" not in words]
        assert not missing, (language, missing)
    spellings = [voc._form(a) for k, aliases in voc.vocabulary()[group].items() for a in (k, *aliases)]
    assert len(spellings) == len(set(spellings))


def test_gurps_vocabulary_names_the_rule_tables_keys():
    """GURPS-CMB-04..24 (maneuvers), GURPS-CMB-09..11 (postures): same keys, same order as the rule tables."""
    tables = combat_tables()
    for group in ("maneuvers", "postures"):
        assert voc.keys(group) == tuple(k for k in tables[group] if not k.startswith("_"))
    assert voc.maneuver_key("All-Out Attack") == "all_out_attack" and voc.maneuver_key("ｍ＆ａ") == "move_and_attack"
    assert voc.posture_key("伏せ") == "lying_down" and voc.posture_key("hover") == "hover"  # the rule refuses it
    with pytest.raises(UsageError, match="hover"):
        voc.defense_key("hover")


@pytest.mark.parametrize("kind", [*KINDS])
def test_mtg_chk_02_every_colour_word_resolves_and_has_en_ja_names(kind):
    row = colour_words()["colours"].get(kind) or colour_words()["colourless"]
    for word in (kind, row["letter"], row["letter"].lower(), *row["aliases"]):
        assert parse_kind(word) == kind
    for language in LANGUAGES:
        assert f"mtg.kind.{kind}" in catalog(language) and f"mtg.colour.{kind}" in catalog(language)


def test_mtg_chk_08_colours_in_pentagon_order_with_their_letters():
    assert COLOURS == ("white", "blue", "black", "red", "green")
    assert "".join(LETTER_TO_COLOUR) == "WUBRG"


def test_the_widgets_hold_no_copied_word_lists():
    front = Path(__file__).resolve().parents[1] / "widgets"
    scripts = sorted(front.rglob("*.js"))
    assert len(scripts) >= 7
    for script in scripts:
        text = script.read_text("utf-8")
        assert '"white", "blue"' not in text and '"all_out_attack"' not in text, script.name
    data = json.loads((Path(__file__).resolve().parents[1] / "gamekernel/gurps/data/vocabulary.json")
                      .read_text("utf-8"))
    assert set(data) == {"_about", *voc.GROUPS}
