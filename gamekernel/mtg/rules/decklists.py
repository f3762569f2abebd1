"""Decklists as people paste them -> entries; the main deck is the library.

Formats: MTG Arena export, MTGO .txt and .dek XML, the site exports built on them (Moxfield,
Archidekt, MTGGoldfish), Cockatrice .cod, Magic Workstation .mwDeck (`4 [M14] Mutavault`,
`SB:  2 [THS] Glare of Heresy`), OCTGN .o8d (`<deck><section name="Main"><card qty="4">...`), and the
.dck files of the two free clients as they write them: XMage (`NAME:`, `4 [M10:185] Llanowar Elves`,
`SB: 2 [M10:12] Duress`, `LAYOUT ...`) and Forge (`[metadata]`, `[Main]`, `[Sideboard]`, `[Commander]` ...
sections, `4 Llanowar Elves|M10|1`).
Section headers (`Deck`, `Sideboard:`, `Commander`, `// Sideboard` ...) and
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
from dataclasses import dataclass, replace
from pathlib import Path

from gamekernel import limits
from gamekernel.errors import DataError, NotFoundError
from gamekernel.i18n import t
from gamekernel.mtg.rules.facts import COLOURS, CardFacts, FactsIndex, bundled_facts, strip_name_brackets
from gamekernel.text import half_width

FORMATS = ("arena", "mtgo", "dek", "cockatrice", "octgn", "mwdeck", "moxfield", "archidekt", "mtggoldfish", "xmage",
           "forge", "text")
MAIN, SIDE, COMMANDER, OTHER = "main", "side", "commander", "other"
# The words MTG Arena writes above each section when it exports a deck in its other client languages
# (French, German, Italian, Spanish, Portuguese, Russian, Korean, Japanese, Chinese): deck, sideboard,
# commander, companion. Sourced: z33kz33k/mtg mtg/deck/arena.py (both stored versions) reads Mazo,
# Comandante, Companheiro and Reserva in pasted Arena lists; デッキ / サイドボード / 統率者 / コマンダー
# come from a Japanese Arena list writer seen earlier. Not yet sourced (kept: nothing found says they
# are wrong): the French, German, Italian, Korean, Russian and Chinese words; Russian deck tools do
# head sections Сайдборд / Командир, and Chinese deck sites 备牌, but as their own words, not Arena's.
ARENA_LOCALISED = {
    MAIN: ("mazo", "mazzo", "колода", "덱", "デッキ", "套牌"),
    SIDE: ("réserve", "banquillo", "reserva", "сайдборд", "사이드보드", "サイドボード", "备牌", "備牌"),
    COMMANDER: ("commandant", "kommandeur", "comandante", "командир", "커맨더", "統率者", "コマンダー", "指挥官",
                "指揮官"),
    "companion": ("compagnon", "gefährte", "compagno", "compañero", "companheiro", "компаньон", "동료", "相棒",
                  "伙伴", "夥伴"),
}
# Section headers, compared after NFKC, case folding and dropping a trailing ':' or '(15)' and the
# '==' or '--' around a `// == Commander ==` group title.
SECTION_HEADERS = {
    **dict.fromkeys(("deck", "main", "maindeck", "mainboard", "main deck", "main board",
                     "メイン", "メインデッキ", *ARENA_LOCALISED[MAIN]), MAIN),
    **dict.fromkeys(("sideboard", "side", "sb", "side board", "サイド", *ARENA_LOCALISED[SIDE]), SIDE),
    **dict.fromkeys(("commander", "commanders", *ARENA_LOCALISED[COMMANDER]), COMMANDER),
    **dict.fromkeys(("companion", "companions", *ARENA_LOCALISED["companion"]), OTHER),
    **dict.fromkeys(("maybeboard", "maybe", "considering", "tokens", "attractions", "stickers"), OTHER),
}
# The small groups a list names before its main deck: the next `//` group or blank line ends them.
LEAD_GROUPS = {*dict.fromkeys(("commander", "commanders", *ARENA_LOCALISED[COMMANDER])),
               *dict.fromkeys(("companion", "companions", *ARENA_LOCALISED["companion"]))}
# XMage's own card line (its DckDeckImporter): count, [SET:number], name; `SB: ` before it for the sideboard.
_XMAGE_LINE = re.compile(
    r"^(?P<side>SB:\s*)?(?P<count>\d+)\s*\[(?P<set>[^\]:]+):(?P<number>[^\]:]*)\]\s*(?P<name>.+?)\s*$")
_XMAGE_INFO = ("NAME:", "AUTHOR:", "LAYOUT")  # NAME:deck name; AUTHOR: and the editor's LAYOUT lines carry no cards
_XMAGE_NOTE = re.compile(r"^(?!SB:)[A-Z][A-Z ]*:")  # other header notes of shared lists: `EVENT: ...`, `DATE: ...`
# Forge's sections (its DeckSection names, compared case-blind): which part of the deck each one is.
FORGE_SECTIONS = {"main": MAIN, "sideboard": SIDE, "commander": COMMANDER,
                  **dict.fromkeys(("avatar", "planes", "schemes", "conspiracy", "dungeon", "attractions",
                                   "contraptions"), OTHER)}
_XMAGE_SECTIONS = {"main": MAIN, "sideboard": SIDE, "commander": COMMANDER, "companion": OTHER}
_FORGE_HEADER = re.compile(r"^\[(?P<section>[^\[\]]+)\]$")
_FORGE_LINE = re.compile(r"^(?:(?P<count>\d+)\s+)?(?P<request>\S.*?)\s*$")
_HEADER_TAIL = re.compile(r"\s*(?:\(\d+\)|:)\s*$")
_HEADER_RULE = re.compile(r"^[=\-~*#\s]+|[=\-~*#\s]+$")  # `== Commander ==`, `-- Sideboard --`
_LINE = re.compile(
    r"^(?P<count>\d+)\s*(?:[xX×]\s+|\s+|(?=《))(?:\[(?P<mwset>[A-Za-z0-9_]{1,8})\]\s*)?(?P<name>.+?)"
    r"(?:\s+\((?P<set>[A-Za-z0-9_]{2,8})\)(?:\s+(?P<number>[^\s\[\]<>*#^]+))?)?"  # (M21) 123
    r"(?:\s+<(?P<variant>[^<>]*)>)?"  # MTGGoldfish: <variant or number> [SET]
    r"(?:\s+\[(?P<bracket>[^\[\]]*)\](?:\s+(?P<number2>[^\s\[\]<>*#^]+))?)?"  # [SET] 290 or [Category]
    r"(?P<foil>\s+\*[FE]\*)?"  # foil / etched
    r"(?:\s+\[(?P<category>[^\[\]]*)\])?"  # Archidekt: *F* [Category]
    r"(?:\s+\^[^^]*\^)*"  # Archidekt tags ^Have,#37d67a^
    r"(?:\s+#.*)?\s*$"
)
_MWDECK_LINE = re.compile(r"^(?:SB:\s*)?\d+\s+\[[A-Za-z0-9_]{1,8}\]\s*\S")  # Magic Workstation: set before name
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
    other: tuple[DeckEntry, ...] = ()  # companion, maybeboard, planes ...: not in the library
    commander: tuple[DeckEntry, ...] = ()  # the command zone: not in the library either
    detected: bool = True  # False when `--format` chose the format
    warnings: tuple[str, ...] = ()  # one line each, already translated (a file that was not UTF-8)

    @property
    def main_count(self) -> int:
        return sum(entry.count for entry in self.main)

    @property
    def sideboard_count(self) -> int:
        return sum(entry.count for entry in self.sideboard)

    def __str__(self) -> str:
        name = f"{self.name} " if self.name else ""
        return f"{name}({self.source}, {self.fmt}): {self.main_count} main, {self.sideboard_count} sideboard"


def header_word(line: str) -> str:
    """A possible header line reduced to its word: '// == Commander (1) ==' -> 'commander'."""
    text = half_width(line).strip().removeprefix("//").strip()
    text = _HEADER_RULE.sub("", text)
    return _HEADER_RULE.sub("", _HEADER_TAIL.sub("", text)).casefold()


def section_of(line: str) -> str | None:
    """The section a header line opens ('Deck', 'SIDEBOARD:', '// Sideboard', '// == Commander ==',
    'Banquillo', 'サイドボード'), else None."""
    return SECTION_HEADERS.get(header_word(line))


def detect_format(text: str) -> str:
    """A label for what the text looks like: 'dek' (XML), 'forge' (its [Main] / [metadata] sections or
    `Name|SET` lines), 'xmage' (`[SET:number]` lines, NAME:), 'archidekt', 'arena' (headers or set codes),
    else 'mtgo'. Parsing depends on it only for 'dek', 'forge' and 'xmage'."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith("<"):
        head = stripped[:4096]
        return "cockatrice" if "<cockatrice_deck" in head else "octgn" if re.search(r"<deck[\s>]", head) else "dek"
    lines = [half_width(raw).strip() for raw in stripped.splitlines()]
    xmage = any(_XMAGE_LINE.match(line) for line in lines)  # `1 [C16:34] Kraum` is XMage under any header
    if not xmage and any(_is_forge_line(line) for line in lines):
        return "forge"
    if xmage or any(line.startswith(_XMAGE_INFO) for line in lines):
        return "xmage"
    if any(_MWDECK_LINE.match(line) for line in lines):
        return "mwdeck"
    matches = [_LINE.match(line) for line in lines]
    if any(m and (m["category"] is not None or (m["bracket"] and not _BRACKET_SET.fullmatch(m["bracket"])))
           for m in matches):
        return "archidekt"
    if any(line.casefold() == "about" or (section_of(line) and not line.startswith("//")) for line in lines):
        return "arena"
    if any(m and m["set"] for m in matches):
        return "arena"
    return "mtgo"


