"""Rebuild a damaged campaign folder from every intact event that exists - shown first, done when confirmed.

Opening refuses a damaged campaign; `repair` says what would make it open again, line by line: every
line of every session log of this campaign that holds an intact event is kept, whatever damage is
around it (a line deleted, lines swapped, a line of unknown kind such as a GM's annotation, a byte
that is not UTF-8, CR-only line endings, a line cut short, a line an interrupted write left before
its number was used again). A line that cannot be kept is named with its file and line number and
why; it costs only itself. The events kept are numbered 1, 2, 3 ... again where a gap needs it (an
undo, redo or reveal follows the numbers it names). Files are never deleted: a log rewritten or
dropped, a snapshot that no longer fits, a foreign or unreadable file are moved into `damaged-N/`
first. Without `confirm` nothing is written.
"""

from __future__ import annotations

import gc
import json
import os
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamekernel.campaign import CampaignIndex, CampaignStore, check_snapshot, header_line, session_header
from gamekernel.campaign_files import (
    CONFLICT_MARKER,
    INDEX,
    SESSIONS,
    SNAPSHOT,
    STATE,
    CampaignDamagedError,
    hand_edited,
    read_json,
)
from gamekernel.display import Displayable
from gamekernel.errors import DataError, GameKernelError
from gamekernel.events import EVENT_KINDS, Event, encode_event, storage_error
from gamekernel.i18n import t

SHOWN_PER_FILE = 20  # set-aside lines named one by one in a file; the rest counted


@dataclass(frozen=True, repr=False)
class RepairReport(Displayable):
    """What a repair does (or did): one line per file (and per line set aside), then how many events
    the campaign keeps of how many intact ones were found (drawn by gamekernel/render/campaign.py)."""

    folder: str
    steps: tuple[str, ...]
    events: int
    done: bool
    found: int = 0  # event lines read (intact or not) before the repair


@dataclass
class _Log:
    """One session log as read line by line."""

    name: str
    raw: bytes
    header: dict[str, Any] | None = None
    events: list[tuple[int, Event]] = field(default_factory=list)  # (line number, event), in file order
    bad: list[tuple[int, str]] = field(default_factory=list)  # (line number, why)
    lines: int = 0  # lines that held something other than the header

    @property
    def where(self) -> str:
        return f"{SESSIONS}/{self.name}"


@dataclass
class _Plan:
    campaign_id: str
    name: str
    keep: list[str]
    bodies: dict[str, bytes]  # session file -> its new bytes (only the files that change)
    aside: list[tuple[str, str]]  # (path in the folder, reason): moved whole into the aside folder
    snapshot_seq: int
    events: int
    found: int
    steps: list[str]
    aside_folder: str
    fork_order: list[str]  # the order the GM chose for forked sessions (`%campaign order`), kept


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
    collecting = gc.isenabled()
    store._acquire_lock(notices)
    try:
        plan = _plan(root)
        if confirm:
            _apply(store, plan)
    finally:
        if collecting:  # an interrupt inside a replay's `gc_paused` may have left the collector off
            gc.enable()
        store.release()
    return RepairReport(str(root), tuple(plan.steps), plan.events, confirm, plan.found)


def refuse_linked_parts(root: Path) -> None:
    """A repair moves only files the campaign folder owns: with `sessions/` (or `state/`, the index,
    the snapshot) a symbolic link, what it points to belongs elsewhere, so the repair is refused."""
    for name in (SESSIONS, STATE, INDEX, SNAPSHOT):
        if (root / name).is_symlink():
            raise CampaignDamagedError(t("campaign.err.symlink", where=name))


def read_log(name: str, raw: bytes) -> _Log:
    """Every line of a log judged on its own: CR, CRLF and LF all end a line; the header is the
    first line naming a campaign (no seq); a line that is not an intact event is named, with why."""
    log = _Log(name, raw)
    text_lines = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    last = max((i for i, line in enumerate(text_lines) if line.strip()), default=-1)
    for index, line in enumerate(text_lines):
        if not line.strip():
            continue
        number = index + 1
        why, record = _judge(line, index == last)
        if why is None and log.header is None and not log.events and not log.bad and _is_header(record):
            log.header = record
            continue
        log.lines += 1
        if why is not None:
            log.bad.append((number, why))
            continue
        try:
            log.events.append((number, Event.from_dict(record, where=f"{log.where}:{number}")))
        except GameKernelError as error:
            log.bad.append((number, _unknown_kind(record) or str(error)))
    return log


