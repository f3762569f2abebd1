"""Every GURPS and combat message exists in English and Japanese, the Japanese text is a translation
(not an English copy) and both use the same {fields}."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

DOMAINS = ("gurps", "combat")
FIELD = re.compile(r"\{([^{}:!]*)[^{}]*\}")


def _load(lang: str, domain: str) -> dict[str, str]:
    path = resources.files("gamekernel.gurps") / "i18n" / lang / f"{domain}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _has_letters(text: str) -> bool:
    """Letters outside {placeholders}: numbers and symbols alone need no translation."""
    return bool(re.search(r"[A-Za-z]", FIELD.sub("", text)))


@pytest.mark.parametrize("domain", DOMAINS)
def test_ja_has_exactly_the_en_keys(domain):
    assert set(_load("ja", domain)) == set(_load("en", domain))


@pytest.mark.parametrize("domain", DOMAINS)
def test_ja_is_not_an_english_copy(domain):
    en, ja = _load("en", domain), _load("ja", domain)
    copies = sorted(k for k in en if ja.get(k) == en[k] and _has_letters(en[k]))
    assert copies == [], f"{domain}: Japanese entries still in English: {copies}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_ja_uses_the_same_fields(domain):
    en, ja = _load("en", domain), _load("ja", domain)
    differ = sorted(k for k in en if set(FIELD.findall(en[k])) != set(FIELD.findall(ja[k])))
    assert differ == []


def test_copy_detector_can_fail():
    assert _has_letters("{name} casts {spell}") and not _has_letters("{name}: −{fp}") and _has_letters("HP {hp}")


def test_gurps_inj_05_seed_terms_in_japanese():
    """The seed's words: 衝撃 (shock, GURPS-INJ-05), 朦朧 (stunned), 転倒 (knockdown), 気絶, 致命傷."""
    ja = _load("ja", "combat")
    assert "衝撃" in ja["combat.shock"] and ja["combat.word.stunned"] == "朦朧"
    assert "転倒" in ja["combat.major_wound"] and ja["combat.word.unconscious"] == "気絶"
    assert ja["combat.word.mortal"] == "致命傷"
