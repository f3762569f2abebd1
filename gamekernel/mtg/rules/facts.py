"""Card facts: the few printed characteristics an action check needs, and a name index over them.

Only name, mana value, colours, types, subtypes, supertypes and the Japanese printed name are kept -
never rules text - so the bundled file stays small and free of card text. Colours are full lower-case words in WUBRG
order; a card with no colour is colourless (an empty tuple).
"""

from __future__ import annotations

import bisect
import difflib
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from pathlib import Path

from gamekernel import limits
from gamekernel.errors import DataError, NotFoundError
from gamekernel.i18n import get_language, t
from gamekernel.text import half_width, match_key


@cache
def colour_words() -> dict:
    """data/colours.json: the colours in WUBRG order and colourless, with letters and aliases."""
    return json.loads((Path(__file__).parent.parent / "data" / "colours.json").read_text("utf-8"))


COLOURS = tuple(colour_words()["colours"])
LETTER_TO_COLOUR = {row["letter"]: colour for colour, row in colour_words()["colours"].items()}
COLOUR_TO_LETTER = {colour: letter for letter, colour in LETTER_TO_COLOUR.items()}
# MTG-CHK-09: the colour of mana each basic land type makes.
BASIC_LAND_TYPES = {"Plains": "white", "Island": "blue", "Swamp": "black", "Mountain": "red", "Forest": "green"}
SUPERTYPES = frozenset({"Basic", "Legendary", "Snow", "World", "Ongoing", "Elite", "Host"})

BUNDLED_FACTS = Path(__file__).parent.parent / "data" / "facts.json"
_new_object, _set_attribute = object.__new__, object.__setattr__
NAME_BRACKETS = ("《", "》", "「", "」", "『", "』")  # Japanese card names are often written 《エルフの神秘家》


def order_colours(colours: Iterable[str]) -> tuple[str, ...]:
    """Colour words (or WUBRG letters, any case) as a duplicate-free tuple in WUBRG order."""
    wanted = set()
    for colour in colours:
        word = LETTER_TO_COLOUR.get(colour.upper(), colour.lower()) if len(colour) == 1 else colour.lower()
        if word not in COLOURS:
            raise DataError(t("mtg.err.colour", colour=colour, colours=", ".join(COLOURS)))
        wanted.add(word)
    return tuple(colour for colour in COLOURS if colour in wanted)


@cache
def _colours_of_letters(letters: str) -> tuple[str, ...]:
    """`order_colours` of a row's letters ("WU"), worked out once for each of the few spellings:
    reading a card index asks it for every card."""
    return order_colours(letters)


def display_name(name: str, ja_name: str | None) -> str:
    """The card name to print in the current language: the Japanese one when it is known."""
    return ja_name if ja_name and get_language() == "ja" else name


@dataclass(frozen=True)
class CardFacts:
    """One card's check-relevant characteristics (front face; split cards combined)."""

    name: str
    mana_value: int | float = 0
    colours: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    ja_name: str | None = field(default=None, compare=False)  # the Japanese printed name, when known

    @property
    def shown_name(self) -> str:
        """The name to print: the Japanese one when the language is Japanese and it is known."""
        return display_name(self.name, self.ja_name)

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
        """The compact JSON form used by the bundled file, the cache and events:
        [name, mv, "WU", types, sub, super] plus the Japanese name when known."""
        row = [self.name, self.mana_value, self.letters, list(self.types), list(self.subtypes),
               list(self.supertypes)]
        return [*row, self.ja_name] if self.ja_name else row

    @classmethod
    def made(cls, name: str, mana_value: int | float, colours: tuple[str, ...], types: tuple[str, ...],
             subtypes: tuple[str, ...], supertypes: tuple[str, ...], ja_name: str | None) -> CardFacts:
        """Facts from fields already checked and in their final form, without the frozen dataclass's
        `__init__` (a field at a time through `object.__setattr__`): a card database makes 30,000."""
        card = _new_object(cls)
        _set_attribute(card, "__dict__", {
            "name": name, "mana_value": mana_value, "colours": colours, "types": types, "subtypes": subtypes,
            "supertypes": supertypes, "ja_name": ja_name})
        return card

    @classmethod
    def from_row(cls, row: list, where: str = "facts") -> CardFacts:
        try:
            name, mana_value, letters, types, subtypes, supertypes, *rest = row
            ja_name = rest[0] if len(rest) == 1 else None
            if (not isinstance(name, str) or not isinstance(mana_value, int | float) or len(rest) > 1
                    or not isinstance(ja_name, str | None)):
                raise TypeError
            colours = _colours_of_letters(letters) if type(letters) is str else order_colours(letters)
            return cls.made(name, mana_value, colours, tuple(types), tuple(subtypes), tuple(supertypes),
                            ja_name or None)
        except (TypeError, ValueError) as error:
            raise DataError(t("mtg.err.facts_row", where=where, row=str(row)[:80])) from error

    def __str__(self) -> str:
        colours = "/".join(self.colours) or "colourless"
        return f"{self.name} (MV {self.mana_value}, {colours})"