def _judge(line: bytes, is_last: bool) -> tuple[str | None, Any]:
    """(why the line is not JSON, None) or (None, its decoded value)."""
    if CONFLICT_MARKER.match(line):
        return t("campaign.repair.why_marker"), None
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return t("campaign.repair.why_bytes", byte=f"0x{line[exc.start]:02X}", column=exc.start + 1), None
    try:
        return None, json.loads(text)
    except json.JSONDecodeError as exc:
        if is_last and not text.rstrip().endswith("}"):
            return t("campaign.repair.why_torn"), None
        if text.lstrip().startswith(("#", "//")):
            return t("campaign.repair.why_comment"), None
        return t("campaign.repair.why_json", msg=exc.msg, column=exc.colno), None


def _is_header(record: Any) -> bool:
    return type(record) is dict and "campaign" in record and "seq" not in record


def _unknown_kind(record: Any) -> str | None:
    kind = record.get("kind") if type(record) is dict else None
    if type(kind) is str and kind not in EVENT_KINDS:
        return t("campaign.repair.why_kind", kind=repr(kind))
    return None


def _order(logs: list[_Log], chosen: list[str]) -> list[_Log]:
    """Logs in the order their events happened: by the first event's number, then the order the GM
    chose for forked sessions (`%campaign order`), then its time, then name."""
    rank = {name: i for i, name in enumerate(chosen)}

    def key(log: _Log) -> tuple[int, int, str, str]:
        first = min(log.events, key=lambda item: item[1].seq)[1] if log.events else None
        place = rank.get(log.name, len(rank))
        return (first.seq, place, first.time, log.name) if first else (0, place, "", log.name)

    return sorted(logs, key=key)


Kept = list[tuple[_Log, list[tuple[int, Event]]]]  # each log's kept events, with the line each came from


def _kept_events(logs: list[_Log], steps: list[str]) -> tuple[Kept, set[tuple[str, int]]]:
    """Each log's events in order of number; of a number used twice in one log the last line wins
    (an interrupted write before this version left the first), and an event already kept from
    an earlier log (a copied file) is not kept twice. Returns the events and the lines dropped."""
    seen: set[str] = set()
    result: Kept = []
    dropped: set[tuple[str, int]] = set()
    for log in logs:
        by_seq: dict[int, tuple[int, Event]] = {}
        superseded: list[int] = []
        for number, event in log.events:
            if event.seq in by_seq:
                superseded.append(by_seq[event.seq][1].seq)
                dropped.add((log.name, by_seq[event.seq][0]))
            by_seq[event.seq] = (number, event)
        events = []
        for seq in sorted(by_seq):
            number, event = by_seq[seq]
            line = event.to_json()
            if line in seen:
                dropped.add((log.name, number))
                continue
            seen.add(line)
            events.append((number, event))
        if superseded:
            steps.append(t("campaign.repair.superseded", where=log.where, count=len(superseded),
                           seqs=", ".join(str(s) for s in superseded[:5]), folder="{folder}"))
        result.append((log, events))
    return result, dropped


def _name_gaps(kept: Kept, steps: list[str]) -> None:
    """One step for each run of event numbers no log holds (lines deleted, a log lost)."""
    previous = 0
    for log, events in kept:
        for _, event in events:
            if event.seq > previous + 1:
                steps.append(t("campaign.repair.gap", where=log.where, first=previous + 1, end=event.seq - 1))
            previous = max(previous, event.seq)


def _renumber(kept: Kept) -> Kept:
    """Number the events 1, 2, 3 ... in the logs' order; an undo, redo or reveal names the new
    numbers of the events it named (in its own log first, else the first log that had that number);
    one left naming none of them is dropped."""
    own: dict[tuple[str, int], int] = {}
    first: dict[int, int] = {}
    seq = 0
    for log, events in kept:
        for _, event in events:
            seq += 1
            own[(log.name, event.seq)] = seq
            first.setdefault(event.seq, seq)
    result: Kept = []
    seq = 0
    for log, events in kept:
        renumbered = []
        for number, event in events:
            data = _remap(event, lambda old, name=log.name: own.get((name, old), first.get(old)))
            if data is None:
                log.bad.append((number, t("campaign.repair.why_names_lost")))
                continue
            seq += 1
            renumbered.append((number, Event(seq, event.kind, data, event.actor, event.secret, event.time, event.by)
                               if (seq, data) != (event.seq, event.data) else event))
        result.append((log, renumbered))
    return result