def _is_forge_line(line: str) -> bool:
    """A Forge section header (`[Main]`, `[metadata]`) or card request (`4 Llanowar Elves|M10|1`)."""
    header = _FORGE_HEADER.match(line)
    if header:
        return header["section"].strip().casefold() in {*FORGE_SECTIONS, "metadata"}
    return bool(re.match(r"^\d+\s+[^|\[\]]+\|", line))


def parse_decklist(text: str, source: str = "<text>", fmt: str | None = None) -> Decklist:
    """Parse a decklist in any supported format (detected when `fmt` is None, else forced)."""
    lines = text.count("\n") + 1
    if lines > limits.current().max_lines:  # checked before any line is read (text given directly too)
        raise DataError(t("limits.err.lines", file=source, lines=lines, limit=limits.current().max_lines))
    detected = fmt is None
    fmt = detect_format(text) if fmt is None else fmt.strip().casefold()
    if fmt not in FORMATS:
        raise DataError(t("mtg.err.deck_format", source=source, fmt=limits.quoted_line(fmt),
                          formats=", ".join(FORMATS)))
    parser = {"dek": _parse_xml, "cockatrice": _parse_xml, "octgn": _parse_xml, "xmage": _parse_xmage,
              "forge": _parse_forge}.get(fmt)
    deck = parser(text, source) if parser else _parse_text(text, source, fmt)
    return replace(deck, detected=detected)


