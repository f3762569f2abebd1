"""Card facts: the few printed characteristics an action check needs, and a name index over them.

Only name, mana value, colours, types, subtypes and supertypes are kept - never rules text - so
the bundled file stays small and free of card text. Colours are full lower-case words in WUBRG
order; a card with no colour is colourless (an empty tuple).
"""

from __future__ import annotations

import difflib
import json
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

from gamekernel.errors import DataError, NotFoundError
from gamekernel.i18n import t

COLOURS = ("white", "blue", "black", "red", "green")
LETTER_TO_COLOUR = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
COLOUR_TO_LETTER = {colour: letter for letter, colour in LETTER_TO_COLOUR.items()}
# MTG-CHK-09: the colour of mana each basic land type makes.
BASIC_LAND_TYPES = {"Plains": "white", "Island": "blue", "Swamp": "black", "Mountain": "red", "Forest": "green"}
SUPERTYPES = frozenset({"Basic", "Legendary", "Snow", "World", "Ongoing", "Elite", "Host"})

BUNDLED_FACTS = Path(__file__).parent / "data" / "facts.json"


def order_colours(colours: Iterable[str]) -> tuple[str, ...]:
    """Colour words (or WUBRG letters, any case) as a duplicate-free tuple in WUBRG order."""
    wanted = set()
    for colour in colours:
        word = LETTER_TO_COLOUR.get(colour.upper(), colour.lower()) if len(colour) == 1 else colour.lower()
        if word not in COLOURS:
            raise DataError(t("mtg.error.colour", colour=colour, colours=", ".join(COLOURS)))
        wanted.add(word)
    return tuple(colour for colour in COLOURS if colour in wanted)


@dataclass(frozen=True)
class CardFacts:
    """One card's check-relevant characteristics (front face; split cards combined)."""

    name: str
    mana_value: int | float = 0
    colours: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()

    @property
    def is_land(self) -> bool:
        return "Land" in self.types

    @property
    def is_basic_land(self) -> bool:
        return self.is_land and "Basic" in self.supertypes

    @property
    def is_colourless(self) -> bool:
        return not self.colours

    @property
    def land_type_colours(self) -> tuple[str, ...]:
        """Colours of the basic land types of a land (MTG-CHK-09); empty for a non-land."""
        if not self.is_land:
            return ()
        return order_colours(BASIC_LAND_TYPES[sub] for sub in self.subtypes if sub in BASIC_LAND_TYPES)

    @cached_property
    def achievement_colours(self) -> tuple[str, ...]:
        """The colours this card counts as when it sets the achievement: its own plus its land types'.

        Kept after the first use (the facts are immutable): every exact-odds computation reads it
        for each card of the library."""
        return order_colours((*self.colours, *self.land_type_colours))

    @property
    def letters(self) -> str:
        return "".join(COLOUR_TO_LETTER[colour] for colour in self.colours)

    def to_row(self) -> list:
        """The compact JSON form used by the bundled file and the cache: [name, mv, "WU", types, sub, super]."""
        return [self.name, self.mana_value, self.letters, list(self.types), list(self.subtypes),
                list(self.supertypes)]

    @classmethod
    def from_row(cls, row: list, where: str = "facts") -> CardFacts:
        try:
            name, mana_value, letters, types, subtypes, supertypes = row
            if not isinstance(name, str) or not isinstance(mana_value, int | float):
                raise TypeError
            return cls(name, mana_value, order_colours(letters), tuple(types), tuple(subtypes),
                       tuple(supertypes))
        except (TypeError, ValueError) as error:
            raise DataError(t("mtg.error.facts_row", where=where, row=str(row)[:80])) from error

    def __str__(self) -> str:
        colours = "/".join(self.colours) or "colourless"
        return f"{self.name} (MV {self.mana_value}, {colours})"


def name_key(name: str) -> str:
    """Normalise a card name for lookup: width, case, apostrophes, spacing and split-card slashes."""
    text = unicodedata.normalize("NFKC", name).replace("\u2019", "'").replace("\u2018", "'")
    text = text.replace("//", "/")
    parts = [" ".join(part.split()) for part in text.split("/")]
    return " // ".join(part for part in parts if part).casefold()


class FactsIndex(Mapping[str, CardFacts]):
    """Card facts by name; front faces of multi-face cards are aliases of the whole card."""

    def __init__(self, cards: Iterable[CardFacts] = (), *, source: str = "facts"):
        self.source = source
        self._cards: dict[str, CardFacts] = {}
        self._aliases: dict[str, str] = {}
        for card in cards:
            self.add(card)

    def add(self, card: CardFacts) -> None:
        key = name_key(card.name)
        if key in self._cards:
            return  # first one wins: reprints and duplicates carry the same facts
        self._cards[key] = card
        if " // " in key:
            self._aliases.setdefault(key.split(" // ")[0], key)

    def __getitem__(self, name: str) -> CardFacts:
        key = name_key(name)
        key = key if key in self._cards else self._aliases.get(key, key)
        return self._cards[key]

    def __iter__(self) -> Iterator[str]:
        return (card.name for card in self._cards.values())

    def __len__(self) -> int:
        return len(self._cards)

    def cards(self) -> Iterator[CardFacts]:
        return iter(self._cards.values())

    def lookup(self, name: str, where: str = "") -> CardFacts:
        """The facts of `name`, or NotFoundError with close matches (`where` = file:line for context)."""
        try:
            return self[name]
        except KeyError:
            pass
        key = name_key(name)
        names = {k: c.name for k, c in self._cards.items()}
        close = difflib.get_close_matches(key, list(names) + list(self._aliases), n=3, cutoff=0.72)
        shown = [names.get(self._aliases.get(k, k), k) for k in close]
        hint = (t("mtg.error.did_you_mean", names=", ".join(repr(s) for s in dict.fromkeys(shown))) if shown
                else t("mtg.error.load_card_data"))
        prefix = f"{where}: " if where else ""
        raise NotFoundError(prefix + t("mtg.error.unknown_card", card=name, source=self.source, hint=hint))

    def merged(self, other: FactsIndex) -> FactsIndex:
        """A new index with this one's cards first and `other`'s added (this one wins on duplicates)."""
        merged = FactsIndex(self.cards(), source=f"{self.source} + {other.source}")
        for card in other.cards():
            merged.add(card)
        return merged

    def __repr__(self) -> str:
        return f"<FactsIndex {self.source}: {len(self)} cards>"


def read_facts_file(path: str | Path) -> FactsIndex:
    """A facts file: {"source": ..., "cards": [[name, mv, "WU", types, subtypes, supertypes], ...]}."""
    path = Path(path)
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise DataError(t("mtg.error.facts_read", file=path.name, reason=error)) from error
    rows = document.get("cards") if isinstance(document, dict) else None
    if not isinstance(rows, list):
        raise DataError(t("mtg.error.facts_cards", file=path.name))
    cards = (CardFacts.from_row(row, t("mtg.error.facts_where", file=path.name, number=number))
             for number, row in enumerate(rows, 1))
    return FactsIndex(cards, source=path.name)


@cache
def bundled_facts() -> FactsIndex:
    """The small offline facts file shipped with the package (basic lands and common cards)."""
    index = read_facts_file(BUNDLED_FACTS)
    index.source = "bundled card facts"
    return index
