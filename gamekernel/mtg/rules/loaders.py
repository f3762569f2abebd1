"""Loaders for full card data a user downloads: MTGJSON v5 AtomicCards.json and Scryfall oracle bulk.

These files are 100+ MB, so they are parsed incrementally (json.JSONDecoder.raw_decode over
chunks: one card at a time, never the whole document in memory) with a progress callback, reduced
to card facts (with the Japanese printed name when the file carries one: MTGJSON `foreignData`,
Scryfall `lang: "ja"` printings with `printed_name`), and cached as a compact JSON-lines index in a
user cache folder; the next load of the same file (same size and modification time) reads only the index.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import io
import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path
from typing import IO, Any

from gamekernel import limits
from gamekernel.errors import DataError
from gamekernel.events import gc_paused
from gamekernel.i18n import t
from gamekernel.mtg.rules.facts import SUPERTYPES, CardFacts, FactsIndex, order_colours

Progress = Callable[[int, int], None]  # (bytes read, total bytes)
CHUNK = 1 << 20
INDEX_VERSION = 3  # 2: rows carry the Japanese name; 3: each row its name and alias keys (bump when name_key changes)
JAPANESE = "Japanese"
CACHE_ENV = "GAMEKERNEL_CACHE_DIR"
SPLIT_LAYOUTS = {"split", "aftermath"}
SKIPPED_LAYOUTS = {"token", "double_faced_token", "emblem", "art_series", "vanguard", "scheme",
                   "planar", "reversible_card"}
_BLANKS = re.compile(r"[ \t\r\n]*")
_KEY_START = re.compile(r'[ \t\r\n]*"')
_COLON = re.compile(r"[ \t\r\n]*:[ \t\r\n]*")
_AFTER_MEMBER = re.compile(r"[ \t\r\n]*([,}])")
_ITEM_START = re.compile(r"[ \t\r\n]*")
_AFTER_ITEM = re.compile(r"[ \t\r\n]*([,\]])")
BOMB_RATIO = 30  # decompressed / compressed: real card JSON is 5-15; more is a decompression bomb


class _Stream:
    """A text buffer over a (possibly gzipped) file that pulls chunks on demand and reports progress."""

    def __init__(self, raw: IO[bytes], text: IO[str], total: int, progress: Progress | None, name: str):
        self.raw, self.text, self.total, self.progress, self.name = raw, text, total, progress, name
        self.buffer = ""
        self.pos = 0
        self.eof = False
        self.decoder = json.JSONDecoder()
        self.read = 0  # characters read (decompressed): bounded, never only the file's size on disk
        bound = limits.current().max_data_file_mb * 1_000_000
        self.limit = min(bound, BOMB_RATIO * total + CHUNK) if text is not raw else bound
        self.value_limit = limits.current().max_data_value_kb * 1_000
        self.items = 0  # keys and array items read: bounded by max_data_cards

    def more(self) -> bool:
        if self.eof:
            return False
        chunk = self.text.read(CHUNK)
        if not chunk:
            self.eof = True
            return False
        self.read += len(chunk)
        if self.read > self.limit:
            limit = limits.current().max_data_file_mb
            raise DataError(t("limits.err.data_decompressed", file=self.name, size=f"{self.total / 1_000_000:.1f}",
                              limit=min(limit, round(self.limit / 1_000_000)), option="max_data_file_mb"))
        self.buffer = self.buffer[self.pos:] + chunk
        self.pos = 0
        if self.progress:
            self.progress(min(self.raw.tell(), self.total), self.total)
        return True

    def peek(self) -> str:
        """The next non-whitespace character ('' at the end of the file)."""
        while True:
            self.pos = _BLANKS.match(self.buffer, self.pos).end()  # type: ignore[union-attr]  # C speed
            if self.pos < len(self.buffer):
                return self.buffer[self.pos]
            if not self.more():
                return ""

    def expect(self, chars: str) -> str:
        char = self.peek()
        if char == "" or char not in chars:
            found = repr(char) if char else repr(t("mtg.err.end_of_file"))
            raise DataError(t("mtg.err.json_expect", file=self.name, byte=self.raw.tell(),
                              expected=t("mtg.or").join(repr(c) for c in chars), found=found))
        self.pos += 1
        return char

    def value(self) -> object:
        """Decode the next JSON value, reading more chunks while it is incomplete."""
        self.peek()
        while True:
            try:
                value, end = self.decoder.raw_decode(self.buffer, self.pos)
            except json.JSONDecodeError as error:
                if len(self.buffer) - self.pos > self.value_limit:  # decoded again at each chunk: bounded
                    at = self.read - len(self.buffer) + self.pos
                    raise DataError(t("limits.err.data_value", file=self.name, byte=at,
                                      limit=self.value_limit // 1_000, option="max_data_value_kb")) from None
                if self.more():
                    continue
                raise DataError(t("mtg.err.json", file=self.name, reason=error.msg)) from error
            # A number could be cut at the chunk edge: make sure something follows it.
            if end >= len(self.buffer) and not self.eof and self.more():
                continue
            self.pos = end
            return value

    def scanner(self) -> Callable[[str, int], tuple[Any, int]]:
        """The decoder's C scanner: one JSON value at an index, without `raw_decode`'s Python steps (a
        value that starts with '"' is a str)."""
        return self.decoder.scan_once  # type: ignore[attr-defined]  # not in the stubs

    def object_items(self) -> Iterator[tuple[str, object | None]]:
        """Iterate the keys of the object at the cursor; the caller consumes or skips each value. The
        file's top-level keys ('meta', 'data'): not cards, so not counted (the size limits bound them)."""
        self.expect("{")
        if self.peek() == "}":
            self.pos += 1
            return
        while True:
            key = self.value()
            self.expect(":")
            yield str(key), None
            if self.expect(",}") == "}":
                return

    def object_members(self) -> Iterator[tuple[str, object]]:
        """Iterate the (key, value) members of the object at the cursor, each counted before its value is
        decoded: a file of two million cards is refused at entry max_data_cards + 1, a twentieth of the way
        in. A member whole in the buffer is read in one step at C speed (the Python steps per member were
        most of the time of that refusal); one cut by a chunk edge, or anything unusual, goes the careful
        way (`_slow_member`) with its exact errors."""
        self.expect("{")
        if self.peek() == "}":
            self.pos += 1
            return
        scan, limit = self.scanner(), limits.current().max_data_cards
        while True:
            counted = False
            try:  # the fast path: key, colon, value and the character after it all in the buffer
                start = _KEY_START.match(self.buffer, self.pos)
                key, end = scan(self.buffer, start.end() - 1)  # type: ignore[union-attr]  # None: the slow path
                if self.items >= limit:
                    self._count()  # refused
                self.items += 1
                counted = True
                value, end = scan(self.buffer, _COLON.match(self.buffer, end).end())  # type: ignore[union-attr]
                after = _AFTER_MEMBER.match(self.buffer, end)
                closing = after.group(1)  # type: ignore[union-attr]
                self.pos = after.end()  # type: ignore[union-attr]
            except (AttributeError, StopIteration, ValueError):  # cut by the chunk edge, or not JSON
                key, value, closing = self._slow_member(counted)
            yield key, value
            if closing == "}":
                return

    def _slow_member(self, counted: bool) -> tuple[str, object, str]:
        """One member the careful way from the cursor (reading chunks as needed, refusing with the exact
        error): its key, its value and the ',' or '}' after it."""
        key = self.value()
        self.expect(":")
        if not counted:
            self._count()
        return str(key), self.value(), self.expect(",}")

    def array_items(self) -> Iterator[object]:
        """Iterate the items of the array at the cursor, each counted before it is decoded; an item whole
        in the buffer is read in one step at C speed, one cut by a chunk edge the careful way."""
        self.expect("[")
        if self.peek() == "]":
            self.pos += 1
            return
        scan = self.scanner()
        while True:
            self._count()
            try:
                value, end = scan(self.buffer, _ITEM_START.match(self.buffer, self.pos).end())  # type: ignore[union-attr]
                after = _AFTER_ITEM.match(self.buffer, end)
                closing = after.group(1)  # type: ignore[union-attr]
                self.pos = after.end()  # type: ignore[union-attr]
            except (AttributeError, StopIteration, ValueError):
                value, closing = self.value(), self.expect(",]")
            yield value
            if closing == "]":
                return

    def _count(self) -> None:
        self.items += 1
        limit = limits.current().max_data_cards
        if self.items > limit:
            raise DataError(t("limits.err.data_cards", file=self.name, limit=limit, option="max_data_cards"))


