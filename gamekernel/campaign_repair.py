"""Rebuild a damaged campaign folder from the session logs that exist - shown first, done when confirmed.

Opening refuses a damaged campaign; `repair` says what would make it open again: which logs are
kept (those of this campaign whose events continue 1, 2, 3 ... without a gap), which files are set
aside (moved, never deleted, into `damaged-<time>/`: a log after a gap, a foreign or unreadable
file, a snapshot or readable copy that does not fit the kept logs), which logs get their header
and the new index. Without `confirm` nothing is written.
"""

from __future__ import annotations

import os
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamekernel.campaign import (
    INDEX,
    SESSIONS,
    SNAPSHOT,
    STATE,
    CampaignDamagedError,
    CampaignIndex,
    CampaignStore,
    check_follows,
    check_snapshot,
    hand_edited,
    header_line,
    read_json,
    session_header,
)
from gamekernel.display import Displayable
from gamekernel.errors import DataError, GameKernelError
from gamekernel.events import LogStore, encode_event, storage_error
from gamekernel.i18n import t


@dataclass(frozen=True, repr=False)
class RepairReport(Displayable):
    """What a repair does (or did): one line per file, then how many events the campaign keeps
    (drawn by gamekernel/render/campaign.py)."""

    folder: str
    steps: tuple[str, ...]
    events: int
    done: bool


@dataclass
class _Plan:
    campaign_id: str
    name: str
    keep: list[str]
    headers: dict[str, bytes]  # session file -> header line to put in front of it
    aside: list[tuple[str, str]]  # (path in the folder, reason)
    snapshot_seq: int
    events: int
    steps: list[str]
    aside_folder: str
    rewrite: dict[str, list[Any]]  # session file -> the events it keeps (its superseded lines dropped)


def repair(path: str | os.PathLike[str], *, confirm: bool = False) -> RepairReport:
    """Plan the repair of the campaign in `path` (holding its lock); carry it out with `confirm`."""
    store = CampaignStore(path)
    root = store.root
    try:
        is_folder = root.is_dir()
    except OSError:  # a name the system refuses (too long, ...): there is no folder of that name
        is_folder = False
    if not is_folder:
        raise DataError(t("campaign.err.no_folder", folder=str(root)))
    refuse_linked_parts(root)
    notices: list[str] = []
    store._acquire_lock(notices)
    try:
        plan = _plan(root)
        if confirm:
            _apply(store, plan)
    finally:
        store.release()
    return RepairReport(str(root), tuple(plan.steps), plan.events, confirm)


def refuse_linked_parts(root: Path) -> None:
    """A repair moves only files the campaign folder owns: with `sessions/` (or `state/`, the index,
    the snapshot) a symbolic link, what it points to belongs elsewhere, so the repair is refused."""
    for name in (SESSIONS, STATE, INDEX, SNAPSHOT):
        if (root / name).is_symlink():
            raise CampaignDamagedError(t("campaign.err.symlink", where=name))


