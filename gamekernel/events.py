"""Events and the JSON Lines log store.

Every state change is an Event whose `data` holds the outcome (dice faces, card order), never only
the command, so a log replays without the RNG. Each event kind registers a reducer (`apply`) that
changes the table state deterministically; its one-line summary is drawn by the render layer when the
log is viewed (gamekernel.display.summarize), from the facts, in the current language.
The log file is append-only JSON Lines, one event a line, flushed when written.
"""

from __future__ import annotations

import errno
import gc
import json
import marshal
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamekernel.display import summarize
from gamekernel.errors import DataError, StorageError, UsageError
from gamekernel.i18n import t
from gamekernel.util import write_all

SCHEMA_VERSION = 1

Reducer = Callable[[Any, Mapping[str, Any]], None]
_new_object, _set_attribute = object.__new__, object.__setattr__


@dataclass(frozen=True)
class Event:
    """One thing that happened at the table."""

    seq: int
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    actor: str | None = None
    secret: bool = False
    time: str = ""
    by: str | None = None  # who acted: the player whose intent it was (None: the GM at the notebook)

    @classmethod
    def new(cls, seq: int, kind: str, data: Mapping[str, Any], actor: str | None, secret: bool, time: str,
            by: str | None = None) -> Event:
        """The event a command records, without the frozen dataclass's `__init__` (six
        `object.__setattr__` calls, as long as the rest of recording a roll); equal to `Event(...)`."""
        event = _new_object(cls)
        _set_attribute(event, "__dict__", {"seq": seq, "kind": kind, "data": data, "actor": actor, "secret": secret,
                                           "time": time, "by": by})
        return event

    def to_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = {"schema": SCHEMA_VERSION, "seq": self.seq, "kind": self.kind}
        if self.actor is not None:
            record["actor"] = self.actor
        if self.secret:
            record["secret"] = True
        if self.by is not None:
            record["by"] = self.by
        record["time"] = self.time
        record["data"] = self.data
        return record

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, record: Mapping[str, Any], *, where: str = "event") -> Event:
        """Build an event from a decoded log line, naming the bad field when it is invalid."""
        if type(record) is not dict:
            raise DataError(t("core.err.data.object_got", where=where, got=type(record).__name__))
        get = record.get
        schema, seq, kind, data, actor = get("schema"), get("seq"), get("kind"), get("data", {}), get("actor")
        if schema != SCHEMA_VERSION:
            raise DataError(t("core.err.data.schema", where=where, value=repr(schema), version=SCHEMA_VERSION))
        if type(seq) is not int or seq < 1:
            raise DataError(t("core.err.data.seq", where=where, value=repr(seq)))
        if type(kind) is not str or kind not in EVENT_KINDS:  # in that order: a list is unhashable
            raise DataError(t("core.err.data.kind", where=where, value=repr(kind)))
        if type(data) is not dict:
            raise DataError(t("core.err.data.field_object", where=where, field="data"))
        if actor is not None and type(actor) is not str:
            raise DataError(t("core.err.data.field_string", where=where, field="actor"))
        by = get("by")
        if by is not None and type(by) is not str:
            raise DataError(t("core.err.data.field_string", where=where, field="by"))
        return cls(seq, kind, data, actor, get("secret") is True, str(get("time", "")), by)

    def summary(self) -> str:
        """The event's log line, rendered now (in the current language) from its stored facts."""
        return summarize(self.kind, self.data)

    def line(self) -> str:
        """The summary as the log shows it, its actor named: the same words in `%log` and in the
        record of the widget that made the event (a scene's `[3d6]` rolled for Aiko says so)."""
        return named_line(self.actor, self.summary())


def named_line(actor: str | None, summary: str) -> str:
    """`summary` with its actor first, unless it already starts with him."""
    return summary if not actor or summary.startswith(actor) else f"{actor}: {summary}"


@dataclass(frozen=True)
class EventKind:
    name: str
    apply: Reducer | None
    undoable: bool = True
    # the state parts an event of this kind may change: its reducer's, or () for a kind that changes
    # no state (a roll, a note); None: any of them (undo, redo, a campaign opened, a plugin's kind)
    changes: tuple[str, ...] | None = None


EVENT_KINDS: dict[str, EventKind] = {}
ENTROPY_KIND = "secret.entropy"  # the secret stream's entropy (gamekernel/session.py): secret, the GM's alone