def _open(path: Path, progress: Progress | None) -> _Stream:
    raw = os.fdopen(limits.open_regular(path, data=True), "rb")  # closed by the caller through _Stream.raw
    total = os.fstat(raw.fileno()).st_size
    text: IO[str]
    if path.suffix == ".gz":
        text = io.TextIOWrapper(gzip.GzipFile(fileobj=raw), encoding="utf-8")
    else:
        text = io.TextIOWrapper(raw, encoding="utf-8")
    return _Stream(raw, text, total, progress, path.name)


def detect_format(path: str | Path) -> str:
    """'mtgjson' for an object with meta/data, 'scryfall' for a top-level array of card objects."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    limits.check_size(path, path.stat().st_size, data=True)
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            head = handle.read(4096).lstrip("\ufeff \t\r\n")
    except (UnicodeDecodeError, EOFError, gzip.BadGzipFile):
        raise DataError(t("limits.err.binary", file=path.name)) from None
    if "\x00" in head:
        raise DataError(t("limits.err.binary", file=path.name))
    if head.startswith("["):
        return "scryfall"
    if head.startswith("{"):
        return "mtgjson"
    raise DataError(t("mtg.err.data_format", file=path.name))


# --- MTGJSON v5 ------------------------------------------------------------------------------------

def mtgjson_facts(name: str, faces: list[dict]) -> CardFacts:
    """AtomicCards `data[name]` -> facts: split cards united (manaValue is already combined), others
    keep side 'a'. Written for speed (no generator per field): it runs once for every entry of the file."""
    if not faces:
        raise DataError(t("mtg.err.no_faces", card=name))
    front = faces[0]
    if front.get("side", "a") != "a":
        front = next((face for face in faces if face.get("side", "a") == "a"), front)
    mana_value = front.get("manaValue", front.get("convertedManaCost", 0)) or 0
    if front.get("layout") in SPLIT_LAYOUTS and len(faces) > 1:
        colours = order_colours([c for face in faces for c in face.get("colors") or ()])
        types, subtypes, supertypes = (tuple(dict.fromkeys([item for face in faces for item in face.get(field) or ()]))
                                       for field in ("types", "subtypes", "supertypes"))
    else:
        colours = _colours_of(tuple(front.get("colors") or ()))
        types = tuple(dict.fromkeys(front.get("types") or ()))
        subtypes = tuple(dict.fromkeys(front.get("subtypes") or ()))
        supertypes = tuple(dict.fromkeys(front.get("supertypes") or ()))
    ja_name = None
    for face in faces:
        if "foreignData" in face:
            ja_name = mtgjson_japanese_name(faces)
            break
    return CardFacts.made(name, _number(mana_value), colours, types, subtypes, supertypes, ja_name)


@functools.cache
def _colours_of(colours: tuple[str, ...]) -> tuple[str, ...]:
    """`order_colours` of one face's `colors`, worked out once for each of the few spellings."""
    return order_colours(colours)


