"""Message catalogs (en, ja) for every user-facing string.

Each language is a folder of JSON files (one per domain: core.json, dice.json ...), here for the
shared and cross-rule-set text and in each rule set's package (`gamekernel/gurps/i18n/en/*.json`),
merged into one flat key -> template mapping, so rule sets add their strings without touching
each other's files. Templates use str.format fields; a word that follows a count is written
`{count:plural:card:cards}` (the singular when the count is 1, else the plural), so English says
"1 card" and "2 cards" instead of "card(s)"; a language without plural forms simply does not use it.
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "ja")
_FOLDER = Path(__file__).parent
_current = "en"


_more: list[Callable[[str], Iterable[Path]]] = []  # the rule sets' catalogs (`add_catalogs`)


def add_catalogs(more: Callable[[str], Iterable[Path]]) -> None:
    """Add the catalog files `more(language)` names to every language's messages: the rule sets'
    (gamekernel/rulesets.py registers them, from above: the messages name no rule set)."""
    _more.append(more)
    catalog.cache_clear()


@cache
def catalog(language: str) -> dict[str, str]:
    """All messages of one language, merged from its domain files and the rule sets' (`add_catalogs`)."""
    merged: dict[str, str] = {}
    paths = sorted((_FOLDER / language).glob("*.json"))
    paths += [path for more in _more for path in more(language)]
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


_PLURAL = ":plural:"


class _PluralFormatter(string.Formatter):
    """str.format plus the `plural:SINGULAR:PLURAL` spec, chosen by the field's count."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith(_PLURAL[1:]):
            singular, _, plural = format_spec[len(_PLURAL) - 1:].partition(":")
            return singular if value == 1 else plural
        return super().format_field(value, format_spec)


_plural_formatter = _PluralFormatter()


def t(key: str, /, **fields: object) -> str:
    """The message `key` in the current language (falling back to English), formatted with `fields`."""
    template = catalog(_current).get(key)
    if template is None:
        template = catalog("en").get(key, key)
    if not fields:
        return template
    if _PLURAL in template:
        return _plural_formatter.format(template, **fields)
    return template.format(**fields)