def register_event(name: str, *, apply: Reducer | None = None, undoable: bool = True,
                   changes: Iterable[str] | None = None) -> EventKind:
    """Declare an event kind and its reducer (None for events that change no state); its summary is
    a renderer registered under the same name in the render layer (`display.summarizes`).
    `changes` names the state parts the reducer may change, so that a picture of the state after
    it (the players' table) retakes only those; a test checks every event of the suite keeps to it."""
    kind = EventKind(name, apply, undoable, None if changes is None else tuple(changes))
    EVENT_KINDS[name] = kind
    return kind


def kind_word(kind: str) -> str:
    """An event kind as the log shows it: a word in the current language with a short rule-set
    label ("GURPS check"), never the internal id (the id only for a kind without a word)."""
    key = f"kind.{kind}"
    word = t(key)
    return kind if word == key else word


Reaction = Callable[[Any, Event], None]
REACTIONS: list[Reaction] = []
_KINDS: dict[Reaction, frozenset[str] | None] = {}  # the event kinds each reaction reacts to (None: all)
_FOR_KIND: dict[str, tuple[Reaction, ...]] = {}  # reactions_for's answers, dropped at each registration


def register_reaction(reaction: Reaction, *, kinds: Iterable[str] | None = None) -> None:
    """Run `reaction(session, event)` after every live event (never during replay) of one of
    `kinds` (of every kind when None): a command then calls only the reactions to its events.

    Rules that trigger on other events (Gamma World's alpha flux on a natural 1) record their
    consequences as events of their own, so a replay needs no reactions. Import it from here or
    from gamekernel.session.
    """
    if reaction not in REACTIONS:
        REACTIONS.append(reaction)
    _KINDS[reaction] = None if kinds is None else frozenset(kinds)
    _FOR_KIND.clear()


def reactions_for(kind: str) -> tuple[Reaction, ...]:
    """The reactions to an event of `kind`, in the order they were registered."""
    found = _FOR_KIND.get(kind)
    if found is None:
        found = _FOR_KIND[kind] = tuple(r for r in REACTIONS if (wanted := _KINDS.get(r)) is None or kind in wanted)
    return found


@contextmanager
def gc_paused(*, keep: bool = False) -> Iterator[None]:
    """Pause the cyclic garbage collector while many long-lived objects are built at once.

    Decoding a long log or replaying it creates millions of objects that all stay alive; the
    collector would rescan the growing heap again and again meanwhile (4x slower for a log of
    100,000 events). Nothing built in such a block is cyclic garbage. With `keep` (a campaign's
    log, alive for the kernel's life) the objects are moved out of the collector's sight for good
    (`gc.freeze`), so neither the end of the block nor later collections scan them; they are still
    freed by reference counting when the campaign is closed (events hold no reference cycles).
    The garbage of before is collected first, so that none of it is frozen with them.
    """
    was_enabled = gc.isenabled()
    if keep and was_enabled:
        gc.collect()
    try:  # disabled inside the try: an interrupt right after it must still enable it again
        gc.disable()
        yield
    finally:
        if was_enabled:
            if keep:
                gc.freeze()
            gc.enable()


_second: list = [None, ""]  # the last whole second formatted, and its text
_stamp: list = [None, ""]  # the last millisecond stamped, and its text


def now_iso() -> str:
    """UTC now as `2026-11-30T17:49:37.357+00:00`, the format `datetime.isoformat(timespec=
    "milliseconds")` gives; an event is stamped on every command, so the seconds part is formatted
    once per second rather than through a datetime per call, and the whole text once per millisecond
    (commands in a loop record several events in one)."""
    millis = time.time_ns() // 1_000_000
    if millis == _stamp[0]:
        return _stamp[1]
    second, milli = divmod(millis, 1000)
    if second != _second[0]:
        _second[0], _second[1] = second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
    text = f"{_second[1]}.{milli:03d}+00:00"
    _stamp[0], _stamp[1] = millis, text
    return text


@dataclass
class LoadReport:
    events: list[Event]
    warnings: list[str]
    header: dict[str, Any] | None = None  # a campaign session log's first line (see gamekernel.campaign)


def encode_event(event: Event) -> bytes:
    """The event's log line as UTF-8 bytes; text that UTF-8 cannot hold (a lone surrogate) is refused."""
    try:
        return (event.to_json() + "\n").encode("utf-8")
    except UnicodeEncodeError as exc:
        char = f"U+{ord(exc.object[exc.start]):04X}"
        raise UsageError(t("core.err.unencodable", char=char)) from None


