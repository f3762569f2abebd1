"""Message catalogs (en, ja) for every user-facing string.

Each language is a folder of JSON files (one per domain: core.json, dice.json ...), here for the
shared and cross-rule-set text and in each rule set's package (`gamekernel/gurps/i18n/en/*.json`),
merged into one flat key -> template mapping, so rule sets add their strings without touching
each other's files. Templates use str.format fields.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "ja")
_FOLDER = Path(__file__).parent
_current = "en"


@cache
def catalog(language: str) -> dict[str, str]:
    """All messages of one language, merged from its domain files."""
    from gamekernel.rulesets import rule_sets

    merged: dict[str, str] = {}
    paths = sorted((_FOLDER / language).glob("*.json"))
    paths += [path for declared in rule_sets() for path in declared.catalogs(language)]
    for path in paths:
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def set_language(language: str) -> None:
    """Choose the language of every message rendered from now on."""
    global _current
    if language not in LANGUAGES:
        from gamekernel.errors import UsageError

        raise UsageError(t("core.err.language", language=repr(language), choices=", ".join(LANGUAGES)))
    _current = language


def get_language() -> str:
    return _current


def t(key: str, /, **fields: object) -> str:
    """The message `key` in the current language (falling back to English), formatted with `fields`."""
    template = catalog(_current).get(key)
    if template is None:
        template = catalog("en").get(key, key)
    return template.format(**fields) if fields else template
