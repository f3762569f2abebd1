"""Decklists as people paste them -> entries; the main deck is the library.

Formats: MTG Arena export, MTGO .txt and .dek XML, and the site exports built on them (Moxfield,
Archidekt, MTGGoldfish). Section headers (`Deck`, `Sideboard:`, `Commander`, `// Sideboard` ...) and
`//` group comments (`// Creatures`) decide the sections; then a blank line only separates groups.
A file with neither is laid out the way MTGO and old Arena exports write it: the main deck, one
blank line, the sideboard. More than two blank-separated blocks, or a "sideboard" block larger than
the main deck, is ambiguous and refused with the lines shown - never guessed.

Every error names the file and line. XML is parsed with xml.etree after refusing any DOCTYPE or
entity declaration, so a .dek file can never pull in external or recursively expanded entities.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from gamekernel import limits
from gamekernel.errors import DataError, NotFoundError
from gamekernel.i18n import t
from gamekernel.mtg.rules.facts import COLOURS, CardFacts, FactsIndex, strip_name_brackets
from gamekernel.text import half_width

FORMATS = ("arena", "mtgo", "dek", "moxfield", "archidekt", "mtggoldfish", "text")
MAIN, SIDE, OTHER = "main", "side", "other"
# Section headers, compared after NFKC, case folding and dropping a trailing ':' or '(15)'.
SECTION_HEADERS = {
    **dict.fromkeys(("deck", "main", "maindeck", "mainboard", "main deck", "main board",
                     "メイン", "メインデッキ", "デッキ"), MAIN),
    **dict.fromkeys(("sideboard", "side", "sb", "side board", "サイドボード", "サイド"), SIDE),
    **dict.fromkeys(("commander", "commanders", "companion", "companions", "maybeboard", "maybe",
                     "considering", "tokens", "attractions", "stickers", "統率者", "相棒"), OTHER),
}
_HEADER_TAIL = re.compile(r"\s*(?:\(\d+\)|:)\s*$")
_LINE = re.compile(
    r"^(?P<count>\d+)\s*(?:[xX×]\s+|\s+|(?=《))(?P<name>.+?)"
    r"(?:\s+\((?P<set>[A-Za-z0-9_]{2,8})\)(?:\s+(?P<number>[^\s\[\]<>*#^]+))?)?"  # (M21) 123
    r"(?:\s+<(?P<variant>[^<>]*)>)?"  # MTGGoldfish: <variant or number> [SET]
    r"(?:\s+\[(?P<bracket>[^\[\]]*)\](?:\s+(?P<number2>[^\s\[\]<>*#^]+))?)?"  # [SET] 290 or [Category]
    r"(?P<foil>\s+\*[FE]\*)?"  # foil / etched
    r"(?:\s+\[(?P<category>[^\[\]]*)\])?"  # Archidekt: *F* [Category]
    r"(?:\s+\^[^^]*\^)*"  # Archidekt tags ^Have,#37d67a^
    r"(?:\s+#.*)?\s*$"
)
_BRACKET_SET = re.compile(r"[A-Z0-9]{2,6}")  # '[M21]' is a set code; '[Land]', '[Sideboard]' are categories


@dataclass(frozen=True)
class DeckEntry:
    count: int
    name: str
    line: int
    set_code: str | None = None
    number: str | None = None
    foil: bool = False
    category: str | None = None


@dataclass(frozen=True)
class Decklist:
    main: tuple[DeckEntry, ...]
    sideboard: tuple[DeckEntry, ...] = ()
    source: str = "<text>"
    fmt: str = "mtgo"
    name: str | None = None
    other: tuple[DeckEntry, ...] = ()  # commander, companion, maybeboard: not in the library

    @property
    def main_count(self) -> int:
        return sum(entry.count for entry in self.main)

    @property
    def sideboard_count(self) -> int:
        return sum(entry.count for entry in self.sideboard)

    def __str__(self) -> str:
        name = f"{self.name} " if self.name else ""
        return f"{name}({self.source}, {self.fmt}): {self.main_count} main, {self.sideboard_count} sideboard"


def section_of(line: str) -> str | None:
    """The section a header line opens ('Deck', 'SIDEBOARD:', '// Sideboard', 'サイドボード'), else None."""
    text = half_width(line).strip()
    text = text.removeprefix("//").strip()
    return SECTION_HEADERS.get(_HEADER_TAIL.sub("", text).casefold())


def detect_format(text: str) -> str:
    """A label for what the text looks like: 'dek' (XML), 'archidekt', 'arena' (headers or set codes),
    else 'mtgo'. Parsing does not depend on it, except for 'dek'."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith("<"):
        return "dek"
    lines = [half_width(raw).strip() for raw in stripped.splitlines()]
    matches = [_LINE.match(line) for line in lines]
    if any(m and (m["category"] is not None or (m["bracket"] and not _BRACKET_SET.fullmatch(m["bracket"])))
           for m in matches):
        return "archidekt"
    if any(line.casefold() == "about" or (section_of(line) and not line.startswith("//")) for line in lines):
        return "arena"
    if any(m and m["set"] for m in matches):
        return "arena"
    return "mtgo"


