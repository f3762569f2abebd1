"""Recording is atomic with respect to an interrupt (and any exception) at every point.

An interrupt ("Interrupt kernel" is a KeyboardInterrupt) may land anywhere in `Session.record`:
before the event's line reaches the log, while it is written or synced, or after. Whatever the
point, memory and disk must agree afterwards, the next event takes the next number, and the
campaign reopens with the same events and state. Each test injects one KeyboardInterrupt at the
N-th line (or call) executed in the gamekernel package, for every N until the command ends untouched.
"""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path

import pytest

import gamekernel
from gamekernel import Session
from gamekernel.events import LogStore
from gamekernel.session import active_events, replay

PACKAGE = str(Path(gamekernel.__file__).parent)


class Points:
    """A tracer listing the points (file, line, call or line) run in the package, first hit first."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, int, str], None] = {}

    def __call__(self, frame, event, arg):
        if not frame.f_code.co_filename.startswith(PACKAGE):
            return None
        return self._step(frame, event, arg)

    def _step(self, frame, event, arg):
        if event in ("call", "line"):
            self.seen.setdefault((frame.f_code.co_filename, frame.f_lineno, event))
        return self._step


class InterruptAt(Points):
    """A tracer raising KeyboardInterrupt the first time the run reaches `point`."""

    def __init__(self, point: tuple[str, int, str]) -> None:
        super().__init__()
        self.point = point
        self.fired = False

    def _step(self, frame, event, arg):
        if not self.fired and (frame.f_code.co_filename, frame.f_lineno, event) == self.point:
            self.fired = True
            raise KeyboardInterrupt
        return self._step


def traced(tracer, command) -> bool:
    """Run `command` under `tracer`; whether a KeyboardInterrupt escaped it."""
    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        command()
    except KeyboardInterrupt:
        return True
    finally:
        sys.settrace(previous)
    return False


def points_of(session: Session, prepare, command) -> list[tuple[str, int, str]]:
    """Every point `command` runs through (after one run to warm caches and lazy imports)."""
    prepare(session)
    command(session)
    prepare(session)
    points = Points()
    traced(points, lambda: command(session))
    return list(points.seen)


def lines(events) -> list[str]:
    return [e.to_json() for e in events]


def assert_agree(session: Session, first_seq: int) -> None:
    """Memory and this session's log file hold the same events; the state is their replay."""
    assert gc.isenabled()  # an interrupt inside `gc_paused` leaves the collector on
    on_disk = LogStore.load(session._store.path).events
    assert lines(on_disk) == lines(e for e in session.log if e.seq >= first_seq)
    active, redo = active_events(session.log)
    assert [e.seq for e in session.active] == [e.seq for e in active]
    assert [[e.seq for e in g] for g in session._redo_stack] == [[e.seq for e in g] for g in redo]
    assert json.dumps(session.state.to_dict(), sort_keys=True) == json.dumps(replay(active).to_dict(), sort_keys=True)


def prepare_undo(session: Session) -> None:
    session.note("to be undone")


def prepare_redo(session: Session) -> None:
    session.note("to be redone")
    session.undo()


