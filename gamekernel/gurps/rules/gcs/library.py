"""A GCS library folder as the catalog: skills (.skl), spells (.spl), traits (.adq/.trt) and
equipment (.eqp), read file by file with a progress callback into a compact JSON index cached in a
user cache folder (the next load of an unchanged folder reads only the index).

    index_library(folder, cache=None, progress=None) -> LibraryIndex
    LibraryIndex.find(name, kind=None) -> LibraryEntry      # NotFoundError with close matches

Only facts are kept (name, specialization, attribute/difficulty, defaults, college, points, weight,
value, tags, reference, file): no descriptions.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from gamekernel import limits
from gamekernel.errors import DataError, NotFoundError
from gamekernel.gurps.rules.gcs.features import plain_name
from gamekernel.i18n import t
from gamekernel.text import match_key
from gamekernel.util import atomic_write_text

Progress = Callable[[int, int], None]  # (bytes read, total bytes)
KINDS = {".skl": "skill", ".spl": "spell", ".adq": "trait", ".trt": "trait", ".eqp": "equipment"}
INDEX_VERSION = 1
CACHE_ENV = "GAMEKERNEL_CACHE_DIR"


@dataclass(frozen=True)
class LibraryEntry:
    """One library row: its kind, name, specialization and facts."""

    kind: str
    name: str
    specialization: str = ""
    facts: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def full_name(self) -> str:
        return f"{self.name} ({self.specialization})" if self.specialization else self.name


@dataclass
class LibraryIndex:
    """Every entry of a library folder, findable by name."""

    source: str
    entries: list[LibraryEntry]
    from_cache: bool = False
    skipped: tuple[str, ...] = ()  # files that are not readable library files
    # per kind (None: all): the first entry by full-name key and by name key, built on the first find
    _by_key: dict[str | None, tuple[dict[str, LibraryEntry], dict[str, LibraryEntry]]] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.entries)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for entry in self.entries:
            out[entry.kind] = out.get(entry.kind, 0) + 1
        return out

    def find(self, name: str, kind: str | None = None) -> LibraryEntry:
        """The entry called `name` (with or without its specialization); close matches on a miss."""
        key = match_key(name)
        if kind not in self._by_key:  # once: a library holds tens of thousands of entries
            by_full: dict[str, LibraryEntry] = {}
            by_name: dict[str, LibraryEntry] = {}
            for entry in self.entries:
                if kind is None or entry.kind == kind:
                    by_full.setdefault(match_key(entry.full_name), entry)
                    by_name.setdefault(match_key(entry.name), entry)
            self._by_key[kind] = by_full, by_name
        by_full, by_name = self._by_key[kind]
        found = by_full.get(key, by_name.get(key))
        if found is not None:
            return found
        pool = [e for e in self.entries if kind is None or e.kind == kind]
        names = sorted({e.full_name for e in pool})
        by_key = {match_key(n): n for n in names}
        close = [by_key[k] for k in get_close_matches(key, list(by_key), n=3, cutoff=0.6)]
        hint = t("gurps.err.did_you_mean", names=", ".join(close)) if close else ""
        raise NotFoundError(t("gurps.library.unknown", name=name, hint=hint))


def cache_dir(folder: str | Path | None = None) -> Path:
    """The index folder: the argument, else $GAMEKERNEL_CACHE_DIR/gurps, else the user cache folder."""
    if folder is not None:
        return Path(folder)
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]) / "gurps"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "gamekernel" / "gurps"


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() in KINDS and p.is_file())


def _leaves(rows: Any) -> Iterator[dict[str, Any]]:
    for row in rows or []:
        if isinstance(row, dict):
            if row.get("children") is not None:
                yield from _leaves(row["children"])
            else:
                yield row


def _facts(kind: str, row: dict[str, Any], file: str) -> dict[str, Any]:
    keep = {
        "skill": ("difficulty", "tags", "reference", "points", "limit"),
        "spell": ("difficulty", "college", "power_source", "spell_class", "casting_cost", "maintenance_cost",
                  "casting_time", "duration", "reference", "points"),
        "trait": ("base_points", "points_per_level", "levels", "tags", "reference"),
        "equipment": ("value", "base_value", "weight", "base_weight", "tech_level", "tags", "reference"),
    }[kind]
    facts = {key: row[key] for key in keep if row.get(key) not in (None, "", [])}
    defaults = []
    for d in row.get("defaults") or []:
        if isinstance(d, dict):
            entry = {"type": d.get("type"), "modifier": d.get("modifier", 0)}
            if d.get("name"):
                entry["name"] = plain_name(d["name"])
            if d.get("specialization"):
                entry["specialization"] = plain_name(d["specialization"])
            defaults.append(entry)
    if defaults:
        facts["defaults"] = defaults
    facts["file"] = file
    return facts


def _read(path: Path, root: Path) -> list[LibraryEntry]:
    kind = KINDS[path.suffix.lower()]
    try:
        data = limits.load_json(limits.read_text(path), path.name)  # a regular file, size and nesting bounded
    except (OSError, ValueError) as error:
        raise DataError(t("gurps.err.file.json", source=path, error=error)) from error
    rows = data.get("rows") if isinstance(data, dict) else None
    if rows is None:
        raise DataError(t("gurps.library.not_library", source=path))
    relative = str(path.relative_to(root))
    entries: list[LibraryEntry] = []
    for row in _leaves(rows):
        if len(entries) == limits.current().max_rows:
            raise DataError(t("limits.err.rows", file=path.name, limit=limits.current().max_rows))
        entries.append(LibraryEntry(kind, str(row.get("name", row.get("description", "?"))),
                                    str(row.get("specialization", "") or ""), _facts(kind, row, relative)))
    return entries


def _signature(files: list[Path], root: Path) -> str:
    text = "|".join(f"{p.relative_to(root)}:{p.stat().st_size}:{p.stat().st_mtime_ns}" for p in files)
    return hashlib.sha256(f"{root.resolve()}|{INDEX_VERSION}|{text}".encode()).hexdigest()[:16]


def index_library(folder: str | os.PathLike[str], *, cache: str | Path | None = None,
                  progress: Progress | None = None) -> LibraryIndex:
    """Read (or reuse the cached index of) a GCS library folder; errors name the file."""
    root = limits.user_path(folder, "folder")  # a NUL or a 300-character name: one line, not an OSError
    try:
        found = root.is_dir()
    except OSError:  # a path longer than the system allows (each part short enough)
        found = False
    if not found:
        raise NotFoundError(t("gurps.library.missing", source=root))
    files = _files(root)
    if not files:
        raise DataError(t("gurps.library.empty", source=root))
    target = cache_dir(cache) / f"{root.name}.{_signature(files, root)}.library.json"
    if target.exists():
        try:
            rows = json.loads(target.read_text(encoding="utf-8"))
            entries: list[LibraryEntry] = [
                LibraryEntry(r["kind"], r["name"], r.get("specialization", ""), r.get("facts", {}))
                for r in rows["entries"]]
            return LibraryIndex(str(root), entries, from_cache=True)
        except (OSError, ValueError, KeyError, TypeError):
            pass  # a damaged index is rebuilt
    total = sum(p.stat().st_size for p in files)
    done = 0
    entries = []
    skipped: list[str] = []
    for path in files:
        try:
            entries.extend(_read(path, root))
        except DataError:
            skipped.append(str(path.relative_to(root)))  # one unreadable file does not stop the rest
        done += path.stat().st_size
        if progress:
            progress(done, total)
    rows = {"version": INDEX_VERSION, "source": str(root),
            "entries": [{"kind": e.kind, "name": e.name, "specialization": e.specialization, "facts": e.facts}
                        for e in entries]}
    with suppress(OSError):  # the cache only saves time: a read-only or full cache folder must not refuse the library
        atomic_write_text(target, json.dumps(rows, ensure_ascii=False))
    return LibraryIndex(str(root), entries, skipped=tuple(skipped))