def check_storable(event: Event) -> None:
    """`encode_event`'s refusal without building the line (for a session that writes no log)."""
    try:
        # Whether the data may hold a string UTF-8 cannot encode, told at C speed: marshal writes each
        # string as UTF-8 letting surrogates through (bytes ED A0..BF, which no encodable text gives),
        # so without those bytes there is none. A number's bytes may look alike, and a value marshal
        # cannot write is not looked into: both are suspect, and `_check_text` walks the data to decide.
        try:
            suspect = _SURROGATE_BYTES(marshal.dumps(event.data)) is not None  # type: ignore[arg-type]
        except ValueError:
            suspect = True
        if suspect:
            _check_text(event.data)
        for name in (event.actor, event.by):
            if name is not None and not name.isascii():
                name.encode("utf-8")
    except UnicodeEncodeError as exc:
        char = f"U+{ord(exc.object[exc.start]):04X}"
        raise UsageError(t("core.err.unencodable", char=char)) from None


_SURROGATE_BYTES = re.compile(rb"\xed[\xa0-\xbf]").search


def _check_text(value: Any) -> None:
    """Encode every non-ASCII string in `value` (dicts, lists, tuples, keys included); only the
    containers recurse, strings and numbers are checked in place (an event holds dozens of them),
    and so are the strings of a dict's lists (a card record's uids and zones: no call for each)."""
    kind = type(value)
    if kind is str:
        if not value.isascii():
            value.encode("utf-8")
        return
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str or not key.isascii():
                _check_text(key)
            kind = type(item)
            if kind is str:
                if not item.isascii():
                    item.encode("utf-8")
            elif kind is list or kind is tuple:
                for entry in item:
                    kind = type(entry)
                    if kind is str:
                        if not entry.isascii():
                            entry.encode("utf-8")
                    elif kind is dict or kind is list or kind is tuple:
                        _check_text(entry)
            elif kind is dict:
                _check_text(item)
    elif kind is list or kind is tuple:
        for item in value:
            kind = type(item)
            if kind is str:
                if not item.isascii():
                    item.encode("utf-8")
            elif kind is dict or kind is list or kind is tuple:
                _check_text(item)


def sync(fd: int) -> None:
    """Make written bytes durable: the data and the file size (fdatasync skips the timestamps)."""
    getattr(os, "fdatasync", os.fsync)(fd)


KNOWN_OS_ERRORS = frozenset(f"core.err.os.{name}" for name in ("ENOSPC", "EDQUOT", "EROFS", "EACCES", "EPERM", "ELOOP",
                                                                     "EEXIST", "ENOTDIR", "EISDIR"))


def storage_error(exc: OSError, where: str) -> StorageError:
    """One line for a failed write (disk full, read-only folder, ...): which file and why."""
    key = f"core.err.os.{errno.errorcode.get(exc.errno or 0, '')}"
    reason = t(key) if key in KNOWN_OS_ERRORS else (os.strerror(exc.errno) if exc.errno else str(exc))
    return StorageError(t("core.err.write_failed", where=where, reason=reason))


@contextmanager
def refusing_failed_writes(where: str) -> Iterator[None]:
    """Turn a failed user-named write (bad path, disk full, read-only folder, a path the file system
    cannot encode) into one StorageError line naming `where`; the writers leave no file behind."""
    try:
        yield
    except UnicodeEncodeError:
        raise StorageError(t("core.err.path_unencodable", where=printable(where))) from None
    except OSError as exc:
        raise storage_error(exc, printable(where)) from None