def is_url(source: str) -> bool:
    """A web address given where a decklist file was expected (`https://moxfield.com/decks/...`)."""
    return re.match(r"^\s*(?:[a-z][a-z0-9+.-]*://|www\.)", source, re.IGNORECASE) is not None


def read_decklist(path: str | os.PathLike[str], fmt: str | None = None) -> Decklist:
    """A decklist file; one that is not UTF-8 (old Forge and MTGO files) is read as Windows-1252, with a
    warning naming the first line that was not UTF-8."""
    path = Path(path)
    try:
        text, legacy_line = limits.read_text_or_legacy(path)
    except OSError as error:
        raise DataError(t("mtg.err.deck_read", path=path, reason=error.strerror or error)) from error
    deck = parse_decklist(text, path.name, fmt)
    if legacy_line is None:
        return deck
    warning = t("mtg.deck.warn.cp1252", source=path.name, line=legacy_line)
    return replace(deck, warnings=(*deck.warnings, warning))


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
        raise DataError(t("mtg.err.deck_empty", source=source))
    grouped = any(line.kind == "header" for line in lines) or any(
        line.kind == "comment" and line.text.startswith("//") and line.number > first_card for line in lines)
    sections = _empty_sections()
    if grouped:  # headers or `// Group` comments: a blank line only separates groups
        section, lead = MAIN, False
        for line in lines:
            if line.kind == "header":
                section = line.section or MAIN
                lead = header_word(line.text) in LEAD_GROUPS
            elif lead and sections[section] and (line.kind == "blank" or (
                    line.kind == "comment" and line.text.startswith("//"))):
                section, lead = MAIN, False  # `// COMMANDER (1)` then `// Creatures (30)`: the deck again
            elif line.kind == "card":
                target, entry = _card(line, source)
                sections[target or section].append(entry)
    else:  # MTGO / old Arena: main deck, a blank line, the sideboard
        blocks = _blocks(lines)
        if len(blocks) > 2 or (len(blocks) == 2 and _count(blocks[1]) > _count(blocks[0])):
            raise DataError(t("mtg.err.deck_layout", source=source, blocks=len(blocks),
                              lines="; ".join(_block_label(block) for block in blocks)))
        for place, block in zip((MAIN, SIDE), blocks, strict=False):
            for line in block:
                target, entry = _card(line, source)
                sections[target or place].append(entry)
    name = next((line.text for line in lines if line.kind == "name"), None)
    return _decklist(sections, source, fmt, name)


