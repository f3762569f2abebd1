"""Decklists: MTG Arena export, MTGO text and MTGO .dek XML -> entries; the main deck is the library.

Every error names the file and line. XML is parsed with xml.etree after refusing any DOCTYPE or
entity declaration, so a .dek file can never pull in external or recursively expanded entities.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from gamekernel.errors import DataError
from gamekernel.i18n import t
from gamekernel.systems.mtg.facts import CardFacts, FactsIndex
from gamekernel.text import half_width, match_key

FORMATS = ("arena", "mtgo", "dek")
MAIN_HEADERS = {"deck", "main", "maindeck", "mainboard", "main deck"}
SIDE_HEADERS = {"sideboard", "side", "sb", "sideboard:"}
OTHER_HEADERS = {"commander", "companion", "maybeboard", "considering", "tokens"}
_LINE = re.compile(
    r"^(?P<count>\d+)\s*[xX]?\s+(?P<name>.+?)"
    r"(?:\s+[(\[](?P<set>[A-Za-z0-9_]{2,8})[)\]](?:\s+(?P<number>[^\s*#]+))?)?"
    r"(?P<foil>\s+\*[FE]\*)?(?:\s+#.*)?\s*$"
)


@dataclass(frozen=True)
class DeckEntry:
    count: int
    name: str
    line: int
    set_code: str | None = None
    number: str | None = None
    foil: bool = False


@dataclass(frozen=True)
class Decklist:
    main: tuple[DeckEntry, ...]
    sideboard: tuple[DeckEntry, ...] = ()
    source: str = "<text>"
    fmt: str = "mtgo"
    name: str | None = None

    @property
    def main_count(self) -> int:
        return sum(entry.count for entry in self.main)

    @property
    def sideboard_count(self) -> int:
        return sum(entry.count for entry in self.sideboard)

    def __str__(self) -> str:
        name = f"{self.name} " if self.name else ""
        return f"{name}({self.source}, {self.fmt}): {self.main_count} main, {self.sideboard_count} sideboard"


def detect_format(text: str) -> str:
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith("<"):
        return "dek"
    for raw in stripped.splitlines():
        line = match_key(raw)
        if line in MAIN_HEADERS | SIDE_HEADERS | OTHER_HEADERS | {"about"} or _looks_arena(raw):
            return "arena"
    return "mtgo"


def _looks_arena(line: str) -> bool:
    match = _LINE.match(line.strip())
    return bool(match and match["set"])


def parse_decklist(text: str, source: str = "<text>", fmt: str | None = None) -> Decklist:
    """Parse a decklist in any supported format (detected when `fmt` is None)."""
    fmt = fmt or detect_format(text)
    if fmt == "dek":
        return _parse_dek(text, source)
    if fmt not in FORMATS:
        raise DataError(t("mtg.error.deck_format", source=source, fmt=fmt, formats=", ".join(FORMATS)))
    return _parse_text(text, source, fmt)


def read_decklist(path: str | Path, fmt: str | None = None) -> Decklist:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise DataError(t("mtg.error.deck_read", path=path, reason=error.strerror or error)) from error
    return parse_decklist(text, path.name, fmt)


def _parse_text(text: str, source: str, fmt: str) -> Decklist:
    sections: dict[str, list[DeckEntry]] = {"main": [], "side": [], "other": []}
    has_headers = fmt == "arena" and any(
        match_key(raw) in MAIN_HEADERS | SIDE_HEADERS | OTHER_HEADERS for raw in text.splitlines())
    section = "main"
    name = None
    in_about = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = half_width(raw).strip()
        folded = match_key(line)
        if not line:
            in_about = False
            if not has_headers and sections["main"] and section == "main":
                section = "side"  # a blank line starts the sideboard (MTGO, old Arena exports)
            continue
        if line.startswith(("//", "#")):
            continue
        if folded == "about":
            in_about = True
            continue
        if in_about:
            if folded.startswith("name "):
                name = line[5:].strip()
            continue
        if folded in MAIN_HEADERS:
            section = "main"
            continue
        if folded in SIDE_HEADERS:
            section = "side"
            continue
        if folded in OTHER_HEADERS:
            section = "other"  # commander / companion are not in the library
            continue
        target = section
        if folded.startswith("sb:"):
            target, line = "side", line[3:].strip()
        sections[target].append(_entry(line, number, source))
    if not sections["main"]:
        raise DataError(t("mtg.error.deck_empty", source=source))
    return Decklist(tuple(sections["main"]), tuple(sections["side"]), source, fmt, name)


def _entry(line: str, number: int, source: str) -> DeckEntry:
    match = _LINE.match(line)
    if not match:
        raise DataError(t("mtg.error.deck_line", source=source, line=number, text=line[:60]))
    count = int(match["count"])
    if count < 1:
        raise DataError(t("mtg.error.deck_count", source=source, line=number, count=count))
    return DeckEntry(count, match["name"].strip(), number, match["set"], match["number"],
                     bool(match["foil"]))


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
        if not quantity.isdigit() or int(quantity) < 1:
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
    """The main deck as card facts in list order (shuffle it with the session RNG afterwards)."""
    library: list[CardFacts] = []
    for entry in decklist.main:
        card = index.lookup(entry.name, f"{decklist.source}:{entry.line}")
        library.extend([card] * entry.count)
    return library