def printable(text: str) -> str:
    """`text` with lone surrogates shown as escapes, so that the message itself can be sent as UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _what_is_bad(exc: UnicodeDecodeError | json.JSONDecodeError) -> tuple[str, int]:
    """What is wrong with a log line and its 1-based column: bad UTF-8 knows its byte, bad JSON both."""
    if isinstance(exc, UnicodeDecodeError):
        return exc.reason, exc.start + 1
    return exc.msg, exc.colno


class LogStore:
    """An append-only JSON Lines file; an append is written (and with `fsync` synced) before it returns.

    A failed append (disk full, read-only, an encoding error) leaves the file as it was: the bytes
    of a partly written line are cut off again, and a StorageError names the file. Appends are
    unbuffered, so nothing of a failed event lingers to be written with the next one. The file is
    opened without following symbolic links.
    """

    def __init__(self, path: str | os.PathLike[str], *, fsync: bool = False, label: str | None = None):
        self.path = Path(path)
        self.fsync = fsync
        self.label = label or self.path.name
        self._fd: int | None = None

    def append(self, event: Event) -> None:
        self.append_bytes(encode_event(event))

    def append_bytes(self, data: bytes) -> None:
        """Append whole lines; on failure the file is cut back to its size before the call.

        An interrupt (or any other exception) while the lines are written is settled the same way,
        except once they are all in the file: then they stay (see `_settle`), and the caller learns
        from `ends_with` that its event happened.
        """
        try:
            if self._fd is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._repair_torn_tail()
                flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
                self._fd = os.open(self.path, flags, 0o666)
            size = os.fstat(self._fd).st_size
        except OSError as exc:
            raise storage_error(exc, self.label) from None
        try:
            write_all(self._fd, data)
            if self.fsync:
                sync(self._fd)
        except OSError as exc:
            self._cut(size)
            raise storage_error(exc, self.label) from None
        except BaseException:
            self._settle(size, data)
            raise

    def _settle(self, size: int, data: bytes) -> None:
        """After an interrupt inside `append_bytes`: lines written whole are kept (and synced), a
        part of them is cut off, so the file never ends in a line the caller was not told of."""
        if self._fd is not None and self.ends_with(data):
            with suppress(OSError):
                if self.fsync:
                    sync(self._fd)
            return
        self._cut(size)

    def _cut(self, size: int) -> None:
        """Cut the file back to `size` and close it (reopened by the next append, which first ends
        a line left half-written when the cut failed)."""
        if self._fd is not None:
            with suppress(OSError):
                os.ftruncate(self._fd, size)
        self.close()

    def ends_with(self, data: bytes) -> bool:
        """Whether the file's last bytes are `data` (an event's line holds its seq and time: unique)."""
        try:
            with open(self.path, "rb") as handle:
                size = handle.seek(0, os.SEEK_END)
                if size < len(data):
                    return False
                handle.seek(size - len(data))
                return handle.read(len(data)) == data
        except OSError:
            return False

    def append_many(self, events: Iterable[Event]) -> None:
        self.append_bytes(b"".join(encode_event(event) for event in events))

    def close(self) -> None:
        """Forget the descriptor before closing it: an interrupt in between leaves none stale."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)

    def _repair_torn_tail(self) -> None:
        """End a torn last line with a newline so the next event starts on a line of its own."""
        if self.path.exists() and self.path.stat().st_size:
            with open(self.path, "rb+") as handle:
                handle.seek(-1, os.SEEK_END)
                if handle.read(1) != b"\n":
                    handle.write(b"\n")

    @staticmethod
    def load(path: str | os.PathLike[str], *, superseded: list[Event] | None = None) -> LoadReport:
        """Read a log; a line cut short by a crash is reported and skipped, any other bad line is an error.

        With `superseded` (a repair), an event followed by another of the same number is taken
        out into that list instead of refused: the line an interrupted write left before this
        version, which memory had undone and whose number the next event took.
        """
        with gc_paused():
            return LogStore._load(Path(path), superseded)

    @staticmethod
    def _load(path: Path, superseded: list[Event] | None = None) -> LoadReport:
        from gamekernel.i18n import t

        if not path.exists():
            return LoadReport([], [])
        raw = path.read_bytes()
        header, header_line, body = _header(raw)
        fast = _load_fast(raw, body)
        if fast is not None:
            return LoadReport(fast, [], header)
        events: list[Event] = []
        warnings: list[str] = []
        lines = raw.split(b"\n")
        if header is not None:
            lines[header_line] = b""
        for number, raw_line in enumerate(lines, start=1):
            if not raw_line.strip():
                continue
            where = f"{path.name}:{number}"
            try:
                record = json.loads(raw_line.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                if raw_line.lstrip().startswith((b"#", b"//")):  # a person's comment, not a torn event
                    warnings.append(t("core.log.comment", path=path.name, line=number))
                    continue
                is_torn = all(not rest.strip() for rest in lines[number:]) or not raw_line.endswith(b"}")
                if is_torn:
                    warnings.append(t("core.log.truncated", path=path.name, line=number))
                    continue
                msg, column = _what_is_bad(exc)
                raise DataError(t("core.err.data.json", where=where, msg=msg, column=column)) from None
            event = Event.from_dict(record, where=where)
            if superseded is not None and events and event.seq == events[-1].seq:
                superseded.append(events.pop())
            if events and event.seq <= events[-1].seq:
                raise DataError(t("core.err.data.seq_order", where=where, seq=event.seq, previous=events[-1].seq))
            events.append(event)
        return LoadReport(events, warnings, header)


def _header(raw: bytes) -> tuple[dict[str, Any] | None, int, int]:
    """The header of a campaign session log (a first line naming a campaign, no `seq`), its line
    index, and the offset where the events start (after the header; 0 when there is none)."""
    start = number = 0
    while start < len(raw):
        end = raw.find(b"\n", start)
        end = len(raw) if end < 0 else end + 1
        line = raw[start:end]
        if line.strip():
            if b'"campaign"' not in line:
                return None, number, 0
            try:
                record = json.loads(line)
            except ValueError:
                return None, number, 0
            if type(record) is dict and "campaign" in record and "seq" not in record:
                return record, number, end
            return None, number, 0
        start, number = end, number + 1
    return None, 0, 0


_NEWLINES_TO_COMMAS = bytes.maketrans(b"\n", b",")
# The keys of a line as `Event.to_dict` writes them, "schema" taken out (actor, secret, by are optional).
_WRITTEN_SHAPES = frozenset(
    ("seq", "kind", *actor, *secret, *by, "time", "data")
    for actor in ((), ("actor",)) for secret in ((), ("secret",)) for by in ((), ("by",))
)


def _load_fast(raw: bytes, start: int = 0) -> list[Event] | None:
    """Decode the events of a whole healthy log (from byte `start`) in one pass at C speed; None sends
    any problem (a torn or bad line, a line not as `Event.to_dict` writes it) to the careful path,
    which names it."""
    records = _decode_lines(raw, start)
    return None if records is None else _events(records)


def _decode_lines(raw: bytes, start: int) -> list[Any] | None:
    """Every line from `start` on as one JSON array (its newlines made commas), exactly one value a line.

    A line break inside a value (or two values on one line) would still make a valid array, so
    the number of values must equal the number of lines. Blank lines (allowed, skipped) take a
    slower second try; None when the lines do not decode.
    """
    payload = bytearray(b"[")
    payload += memoryview(raw)[start:]
    if payload.endswith(b"\n"):
        payload[-1:] = b"]"
    else:
        payload += b"]"
    lines = raw.count(b"\n", start) + (0 if raw.endswith(b"\n") or start >= len(raw) else 1)
    try:
        records = json.loads(payload.translate(_NEWLINES_TO_COMMAS))
    except ValueError:
        kept = [line for line in raw[start:].split(b"\n") if line.strip()]
        if len(kept) == lines:  # no blank line: the failure is a bad line
            return None
        try:
            records = json.loads(b"[" + b",".join(kept) + b"]")
        except ValueError:
            return None
        lines = len(kept)
    return records if type(records) is list and len(records) == lines else None


def _events(records: list[Any]) -> list[Event] | None:
    """Events from decoded lines, with the checks of `Event.from_dict` inlined; None on any doubt.

    Each line's own dict becomes its event's attributes ("schema" taken out; a missing actor or
    secret reads the class default), so an event costs one small object, not a second dict filled
    field by field (or a frozen dataclass's `__init__`, slower still).
    """
    events: list[Event] = []
    append = events.append
    new = object.__new__
    set_dict = object.__setattr__
    pop = dict.pop
    kinds = EVENT_KINDS
    shapes = _WRITTEN_SHAPES
    previous = 0
    try:
        for record in records:
            if type(record) is not dict or pop(record, "schema", None) != SCHEMA_VERSION:
                return None
            get = record.get
            seq = get("seq")
            if (
                type(seq) is not int or seq <= previous or get("kind") not in kinds
                or type(get("data")) is not dict or type(get("time")) is not str
            ):
                return None
            if len(record) != 4:  # an actor, a secret mark, who acted, or a key `to_dict` never writes
                actor, by = get("actor"), get("by")
                if (
                    tuple(record) not in shapes or (actor is not None and type(actor) is not str)
                    or ("secret" in record and record["secret"] is not True)
                    or (by is not None and type(by) is not str)
                ):
                    return None
            previous = seq
            event = new(Event)
            set_dict(event, "__dict__", record)
            append(event)
    except TypeError:  # an unhashable kind
        return None
    return events