COMMANDS = {
    "note": (lambda s: None, lambda s: s.note("interrupted note")),
    "state change": (lambda s: None, lambda s: s.cards.create("pile", ["a", "b"])),
    "new zone": (lambda s: None, lambda s: s.cards.zone(f"zone{len(s.log)}")),
    "undo": (prepare_undo, lambda s: s.undo()),
    "redo": (prepare_redo, lambda s: s.redo()),
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_an_interrupt_at_every_point_of_recording_leaves_memory_and_disk_agreeing(tmp_path, name):
    prepare, command = COMMANDS[name]
    folder = tmp_path / "campaign"
    session = Session(seed=3)
    session.campaign_open(folder)
    session.cards.zone("pile")
    first_seq = next(e.seq for e in session.log if e.kind == "campaign.open")
    outcomes = {"kept": 0, "undone": 0, "not reached": 0}
    points = points_of(session, prepare, command)
    for point in points:
        prepare(session)
        before = session.log[-1].seq
        tracer = InterruptAt(point)
        escaped = traced(tracer, lambda: command(session))
        if not tracer.fired:
            outcomes["not reached"] += 1
            continue
        assert escaped, f"{point}: the interrupt was swallowed"
        assert_agree(session, first_seq)
        outcomes["kept" if session.log[-1].seq > before else "undone"] += 1
        last = session.log[-1].seq
        session.note("after")
        assert session.log[-1].seq == last + 1  # the next event never reuses a number
        assert_agree(session, first_seq)
    assert len(points) > 20, "too few points traced: the tracer did not reach record"
    assert outcomes["not reached"] < len(points) // 10, outcomes
    assert outcomes["kept"] and outcomes["undone"], outcomes  # points before and after the commit
    expected_log = lines(session.log)
    expected_state = json.dumps(session.state.to_dict(), sort_keys=True)
    session.campaign_close()
    reopened = Session()
    reopened.campaign_open(folder)
    assert lines(reopened.log[: len(expected_log)]) == expected_log
    assert json.dumps(reopened.state.to_dict(), sort_keys=True) == expected_state
    reopened.campaign_close()


def test_an_interrupt_at_every_point_without_a_log_file_keeps_memory_consistent():
    session = Session(seed=3)
    session.cards.zone("pile")
    command = lambda s: s.cards.create("pile", ["c"])  # noqa: E731
    points = points_of(session, lambda s: None, command)
    for point in points:
        before = session.log[-1].seq
        traced(InterruptAt(point), lambda: command(session))
        active, _ = active_events(session.log)
        assert [e.seq for e in session.active] == [e.seq for e in active]
        assert json.dumps(session.state.to_dict(), sort_keys=True) == json.dumps(replay(active).to_dict(),
                                                                                 sort_keys=True)
        assert session.log[-1].seq in (before, before + 1)
        session.note("after")
        assert session.log[-1].seq == session.log[-2].seq + 1
    assert len(points) > 10


def test_repair_keeps_every_good_event_of_a_log_with_numbers_used_twice(tmp_path):
    """The log an interrupt left before this version: a line on disk undone in memory, then the
    next event with the same number. Repair drops only those lines and keeps every other event."""
    folder = tmp_path / "campaign"
    session = Session(seed=4)
    session.campaign_open(folder)
    for n in range(40):
        session.note(f"n{n}")
    good = [e.to_json() for e in session.log]
    session.campaign_close()
    log = next((folder / "sessions").glob("*.jsonl"))
    lines_on_disk = log.read_text(encoding="utf-8").splitlines(keepends=True)
    ghosts = []
    for index in (30, 20, 10):  # an interrupted line before events 10, 20 and 30 of the file
        ghost = json.loads(lines_on_disk[index])
        ghost["data"] = {"text": "interrupted"}
        lines_on_disk.insert(index, json.dumps(ghost) + "\n")
        ghosts.append(ghost["seq"])
    log.write_text("".join(lines_on_disk), encoding="utf-8")
    with pytest.raises(Exception, match="not after"):
        Session().campaign_open(folder)
    plan = Session().campaign_repair(folder)
    assert plan.events == len(good)
    assert "3 events an interrupted write left behind" in repr(plan)
    Session().campaign_repair(folder, confirm=True)
    reopened = Session()
    reopened.campaign_open(folder)
    assert [e.to_json() for e in reopened.log[: len(good)]] == good
    assert (folder / "damaged-1" / "sessions" / log.name).read_text(encoding="utf-8") == "".join(lines_on_disk)
    reopened.campaign_close()


def test_interrupts_that_come_again_while_the_first_is_settled_leave_memory_and_disk_agreeing(tmp_path, monkeypatch):
    """A real SIGINT during the sync and again during the checks that settle it (the user hits
    "Interrupt kernel" twice): the interrupts are held back until the event is in memory too."""
    import signal


    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # a kernel's (earlier tests may change it)
    try:
        interrupted_twice(tmp_path, monkeypatch)
    finally:
        signal.signal(signal.SIGINT, previous)


def interrupted_twice(tmp_path, monkeypatch) -> None:
    import signal

    import gamekernel.events

    folder = tmp_path / "campaign"
    session = Session(seed=3)
    session.campaign_open(folder)
    first_seq = next(e.seq for e in session.log if e.kind == "campaign.open")
    real_sync, real_ends_with = gamekernel.events.sync, LogStore.ends_with

    def sync(fd):
        real_sync(fd)
        signal.raise_signal(signal.SIGINT)

    def ends_with(self, data):
        signal.raise_signal(signal.SIGINT)
        return real_ends_with(self, data)

    monkeypatch.setattr(gamekernel.events, "sync", sync)
    monkeypatch.setattr(LogStore, "ends_with", ends_with)
    before = session.log[-1].seq
    with pytest.raises(KeyboardInterrupt):
        session.note("interrupted twice")
    monkeypatch.undo()
    assert session.log[-1].seq == before + 1
    assert_agree(session, first_seq)
    session.note("after")
    assert_agree(session, first_seq)
