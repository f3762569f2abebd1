"""The campaign folder: a git-friendly home for a campaign that lasts months.

Layout (every JSON file carries `schema`):
    campaign.json             the index: name, the sessions in order (and, for people, the latest snapshot)
    sessions/session-NNN.jsonl one event log per kernel session (JSON Lines, flushed per event)
    snapshot.json             the table state after event `seq` (so opening needs no full replay)
    state/<part>.json         readable copies of each rule set's state (characters, decks, libraries,
                              the combat in progress), rewritten by `%campaign save` and on close - for people
                              and git diffs; loading never reads them back
    .lock                     the kernel that has the campaign open (pid and host)

Loading never executes code: plain JSON only, each invalid file reported with file, line and field.
A log written by `%config GameKernel.log_path` (one `log.jsonl`, schema-1 layout of the foundation)
is migrated into this layout when its folder is opened as a campaign.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamekernel.errors import DataError, UsageError
from gamekernel.events import Event, LogStore
from gamekernel.i18n import t
from gamekernel.util import atomic_write_text

INDEX_SCHEMA = 2  # 1 = the foundation's single log.jsonl (no index); 2 = this layout
SNAPSHOT_SCHEMA = 1
INDEX = "campaign.json"
SNAPSHOT = "snapshot.json"
LOCK = ".lock"


class CampaignLockedError(UsageError):
    """Another live kernel has the campaign open."""


@dataclass
class CampaignIndex:
    name: str
    sessions: list[str] = field(default_factory=list)
    snapshot_seq: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"schema": INDEX_SCHEMA, "name": self.name, "sessions": self.sessions,
                "snapshot_seq": self.snapshot_seq}

    @classmethod
    def from_dict(cls, data: Any, where: str) -> CampaignIndex:
        if not isinstance(data, Mapping):
            raise DataError(t("core.err.data.object", where=where))
        if data.get("schema") != INDEX_SCHEMA:
            raise DataError(t("core.err.data.schema",
                where=where, value=repr(data.get("schema")), version=INDEX_SCHEMA))
        name, sessions, seq = data.get("name"), data.get("sessions"), data.get("snapshot_seq", 0)
        if not isinstance(name, str):
            raise DataError(t("core.err.data.field_string", where=where, field="name"))
        if not isinstance(sessions, list) or not all(isinstance(s, str) for s in sessions):
            raise DataError(t("campaign.err.sessions", where=where))
        for entry in sessions:
            if "/" in entry or "\\" in entry or entry.startswith("."):
                raise DataError(t("campaign.err.unsafe", where=where, name=repr(entry)))
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise DataError(t("campaign.err.snapshot_seq", where=where))
        return cls(name, list(sessions), seq)


@dataclass
class LoadedCampaign:
    events: list[Event]
    snapshot: dict[str, Any] | None
    snapshot_seq: int
    warnings: list[str]


class CampaignStore:
    """Files of one campaign folder; holds its lock while open."""

    def __init__(self, root: str | os.PathLike[str]):
        self.root = Path(root)
        self.index: CampaignIndex | None = None
        self.current_log: LogStore | None = None
        self._locked = False

    # -- opening and closing ---------------------------------------------------------------
    def open(self) -> list[str]:
        """Create the folder if missing, take the lock, migrate old layouts; returns notices."""
        notices: list[str] = []
        self.root.mkdir(parents=True, exist_ok=True)
        self._acquire_lock(notices)
        try:
            index_path = self.root / INDEX
            if index_path.exists():
                self.index = CampaignIndex.from_dict(_read_json(index_path), INDEX)
            elif (self.root / "log.jsonl").exists():
                self.index = self._migrate_single_log(notices)
            else:
                self.index = CampaignIndex(self.root.resolve().name)
                self._write_index()
        except BaseException:
            self.release()
            raise
        return notices

    def release(self) -> None:
        if self.current_log is not None:
            self.current_log.close()
            self.current_log = None
        if self._locked:
            (self.root / LOCK).unlink(missing_ok=True)
            self._locked = False

    def _acquire_lock(self, notices: list[str]) -> None:
        path = self.root / LOCK
        me = {"pid": os.getpid(), "host": socket.gethostname()}
        for _ in range(2):
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                holder = _read_lock(path)
                if holder and holder.get("host") == me["host"] and not _pid_alive(holder.get("pid")):
                    path.unlink(missing_ok=True)
                    notices.append(t("campaign.notice.stale_lock", lock=LOCK, pid=holder.get("pid")))
                    continue
                who = (t("campaign.who", pid=holder.get("pid"), host=holder.get("host")) if holder
                       else t("campaign.who_unknown"))
                message = t("campaign.err.locked", name=repr(self.root.name), who=who, lock=LOCK)
                raise CampaignLockedError(message) from None
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(me, handle)
            self._locked = True
            return

    # -- reading ---------------------------------------------------------------------------
    def load(self) -> LoadedCampaign:
        """Every event of every session in order, plus the latest snapshot."""
        assert self.index is not None
        events: list[Event] = []
        warnings: list[str] = []
        for name in self.index.sessions:
            report = LogStore.load(self.root / "sessions" / name)
            for event in report.events:
                if events and event.seq <= events[-1].seq:
                    raise DataError(t("core.err.data.seq_order",
                        where=f"sessions/{name}", seq=event.seq, previous=events[-1].seq))
                events.append(event)
            warnings.extend(f"sessions/{w}" for w in report.warnings)
        snapshot, snapshot_seq = None, 0
        path = self.root / SNAPSHOT
        if path.exists():
            # snapshot.json names its own event: a crash between writing it and the index is harmless
            snapshot_seq, snapshot = _check_snapshot(_read_json(path))
            if snapshot_seq not in {e.seq for e in events}:
                warnings.append(t("campaign.notice.snapshot_unknown", snapshot=SNAPSHOT, seq=snapshot_seq))
                snapshot, snapshot_seq = None, 0
        elif self.index.snapshot_seq:
            warnings.append(t("campaign.notice.no_snapshot", snapshot=SNAPSHOT))
        return LoadedCampaign(events, snapshot, snapshot_seq, warnings)

    # -- writing ---------------------------------------------------------------------------
    def start_session(self) -> LogStore:
        """A new session log for this kernel, listed in the index before its first event."""
        assert self.index is not None
        number = len(self.index.sessions) + 1
        name = f"session-{number:03d}.jsonl"
        while (self.root / "sessions" / name).exists():
            number += 1
            name = f"session-{number:03d}.jsonl"
        (self.root / "sessions").mkdir(exist_ok=True)
        (self.root / "sessions" / name).touch()
        self.index.sessions.append(name)
        self._write_index()
        self.current_log = LogStore(self.root / "sessions" / name)
        return self.current_log

    def write_snapshot(self, seq: int, state: Mapping[str, Any], readable: Mapping[str, Any]) -> None:
        """Store the state after event `seq`, and the readable per-part copies."""
        assert self.index is not None
        atomic_write_text(
            self.root / SNAPSHOT,
            json.dumps({"schema": SNAPSHOT_SCHEMA, "seq": seq, "state": state}, ensure_ascii=False,
                       separators=(",", ":")) + "\n",
        )
        self.index.snapshot_seq = seq
        self._write_index()
        for part, data in readable.items():
            atomic_write_text(
                self.root / "state" / f"{part}.json",
                json.dumps({"schema": SNAPSHOT_SCHEMA, part: data}, ensure_ascii=False, indent=1, sort_keys=True)
                + "\n",
            )

    def _write_index(self) -> None:
        assert self.index is not None
        atomic_write_text(self.root / INDEX, json.dumps(self.index.to_dict(), ensure_ascii=False, indent=1) + "\n")

    # -- migrations ------------------------------------------------------------------------
    def _migrate_single_log(self, notices: list[str]) -> CampaignIndex:
        """Schema 1 -> 2: a folder holding the foundation's `log.jsonl` becomes session 1."""
        (self.root / "sessions").mkdir(exist_ok=True)
        target = self.root / "sessions" / "session-001.jsonl"
        os.replace(self.root / "log.jsonl", target)
        index = CampaignIndex(self.root.resolve().name, ["session-001.jsonl"])
        self.index = index
        self._write_index()
        notices.append(t("campaign.notice.migrated"))
        return index


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        where = f"{path.name}:{exc.lineno}"
        raise DataError(t("core.err.data.json", where=where, msg=exc.msg, column=exc.colno)) from None
    except UnicodeDecodeError:
        raise DataError(t("core.err.data.utf8", where=path.name)) from None


def _check_snapshot(data: Any) -> tuple[int, dict[str, Any]]:
    """The event a snapshot follows and the state it holds, or a DataError naming the bad field."""
    if not isinstance(data, Mapping):
        raise DataError(t("core.err.data.object", where=SNAPSHOT))
    if data.get("schema") != SNAPSHOT_SCHEMA:
        raise DataError(t("core.err.data.schema",
            where=SNAPSHOT, value=repr(data.get("schema")), version=SNAPSHOT_SCHEMA))
    seq = data.get("seq")
    if type(seq) is not int or seq < 1:
        raise DataError(t("core.err.data.seq", where=SNAPSHOT, value=repr(seq)))
    if not isinstance(data.get("state"), Mapping):
        raise DataError(t("core.err.data.field_object", where=SNAPSHOT, field="state"))
    return seq, dict(data["state"])


def _read_lock(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _pid_alive(pid: Any) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