def _remap(event: Event, new: Any) -> dict[str, Any] | None:
    """`event.data` with the event numbers it names renumbered (None: it names none that is kept)."""
    data = dict(event.data)
    if event.kind in ("undo", "redo"):
        seqs = [new(s) for s in data.get("seqs", []) if new(s) is not None]
        if not seqs:
            return None
        data["seqs"] = seqs
    elif event.kind == "table.reveal":
        for key in ("seq", "cause"):
            if type(data.get(key)) is int:
                if new(data[key]) is None:
                    return None
                data[key] = new(data[key])
    return data


def _replay_bad(events: list[Event]) -> set[int]:
    """The numbers of events whose reducer fails on the state before them (a card moved whose
    creation was lost); the rest replays without them."""
    from gamekernel.replay import active_events, replay

    try:
        active, _ = active_events(events)
    except (GameKernelError, KeyError, ValueError, TypeError, IndexError):
        return {e.seq for e in events if e.kind in ("undo", "redo")}
    bad: set[int] = set()
    good: list[Event] = []
    state = replay([])
    for event in active:
        try:
            replay([event], state)
        except (GameKernelError, KeyError, ValueError, TypeError, AttributeError, IndexError):
            bad.add(event.seq)
            state = replay(good)
            continue
        good.append(event)
    return bad


def _plan(root: Path) -> _Plan:
    from gamekernel.replay import snapshot_is_valid

    index = _read_index(root)
    aside: list[tuple[str, str]] = []
    logs: list[_Log] = []
    for path in sorted((root / SESSIONS).glob("*.jsonl")):
        where = f"{SESSIONS}/{path.name}"
        if path.is_symlink() or not path.is_file():
            aside.append((where, t("campaign.repair.why_link")))
            continue
        try:
            logs.append(read_log(path.name, path.read_bytes()))
        except OSError as exc:
            aside.append((where, exc.strerror or str(exc)))
    campaign_id = index.campaign_id if index and index.campaign_id else _most_common_id(logs)
    ours = []
    for log in logs:
        other = log.header.get("campaign") if log.header else campaign_id
        if other != campaign_id:
            aside.append((log.where, t("campaign.repair.why_foreign", other=repr(other))))
        else:
            ours.append(log)
    found = sum(log.lines for log in ours)
    steps: list[str] = []
    kept, dropped = _kept_events(_order(ours, index.fork_order if index else []), steps)
    _name_gaps(kept, steps)
    kept = _renumber(kept)
    for _ in range(8):  # events that do not replay are set aside, and the rest numbered again
        bad = _replay_bad([e for _, events in kept for _, e in events])
        if not bad:
            break
        for log, events in kept:
            log.bad += [(n, t("campaign.repair.why_replay")) for n, e in events if e.seq in bad]
        kept = _renumber([(log, [(n, e) for n, e in events if e.seq not in bad]) for log, events in kept])
    bodies: dict[str, bytes] = {}
    keep: list[str] = []
    last = 0
    total = 0
    for log, events in kept:
        _name_bad_lines(log, dropped, steps)
        if not events:
            aside.append((log.where, t("campaign.repair.why_empty")))
            continue
        body = header_line(session_header(campaign_id, log.name, last)) + b"".join(encode_event(e) for _, e in events)
        keep.append(log.name)
        steps.append(t("campaign.repair.keep", where=log.where, first=events[0][1].seq, end=events[-1][1].seq))
        if body != log.raw:
            bodies[log.name] = body
            steps.append(t("campaign.repair.rewrite", where=log.where, folder="{folder}"))
        last = events[-1][1].seq
        total += len(events)
    all_events = [e for _, events in kept for _, e in events]
    read = {id(e) for log in ours for _, e in log.events}
    snapshot_seq = 0
    if (root / SNAPSHOT).exists():
        try:
            snapshot_seq, _ = check_snapshot(read_json(root / SNAPSHOT, SNAPSHOT), campaign_id, last,
                                             hint=t("campaign.hint.derived", where=SNAPSHOT))
            renumbered = any(id(e) not in read for e in all_events)  # _renumber made a new event
            if renumbered or not snapshot_is_valid(all_events, snapshot_seq):
                raise DataError(t("campaign.repair.why_renumbered") if renumbered else
                                t("campaign.repair.why_undone", seq=snapshot_seq))
        except GameKernelError as error:
            aside.append((SNAPSHOT, str(error)))
            snapshot_seq = 0
    aside += _state_aside(root, campaign_id, last)
    aside_to = aside_folder(root)
    steps = [step.replace("{folder}", aside_to) for step in steps]
    steps += [t("campaign.repair.aside", where=where, folder=aside_to, why=why) for where, why in aside]
    name = index.name if index else root.resolve().name
    steps.append(t("campaign.repair.index", index=INDEX, sessions=len(keep)))
    fork_order = [n for n in index.fork_order if n in keep] if index else []
    return _Plan(campaign_id, name, keep, bodies, aside, snapshot_seq, total, found, steps, aside_to, fork_order)


