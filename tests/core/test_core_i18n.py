"""Every core message exists in English and Japanese, and errors come out in the chosen language."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from gamekernel import Session, i18n
from gamekernel.errors import UsageError

CATALOGS = Path(i18n.__file__).parent
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("domain", sorted(p.stem for p in (CATALOGS / "en").glob("*.json")))
def test_en_and_ja_have_the_same_keys_and_fields(domain):
    """Every domain's catalog, present and future: same keys, same fields, nothing left untranslated."""
    en = json.loads((CATALOGS / "en" / f"{domain}.json").read_text(encoding="utf-8"))
    ja = json.loads((CATALOGS / "ja" / f"{domain}.json").read_text(encoding="utf-8"))
    assert en.keys() == ja.keys()
    for key in en:
        assert fields(en[key]) == fields(ja[key]), key
        letters = re.sub(r"\{[^}]*\}", "", en[key])
        if re.search(r"[A-Za-z]{3}", letters):
            assert ja[key] != en[key], f"{key} is an English copy"


def test_core_errors_follow_the_language():
    session = Session(seed=1)
    i18n.set_language("ja")
    with pytest.raises(UsageError) as japanese:
        session.note("  ")
    i18n.set_language("en")
    with pytest.raises(UsageError) as english:
        session.note("  ")
    assert JAPANESE.search(str(japanese.value))
    assert str(english.value) == "a note needs some text: %note The party enters the crypt"


def test_unknown_language_is_refused_in_the_current_language():
    with pytest.raises(UsageError, match="unknown language 'fr': choose one of en, ja"):
        i18n.set_language("fr")


def test_a_word_after_a_count_is_singular_only_for_one():
    """`{count:plural:card:cards}`: English says "1 card" and "2 cards", never "card(s)"."""
    assert [i18n.t("cards.event.tap", count=n) for n in (0, 1, 2)] == \
        ["0 cards tapped", "1 card tapped", "2 cards tapped"]
    assert i18n.t("limits.others_unchanged", count=1).startswith("1 other combatant unchanged:")
    assert i18n.t("mtg.event.peek", count=1) == "looks at the top card of the library"
    assert i18n.t("mtg.event.peek", count=3) == "looks at the top 3 cards of the library"
    # two counts in one line, each with its own word; other specs still format as str.format does
    assert "has 1 card left after exiling 2 known top cards of 3" in i18n.t(
        "mtg.err.too_few", actor="Mira", left=1, known=2, size=3)


def test_no_english_message_writes_a_plural_in_brackets():
    english = json.dumps(i18n.catalog("en"), ensure_ascii=False)
    assert re.findall(r"\w+\(s\)", english) == []


def test_japanese_plural_free_messages_format_every_count_alike():
    i18n.set_language("ja")
    try:
        assert i18n.t("cards.event.tap", count=1) == "カード1枚をタップ"
        assert i18n.t("cards.event.tap", count=2) == "カード2枚をタップ"
    finally:
        i18n.set_language("en")


def test_error_keys_have_one_spelling():
    """Every refusal's key is `<domain>.err.<what>`: one spelling, so a grep finds them all."""
    root = Path(__file__).resolve().parents[2] / "gamekernel"
    spelt_otherwise = [
        f"{path.relative_to(root)}: {key}"
        for path in sorted(root.rglob("i18n/*/*.json"))
        for key in json.loads(path.read_text(encoding="utf-8"))
        if ".error." in key
    ]
    assert spelt_otherwise == []
    code = [path for path in root.rglob("*.py")
            if re.search(r"[\"'][a-z_]+\.error\.", path.read_text(encoding="utf-8"))]
    assert code == []