def parse_decklist(text: str, source: str = "<text>", fmt: str | None = None) -> Decklist:
    """Parse a decklist in any supported format (detected when `fmt` is None)."""
    lines = text.count("\n") + 1
    if lines > limits.current().max_lines:  # checked before any line is read (text given directly too)
        raise DataError(t("limits.err.lines", file=source, lines=lines, limit=limits.current().max_lines))
    fmt = fmt or detect_format(text)
    if fmt not in FORMATS:
        raise DataError(t("mtg.error.deck_format", source=source, fmt=fmt, formats=", ".join(FORMATS)))
    if fmt == "dek":
        return _parse_dek(text, source)
    return _parse_text(text, source, fmt)


def read_decklist(path: str | os.PathLike[str], fmt: str | None = None) -> Decklist:
    path = Path(path)
    try:
        text = limits.read_text(path, encoding="utf-8-sig")
    except OSError as error:
        raise DataError(t("mtg.error.deck_read", path=path, reason=error.strerror or error)) from error
    return parse_decklist(text, path.name, fmt)


@dataclass(frozen=True)
class _Line:
    number: int
    kind: str  # blank, about, name, header, comment, card
    text: str
    section: str | None = None


def _classify(text: str) -> list[_Line]:
    """Each line's role; the 'About' block of an Arena export runs to the next blank line."""
    lines: list[_Line] = []
    in_about = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = half_width(raw).strip()
        folded = line.casefold()
        if not line:
            in_about = False
            lines.append(_Line(number, "blank", line))
        elif folded == "about":
            in_about = True
            lines.append(_Line(number, "about", line))
        elif in_about:
            lines.append(_Line(number, "name" if folded.startswith("name ") else "about", line[5:].strip()))
        elif section_of(line):
            lines.append(_Line(number, "header", line, section_of(line)))
        elif line.startswith(("//", "#")):
            lines.append(_Line(number, "comment", line))
        else:
            lines.append(_Line(number, "card", line))
    return lines


