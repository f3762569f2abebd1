"""The order of a campaign's session logs, told by the logs themselves - so that git can merge them.

Each session log is a file of its own, named by the UTC time it was started and a random suffix
(`session-20261203-081502.123456-3f9a1c.jsonl`): two machines or branches never pick the same name, so a
merge of two branches adds two files and never conflicts (older campaigns' `session-NNN.jsonl`
names still open). The index's list of sessions is derived: the order comes from each log's header,
which names the event the session follows.

Two sessions that follow the same event (two GMs played on from one commit, then merged: a fork)
both open, in a documented order: by the event they follow, then by the time of their first event,
then by name. The later one's events are numbered after the earlier one's (its undo, redo and
reveal events follow the numbers they name), and the GM is told in one line which sessions forked
at which event and how they were ordered. A session started after that follows the new numbering.
A session that continues one of a branch's sessions keeps naming its own branch's events: each number
it names moves as the session that held that event did, and when the other branch's sessions come
between the two (both branches went on), the GM is told in one line.
The GM may choose the order of forked sessions instead (`%campaign order`): the index
keeps the chosen names (`fork_order`), which come first among their fork, in that order.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamekernel.errors import GameKernelError
from gamekernel.events import Event, LogStore
from gamekernel.i18n import t


def session_file_name() -> str:
    """A new session log's name: UTC start time (sorts in time order) and 6 random hex digits."""
    now = time.time_ns() // 1000
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now // 1_000_000))
    return f"session-{stamp}.{now % 1_000_000:06d}-{os.urandom(3).hex()}.jsonl"


@dataclass
class Session:
    """One session log of the campaign as read: its name, the event its header follows, its events."""

    name: str
    follows: int
    events: list[Event]

    @property
    def where(self) -> str:
        return f"sessions/{self.name}"


@dataclass
class Chain:
    """The campaign's events in order (renumbered where sessions forked), the sessions in that order,
    and one notice per fork."""

    events: list[Event]
    order: list[str]
    notices: list[str]
    forks: dict[str, tuple[int, int, int]]  # a forked session -> (the event it follows, its first and last number here)


class ChainGap(Exception):
    """A session follows an event no session before it ends at (events missing): (session, follows, last, previous)."""


def order_sessions(sessions: list[Session], chosen: list[str] | tuple[str, ...] = ()) -> Chain:
    """Chain the sessions by the events their headers follow; forks kept as documented above, the
    `chosen` names first among their fork, in that order.

    Raises ChainGap for a session whose start no earlier session accounts for."""
    rank = {name: i for i, name in enumerate(chosen)}
    ordered = sorted(sessions, key=lambda s: (s.follows, rank.get(s.name, len(rank)), s.events[0].time, s.name))
    shared: dict[int, int] = {}
    for session in sessions:
        shared[session.follows] = shared.get(session.follows, 0) + 1
    events: list[Event] = []
    order: list[str] = []
    notices: list[str] = []
    last = 0
    ends: dict[int, str] = {0: ""}  # event number a session ends at (as numbered here) -> that session
    shifted_ends: dict[int, str] = {}  # a renumbered session's own last number -> that session
    moves: dict[str, Moves] = {"": ()}  # how each session's numbers were moved (see `renumbered`)
    spans: dict[str, tuple[int, int]] = {}
    previous = ""
    for session in ordered:
        offset, parent = 0, ends.get(session.follows, "")
        if session.follows != last:
            continued = shifted_ends.get(session.follows)
            if continued is not None:  # continues a renumbered session (its branch's numbers)
                parent, offset = continued, last - session.follows
                if spans[continued][1] != last:  # another branch's sessions were put after that one
                    notices.append(t("campaign.notice.continued_later", first=f"sessions/{continued}",
                                     second=session.where, start=last + 1, end=last + len(session.events)))
            elif session.follows in ends and session.follows < last:  # a fork: after the other branch
                offset = last - session.follows
                first = next(s for s in ordered if s.follows == session.follows)
                key = "campaign.notice.fork_chosen" if first.name in rank else "campaign.notice.fork"
                if first is session:  # no fork: the session it continues had another branch put after it
                    key, first = "campaign.notice.continued_later", next(s for s in ordered if s.name == parent)
                notices.append(t(key, first=first.where, second=session.where,
                                 seq=session.follows, start=last + 1, end=last + len(session.events)))
            else:
                raise ChainGap(session.where, session.follows, last, previous)
        # a session that follows the last event as numbered here (one started after the merge) names
        # events by these numbers: nothing of it moves
        moves[session.name] = ((session.follows, offset), *moves[parent]) if offset else ()
        moved = renumbered(session.events, offset, moves[session.name]) if moves[session.name] else session.events
        events.extend(moved)
        spans[session.name] = (moved[0].seq, moved[-1].seq)
        order.append(session.name)
        if offset:
            shifted_ends[session.events[-1].seq] = session.name
        last = moved[-1].seq
        ends[last] = session.name
        previous = session.where
    forks = {s.name: (s.follows, *spans[s.name]) for s in sessions if shared[s.follows] > 1}
    return Chain(events, order, notices, forks)


