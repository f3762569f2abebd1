"""How much one command may ask for: every count, duration, file and exact distribution is checked
against these limits BEFORE any work starts, so a typo cannot hang the kernel or fill its memory.

One place for every limit (bounded input, one-line errors): the rule sets, the session actions and the file readers call
the helpers here; `%config GameKernel.<name>` changes the process-wide values (`configure`). Each
breach is a one-line `UsageError`/`DataError` naming the value, the limit and the option.
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from gamekernel.errors import DataError, UsageError
from gamekernel.i18n import t


@dataclass(frozen=True)
class InputLimits:
    """The defaults leave every real table far inside and keep every refusal instant."""

    max_count: int = 1_000  # repetitions in one command: dice-roll series, copies of a card, spell cost
    max_cards: int = 10_000  # cards in one library or deck file
    max_combatants: int = 500  # fighters in one fight (Goblin*N)
    max_seconds: int = 86_400  # a duration in seconds (suffocation); a day
    max_file_mb: int = 10  # a character, deck or decklist file
    max_data_file_mb: int = 1_024  # a downloaded card database (MTGJSON, Scryfall), on disk and decompressed
    max_data_value_kb: int = 1_024  # one card (one value) of a card database
    max_data_cards: int = 100_000  # entries of a card database (AtomicCards and Scryfall oracle hold some 35,000)
    max_lines: int = 20_000  # lines of a decklist or deck file
    max_nesting: int = 64  # depth of [ ] / { } in a JSON file
    max_entries: int = 1_000  # traits, skills, spells and equipment of one character file
    max_exact_cost: int = 50_000_000  # estimated steps (about a second) of an exact distribution
    max_name: int = 200  # characters of a file name typed or read from data
    max_rows: int = 20_000  # entries of one GCS library file (skills, spells, traits, equipment)


_TOKENS = re.compile(r'\\.|"|[\[\]{}]')
_current = InputLimits()
NAMES = tuple(f.name for f in fields(InputLimits))


def current() -> InputLimits:
    """The limits in force (set by `%config GameKernel.<name>`)."""
    return _current


def configure(**changes: int) -> InputLimits:
    """Change some limits process-wide; each must be a whole number >= 1."""
    global _current
    for name, value in changes.items():
        if name not in NAMES:
            raise UsageError(t("limits.err.unknown", name=name, known=", ".join(NAMES)))
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise UsageError(t("limits.err.option", name=name, value=value))
    _current = replace(_current, **changes)
    return _current


def reset() -> None:
    """Back to the defaults (a fresh `%load_ext gamekernel`)."""
    global _current
    _current = InputLimits()


# ------------------------------------------------------------------------------ numbers


def at_most(value: int, name: str, what: str) -> int:
    """`value` when it is within limit `name`; else the one-line refusal naming the option."""
    limit = getattr(_current, name)
    if value > limit:
        raise UsageError(t("limits.err.too_many", what=what, value=_short(value), limit=limit, option=name))
    return value


def whole_number(text: Any, what: str, *, low: int | None = None, high: int | None = None,
                 limit: str | None = None) -> int:
    """`text` as a whole number (`+3`, `-2`), in [low, high] and within limit `limit`; one line otherwise.

    Checks the length before converting, so 5,000 digits cost nothing (Python refuses them anyway).
    """
    if isinstance(text, bool):
        raise UsageError(t("limits.err.number", what=what, text=repr(text)))
    if isinstance(text, int):
        value = text
    else:
        raw = str(text).strip()
        digits = raw[1:] if raw[:1] in "+-" else raw
        if not digits.isascii() or not digits.isdigit():
            raise UsageError(t("limits.err.number", what=what, text=repr(_short(raw))))
        if len(digits) > 18:  # beyond any limit: refused without converting 5,000 digits
            if raw[:1] != "-" or low is None:
                option = limit or "max_count"
                raise UsageError(t("limits.err.too_many", what=what, value=_short(raw),
                                   limit=getattr(_current, option), option=option))
            raise UsageError(t("limits.err.range", what=what, value=_short(raw),
                               low="…" if low is None else low, high="…" if high is None else high))
        value = int(raw)
    if (low is not None and value < low) or (high is not None and value > high):
        raise UsageError(t("limits.err.range", what=what, value=_short(value),
                           low="…" if low is None else low, high="…" if high is None else high))
    if limit is not None:
        at_most(value, limit, what)
    return value


def real_number(text: Any, what: str) -> float:
    """`text` as a finite number (`2.5`); `inf`, `nan` and `1e999` are refused in one line."""
    import math

    try:
        value = float(str(text)[:64])
    except ValueError:
        raise UsageError(t("limits.err.real", what=what, text=repr(_short(str(text))))) from None
    if not math.isfinite(value):
        raise UsageError(t("limits.err.finite", what=what, text=repr(_short(str(text)))))
    return value


# ------------------------------------------------------------------------------ paths and files


def user_path(text: str | os.PathLike[str], what: str = "file") -> Path:
    """A path the user typed: `~` expanded; NUL and over-long names refused in one line.
    `what` is "file" or "folder" (named in the message)."""
    raw = os.fspath(text)
    what = t(f"limits.what.{what}")
    if "\x00" in raw:
        raise UsageError(t("limits.err.nul", what=what))
    _check_encodable(raw, what)
    path = Path(os.path.expanduser(raw))
    longest = max((len(part) for part in path.parts), default=0)
    if longest > min(_current.max_name, 255):
        raise UsageError(t("limits.err.name_long", what=what, length=longest, limit=min(_current.max_name, 255)))
    return path


def _check_encodable(raw: str, what: str) -> None:
    """Refuse a name the file system cannot encode (a lone surrogate such as U+D800) before any
    file call, which would fail with UnicodeEncodeError instead of a line."""
    try:
        os.fsencode(raw)
    except UnicodeEncodeError as error:
        char = f"U+{ord(raw[error.start]):04X}"
        raise UsageError(t("limits.err.unencodable", what=what, char=char)) from None


def data_name(name: str, fallback: str = "unnamed") -> str:
    """A name read from data, made safe as ONE file name: no folders, no `..`, no control characters."""
    cleaned = "".join("_" if ch in '/\\:\x00' or ord(ch) < 32 else ch for ch in str(name))
    cleaned = cleaned.strip().lstrip(".").strip() or fallback
    return cleaned[: min(_current.max_name, 120)]


def read_text(path: str | os.PathLike[str], *, data: bool = False, encoding: str = "utf-8") -> str:
    """A text file's content after the checks: a regular file (never a device, FIFO or folder),
    size (`max_file_mb`, or `max_data_file_mb` for card databases) checked before reading, not
    binary, valid UTF-8, at most `max_lines` lines (card databases are exempt)."""
    path = user_path(path)
    raw = _checked_bytes(path, data=data)
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as error:
        raise DataError(t("limits.err.encoding", file=path.name, position=error.start)) from None
    return _checked_lines(path, text, data=data)


def read_text_or_legacy(path: str | os.PathLike[str], *, encoding: str = "utf-8-sig",
                        legacy: str = "cp1252") -> tuple[str, int | None]:
    """`read_text` for files that old Windows tools write in a legacy code page (decklists): text that
    is not `encoding` is decoded as `legacy` instead of refused. Returns the text and the 1-based line of
    the first byte that was not `encoding` (None when the file was clean), so the caller can warn."""
    path = user_path(path)
    raw = _checked_bytes(path, data=False)
    try:
        return _checked_lines(path, raw.decode(encoding), data=False), None
    except UnicodeDecodeError as error:
        line = raw[:error.start].count(b"\n") + 1
        return _checked_lines(path, raw.decode(legacy, errors="replace"), data=False), line


def _checked_bytes(path: Path, *, data: bool) -> bytes:
    """The bytes of a regular file (never a device, FIFO or folder) within its size limit."""
    raw = read_regular(path, data=data)
    if b"\x00" in raw[:65_536]:
        raise DataError(t("limits.err.binary", file=path.name))
    return raw


def _checked_lines(path: Path, text: str, *, data: bool) -> str:
    """`text` when it has at most `max_lines` lines (card databases are exempt)."""
    if not data:
        lines = text.count("\n") + 1
        if lines > _current.max_lines:
            raise DataError(t("limits.err.lines", file=path.name, lines=lines, limit=_current.max_lines))
    return text


def open_regular(path: Path, *, data: bool = False) -> int:
    """A read-only descriptor of `path` once it is known to be a regular file within the size
    limit: opened without blocking (a FIFO would wait for a writer forever) and checked on the
    descriptor itself (`/dev/zero` reports size 0 and never ends). FileNotFoundError passes."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise
    except OSError as error:
        raise DataError(t("limits.err.unreadable", file=path.name, reason=error.strerror or str(error))) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "folder" if stat.S_ISDIR(info.st_mode) else "special"
            raise DataError(t(f"limits.err.not_regular.{kind}", file=path.name))
        check_size(path, info.st_size, data=data)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: Path, *, data: bool = False) -> bytes:
    """The bytes of a regular file (see `open_regular`), never more than its limit even if it grows."""
    fd = open_regular(path, data=data)
    limit = getattr(_current, "max_data_file_mb" if data else "max_file_mb") * 1_000_000
    try:
        with os.fdopen(fd, "rb") as handle:
            raw = handle.read(limit + 1)
    except OSError as error:
        raise DataError(t("limits.err.unreadable", file=path.name, reason=error.strerror or str(error))) from None
    check_size(path, len(raw), data=data)
    return raw