def _parse_text(text: str, source: str, fmt: str) -> Decklist:
    lines = _classify(text)
    first_card = next((line.number for line in lines if line.kind == "card"), None)
    if first_card is None:
        raise DataError(t("mtg.error.deck_empty", source=source))
    grouped = any(line.kind == "header" for line in lines) or any(
        line.kind == "comment" and line.text.startswith("//") and line.number > first_card for line in lines)
    sections: dict[str, list[DeckEntry]] = {MAIN: [], SIDE: [], OTHER: []}
    if grouped:  # headers or `// Group` comments: a blank line only separates groups
        section = MAIN
        for line in lines:
            if line.kind == "header":
                section = line.section or MAIN
            elif line.kind == "card":
                target, entry = _card(line, source)
                sections[target or section].append(entry)
    else:  # MTGO / old Arena: main deck, a blank line, the sideboard
        blocks = _blocks(lines)
        if len(blocks) > 2 or (len(blocks) == 2 and _count(blocks[1]) > _count(blocks[0])):
            raise DataError(t("mtg.error.deck_layout", source=source, blocks=len(blocks),
                              lines="; ".join(_block_label(block) for block in blocks)))
        for place, block in zip((MAIN, SIDE), blocks, strict=False):
            for line in block:
                target, entry = _card(line, source)
                sections[target or place].append(entry)
    if not sections[MAIN]:
        raise DataError(t("mtg.error.deck_empty", source=source))
    name = next((line.text for line in lines if line.kind == "name"), None)
    return Decklist(tuple(sections[MAIN]), tuple(sections[SIDE]), source, fmt, name, tuple(sections[OTHER]))


def _blocks(lines: list[_Line]) -> list[list[_Line]]:
    """Card lines grouped by the blank lines between them (comments neither split nor count)."""
    blocks: list[list[_Line]] = [[]]
    for line in lines:
        if line.kind == "blank" and blocks[-1]:
            blocks.append([])
        elif line.kind == "card":
            blocks[-1].append(line)
    return [block for block in blocks if block]


def _count(block: list[_Line]) -> int:
    return sum(_copies(m["count"], "", 0) for line in block if (m := _LINE.match(_strip_sb(line.text)[1])))


def _block_label(block: list[_Line]) -> str:
    return t("mtg.deck.block", first=block[0].number, last=block[-1].number, count=_count(block),
             text=block[0].text[:40])


def _strip_sb(line: str) -> tuple[bool, str]:
    """'SB: 2 Duress' (deckstats, XMage) -> (True, '2 Duress')."""
    if line.casefold().startswith("sb:"):
        return True, line[3:].strip()
    return False, line


def _card(line: _Line, source: str) -> tuple[str | None, DeckEntry]:
    """A card line -> (the section it forces, if any, and the entry)."""
    side, text = _strip_sb(line.text)
    entry = _entry(text, line.number, source)
    forced = SIDE if side else _category_section(entry.category)
    return forced, entry


def _category_section(category: str | None) -> str | None:
    """Archidekt categories: '{noDeck}' keeps a card out of the deck; 'Sideboard', 'Commander',
    'Maybeboard' as the first category name the section."""
    if not category:
        return None
    if "{nodeck}" in category.casefold():
        return OTHER
    first = re.sub(r"\{[^}]*\}", "", category.split(",")[0])
    return SECTION_HEADERS.get(first.strip().casefold())


def _copies(text: str, source: str, line: int) -> int:
    """A line's number of copies, at most `max_count` (a typo like `999999999 Forest` is refused)."""
    limit = limits.current().max_count
    if len(text) > 9 or int(text) > limit:
        raise DataError(t("limits.err.deck_copies", source=source, line=line, count=text[:12], limit=limit))
    return int(text)


def _entry(line: str, number: int, source: str) -> DeckEntry:
    match = _LINE.match(line)
    if not match:
        raise DataError(t("mtg.error.deck_line", source=source, line=number, text=line[:60]))
    count = _copies(match["count"], source, number)
    if count < 1:
        raise DataError(t("mtg.error.deck_count", source=source, line=number, count=count))
    set_code, category, bracket = match["set"], match["category"], match["bracket"]
    if bracket is not None:
        if set_code is None and _BRACKET_SET.fullmatch(bracket):
            set_code = bracket
        else:
            category = bracket if category is None else f"{bracket},{category}"
    return DeckEntry(count, strip_name_brackets(match["name"]), number, set_code,
                     match["number"] or match["number2"] or match["variant"], bool(match["foil"]), category)