def strip_name_brackets(name: str) -> str:
    """'《エルフの神秘家》' -> 'エルフの神秘家' (also 「」 and 『』); other names unchanged."""
    text = name.strip()
    if len(text) > 2 and text[0] in NAME_BRACKETS[::2] and text[-1] in NAME_BRACKETS[1::2]:
        return text[1:-1].strip()
    return text


def name_key(name: str) -> str:
    """THE card-name normalisation (every lookup goes through it): width and compatibility forms (NFKC),
    case and spacing (gamekernel.text.match_key), Latin accents and ligatures ('Lórien' = 'Lorien',
    'Æther' = 'Aether', as people type them), apostrophes, split-card slashes, Japanese 《》 brackets."""
    text = strip_name_brackets(half_width(name)).replace("\u2019", "'").replace("\u2018", "'")
    text = text.replace("//", "/")
    return " // ".join(key for key in (fold_accents(match_key(part)) for part in text.split("/")) if key)


_LIGATURES = str.maketrans({"æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ł": "l", "ı": "i"})


def fold_accents(text: str) -> str:
    """Latin letters without their accents and ligatures spelled out ('æther' -> 'aether'). Marks on
    other scripts stay: Japanese voiced kana (ガ) must not become their plain forms (カ)."""
    if text.isascii():
        return text
    kept: list[str] = []
    for char in unicodedata.normalize("NFD", text.translate(_LIGATURES)):
        if unicodedata.combining(char) and kept and kept[-1].isascii():
            continue
        kept.append(char)
    return unicodedata.normalize("NFC", "".join(kept))


class NameNeighbours:
    """Candidate names for a "did you mean" hint, from an index instead of a scan of every name: the
    names next to the query in sorted order (same beginning), in sorted order of their reversed text
    (same ending), and the names sharing one of its rarer words. Only those few are compared
    (difflib), so a hint costs about the same for 300 names as for 30,000."""

    WINDOW = 6  # names taken on each side of the query in each sorted order
    WORD_POSTINGS = 40  # a word shared by more names than this (like 'of', 'the') brings none

    def __init__(self, keys: Iterable[str]):
        self.keys = sorted(set(keys))
        self.reversed = sorted(key[::-1] for key in self.keys)
        self.words: dict[str, list[str]] = {}
        for key in self.keys:
            for word in set(key.split()):
                self.words.setdefault(word, []).append(key)

    def candidates(self, key: str) -> list[str]:
        """Names that might be what `key` meant (a superset of the good suggestions, unranked)."""
        found = set(self._window(self.keys, key))
        found.update(name[::-1] for name in self._window(self.reversed, key[::-1]))
        for word in set(key.split()):
            postings = self.words.get(word, ())
            if len(postings) <= self.WORD_POSTINGS:
                found.update(postings)
        return sorted(found)

    def _window(self, ordered: list[str], key: str) -> list[str]:
        at = bisect.bisect_left(ordered, key)
        return ordered[max(0, at - self.WINDOW):at + self.WINDOW]

    def close(self, key: str, n: int, cutoff: float) -> list[str]:
        """Up to `n` known keys close to `key`, best first (difflib's ratio over the candidates)."""
        return difflib.get_close_matches(key, self.candidates(key), n=n, cutoff=cutoff)