def mtgjson_japanese_name(faces: list[dict]) -> str | None:
    """The Japanese name from `foreignData` (its `name` is the whole card's; a face-only entry is joined
    with the other faces' as 'A // B')."""
    names = []
    for face in faces:
        entry = next((item for item in face.get("foreignData") or []
                      if isinstance(item, dict) and item.get("language") == JAPANESE and item.get("name")), None)
        if entry is None:
            continue
        if " // " in entry["name"] or len(faces) == 1 or not entry.get("faceName"):
            return entry["name"]
        names.append(entry["faceName"])
    return " // ".join(dict.fromkeys(names)) or None


def iter_mtgjson(stream: _Stream) -> Iterator[CardFacts]:
    for key, _ in stream.object_items():
        if key != "data":
            stream.value()  # meta: small, skipped
            continue
        for name, faces in stream.object_members():
            if not isinstance(faces, list):
                raise DataError(t("mtg.err.faces_list", file=stream.name, card=name))
            yield mtgjson_facts(name, faces)


# --- Scryfall ---------------------------------------------------------------------------------------

def parse_type_line(type_line: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """'Legendary Creature — Elf Druid' -> (types, subtypes, supertypes)."""
    left, _, right = type_line.partition("—")
    words = left.split()
    supertypes = tuple(word for word in words if word in SUPERTYPES)
    types = tuple(word for word in words if word not in SUPERTYPES)
    return types, tuple(right.split()), supertypes


def scryfall_facts(card: dict) -> CardFacts | None:
    """A Scryfall card object -> facts (None for tokens, emblems, art cards)."""
    layout = card.get("layout", "normal")
    if layout in SKIPPED_LAYOUTS:
        return None
    faces = card.get("card_faces") or [card]
    used = faces if layout in SPLIT_LAYOUTS else faces[:1]
    colours = card.get("colors")
    if colours is None:  # Scryfall leaves colours on the faces of multi-face cards
        colours = [c for face in used for c in face.get("colors") or []]
    parsed = [parse_type_line(face.get("type_line") or card.get("type_line", "")) for face in used]

    def union(index: int) -> tuple[str, ...]:
        return tuple(dict.fromkeys(item for entry in parsed for item in entry[index]))

    return CardFacts(name=card["name"], mana_value=_number(card.get("cmc", 0) or 0),
                     colours=order_colours(colours), types=union(0), subtypes=union(1),
                     supertypes=union(2), ja_name=scryfall_japanese_name(card))


def scryfall_japanese_name(card: dict) -> str | None:
    """`printed_name` of a Japanese printing (all-cards bulk; each face's for multi-face cards)."""
    if card.get("lang") != "ja":
        return None
    if card.get("printed_name"):
        return card["printed_name"]
    names = [face.get("printed_name") for face in card.get("card_faces") or []]
    return " // ".join(names) if names and all(names) else None


def iter_scryfall(stream: _Stream) -> Iterator[CardFacts]:
    for card in stream.array_items():
        if not isinstance(card, dict) or "name" not in card:
            raise DataError(t("mtg.err.scryfall_card", file=stream.name))
        facts = scryfall_facts(card)
        if facts is not None:
            yield facts


def _number(value: float | int) -> int | float:
    return int(value) if float(value).is_integer() else float(value)


# --- cache ------------------------------------------------------------------------------------------

def cache_dir(folder: str | Path | None = None) -> Path:
    """The index folder: the argument, else $GAMEKERNEL_CACHE_DIR, else the user cache folder."""
    if folder is not None:
        return Path(folder)
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "gamekernel" / "mtg"


def _index_path(source: Path, folder: Path) -> Path:
    stat = source.stat()
    digest = hashlib.sha256(f"{source.resolve()}|{stat.st_size}|{stat.st_mtime_ns}".encode()).hexdigest()
    return folder / f"{source.name}.{digest[:16]}.facts.jsonl"


def write_index(index: FactsIndex, path: Path, source: str) -> None:
    """Atomic write: a header line then one compact line per card, [name key, alias keys, row]."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_suffix(".tmp")
    try:
        with open(temp, "w", encoding="utf-8") as handle:
            handle.write(json.dumps({"gamekernel_mtg_index": INDEX_VERSION, "source": source}) + "\n")
            for key, aliases, card in index.keyed_cards():
                line = [key, aliases, card.to_row()]
                handle.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def read_index(path: Path) -> FactsIndex:
    """The cached index: every card's facts and keys as `write_index` wrote them. The collector is
    paused meanwhile: the index builds millions of objects that all stay alive, and every collection
    would walk them again (half the time of reading it)."""
    with gc_paused(), open(path, encoding="utf-8") as handle:
        header = json.loads(handle.readline() or "{}")
        if header.get("gamekernel_mtg_index") != INDEX_VERSION:
            raise DataError(t("mtg.err.index_version", file=path.name, version=INDEX_VERSION))
        index = FactsIndex(source=header.get("source", path.name))
        for number, line in enumerate(handle, 2):
            if line.strip():
                key, aliases, card = _index_line(json.loads(line), f"{path.name}:{number}")
                index.add_keyed(card, key, aliases)
    return index


def _index_line(line: object, where: str) -> tuple[str, list[str], CardFacts]:
    """[name key, alias keys, row] of one index line; a DataError (the index is rebuilt) if not."""
    if (type(line) is not list or len(line) != 3 or type(line[0]) is not str  # JSON: exact types
            or type(line[1]) is not list or (line[1] and not all(type(alias) is str for alias in line[1]))):
        raise DataError(t("mtg.err.facts_row", where=where, row=str(line)[:80]))
    return line[0], line[1], CardFacts.from_row(line[2], where)


def load_card_data(path: str | os.PathLike[str], *, cache: str | Path | None = None, progress: Progress | None = None,
                   fmt: str | None = None, use_cache: bool = True) -> FactsIndex:
    """Facts of every card in an AtomicCards.json or Scryfall oracle file (plain or .gz), cached; or
    in a folder of Forge card scripts (its `res/cardsfolder`, read directly: small files)."""
    source = limits.user_path(path)
    if source.is_dir():
        from gamekernel.mtg.rules.forge_cards import forge_cardsfolder

        return forge_cardsfolder(source)
    if not source.is_file():
        raise DataError(t("mtg.err.no_data_file", path=source))
    index_path = _index_path(source, cache_dir(None if cache is None else limits.user_path(cache, "folder")))
    if use_cache and index_path.is_file():
        try:
            return read_index(index_path)
        except (DataError, json.JSONDecodeError, OSError):
            pass  # a stale or damaged index is rebuilt
    kind = fmt or detect_format(source)
    readers = {"mtgjson": iter_mtgjson, "scryfall": iter_scryfall}
    if kind not in readers:
        raise DataError(t("mtg.err.data_kind", kind=kind))
    stream = _open(source, progress)
    try:
        cards = list(readers[kind](stream))
    except RecursionError:
        raise DataError(t("limits.err.too_deep", file=source.name)) from None
    except (UnicodeDecodeError, EOFError, gzip.BadGzipFile):
        raise DataError(t("limits.err.binary", file=source.name)) from None
    finally:
        stream.text.close()
        stream.raw.close()
    if progress:
        progress(stream.total, stream.total)
    index = FactsIndex(cards, source=source.name)
    if use_cache:
        _try_write_index(index, index_path, source.name)
    return index


def _try_write_index(index: FactsIndex, path: Path, source: str) -> None:
    """Write the cache index if the cache folder can be written: the index only saves time on the
    next load, so a read-only or full cache folder must not refuse the card data already read."""
    with suppress(OSError):  # the next load reads the card file again
        write_index(index, path, source)