def _parse_dek(text: str, source: str) -> Decklist:
    if re.search(r"<!(DOCTYPE|ENTITY)", text, re.IGNORECASE):
        raise DataError(t("mtg.error.dek_doctype", source=source))
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        line, column = error.position
        raise DataError(t("mtg.error.dek_xml", source=source, line=line, column=column + 1)) from error
    if root.tag != "Deck":
        raise DataError(t("mtg.error.dek_root", source=source, tag=root.tag))
    lines = text.splitlines()
    main: list[DeckEntry] = []
    side: list[DeckEntry] = []
    search_from = 0
    for element in root.iter("Cards"):
        name = element.get("Name", "").strip()
        number, search_from = _find_line(lines, name, search_from)
        quantity = element.get("Quantity", "")
        if not name:
            raise DataError(t("mtg.error.dek_name", source=source, line=number))
        if not quantity.isdigit() or _copies(quantity, source, number) < 1:
            raise DataError(t("mtg.error.dek_quantity", source=source, line=number, card=name, quantity=quantity))
        entry = DeckEntry(int(quantity), name, number, set_code=None, number=element.get("CatID"))
        is_side = element.get("Sideboard", "false").strip().casefold() == "true"
        (side if is_side else main).append(entry)
    if not main:
        raise DataError(t("mtg.error.dek_empty", source=source))
    return Decklist(tuple(main), tuple(side), source, "dek")


def _find_line(lines: list[str], name: str, start: int) -> tuple[int, int]:
    """The 1-based line of the next <Cards ...> mentioning `name` (ElementTree keeps no positions)."""
    escaped = name.replace("&", "&amp;").replace("'", "&apos;").replace('"', "&quot;")
    for index in range(start, len(lines)):
        if "<Cards" in lines[index] and (name in lines[index] or escaped in lines[index]):
            return index + 1, index + 1
    return start + 1, start


def build_library(decklist: Decklist, index: FactsIndex) -> list[CardFacts]:
    """The main deck as card facts in list order (shuffle it with the session RNG afterwards).

    Every unknown card of the main deck is reported at once, each with its line and close matches."""
    library: list[CardFacts] = []
    unknown: list[str] = []
    for entry in decklist.main:
        card = index.find(entry.name)
        if card is None:
            close = index.close_names(entry.name)
            hint = t("mtg.error.maybe", names=", ".join(repr(name) for name in close)) if close else ""
            unknown.append(t("mtg.error.unknown_card_line", line=entry.line, card=entry.name, hint=hint))
            continue
        library.extend([card] * entry.count)
    if unknown:  # one line naming every unknown card, so one fix-up round is enough
        raise NotFoundError(t("mtg.error.unknown_cards", source=decklist.source, count=len(unknown),
                              index=index.source, cards=" · ".join(unknown), hint=t("mtg.error.load_card_data")))
    return library


@dataclass(frozen=True)
class Composition:
    """What a loaded library holds, to catch a wrong split at a glance (cards, lands, colours, sideboard)."""

    cards: int
    lands: int
    colours: tuple[str, ...]
    sideboard: int

    @property
    def warnings(self) -> tuple[str, ...]:
        """Keys of mtg.deck.warn.*: no lands, a sideboard larger than the library."""
        found = []
        if self.cards and not self.lands:
            found.append("no_lands")
        if self.sideboard > self.cards:
            found.append("side_larger")
        return tuple(found)

    def to_dict(self) -> dict:
        return {"cards": self.cards, "lands": self.lands, "colours": list(self.colours),
                "sideboard": self.sideboard}


def composition(library: list[CardFacts], sideboard: int = 0) -> Composition:
    colours = {colour for card in library for colour in card.colours}
    return Composition(len(library), sum(card.is_land for card in library),
                       tuple(c for c in COLOURS if c in colours), sideboard)
