"""The card catalog: every known Alpha card by id, in each language, found by any of its names.

The bundled GM starter deck (GW-ALPHA-03) lives in data/alpha_starter.<lang>.json; users may add
their own card files (`session.gw.load_cards`). Names match case-insensitively in English or
Japanese; an unknown name raises NotFoundError with close matches.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from gamekernel.errors import DataError, NotFoundError
from gamekernel.gammaworld.rules.schema import AlphaCard, load_cards
from gamekernel.i18n import t
from gamekernel.text import match_key

DATA = Path(__file__).parent.parent / "data"
LANGUAGES = ("en", "ja")


def fold(name: str) -> str:
    """Normalise a name for matching: NFKC (full-width to ASCII), case-folded, quotes/space trimmed."""
    return match_key(match_key(name).strip("\"'「」"))


class Catalog:
    """Cards by id and language; the starter deck's ids in their printed order."""

    def __init__(self) -> None:
        self.by_language: dict[str, dict[str, AlphaCard]] = {}
        self._names: dict[str, str] = {}
        self.starter_ids: tuple[str, ...] = ()

    def add(self, cards: Iterable[AlphaCard]) -> None:
        for card in cards:
            self.by_language.setdefault(card.language, {})[card.id] = card
            self._names.setdefault(fold(card.name), card.id)
            self._names.setdefault(fold(card.id), card.id)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self.by_language.get("en", {}))

    def __contains__(self, card_id: str) -> bool:
        return any(card_id in cards for cards in self.by_language.values())

    def card(self, card_id: str, language: str | None = None) -> AlphaCard:
        """The card in `language` (the current UI language by default), falling back to English."""
        if language is None:
            from gamekernel.i18n import get_language

            language = get_language()
        for lang in (language, "en", *self.by_language):
            found = self.by_language.get(lang, {}).get(card_id)
            if found is not None:
                return found
        raise NotFoundError(t("gammaworld.err.no_card_id", card_id=card_id))

    def find(self, name: str) -> AlphaCard:
        """The card called `name` (English or Japanese name, or id), in the current language."""
        card_id = self._names.get(fold(name))
        if card_id is None:
            close = difflib.get_close_matches(fold(name), list(self._names), n=3, cutoff=0.6)
            labels = [self.card(self._names[c], "en").name for c in close]
            hint = t("gammaworld.err.did_you_mean", names=", ".join(dict.fromkeys(labels))) if labels else ""
            raise NotFoundError(t("gammaworld.err.no_card_name", name=name, hint=hint))
        return self.card(card_id)

    def name(self, card_id: str, language: str | None = None) -> str:
        return self.card(card_id, language).name


def check_translations(catalog: Catalog) -> None:
    """The language files must describe the same cards with the same non-text facts."""
    english = catalog.by_language.get("en", {})
    for language, cards in catalog.by_language.items():
        if language == "en":
            continue
        if set(cards) != set(english):
            missing = sorted(set(english) ^ set(cards))
            raise DataError(t("gammaworld.err.starter_ids", language=language, ids=", ".join(missing)))
        for card_id, card in cards.items():
            other = english[card_id]
            facts = ("kind", "energy", "rarity")
            for fact in facts:
                if getattr(card, fact) != getattr(other, fact):
                    raise DataError(t("gammaworld.err.starter_fact", language=language, card_id=card_id, fact=fact))
            if (card.overcharge is None) != (other.overcharge is None) or (card.power is None) != (other.power is None):
                raise DataError(t("gammaworld.err.starter_power", language=language, card_id=card_id))


@cache
def starter_catalog() -> Catalog:
    """The bundled GM starter deck in every language (loaded once)."""
    catalog = Catalog()
    for language in LANGUAGES:
        catalog.add(load_cards(DATA / f"alpha_starter.{language}.json"))
    check_translations(catalog)
    catalog.starter_ids = tuple(catalog.by_language["en"])
    return catalog
