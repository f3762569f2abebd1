"""The campaign folder: a git-friendly home for a campaign that lasts months.

Layout (schema 3; every file names its campaign id and the event it follows):
    campaign.json             the index: campaign id, name, the sessions in order (and, for people,
                              the latest snapshot)
    sessions/session-NNN.jsonl one event log per kernel session; its first line is a header
                              {"schema", "campaign", "file", "follows"}, then one event a line,
                              each written and synced before the event reaches memory
    snapshot.json             the table state after event `seq` (so opening needs no full replay),
                              with its campaign id and the list of parts it holds
    state/<part>.json         readable copies of each rule set's state, with campaign id and seq,
                              rewritten by `%campaign save` and on close - for people and git diffs; loading
                              never reads them back
    .lock                     the kernel that has the campaign open (pid, host, time)

Opening verifies the chain and refuses - never silently repairs - a missing, foreign, truncated or
inconsistent file, naming it and saying how to recover (`repair_plan` in gamekernel.campaign_repair
rebuilds from the logs that exist, writing nothing until confirmed). Symbolic links inside the
folder are refused. Loading never executes code: plain JSON only.
Older layouts are migrated: schema 1 (one `log.jsonl`) and schema 2 (no campaign id, no headers).
"""

from __future__ import annotations

import json
import os
import socket
import uuid
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamekernel.campaign_chain import fork_order_runs, order_disputes
from gamekernel.campaign_files import (
    GITATTRIBUTES,
    INDEX,
    INDEX_SCHEMA,
    LOCK,
    READ_ONLY_ERRORS,
    SESSIONS,
    SNAPSHOT,
    SNAPSHOT_SCHEMA,
    STATE,
    CampaignDamagedError,
    CampaignLockedError,
    CopiesNotWrittenError,
    SnapshotEditedError,
    campaign_files,
    content_digest,
    create_exclusive,
    file_time,
    hand_edited,
    json_bytes,
    keep_aside,
    load_log,
    read_derived,
    read_json,
    read_lock,
    refuse_links,
    restore_hint,
)
from gamekernel.campaign_temps import lock_of_a_browser_tab, pid_alive, remove_stale_temps
from gamekernel.errors import DataError, StorageError, UsageError
from gamekernel.events import Event, LogStore, now_iso, storage_error
from gamekernel.i18n import t
from gamekernel.util import atomic_write_bytes

_HELD: weakref.WeakValueDictionary[str, CampaignStore] = weakref.WeakValueDictionary()  # folder -> its store


@dataclass
class CampaignIndex:
    name: str
    campaign_id: str = ""
    sessions: list[str] = field(default_factory=list)
    snapshot_seq: int = 0
    schema: int = INDEX_SCHEMA
    fork_order: list[str] = field(default_factory=list)  # forked sessions in the order the GM chose

    def to_dict(self) -> dict[str, Any]:
        data = {"schema": INDEX_SCHEMA, "campaign": self.campaign_id, "name": self.name,
                "sessions": self.sessions, "snapshot_seq": self.snapshot_seq}
        if self.fork_order:  # written only once chosen: older campaigns' indexes stay as they were
            data["fork_order"] = self.fork_order
        return data

    @classmethod
    def from_dict(cls, data: Any, where: str) -> CampaignIndex:
        if not isinstance(data, Mapping):
            raise DataError(t("core.err.data.object", where=where))
        schema = data.get("schema")
        if schema not in (2, INDEX_SCHEMA):
            raise DataError(t("core.err.data.schema", where=where, value=repr(schema), version=INDEX_SCHEMA))
        name, sessions, seq = data.get("name"), data.get("sessions"), data.get("snapshot_seq", 0)
        campaign_id = data.get("campaign", "")
        if not isinstance(name, str):
            raise DataError(t("core.err.data.field_string", where=where, field="name"))
        if schema == INDEX_SCHEMA and (not isinstance(campaign_id, str) or not campaign_id):
            raise DataError(t("core.err.data.field_string", where=where, field="campaign"))
        if not isinstance(sessions, list) or not all(isinstance(s, str) for s in sessions):
            raise DataError(t("campaign.err.sessions", where=where))
        fork_order = data.get("fork_order", [])
        if not isinstance(fork_order, list) or not all(isinstance(s, str) for s in fork_order):
            raise DataError(t("campaign.err.fork_order", where=where))
        for entry in [*sessions, *fork_order]:
            if not safe_name(entry):
                raise DataError(t("campaign.err.unsafe", where=where, name=repr(entry)))
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise DataError(t("campaign.err.snapshot_seq", where=where))
        return cls(name, campaign_id if schema == INDEX_SCHEMA else "", list(sessions), seq, schema,
                   list(fork_order))