def _empty_sections() -> dict[str, list[DeckEntry]]:
    return {MAIN: [], SIDE: [], COMMANDER: [], OTHER: []}


def _decklist(sections: dict[str, list[DeckEntry]], source: str, fmt: str, name: str | None) -> Decklist:
    """The parsed sections as a Decklist; a list without main-deck cards is refused."""
    if not sections[MAIN]:
        raise DataError(t("mtg.err.deck_empty", source=source))
    return Decklist(tuple(sections[MAIN]), tuple(sections[SIDE]), source, fmt, name, tuple(sections[OTHER]),
                    tuple(sections[COMMANDER]))


def _parse_xmage(text: str, source: str) -> Decklist:
    """XMage .dck: `NAME:`, `4 [M10:185] Llanowar Elves`, `SB: 2 [M10:12] Duress`, `LAYOUT ...` (the deck
    editor's piles, no cards of their own); `#` and `//` comments (old XMage files open with
    `//Created with Mage`). A plain `4 Forest` line is read as elsewhere. Commander lists written in
    this style may group the lines under `[COMMANDER]`, `[COMPANION]`, `[MAIN]`, `[SIDEBOARD]` headers:
    each header names its part of the deck, as Forge's sections do."""
    sections = _empty_sections()
    name, section = None, MAIN
    for number, raw in enumerate(text.splitlines(), 1):
        line = half_width(raw).strip()
        if line.startswith("NAME:"):
            name = line[5:].strip() or None
            continue
        header = _FORGE_HEADER.match(line)
        if header:
            section = _XMAGE_SECTIONS.get(header["section"].strip().casefold(), OTHER)
            continue
        if not line or line.startswith(("#", "//", *_XMAGE_INFO[1:])) or _XMAGE_NOTE.match(line):
            continue
        match = _XMAGE_LINE.match(line)
        if match is None:
            target, entry = _card(_Line(number, "card", line), source)
            sections[target or section].append(entry)
            continue
        count = _counted(match["count"], source, number)
        entry = DeckEntry(count, strip_name_brackets(match["name"]), number, match["set"].strip(),
                          match["number"].strip() or None)
        sections[SIDE if match["side"] else section].append(entry)
    return _decklist(sections, source, "xmage", name)


def _parse_forge(text: str, source: str) -> Decklist:
    """Forge .dck: `[metadata]` with `Name=`, then card sections (`[Main]`, `[Sideboard]`, `[Commander]`,
    `[Planes]` ...; other sections such as `[shop]` carry no cards); card lines `4 Llanowar Elves|M10|1`
    (name|set|art index|[collector number], a `+` after the name for foil); `;` and `#` comments."""
    sections = _empty_sections()
    name, section = None, None  # cards before any header are the main deck's
    for number, raw in enumerate(text.splitlines(), 1):
        line = half_width(raw).strip()
        if not line or line.startswith((";", "#")):
            continue
        header = _FORGE_HEADER.match(line)
        if header:
            section = header["section"].strip().casefold()
            continue
        if section == "metadata":
            name = _forge_metadata(line, number, source, name)
            continue
        if section is not None and section not in FORGE_SECTIONS:
            continue
        sections[FORGE_SECTIONS.get(section or "", MAIN)].append(_forge_entry(line, number, source))
    return _decklist(sections, source, "forge", name)


def _forge_metadata(line: str, number: int, source: str, name: str | None) -> str | None:
    """A `[metadata]` line: `Name=` names the deck; a card line there is refused (Forge reads cards
    only under a card section, so the deck would silently lose it)."""
    key, sep, value = line.partition("=")
    if not sep and re.match(r"^\d+\s+\S", line):
        raise DataError(t("mtg.err.forge_card_in_metadata", source=source, line=number, text=line[:60]))
    return value.strip() if key.strip().casefold() == "name" and value.strip() else name


