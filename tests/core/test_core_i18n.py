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