def _name_bad_lines(log: _Log, dropped: set[tuple[str, int]], steps: list[str]) -> None:
    """One step per line set aside (up to SHOWN_PER_FILE a file, then a count)."""
    bad = sorted(log.bad)
    for number, why in bad[:SHOWN_PER_FILE]:
        steps.append(t("campaign.repair.line", where=f"{log.where}:{number}", why=why, folder="{folder}"))
    if len(bad) > SHOWN_PER_FILE:
        steps.append(t("campaign.repair.more_lines", where=log.where, count=len(bad) - SHOWN_PER_FILE))
    copies = sorted(n for name, n in dropped if name == log.name)
    if copies and not any("superseded" in s for s in steps[-1:]):
        steps.append(t("campaign.repair.copies", where=log.where, count=len(copies),
                       lines=", ".join(str(n) for n in copies[:5])))


def _state_aside(root: Path, campaign_id: str, last: int) -> list[tuple[str, str]]:
    aside = []
    for path in sorted((root / STATE).glob("*.json")):
        where = f"{STATE}/{path.name}"
        try:
            data = read_json(path, where)
        except GameKernelError as error:
            aside.append((where, str(error)))
            continue
        if isinstance(data, dict) and data.get("schema") != 1 and "digest" in data and (
            data.get("campaign") != campaign_id or not isinstance(data.get("seq"), int) or data["seq"] > last
        ):
            aside.append((where, t("campaign.repair.why_state", seq=data.get("seq"), last=last)))
        elif isinstance(data, dict) and "digest" in data and hand_edited(data, path.stem):
            aside.append((where, t("campaign.err.state_edited", where=where)))
    return aside


def _apply(store: CampaignStore, plan: _Plan) -> None:
    """Copy the originals of the logs rewritten aside, then replace each atomically; move the
    set-aside files; write the index. Cut short at any point (an interrupt), every event is still in
    a log of `sessions/` or its copy, and the repair can simply be run again."""
    root = store.root
    aside_root = root / plan.aside_folder
    for name, body in plan.bodies.items():
        where = f"{SESSIONS}/{name}"
        try:
            original = (root / where).read_bytes()
        except OSError as exc:
            raise storage_error(exc, where) from None
        store.write_file(aside_root / where, original, where)  # a copy: the log stays until replaced whole
        store.write_file(root / where, body, where)
    for where, _ in plan.aside:
        target = aside_root / where
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(root / where, target)
        except OSError as exc:
            raise storage_error(exc, where) from None
    store.index = CampaignIndex(plan.name, plan.campaign_id, list(plan.keep), plan.snapshot_seq,
                                fork_order=plan.fork_order)
    store._write_index()


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


def _most_common_id(logs: list[_Log]) -> str:
    ids = Counter(log.header["campaign"] for log in logs if log.header and isinstance(log.header.get("campaign"), str))
    return ids.most_common(1)[0][0] if ids else uuid.uuid4().hex
