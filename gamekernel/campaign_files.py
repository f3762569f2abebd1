"""The files of a campaign folder, below the store that keeps them (gamekernel.campaign): their names,
the errors that name them, how each is read (plain JSON only; git conflict markers named as what they
are) and written (atomically; the lock created exclusively), and how a hand edit of a derived file is
told (its digest) and kept (`<name>.edited`, never overwritten)."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gamekernel.errors import DataError, StorageError, UsageError
from gamekernel.events import LogStore, storage_error
from gamekernel.i18n import t
from gamekernel.util import atomic_write_bytes, write_all

INDEX_SCHEMA = 3  # 1 = the foundation's single log.jsonl; 2 = no campaign id; 3 = every file names it
SNAPSHOT_SCHEMA = 2  # 1 = no campaign id, no list of parts (schema-2 campaigns)
INDEX = "campaign.json"
# derived files never stop a git merge: a union of both sides' lines, rebuilt from the logs when it does not read
GITATTRIBUTES = b"campaign.json merge=union\nsnapshot.json merge=union\nstate/*.json merge=union\n"
SNAPSHOT = "snapshot.json"
LOCK = ".lock"
SESSIONS = "sessions"
STATE = "state"


class CampaignLockedError(UsageError):
    """Another live kernel has the campaign open (or a lock nobody can be identified from)."""


class CopiesNotWrittenError(StorageError):
    """The snapshot and the index were written, but a readable copy in state/ was not."""


class CampaignDamagedError(DataError):
    """A campaign file is missing, foreign, truncated or inconsistent; opening is refused."""


class SnapshotEditedError(CampaignDamagedError):
    """The snapshot no longer matches its digest (or has none): changed by hand."""


def restore_hint() -> str:
    return t("campaign.hint.restore")


def content_digest(data: Any) -> str:
    """SHA-256 of `data` in one canonical JSON form: stored in the snapshot and each readable copy,
    so a change made by hand (which does not update it) is told from what the kernel wrote."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hand_edited(record: Any, part: str) -> bool:
    """Whether a derived file (`state/<part>.json`, or the snapshot with part "state") no longer
    holds what its digest was made of; no digest at all is an edit too (the kernel always writes
    one), so removing the key does not pass an edit off as the kernel's."""
    if not isinstance(record, Mapping):
        return True
    return part not in record or record.get("digest") != content_digest(record[part])


def keep_aside(path: Path, *, copy: bool = False) -> Path:
    """Rename `path` to the first free `<name>.edited`, `<name>.edited-2`, ... (an earlier edit kept
    is never overwritten), or with `copy` write a copy there and leave `path`; returns the new path."""
    kept = path.with_name(path.name + ".edited")
    n = 1
    while kept.exists():
        n += 1
        kept = path.with_name(f"{path.name}.edited-{n}")
    try:
        if copy:
            atomic_write_bytes(kept, path.read_bytes())  # its temp file is one a later open clears
        else:
            os.replace(path, kept)
    except OSError as exc:
        raise storage_error(exc, path.relative_to(path.parent.parent).as_posix()) from None
    return kept


def refuse_links(root: Path) -> None:
    """Symbolic links inside a campaign folder are refused: writes must stay in the folder."""
    candidates = [root / name for name in (INDEX, SNAPSHOT, LOCK, SESSIONS, STATE, "log.jsonl")]
    for folder in (root / SESSIONS, root / STATE):
        if folder.is_dir() and not folder.is_symlink():
            candidates.extend(sorted(folder.iterdir()))  # the first link named is the same on any file system
    for path in candidates:
        if path.is_symlink():
            raise CampaignDamagedError(t("campaign.err.symlink", where=path.relative_to(root).as_posix()))


def campaign_files(root: Path) -> list[str]:
    """The campaign files in a folder (to tell a new campaign from one whose index is gone)."""
    found = [f"{SESSIONS}/{p.name}" for p in sorted((root / SESSIONS).glob("*.jsonl"))]
    found += [name for name in (SNAPSHOT,) if (root / name).exists()]
    found += [f"{STATE}/{p.name}" for p in sorted((root / STATE).glob("*.json"))]
    return found


def json_bytes(data: Any, *, compact: bool = False) -> bytes:
    if compact:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    else:
        text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True)
    return (text + "\n").encode("utf-8")


def read_json(path: Path, where: str) -> Any:
    raw = path.read_bytes()
    if CONFLICT_MARKER.search(raw):
        raise CampaignDamagedError(t("campaign.err.conflict_markers", where=where))
    return read_json_bytes(raw, where)


def read_json_bytes(raw: bytes, where: str) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(t("core.err.data.utf8", where=where)) from None
    if not text.strip():
        raise CampaignDamagedError(t("campaign.err.empty", where=where, hint=restore_hint()))
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(t("core.err.data.json", where=f"{where}:{exc.lineno}", msg=exc.msg, column=exc.colno)
                        + " " + t("campaign.hint.truncated", hint=restore_hint())) from None


CONFLICT_MARKER = re.compile(rb"^(<{7}|={7}|>{7})( |\r?$)", re.MULTILINE)


def read_derived(path: Path, where: str) -> Any:
    """A derived file's JSON, or one line saying why it cannot be read (git conflict markers named
    as what they are)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return t("campaign.err.unreadable", where=where, reason=exc.strerror or str(exc))
    if CONFLICT_MARKER.search(raw):
        return t("campaign.err.conflict_markers", where=where)
    try:
        return read_json_bytes(raw, where)
    except DataError as error:
        return str(error)


def load_log(path: Path, where: str, **options: Any) -> Any:
    """`LogStore.load`, a log that does not decode named for git conflict markers when it holds them."""
    try:
        report = LogStore.load(path, **options)
    except DataError:
        report = None
    if report is None or report.warnings:  # a line that does not decode: conflict markers are named
        try:
            marked = CONFLICT_MARKER.search(path.read_bytes()) is not None
        except OSError:
            marked = False
        if marked:
            raise CampaignDamagedError(t("campaign.err.conflict_markers", where=where) + ": "
                                       + t("campaign.hint.conflict"))
        if report is None:
            return LogStore.load(path, **options)  # raises the error again
    return report


def read_lock(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def file_time(path: Path) -> str:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, UTC).isoformat(timespec="seconds")
    except OSError:
        return "?"


READ_ONLY_ERRORS = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})
NO_HARD_LINKS = frozenset({errno.ENOSYS, errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP})


def create_exclusive(temp: Path, path: Path, content: bytes) -> None:
    """Create `path` holding `content` only if it does not exist (FileExistsError otherwise).

    A hard link of the written `temp` file is never seen empty; where the system has no hard links
    (Pyodide has no `os.link`, some shares refuse them) an exclusive create writes the content instead
    (a reader that finds it still empty says the lock is unreadable, and names its file)."""
    link = getattr(os, "link", None)
    if link is not None:
        try:
            link(temp, path)
            return
        except OSError as exc:
            if isinstance(exc, FileExistsError) or exc.errno not in NO_HARD_LINKS:
                raise
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        write_all(fd, content)
        os.fsync(fd)
    finally:
        os.close(fd)