def _plan(root: Path) -> _Plan:
    from gamekernel.actions.campaign import snapshot_is_valid
    from gamekernel.session import active_events, replay

    index = _read_index(root)
    aside: list[tuple[str, str]] = []
    logs: list[tuple[str, Any]] = []
    rewrite: dict[str, list[Any]] = {}  # session file -> the superseded events it loses
    for path in sorted((root / SESSIONS).glob("*.jsonl")):
        where = f"{SESSIONS}/{path.name}"
        if path.is_symlink() or not path.is_file():
            aside.append((where, t("campaign.repair.why_link")))
            continue
        ghosts: list[Any] = []
        try:
            logs.append((path.name, LogStore.load(path, superseded=ghosts)))
        except GameKernelError as error:
            aside.append((where, str(error)))
            continue
        if ghosts:
            rewrite[path.name] = ghosts
    campaign_id = index.campaign_id if index and index.campaign_id else _most_common_id(logs)
    keep: list[str] = []
    kept_events: dict[str, list[Any]] = {}  # session file -> its events once the superseded are out
    headers: dict[str, bytes] = {}
    steps: list[str] = []
    events = []
    last = 0
    for name, report in logs:
        where = f"{SESSIONS}/{name}"
        header = report.header
        if header is not None and header.get("campaign") != campaign_id:
            aside.append((where, t("campaign.repair.why_foreign", other=repr(header.get("campaign")))))
            continue
        if not report.events:
            aside.append((where, t("campaign.repair.why_empty")))
            continue
        try:
            check_follows(report.events, where, last, where)
        except DataError:
            aside.append((where, t("campaign.repair.why_gap", first=report.events[0].seq,
                                   end=report.events[-1].seq, last=last)))
            continue
        keep.append(name)
        steps.append(t("campaign.repair.keep", where=where, first=report.events[0].seq, end=report.events[-1].seq))
        if name in rewrite:
            steps.append(t("campaign.repair.superseded", where=where, count=len(rewrite[name]),
                           seqs=", ".join(str(e.seq) for e in rewrite[name][:5]), folder="{folder}"))
            kept_events[name] = report.events
        wanted = session_header(campaign_id, name, last)
        if header is None or any(header.get(k) != v for k, v in wanted.items()):
            headers[name] = header_line(wanted)
            steps.append(t("campaign.repair.header", where=where, follows=last))
        events.extend(report.events)
        last = report.events[-1].seq
    try:
        replay(active_events(events)[0])
    except (GameKernelError, KeyError, ValueError, TypeError) as error:
        raise DataError(t("campaign.err.repair_replay", error=str(error))) from None
    snapshot_seq = 0
    if (root / SNAPSHOT).exists():
        try:
            snapshot_seq, _ = check_snapshot(read_json(root / SNAPSHOT, SNAPSHOT), campaign_id, last)
            if not snapshot_is_valid(events, snapshot_seq):
                raise DataError(t("campaign.repair.why_undone", seq=snapshot_seq))
        except GameKernelError as error:
            aside.append((SNAPSHOT, str(error)))
            snapshot_seq = 0
    for path in sorted((root / STATE).glob("*.json")):
        where = f"{STATE}/{path.name}"
        try:
            data = read_json(path, where)
        except GameKernelError as error:
            aside.append((where, str(error)))
            continue
        if isinstance(data, dict) and data.get("schema") != 1 and (
            data.get("campaign") != campaign_id or not isinstance(data.get("seq"), int) or data["seq"] > last
        ):
            aside.append((where, t("campaign.repair.why_state", seq=data.get("seq"), last=last)))
        elif hand_edited(data, path.stem):
            aside.append((where, t("campaign.err.state_edited", where=where)))
    aside_to = aside_folder(root)
    steps = [step.replace("{folder}", aside_to) for step in steps]
    steps += [t("campaign.repair.aside", where=where, folder=aside_to, why=why) for where, why in aside]
    name = index.name if index else root.resolve().name
    steps.append(t("campaign.repair.index", index=INDEX, sessions=len(keep)))
    return _Plan(campaign_id, name, keep, headers, aside, snapshot_seq, len(events), steps, aside_to, kept_events)


def _apply(store: CampaignStore, plan: _Plan) -> None:
    """Move the set-aside files, put the headers in front of the kept logs, write the index."""
    root = store.root
    aside_root = root / plan.aside_folder
    for where, _ in plan.aside:
        target = aside_root / where
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(root / where, target)
        except OSError as exc:
            raise storage_error(exc, where) from None
    for name, events in plan.rewrite.items():
        _rewrite_log(store, plan, name, events)
    for name, header in plan.headers.items():
        path = root / SESSIONS / name
        body = path.read_bytes()
        if LogStore.load(path).header is not None:  # drop the wrong header before putting the right one
            body = body.split(b"\n", 1)[1] if b"\n" in body else b""
        store.write_file(path, header + body, f"{SESSIONS}/{name}")
    store.index = CampaignIndex(plan.name, plan.campaign_id, list(plan.keep), plan.snapshot_seq)
    store._write_index()


def _rewrite_log(store: CampaignStore, plan: _Plan, name: str, events: list[Any]) -> None:
    """A log without its superseded lines; the file as it was is moved into the aside folder first."""
    where = f"{SESSIONS}/{name}"
    path = store.root / SESSIONS / name
    header = LogStore.load(path, superseded=[]).header
    body = (header_line(header) if header is not None else b"") + b"".join(encode_event(e) for e in events)
    target = store.root / plan.aside_folder / where
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
    except OSError as exc:
        raise storage_error(exc, where) from None
    store.write_file(path, body, where)


def aside_folder(root: Path) -> str:
    """`damaged-1`, or the next number free: numbered rather than stamped, so that a repair's plan
    reads the same whatever the day (a saved notebook's output must not carry the clock)."""
    n = 1
    while (root / f"damaged-{n}").exists():
        n += 1
    return f"damaged-{n}"


def _read_index(root: Path) -> CampaignIndex | None:
    try:
        return CampaignIndex.from_dict(read_json(root / INDEX, INDEX), INDEX)
    except (GameKernelError, OSError):
        return None


def _most_common_id(logs: list[tuple[str, Any]]) -> str:
    ids = Counter(r.header["campaign"] for _, r in logs if r.header and isinstance(r.header.get("campaign"), str))
    return ids.most_common(1)[0][0] if ids else uuid.uuid4().hex