def check_size(path: Path, size: int, *, data: bool = False) -> None:
    """Refuse a file larger than the limit, before reading it."""
    name = "max_data_file_mb" if data else "max_file_mb"
    limit_mb = getattr(_current, name)
    if size > limit_mb * 1_000_000:
        raise DataError(t("limits.err.file_size", file=path.name, size=f"{size / 1_000_000:.1f}",
                          limit=limit_mb, option=name))


def load_json(text: str, file: str) -> Any:
    """Parse JSON text with its nesting depth checked first (`max_nesting`); one line per failure."""
    depth = _nesting(text)
    if depth > _current.max_nesting:
        raise DataError(t("limits.err.nesting", file=file, depth=depth, limit=_current.max_nesting))
    try:
        return json.loads(text)
    except RecursionError:
        raise DataError(t("limits.err.nesting", file=file, depth=depth, limit=_current.max_nesting)) from None


def check_entries(data: Any, file: str) -> None:
    """Refuse a character whose lists (with their nested children) hold more than `max_entries`
    entries: resolving a sheet compares entries with each other, so the work grows as its square."""
    count, stack = 0, [data.get(key) for key in _ENTRY_LISTS] if isinstance(data, dict) else []
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            count += 1
            if count > _current.max_entries:
                raise DataError(t("limits.err.entries", file=file, limit=_current.max_entries))
            stack.append(item.get("children"))


_ENTRY_LISTS = ("traits", "advantages", "skills", "spells", "equipment", "other_equipment", "weapons", "notes")


def _nesting(text: str) -> int:
    """The deepest [ / { nesting outside strings (a fast scan over the brackets only)."""
    depth = deepest = 0
    in_string = False
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token == '"':
            in_string = not in_string
        elif in_string:
            continue
        elif token in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > _current.max_nesting:
                    return deepest
        else:
            depth -= 1
    return deepest


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 24 else text[:20] + "…"



QUOTE_WIDTH = 80  # characters of user input a refusal may quote


def quoted_line(text: Any, width: int = QUOTE_WIDTH) -> str:
    """At most one line of user input, at most `width` characters, for an error message: a refusal
    never echoes a whole rejected input back into the notebook."""
    lines = str(text).splitlines() or [""]
    line = lines[0]
    more = len(lines) > 1 or len(line) > width
    return line[: width - 1] + "…" if more else line