def campaign_of_logs(folder: Path) -> str | None:
    """The campaign id every session log's header in `folder` names, or None (none, or several)."""
    ids = set()
    for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
        try:
            header = LogStore.load(path).header
        except (GameKernelError, OSError):  # a log that does not read names no campaign
            continue
        if header is not None and isinstance(header.get("campaign"), str):
            ids.add(header["campaign"])
    return ids.pop() if len(ids) == 1 else None


FORK_ORDER = re.compile(r'"fork_order": \[([^\]]*)\]')
QUOTED = re.compile(r'"([^"\\]{1,200})"')


def salvage_fork_order(raw: bytes) -> list[str]:
    """The order the GM chose for forked sessions, read from an index that no longer reads as JSON (a
    git union merge of both sides' lines): both sides' names, each once, in the order they stand."""
    found = FORK_ORDER.search(raw[:1_000_000].decode("utf-8", "replace"))
    names = dict.fromkeys(QUOTED.findall(found.group(1)) if found else [])
    return [name for name in names if name.endswith(".jsonl")
            and "/" not in name and "\\" not in name and not name.startswith(".")]


def fork_order_runs(raw: bytes) -> list[list[str]]:
    """Each `fork_order` list an index holds as written, one run of distinct names per side: a git union
    merge of two sides' lists (or a duplicated key) gives both, one after the other."""
    text = raw[:1_000_000].decode("utf-8", "replace")
    names = [name for found in FORK_ORDER.finditer(text) for name in QUOTED.findall(found.group(1))]
    runs: list[list[str]] = [[]]
    for name in names:
        if name in runs[-1]:
            runs.append([])
        runs[-1].append(name)
    return [run for run in runs if run]


def order_disputes(runs: list[list[str]], forks: dict[str, tuple[int, int, int]], order: list[str]) -> list[str]:
    """One line for each fork whose sessions two merged sides put in opposite orders (each chose with
    `%campaign order`): which order was used, and how to choose."""
    groups: dict[int, list[str]] = {}
    for name, (follows, _, _) in forks.items():
        groups.setdefault(follows, []).append(name)
    notices = []
    for follows, members in sorted(groups.items()):
        pairs = {(a, b) for run in runs for i, a in enumerate(run) for b in run[i + 1:]
                 if a in members and b in members}
        if any((b, a) in pairs for a, b in pairs):
            used = [f"sessions/{name}" for name in order if name in members]
            notices.append(t("campaign.notice.fork_orders_differ", seq=follows, used=", ".join(used),
                             reverse=" ".join(reversed(used))))
    return notices


Moves = tuple[tuple[int, int], ...]  # (after event, offset): a session's, then the one it continues, ...


def renumbered(events: list[Event], offset: int, moves: Moves) -> list[Event]:
    """`events` numbered `offset` later; each number they name (undo, redo, a reveal) moved as the
    session that held that event was: past the first `after`, by its offset, else looked up further
    down the sessions it continues (a session of a branch renumbered keeps naming its own events)."""
    def move(seq: int) -> int:
        for after, moved_by in moves:
            if seq > after:
                return seq + moved_by
        return seq

    moved = []
    for event in events:
        data: Mapping[str, Any] = event.data
        if event.kind in ("undo", "redo") and isinstance(data.get("seqs"), list):
            data = {**data, "seqs": [move(s) if type(s) is int else s for s in data["seqs"]]}
        elif event.kind == "table.reveal":
            data = {**data, **{k: move(data[k]) for k in ("seq", "cause") if type(data.get(k)) is int}}
        moved.append(Event(event.seq + offset, event.kind, data, event.actor, event.secret, event.time, event.by))
    return moved


def shift(events: list[Event], base: int, offset: int) -> list[Event]:
    """`events` numbered `offset` later; the numbers they name after `base` (undo, redo, a reveal) too."""
    return renumbered(events, offset, ((base, offset),))
