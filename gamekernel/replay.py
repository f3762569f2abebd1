"""The log replayed: which events are still in effect after the undo and redo events, the state they
make, and SIGINT held back while an event is settled. Pure functions of the events (no session), so
the session, its operations, the players' table and the story read the log the same way.
"""

from __future__ import annotations

import signal
import threading
from bisect import bisect_right
from collections.abc import Iterable
from operator import attrgetter
from typing import Any

from gamekernel.errors import GameKernelError, UsageError
from gamekernel.events import EVENT_KINDS, Event, gc_paused
from gamekernel.i18n import t
from gamekernel.rulesets import handle_classes
from gamekernel.state import TableState

__all__ = ["DeferredInterrupts", "active_events", "after", "replay", "replay_checked", "snapshot_is_valid"]


def active_events(log: Iterable[Event]) -> tuple[list[Event], list[list[Event]]]:
    """The events still in effect after the log's undo/redo events, and the redo stack."""
    events = log if type(log) is list else list(log)
    # Up to the first undo or redo every event is in effect and the redo stack empty: that prefix
    # is taken whole (at C speed: most of a long campaign's log), the rest replayed one by one.
    kinds = list(map(attrgetter("kind"), events))
    first = min((kinds.index(kind) for kind in ("undo", "redo") if kind in kinds), default=len(events))
    active = events[:first]
    by_seq: dict[int, Event] = {}
    if first < len(events):
        by_seq.update(zip(map(attrgetter("seq"), active), active, strict=True))
    redo_stack: list[list[Event]] = []
    for event in events[first:]:
        by_seq[event.seq] = event
        if event.kind == "undo":
            gone = set(event.data["seqs"])
            active = [e for e in active if e.seq not in gone]
            redo_stack.append([by_seq[s] for s in event.data["seqs"]])
        elif event.kind == "redo":
            wanted = set(event.data["seqs"])
            while redo_stack and wanted:
                group = redo_stack.pop()
                active.extend(group)
                wanted -= {e.seq for e in group}
            active.sort(key=lambda e: e.seq)
        else:
            active.append(event)
            if EVENT_KINDS[event.kind].undoable:
                redo_stack.clear()
    return active, redo_stack


def replay(events: Iterable[Event], state: TableState | None = None) -> TableState:
    """The table state after applying `events` in order to `state` (a fresh one by default)."""
    state = TableState() if state is None else state
    handle_classes()  # every rule set's event kinds are registered (imported once)
    kinds = EVENT_KINDS
    with gc_paused():
        for event in events:
            reducer = kinds[event.kind].apply
            if reducer is not None:
                reducer(state, event.data)
    return state


def replay_checked(events: Iterable[Event]) -> TableState:
    """`replay` for a live command (an undo, a redo): an event that cannot be replayed refuses
    the command in one line rather than a traceback, before anything is written."""
    try:
        return replay(events)
    except GameKernelError:
        raise
    except (KeyError, ValueError, TypeError, AttributeError, IndexError) as error:
        raise UsageError(t("core.err.replay", error=f"{type(error).__name__}: {error}")) from None


class DeferredInterrupts:
    """SIGINT held back while an event is written and put in memory (the main thread only, where
    Python runs signal handlers): a second "Interrupt kernel" landing while the first is being
    settled would otherwise leave the line on disk and not in memory. A signal that came is
    handed to the previous handler on exit."""

    __slots__ = ("_previous", "_pending")

    def __enter__(self) -> None:
        self._previous: Any = None
        self._pending: tuple[int, Any] | None = None
        if threading.current_thread() is not threading.main_thread():
            return
        previous = signal.getsignal(signal.SIGINT)
        if callable(previous):
            signal.signal(signal.SIGINT, self._hold)
            self._previous = previous

    def _hold(self, signum: int, frame: Any) -> None:
        self._pending = (signum, frame)

    def __exit__(self, *exc: object) -> None:
        previous = self._previous
        if previous is None:
            return
        signal.signal(signal.SIGINT, previous)
        if self._pending is not None:
            previous(*self._pending)


def snapshot_is_valid(events: list[Event], snapshot_seq: int) -> bool:
    """A snapshot after event S holds while no later undo/redo reaches an event at or before S."""
    for event in events[after(events, snapshot_seq):]:
        if event.kind in {"undo", "redo"} and min(event.data["seqs"]) <= snapshot_seq:
            return False
    return True


def after(events: list[Event], seq: int) -> int:
    """The index of the first of `events` (in order of seq, as a log is) that comes after event `seq`."""
    return bisect_right(events, seq, key=attrgetter("seq"))