@dataclass
class LoadedCampaign:
    events: list[Event]
    snapshot: dict[str, Any] | None
    snapshot_seq: int
    warnings: list[str]
    edited: list[str] = field(default_factory=list)  # derived files changed by hand: kept as `.edited`


def safe_name(name: str) -> bool:
    """A plain file name: no folder, no parent, not hidden."""
    return bool(name) and "/" not in name and "\\" not in name and not name.startswith(".") and "\0" not in name


def session_header(campaign_id: str, name: str, follows: int) -> dict[str, Any]:
    """The first line of a session log: which campaign, which file, after which event."""
    return {"schema": INDEX_SCHEMA, "campaign": campaign_id, "file": name, "follows": follows}


def header_line(header: Mapping[str, Any]) -> bytes:
    return (json.dumps(header, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


class CampaignStore:
    """Files of one campaign folder; holds its lock while open."""

    def __init__(self, root: str | os.PathLike[str]):
        if "\0" in os.fspath(root):
            raise UsageError(t("campaign.err.path_nul", path=repr(os.fspath(root))))
        # os.path's expanduser leaves `~nobody` (no such user) as typed; Path's raises RuntimeError
        self.root = Path(os.path.expanduser(os.fspath(root)))
        self.index: CampaignIndex | None = None
        self.current_log: LogStore | None = None
        self.last_seq = 0
        self._locked = False
        self.read_only = False  # opened to be looked at: its folder cannot be written
        self.unreadable: list[str] = []  # derived files that are not JSON (a merge): kept as `.edited`, rebuilt
        self.forks: list[str] = []  # one line per fork among the sessions, said again by `%campaign status`
        self.forked: dict[str, tuple[int, int, int]] = {}  # see Chain.forks (`%campaign order`)
        self.fork_orders: list[list[str]] = []  # each `fork_order` the index holds (two after a merge)

    # -- opening and closing ---------------------------------------------------------------
    def open(self, *, holder: CampaignStore | None = None) -> list[str]:
        """Create the folder if missing, take the lock, migrate old layouts; returns notices.

        With `holder` (the store this kernel has open on the same folder: a reload) its lock is used
        and left to it: this store takes it over only by `take_lock_from` once the reread succeeded."""
        notices: list[str] = []
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise storage_error(exc, str(self.root)) from None
        refuse_links(self.root)
        if holder is None:
            self._acquire_lock(notices)
        else:
            self.read_only = holder.read_only
        try:
            removed = 0 if self.read_only else remove_stale_temps(self.root)
            if removed:
                notices.append(t("campaign.notice.stale_temps", count=removed))
            index_path = self.root / INDEX
            if index_path.exists():
                self.fork_orders = fork_order_runs(index_path.read_bytes())
                try:
                    self.index = CampaignIndex.from_dict(read_json(index_path, INDEX), INDEX)
                except DataError:  # derived: rebuilt from the logs when they name one campaign
                    from gamekernel.campaign_chain import campaign_of_logs, salvage_fork_order

                    campaign_id = campaign_of_logs(self.root / SESSIONS)
                    if not campaign_id:
                        raise
                    self.index = CampaignIndex(self.root.resolve().name, campaign_id,
                                               fork_order=salvage_fork_order(index_path.read_bytes()))
                    self.unreadable.append(INDEX)
                if self.index.schema == 2:
                    self._migrate_schema_2(notices)
            elif (self.root / "log.jsonl").exists():
                self._migrate_single_log(notices)
            else:
                found = campaign_files(self.root)
                if found:
                    raise CampaignDamagedError(t("campaign.err.index_missing", index=INDEX,
                                                 found=", ".join(found[:3]), hint=restore_hint()))
                self.index = CampaignIndex(self.root.resolve().name, uuid.uuid4().hex)
                self._write_index()
                if not (self.root / ".gitattributes").exists():
                    self.write_file(self.root / ".gitattributes", GITATTRIBUTES, ".gitattributes")
        except BaseException:
            self.release()
            raise
        return notices

    def take_lock_from(self, holder: CampaignStore) -> None:
        """The lock `holder` took passes to this store (same folder, same kernel): nothing on disk changes."""
        _HELD[str(self.root)] = self
        self._locked, holder._locked = holder._locked, False

    def release(self) -> None:
        if self.current_log is not None:
            self.current_log.close()
            self.current_log = None
        if self._locked:
            (self.root / LOCK).unlink(missing_ok=True)
            self._locked = False

    def _acquire_lock(self, notices: list[str]) -> None:
        """Take `.lock` atomically with its content (a hard link of a written file: never empty)."""
        path = self.root / LOCK
        me = {"pid": os.getpid(), "host": socket.gethostname(), "time": now_iso()}
        temp = self.root / f".lock.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
        content = json.dumps(me).encode("utf-8")
        try:
            atomic_write_bytes(temp, content)
        except OSError as exc:
            if exc.errno in READ_ONLY_ERRORS and (self.root / INDEX).is_file():
                self.read_only = True  # nothing can be written here, so no other kernel can record either
                notices.append(t("campaign.notice.read_only", name=repr(self.root.name)))
                return
            raise storage_error(exc, LOCK) from None
        try:
            for _ in range(2):
                try:
                    if not self._held():  # before the lock exists: no moment it is this process's unheld
                        _HELD[str(self.root)] = self
                    create_exclusive(temp, path, content)
                except FileExistsError:
                    holder = read_lock(path)
                    if holder and lock_of_a_browser_tab(holder, me["host"]) and not self._held():
                        path.unlink(missing_ok=True)
                        notices.append(t("campaign.notice.tab_lock", lock=LOCK, name=repr(self.root.name)))
                        continue
                    if holder and holder.get("host") == me["host"] and (
                        not pid_alive(holder.get("pid")) or (holder.get("pid") == me["pid"] and not self._held())
                    ):  # a kernel gone, or this one's, left by an interrupt with no store holding it
                        path.unlink(missing_ok=True)
                        notices.append(t("campaign.notice.stale_lock", lock=LOCK, pid=holder.get("pid")))
                        continue
                    raise self._locked_error(path, holder) from None
                except OSError as exc:
                    raise storage_error(exc, LOCK) from None
                self._locked = True
                return
            raise self._locked_error(path, read_lock(path))
        finally:
            temp.unlink(missing_ok=True)

    def _held(self) -> bool:
        """Whether a live store of this process holds this folder's lock."""
        other = _HELD.get(str(self.root))
        return other is not None and other is not self and other._locked

    def _locked_error(self, path: Path, holder: dict[str, Any] | None) -> CampaignLockedError:
        name = repr(self.root.name)
        when = holder.get("time") if holder and isinstance(holder.get("time"), str) else file_time(path)
        if not holder:
            return CampaignLockedError(t("campaign.err.lock_unreadable", name=name, lock=LOCK, when=when,
                                         path=str(path)))
        who = t("campaign.who", pid=holder.get("pid"), host=holder.get("host"))
        return CampaignLockedError(t("campaign.err.locked", name=name, who=who, when=when, lock=LOCK,
                                     path=str(path)))

    # -- reading ---------------------------------------------------------------------------
    def load(self) -> LoadedCampaign:
        """Every event of every session in order, plus the latest snapshot, the whole chain verified.

        The sessions are those `sessions/` holds (a listed one missing is refused), ordered by their
        headers (gamekernel.campaign_chain): the index's list is derived, rebuilt when it disagrees."""
        from gamekernel.campaign_chain import ChainGap, Session, order_sessions

        assert self.index is not None
        campaign_id = self.index.campaign_id
        warnings: list[str] = []
        folder = self.root / SESSIONS
        names = sorted(p.name for p in folder.glob("*.jsonl")) if folder.is_dir() else []
        for name in self.index.sessions:
            if name not in names:
                raise CampaignDamagedError(t("campaign.err.session_missing", where=f"{SESSIONS}/{name}",
                                             index=INDEX, hint=restore_hint()))
        sessions: list[Session] = []
        empty: list[str] = []
        for name in names:
            where = f"{SESSIONS}/{name}"
            report = load_log(folder / name, where)
            header = report.header
            if header is None and not report.events and name not in self.index.sessions:
                continue  # an empty file nobody listed: no session
            if header is None:
                raise CampaignDamagedError(t("campaign.err.no_header", where=where, hint=restore_hint()))
            check_owner(header, where, campaign_id)
            if header.get("file") != name:
                raise CampaignDamagedError(t("campaign.err.wrong_file", where=where, named=repr(header.get("file")),
                                             hint=restore_hint()))
            follows = header.get("follows")
            if type(follows) is not int or follows < 0:
                raise CampaignDamagedError(t("campaign.err.gap", where=where, follows=follows, last="?",
                                             previous=t("campaign.start"), hint=restore_hint()))
            warnings.extend(f"{SESSIONS}/{w}" for w in report.warnings)
            if not report.events:  # a session started, nothing recorded in it (a reload cut short after it)
                empty.append(name)
                continue
            check_follows(report.events, where, follows, where)
            sessions.append(Session(name, follows, report.events))
        try:
            chain = order_sessions(sessions, self.index.fork_order)
        except ChainGap as gap:
            where, follows, last, previous = gap.args
            raise CampaignDamagedError(t("campaign.err.gap", where=where, follows=follows, last=last,
                                         previous=previous or t("campaign.start"), hint=restore_hint())) from None
        self.forks = chain.notices + order_disputes(self.fork_orders, chain.forks, chain.order)
        warnings += self.forks
        self.forked = chain.forks
        self.last_seq = chain.events[-1].seq if chain.events else 0
        derived = chain.order + [name for name in self.index.sessions if name in empty]
        if set(derived) != set(self.index.sessions) and self.index.sessions:
            warnings.append(t("campaign.notice.index_rebuilt", index=INDEX))
        self.index.sessions = derived
        edited: list[str] = []
        snapshot, snapshot_seq = self._read_snapshot(warnings, edited, chain.events)
        self._check_state_files(warnings, edited)
        edited += [where for where in self.unreadable if where not in edited]  # kept as `.edited` too
        return LoadedCampaign(chain.events, snapshot, snapshot_seq, warnings, edited)

    def _read_snapshot(
        self, warnings: list[str], edited: list[str], events: list[Event]
    ) -> tuple[dict[str, Any] | None, int]:
        """The snapshot and the event it follows, or (None, 0) with one notice: a snapshot is derived
        from the logs (it saves replay time), so one that does not fit them never stops an open; one
        changed by hand (no digest, or not its digest) is kept as `snapshot.json.edited`."""
        assert self.index is not None
        path = self.root / SNAPSHOT
        if not path.exists():
            if self.index.snapshot_seq:
                warnings.append(t("campaign.notice.no_snapshot", snapshot=SNAPSHOT))
            return None, 0
        hint = t("campaign.hint.derived", where=SNAPSHOT)
        data = read_derived(path, SNAPSHOT)
        if isinstance(data, str):  # not JSON: a union merge, conflict markers, cut short - not an edit
            self.unreadable.append(SNAPSHOT)
            return None, 0
        if isinstance(data, Mapping) and data.get("schema") == 1:
            warnings.append(t("campaign.notice.old_snapshot", snapshot=SNAPSHOT))
            return None, 0
        try:
            snapshot_seq, snapshot = check_snapshot(data, self.index.campaign_id, self.last_seq, hint=hint)
            stamp = data.get("stamp")
            if stamp is not None and events[snapshot_seq - 1].time != stamp:  # another branch's event N
                raise DataError(t("campaign.err.snapshot_branch", where=SNAPSHOT, seq=snapshot_seq))
        except DataError as error:
            if isinstance(error, SnapshotEditedError):
                edited.append(SNAPSHOT)
            text = str(error)
            warnings.append(text if text.endswith(hint) else f"{text}; {hint}")
            return None, 0
        return snapshot, snapshot_seq

    def _check_state_files(self, warnings: list[str], edited: list[str]) -> None:
        """The readable copies are never read back: one changed by hand (no digest, or not its
        digest, or not JSON: a git conflict) is kept as `<part>.json.edited` and named, one of
        another campaign or beyond the logs is rewritten at the next save. A file in `state/` that
        is no part's copy (the GM's own notes) is left alone."""
        from gamekernel.state import part_names

        assert self.index is not None  # checked while loading, after open() read the index
        folder = self.root / STATE
        if not folder.is_dir():
            return
        parts = set(part_names())
        for path in sorted(folder.glob("*.json")):
            where = f"{STATE}/{path.name}"
            if path.stem not in parts:
                continue
            data = read_derived(path, where)
            if isinstance(data, str):  # not JSON (a merge, cut short): written again at the next save
                self.unreadable.append(where)
                continue
            if isinstance(data, Mapping) and data.get("schema") == 1:
                continue  # a readable copy of the previous version: rewritten at the next save
            if hand_edited(data, path.stem):
                edited.append(where)
                continue
            assert isinstance(data, Mapping)  # hand_edited is True for anything else
            seq = data.get("seq")
            if data.get("campaign") != self.index.campaign_id or type(seq) is not int or seq > self.last_seq:
                warnings.append(t("campaign.notice.copy_stale", where=where, seq=seq, last=self.last_seq))

    def keep_edits(self, edited: list[str]) -> list[str]:
        """Rename each derived file changed by hand, or not JSON (a merge of both sides' lines, a broken
        edit), to a free `<name>.edited` (nothing is deleted) and name it; the index is copied (the
        folder always holds one). Read-only, only name it. A rename that fails is retried at the next save."""
        notices: list[str] = []
        for where in edited:
            broken = where in self.unreadable
            if self.read_only:
                notices.append(t("campaign.notice.unreadable_seen" if broken else "campaign.notice.edit_seen",
                                 where=where))
                continue
            try:
                kept = keep_aside(self.root / where, copy=where == INDEX)
            except StorageError:
                continue
            notices.append(t("campaign.notice.unreadable_set_aside" if broken else "campaign.notice.edit_set_aside",
                             where=where, kept=kept.relative_to(self.root).as_posix()))
        return notices

    # -- writing ---------------------------------------------------------------------------
    def start_session(self) -> LogStore:
        """A new session log for this kernel: written with its header, then listed in the index."""
        assert self.index is not None
        from gamekernel.campaign_chain import session_file_name

        name = session_file_name()
        path = self.root / SESSIONS / name
        where = f"{SESSIONS}/{name}"
        header = session_header(self.index.campaign_id, name, self.last_seq)
        self.write_file(path, header_line(header), where)
        self.index.sessions.append(name)
        try:
            self._write_index()
        except StorageError:
            self.index.sessions.pop()
            path.unlink(missing_ok=True)
            raise
        self.current_log = LogStore(path, fsync=True, label=where)
        return self.current_log

    def write_snapshot(
        self, seq: int, state: Mapping[str, Any], readable: Mapping[str, Any], stamp: str | None = None
    ) -> list[str]:
        """Store the state after event `seq`, then the index, then the readable per-part copies.

        Each file is replaced atomically; a failure part-way leaves files that still agree (a
        snapshot newer than the index, readable copies older than the snapshot). Returns notices
        (a hand-edited readable copy kept aside).
        """
        assert self.index is not None
        snapshot = {"schema": SNAPSHOT_SCHEMA, "campaign": self.index.campaign_id, "seq": seq,
                    "parts": sorted(state), "state": state, "digest": content_digest(state)}
        if stamp is not None:  # the time of event `seq`: after a merge, another branch's event N is told apart
            snapshot["stamp"] = stamp
        notices = self._keep_hand_edit(self.root / SNAPSHOT, "state")
        self.write_file(self.root / SNAPSHOT, json_bytes(snapshot, compact=True), SNAPSHOT)
        previous = self.index.snapshot_seq
        self.index.snapshot_seq = seq
        try:
            self._write_index()
        except StorageError:
            self.index.snapshot_seq = previous
            raise
        for part, data in readable.items():
            record = {"schema": SNAPSHOT_SCHEMA, "campaign": self.index.campaign_id, "seq": seq, part: data,
                      "digest": content_digest(data)}
            path = self.root / STATE / f"{part}.json"
            try:
                notices += self._keep_hand_edit(path, part)
                self.write_file(path, json_bytes(record), f"{STATE}/{part}.json")
            except StorageError as error:
                raise CopiesNotWrittenError(str(error)) from None
        return notices

    def _keep_hand_edit(self, path: Path, part: str) -> list[str]:
        """A derived file changed by hand since it was written (no digest, or not its digest) is
        renamed `<name>.edited` before the new one replaces it, and said so: an edit is never
        overwritten silently."""
        where = path.relative_to(self.root).as_posix()
        try:
            raw = path.read_bytes() if path.is_file() else None
        except OSError:
            raw = None
        if raw is None:
            return []
        try:
            data, key = json.loads(raw), "campaign.notice.edit_kept"
        except ValueError:  # not JSON (a merge, a broken edit): kept too, never overwritten silently
            data, key = None, "campaign.notice.unreadable_kept"
        if data is not None and ((isinstance(data, Mapping) and data.get("schema") == 1)
                                 or not hand_edited(data, part)):
            return []
        kept = keep_aside(path)
        return [t(key, where=where, kept=kept.relative_to(self.root).as_posix())]

    def write_file(self, path: Path, data: bytes, where: str) -> None:
        """An atomic write inside the folder; an OS failure becomes one line naming the file."""
        try:
            atomic_write_bytes(path, data)
        except OSError as exc:
            raise storage_error(exc, where) from None

    def _write_index(self) -> None:
        assert self.index is not None
        self.write_file(self.root / INDEX, json_bytes(self.index.to_dict()), INDEX)

    # -- migrations ------------------------------------------------------------------------
    def _migrate_single_log(self, notices: list[str]) -> None:
        """Schema 1 -> 3: a folder holding the foundation's `log.jsonl` becomes session 1."""
        source = self.root / "log.jsonl"
        report = LogStore.load(source)
        check_follows(report.events, "log.jsonl", 0, t("campaign.start"))
        self.index = CampaignIndex(self.root.resolve().name, uuid.uuid4().hex, ["session-001.jsonl"])
        name = "session-001.jsonl"
        header = session_header(self.index.campaign_id, name, 0)
        self.write_file(self.root / SESSIONS / name, header_line(header) + source.read_bytes(), f"{SESSIONS}/{name}")
        self._write_index()
        source.unlink()
        notices.append(t("campaign.notice.migrated", version=INDEX_SCHEMA))

    def _migrate_schema_2(self, notices: list[str]) -> None:
        """Schema 2 -> 3: the campaign gets an id, each session log a header naming it.

        The chain is verified first (every listed log present, events 1, 2, 3 ... without a gap) and
        nothing is written when it fails. A header already there (a migration cut short) keeps its id.
        """
        assert self.index is not None
        reports = []
        last = 0
        previous = t("campaign.start")
        for name in self.index.sessions:
            where = f"{SESSIONS}/{name}"
            path = self.root / SESSIONS / name
            if not path.is_file():
                raise CampaignDamagedError(t("campaign.err.session_missing", where=where, index=INDEX,
                                             hint=restore_hint()))
            report = LogStore.load(path)
            check_follows(report.events, where, last, previous)
            if report.events:
                last, previous = report.events[-1].seq, where
            reports.append((name, path, report, last))
        ids = {r.header.get("campaign") for _, _, r, _ in reports if r.header}
        named = {i for i in ids if isinstance(i, str) and i}
        campaign_id = named.pop() if len(named) == 1 else uuid.uuid4().hex
        self.index.campaign_id = campaign_id
        follows = 0
        for name, path, report, last in reports:
            if report.header is None:
                header = header_line(session_header(campaign_id, name, follows))
                self.write_file(path, header + path.read_bytes(), f"{SESSIONS}/{name}")
            follows = last
        self.index.schema = INDEX_SCHEMA
        self._write_index()
        notices.append(t("campaign.notice.migrated_2", version=INDEX_SCHEMA))


# -- verification -------------------------------------------------------------------------------
def check_owner(data: Mapping[str, Any], where: str, campaign_id: str, hint: str | None = None) -> None:
    """A file of another campaign (or of none) is refused."""
    owner = data.get("campaign")
    if owner != campaign_id:
        raise CampaignDamagedError(t("campaign.err.foreign", where=where, other=repr(owner),
                                     mine=repr(campaign_id), hint=hint or restore_hint()))




def check_follows(events: list[Event], where: str, last: int, previous: str) -> None:
    """The events of a log continue the chain: last + 1, last + 2, ... (seqs only ever grow by one)."""
    if not events:
        return
    if events[0].seq != last + 1:
        raise CampaignDamagedError(t("campaign.err.gap", where=where, follows=events[0].seq - 1, last=last,
                                     previous=previous, hint=restore_hint()))
    if events[-1].seq != last + len(events):  # a hole inside this log (seqs are increasing, see LogStore)
        at = next(i for i, e in enumerate(events) if e.seq != last + 1 + i)
        raise CampaignDamagedError(t("campaign.err.gap", where=where, follows=events[at].seq - 1,
                                     last=events[at - 1].seq, previous=where, hint=restore_hint()))


def check_snapshot(data: Any, campaign_id: str, last: int, hint: str | None = None) -> tuple[int, dict[str, Any]]:
    """The event a snapshot follows and the state it holds; refused when foreign, partial or ahead of the logs."""
    from gamekernel.state import part_names

    if not isinstance(data, Mapping):
        raise DataError(t("core.err.data.object", where=SNAPSHOT))
    if data.get("schema") != SNAPSHOT_SCHEMA:
        raise DataError(t("core.err.data.schema",
            where=SNAPSHOT, value=repr(data.get("schema")), version=SNAPSHOT_SCHEMA))
    check_owner(data, SNAPSHOT, campaign_id, hint)
    seq = data.get("seq")
    if type(seq) is not int or seq < 1:
        raise DataError(t("core.err.data.seq", where=SNAPSHOT, value=repr(seq)))
    state = data.get("state")
    if not isinstance(state, Mapping):
        raise DataError(t("core.err.data.field_object", where=SNAPSHOT, field="state"))
    missing = sorted(set(part_names()) - set(state))
    if missing or sorted(state) != data.get("parts"):
        raise CampaignDamagedError(t("campaign.err.snapshot_parts", where=SNAPSHOT,
                                     parts=", ".join(sorted(state)) or "-", missing=", ".join(missing) or "-"))
    if data.get("digest") != content_digest(state):
        raise SnapshotEditedError(t("campaign.err.snapshot_edited", where=SNAPSHOT))
    if seq > last:
        raise CampaignDamagedError(t("campaign.err.beyond_logs", where=SNAPSHOT, seq=seq, last=last,
                                     hint=hint or restore_hint()))
    return seq, dict(state)