def _forge_entry(line: str, number: int, source: str) -> DeckEntry:
    """`4 Llanowar Elves|M10|1` -> an entry (no count means one copy, as Forge reads it)."""
    match = _FORGE_LINE.match(line)
    if match is None:
        raise DataError(t("mtg.err.deck_line", source=source, line=number, text=line[:60]))
    count = _counted(match["count"] or "1", source, number)
    name, *rest = (part.strip() for part in match["request"].split("|"))
    set_code = rest[0] if rest and rest[0] and not rest[0].isdigit() else None
    collector = next((part.strip("[]") for part in rest if part.startswith("[")), None)
    foil = name.endswith("+")
    name = strip_name_brackets(name.removesuffix("+").strip())
    if not name:
        raise DataError(t("mtg.err.deck_line", source=source, line=number, text=line[:60]))
    return DeckEntry(count, name, number, set_code, collector, foil)


def _counted(text: str, source: str, line: int) -> int:
    """A line's count, refused when 0 or above the limit."""
    count = _copies(text, source, line)
    if count < 1:
        raise DataError(t("mtg.err.deck_count", source=source, line=line, count=count))
    return count


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


_COMMANDER_MARK = re.compile(r"\s+\*CMDR\*\s*$", re.IGNORECASE)  # TappedOut / MTGO-style `1x Atraxa *CMDR*`


def _card(line: _Line, source: str) -> tuple[str | None, DeckEntry]:
    """A card line -> (the section it forces, if any, and the entry)."""
    side, text = _strip_sb(line.text)
    commander = _COMMANDER_MARK.search(text) is not None
    entry = _entry(_COMMANDER_MARK.sub("", text), line.number, source)
    forced = SIDE if side else COMMANDER if commander else _category_section(entry.category)
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
        raise DataError(t("mtg.err.deck_line", source=source, line=number, text=line[:60]))
    count = _counted(match["count"], source, number)
    set_code, category, bracket = match["set"] or match["mwset"], match["category"], match["bracket"]
    if bracket is not None:
        if set_code is None and _BRACKET_SET.fullmatch(bracket):
            set_code = bracket
        else:
            category = bracket if category is None else f"{bracket},{category}"
    return DeckEntry(count, strip_name_brackets(match["name"]), number, set_code,
                     match["number"] or match["number2"] or match["variant"], bool(match["foil"]), category)


def _parse_xml(text: str, source: str) -> Decklist:
    """An XML decklist, read by its root: MTGO's .dek (`<Deck>`) or Cockatrice's .cod (`<cockatrice_deck>`)."""
    if re.search(r"<!(DOCTYPE|ENTITY)", text, re.IGNORECASE):
        raise DataError(t("mtg.err.dek_doctype", source=source))
    try:
        root = ET.fromstring(text.lstrip("\ufeff"))
    except ET.ParseError as error:
        line, column = error.position
        raise DataError(t("mtg.err.dek_xml", source=source, line=line, column=column + 1)) from error
    if root.tag == "cockatrice_deck":
        return _parse_cockatrice(root, text, source)
    if root.tag == "deck":
        return _parse_octgn(root, text, source)
    if root.tag != "Deck":
        raise DataError(t("mtg.err.dek_root", source=source, tag=root.tag[:40]))
    return _parse_dek(root, text, source)


def _parse_cockatrice(root: ET.Element, text: str, source: str) -> Decklist:
    """Cockatrice .cod as its DeckList writes it: `<deckname>`, then `<zone name="main|side|tokens">`
    holding `<card number="4" name="Llanowar Elves" .../>`; a zone other than main or side is not played."""
    lines = text.splitlines()
    sections = _empty_sections()
    search_from = 0
    for zone in root.iter("zone"):
        place = {"main": MAIN, "side": SIDE}.get(zone.get("name", "").strip().casefold(), OTHER)
        for element in zone.iter("card"):
            name = element.get("name", "").strip()
            number, search_from = _find_line(lines, name, search_from, "<card")
            quantity = element.get("number", "").strip()
            if not name:
                raise DataError(t("mtg.err.cod_name", source=source, line=number))
            if not quantity.isdigit() or _copies(quantity, source, number) < 1:
                raise DataError(t("mtg.err.cod_quantity", source=source, line=number, card=name[:60],
                                  quantity=quantity[:12]))
            sections[place].append(DeckEntry(int(quantity), name, number, element.get("setShortName") or None,
                                             element.get("collectorNumber") or None))
    deck_name = (root.findtext("deckname") or "").strip() or None
    return _decklist(sections, source, "cockatrice", deck_name)


# OCTGN's Magic section names: which part of the deck each one is (others, e.g. Planes, are not played).
_OCTGN_SECTIONS = {"main": MAIN, "sideboard": SIDE, "command zone": COMMANDER, "commander": COMMANDER}