class FactsIndex(Mapping[str, CardFacts]):
    """Card facts by name; each face of a multi-face card and the Japanese name are aliases of the card."""

    def __init__(self, cards: Iterable[CardFacts] = (), *, source: str = "facts"):
        self.source = source
        self._cards: dict[str, CardFacts] = {}
        self._aliases: dict[str, str] = {}
        self._alias_lists: dict[str, list[str]] = {}  # each card's own alias keys, for the cache index
        self._index: NameNeighbours | None = None
        for card in cards:
            self.add(card)

    def add(self, card: CardFacts) -> None:
        key = name_key(card.name)
        self.add_keyed(card, key, self._alias_keys(card, key))

    def add_keyed(self, card: CardFacts, key: str, aliases: Iterable[str]) -> None:
        """`add` with the card's `name_key` and alias keys already worked out (the cache index keeps
        them: the normalisation is most of the time of reading it)."""
        known = self._cards.get(key)
        if known is not None:  # first one wins: reprints and duplicates carry the same facts ...
            if known.ja_name or not card.ja_name:
                return
            card = replace(known, ja_name=card.ja_name)  # ... but a Japanese name is added when missing
            aliases = self._alias_keys(card, key)
        self._cards[key] = card
        self._alias_lists[key] = aliases = list(aliases)
        self._index = None
        for alias in aliases:
            self._aliases.setdefault(alias, key)

    def keyed_cards(self) -> list[tuple[str, list[str], CardFacts]]:
        """(name key, alias keys, facts) of every card, as `add_keyed` takes them."""
        return [(key, self._alias_lists[key], card) for key, card in self._cards.items()]

    @staticmethod
    def _alias_keys(card: CardFacts, name_key_of_name: str | None = None) -> list[str]:
        """Face names ('Fire', 'Ice', 'Stomp'), the Japanese name and its faces (`name_key_of_name`:
        the card name's key when already worked out)."""
        keys = []
        for name in (card.name, card.ja_name):
            if name:
                key = name_key_of_name if name is card.name and name_key_of_name is not None else name_key(name)
                keys += [key, *key.split(" // ")] if " // " in key else [key]
        return keys

    def __getitem__(self, name: str) -> CardFacts:
        key = name_key(name)
        key = key if key in self._cards else self._aliases.get(key, key)
        return self._cards[key]

    def find(self, name: str) -> CardFacts | None:
        """The facts of `name` (any face, English or Japanese), or None. A full 'Front // Back' name
        also finds a card stored by its front face only (the bundled double-faced cards)."""
        try:
            return self[name]
        except KeyError:
            pass
        key = name_key(name)
        card = self._cards.get(key.split(" // ")[0]) if " // " in key else None
        return card if card is not None and " // " not in card.name else None  # never 'Fire // Ise'

    def close_names(self, name: str) -> list[str]:
        """Up to three known names close to `name` (in Japanese for a Japanese query), best first."""
        key = name_key(name)
        neighbours = self.neighbours()
        close = neighbours.close(key, 3, 0.72)
        if not close and not key.isascii():  # Japanese names are short: a looser cutoff still helps
            close = neighbours.close(key, 3, 0.5)
        return list(dict.fromkeys(self._shown(self._cards[self._aliases.get(k, k)], k) for k in close))

    def neighbours(self) -> NameNeighbours:
        """The suggestion index, built once and kept until a card is added (loading full card data
        builds it, so the first unknown card of a decklist costs no more than the next ones)."""
        if self._index is None:
            self._index = NameNeighbours([*self._cards, *self._aliases])
        return self._index

    @staticmethod
    def _shown(card: CardFacts, key: str) -> str:
        """Suggest the spelling the user is writing in: the Japanese name for a Japanese query."""
        if card.ja_name and not key.isascii():
            return card.ja_name
        return card.name

    def __iter__(self) -> Iterator[str]:
        return (card.name for card in self._cards.values())

    def __len__(self) -> int:
        return len(self._cards)

    def cards(self) -> Iterator[CardFacts]:
        return iter(self._cards.values())

    def lookup(self, name: str, where: str = "") -> CardFacts:
        """The facts of `name`, or NotFoundError with close matches (`where` = file:line for context)."""
        card = self.find(name)
        if card is not None:
            return card
        close = self.close_names(name)
        hint = (t("mtg.err.did_you_mean", names=", ".join(repr(s) for s in close)) if close
                else t("mtg.err.load_card_data") if self is bundled_facts() else t("mtg.err.check_spelling"))
        prefix = f"{where}: " if where else ""
        raise NotFoundError(prefix + t("mtg.err.unknown_card", card=limits.quoted_line(name), source=self.source,
                                       hint=hint))

    def merged(self, other: FactsIndex) -> FactsIndex:
        """A new index with this one's cards first and `other`'s added (this one wins on duplicates)."""
        merged = FactsIndex(self.cards(), source=f"{self.source} + {other.source}")
        for card in other.cards():
            merged.add(card)
        return merged

    def __repr__(self) -> str:
        return f"<FactsIndex {self.source}: {len(self)} cards>"