def _parse_octgn(root: ET.Element, text: str, source: str) -> Decklist:
    """OCTGN .o8d: `<deck game=...>` holding `<section name="Main|Sideboard|Command Zone|...">` with
    `<card qty="4" id="...">Llanowar Elves</card>` (the name is the element's text)."""
    lines = text.splitlines()
    sections = _empty_sections()
    search_from = 0
    for section in root.iter("section"):
        place = _OCTGN_SECTIONS.get(section.get("name", "").strip().casefold(), OTHER)
        for element in section.iter("card"):
            name = (element.text or "").strip()
            number, search_from = _find_line(lines, name, search_from, "<card")
            quantity = element.get("qty", "").strip()
            if not name:
                raise DataError(t("mtg.err.o8d_name", source=source, line=number))
            if not quantity.isdigit() or _copies(quantity, source, number) < 1:
                raise DataError(t("mtg.err.o8d_quantity", source=source, line=number, card=name[:60],
                                  quantity=quantity[:12]))
            sections[place].append(DeckEntry(int(quantity), name, number))
    return _decklist(sections, source, "octgn", None)


def _parse_dek(root: ET.Element, text: str, source: str) -> Decklist:
    lines = text.splitlines()
    main: list[DeckEntry] = []
    side: list[DeckEntry] = []
    search_from = 0
    for element in root.iter("Cards"):
        name = element.get("Name", "").strip()
        number, search_from = _find_line(lines, name, search_from, "<Cards")
        quantity = element.get("Quantity", "")
        if not name:
            raise DataError(t("mtg.err.dek_name", source=source, line=number))
        if not quantity.isdigit() or _copies(quantity, source, number) < 1:
            raise DataError(t("mtg.err.dek_quantity", source=source, line=number, card=name, quantity=quantity))
        entry = DeckEntry(int(quantity), name, number, set_code=None, number=element.get("CatID"))
        is_side = element.get("Sideboard", "false").strip().casefold() == "true"
        (side if is_side else main).append(entry)
    if not main:
        raise DataError(t("mtg.err.dek_empty", source=source))
    return Decklist(tuple(main), tuple(side), source, "dek")


def _find_line(lines: list[str], name: str, start: int, tag: str) -> tuple[int, int]:
    """The 1-based line of the next `tag` element mentioning `name` (ElementTree keeps no positions)."""
    escaped = name.replace("&", "&amp;").replace("'", "&apos;").replace('"', "&quot;")
    for index in range(start, len(lines)):
        if tag in lines[index] and (name in lines[index] or escaped in lines[index]):
            return index + 1, index + 1
    return start + 1, start


UNKNOWN_SHOWN = 10  # unknown cards named in the error; the rest are counted ("… and 44 more")


def build_library(decklist: Decklist, index: FactsIndex) -> list[CardFacts]:
    """The main deck as card facts in list order (shuffle it with the session RNG afterwards).

    Every unknown card of the main deck is reported at once, one per line with its line number and
    close matches (the first UNKNOWN_SHOWN of them, then how many more), so one fix-up round is enough."""
    library: list[CardFacts] = []
    unknown: list[DeckEntry] = []
    for entry in decklist.main:
        card = index.find(entry.name)
        if card is None:
            unknown.append(entry)
            continue
        library.extend([card] * entry.count)
    if unknown:
        raise NotFoundError(unknown_cards_message(decklist.source, unknown, index))
    return library


def unknown_cards_message(source: str, unknown: list[DeckEntry], index: FactsIndex) -> str:
    """The header, one indented line per unknown card (at most UNKNOWN_SHOWN), the rest as a count,
    and what to load."""
    lines = [t("mtg.err.unknown_cards", source=source, count=len(unknown), index=index.source)]
    for entry in unknown[:UNKNOWN_SHOWN]:
        close = index.close_names(entry.name)
        hint = t("mtg.err.maybe", names=", ".join(repr(name) for name in close)) if close else ""
        lines.append("  " + t("mtg.err.unknown_card_line", line=entry.line, card=limits.quoted_line(entry.name),
                              hint=hint))
    if len(unknown) > UNKNOWN_SHOWN:
        lines.append("  " + t("mtg.err.unknown_more", count=len(unknown) - UNKNOWN_SHOWN))
    # only the bundled facts can lack a real card; with card data loaded the names are misspelt or newer
    lines.append(t("mtg.err.need_card_data") if index is bundled_facts() else
                 t("mtg.err.not_in_card_data", index=index.source))
    return "\n".join(lines)


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