_QUOTED = re.compile(r'"([^"]*)"|“([^”]*)”|《([^》]*)》|「([^」]*)」|『([^』]*)』')
_SEPARATOR = re.compile(r"\s*[,、，]\s*")
MAX_NAME_PARTS = 4  # 'Borrowing 100,000 Arrows', 'Urborg, Tomb of Yawgmoth': names hold few commas


def split_names(text: str, index: FactsIndex) -> list[str]:
    """`A, B, C` (or `A、B`) as card names, where a name may hold a comma itself: a quoted name
    ("Urborg, Tomb of Yawgmoth", 《ヨーグモスの墳墓、アーボーグ》) is one name; unquoted, the longest run of
    comma-separated parts that names a known card is taken as that card, else each part is a name."""
    names: list[str] = []
    at = 0
    for match in _QUOTED.finditer(text):
        names += _split_unquoted(text[at:match.start()], index)
        quoted = next(group for group in match.groups() if group is not None).strip()
        names += [quoted] if quoted else []
        at = match.end()
    return names + _split_unquoted(text[at:], index)


def _split_unquoted(text: str, index: FactsIndex) -> list[str]:
    """Comma-separated parts, joining neighbours back whenever together they name a known card."""
    parts = _SEPARATOR.split(text)
    separators = _SEPARATOR.findall(text)
    names: list[str] = []
    start = 0
    while start < len(parts):
        end = next((end for end in range(min(len(parts), start + MAX_NAME_PARTS), start + 1, -1)
                    if index.find(_joined(parts, separators, start, end)) is not None), start + 1)
        name = _joined(parts, separators, start, end).strip()
        names += [name] if name else []
        start = end
    return names


def _joined(parts: list[str], separators: list[str], start: int, end: int) -> str:
    """parts[start:end] with the separators that stood between them."""
    text = parts[start]
    for position in range(start + 1, end):
        text += separators[position - 1] + parts[position]
    return text


def read_facts_file(path: str | Path) -> FactsIndex:
    """A facts file: {"source": ..., "cards": [[name, mv, "WU", types, subtypes, supertypes], ...]}."""
    path = Path(path)
    try:
        document = limits.load_json(limits.read_text(path, data=True), path.name)
    except (OSError, json.JSONDecodeError) as error:
        raise DataError(t("mtg.err.facts_read", file=path.name, reason=error)) from error
    rows = document.get("cards") if isinstance(document, dict) else None
    if not isinstance(rows, list):
        raise DataError(t("mtg.err.facts_cards", file=path.name))
    cards = (CardFacts.from_row(row, t("mtg.err.facts_where", file=path.name, number=number))
             for number, row in enumerate(rows, 1))
    return FactsIndex(cards, source=path.name)


@cache
def bundled_facts() -> FactsIndex:
    """The small offline facts file shipped with the package (basic lands and common cards)."""
    index = read_facts_file(BUNDLED_FACTS)
    index.source = "bundled card facts"
    return index
