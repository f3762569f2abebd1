"""The kernel's end of the table in process (a stand-in comm): an action is carried out once however
often it is sent; views are drawn only for the players whose pages are open; the story goes as a
delta after the first view's tail; one link per kernel, and it follows `%reload_ext` at once; the
story told event by event is the story told from the whole log."""

from __future__ import annotations

import random
import typing

import pytest

from gamekernel import Session
from gamekernel.remote import comm
from gamekernel.remote.comm import TAIL, TableLink


class _Comm:
    """The kernel end of a comm, as much as the link uses: what it sent, in order."""

    comm_id = "c1"

    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.closed = False

    def on_msg(self, callback) -> None:
        self.receive = callback

    def on_close(self, callback) -> None:
        self.closing = callback

    def send(self, data: dict) -> None:
        self.sent.append(data)

    def close(self) -> None:
        self.closed = True

    def message(self, data: dict) -> None:
        self.receive({"content": {"data": data}})

    def of(self, kind: str, user: str | None = None) -> list[dict]:
        return [m for m in self.sent if m["type"] == kind and (user is None or m.get("user") == user)]


def _table(players: int = 2) -> Session:
    s = Session(seed=1)
    for n, user in enumerate(["alice", "bob", "carol"][:players]):
        s.gurps.char_new(f"C{n}", dx=12)
        s.seats.seat(user, f"C{n}")
    return s


def _link(s: Session) -> tuple[TableLink, _Comm]:
    channel = _Comm()
    return TableLink(channel, lambda: s), channel


def test_the_same_client_id_sent_three_times_is_recorded_once_and_answered_alike():
    s = _table()
    _, channel = _link(s)
    before = len(s.log)
    for _ in range(3):
        channel.message({"type": "intent", "id": "x", "cid": "page-1", "user": "alice",
                         "intent": {"action": "roll", "dice": "3d6"}})
    assert len(s.log) == before + 1 and s.log[-1].by == "alice"
    replies = [m["reply"] for m in channel.of("reply")]
    assert len(replies) == 3 and replies[0]["ok"] and replies[0] == replies[1] == replies[2]
    channel.message({"type": "intent", "id": "y", "cid": "page-2", "user": "alice",
                     "intent": {"action": "roll", "dice": "3d6"}})
    assert len(s.log) == before + 2  # another id: another action
    channel.message({"type": "intent", "id": "z", "cid": "page-1", "user": "bob",
                     "intent": {"action": "roll", "dice": "3d6"}})
    assert len(s.log) == before + 3  # ids are each player's own


def test_the_remembered_ids_are_bounded():
    s = _table()
    _, channel = _link(s)
    for n in range(comm.REMEMBERED + 10):
        channel.message({"type": "intent", "id": n, "cid": f"m{n}", "user": "carol",
                         "intent": {"action": "roll", "dice": "1d6"}})  # refused (no seat): kept all the same
    assert len(comm.replies.by_user["carol"]) == comm.REMEMBERED


def test_views_are_drawn_only_for_the_players_whose_pages_are_open():
    s = _table(3)
    link, channel = _link(s)
    channel.message({"type": "watch", "users": ["alice", "bob"]})
    assert {m["user"] for m in channel.of("view")} == {"alice", "bob"}
    channel.message({"type": "watch", "users": ["alice"]})  # bob's page closed
    assert set(link.sent) == {"alice"}
    channel.sent.clear()
    s.roll("3d6", actor="C0")
    assert {m["user"] for m in channel.of("view")} == {"alice"}
    channel.message({"type": "watch", "users": []})
    channel.sent.clear()
    s.roll("3d6")
    assert channel.sent == [] and link.sent == {}


def test_the_story_goes_as_a_delta_after_a_first_tail():
    s = _table()
    for n in range(TAIL + 15):
        s.roll(f"1d6 r{n}")
    _, channel = _link(s)
    channel.message({"type": "watch", "users": ["alice"]})
    first = channel.of("view", "alice")[-1]["view"]
    assert first["story_reset"] and len(first["story"]) == TAIL
    assert first["story_at"] + TAIL == first["story_len"] and "r54" in first["story"][-1]["text"]
    channel.sent.clear()
    s.roll("1d6 next")
    delta = channel.of("view", "alice")[-1]["view"]
    assert not delta["story_reset"] and delta["story_at"] == first["story_len"]
    assert len(delta["story"]) == 1 and "next" in delta["story"][0]["text"]
    channel.sent.clear()
    s.undo()  # the past changed: the page starts over from the tail
    again = channel.of("view", "alice")[-1]["view"]
    assert again["story_reset"] and all("next" not in b["text"] for b in again["story"])


def test_a_new_link_replaces_the_old_one_and_follows_a_reload_at_once(monkeypatch):
    old, new = _table(), _table()
    new.seats.seat("alice", "C1")  # after the reload the GM seats alice at two characters
    current = {"session": old}

    class _Manager:
        targets: typing.ClassVar[dict] = {}

        def register_target(self, name, opened):
            self.targets[name] = opened

        def unregister_target(self, name, opened):
            self.targets.pop(name, None)

    class _Kernel:
        comm_manager = _Manager()

    class _Shell:
        kernel = _Kernel()

    monkeypatch.setattr(comm, "_link", None)
    monkeypatch.setattr("gamekernel.magic_base.current_session", lambda: current["session"])
    shell = _Shell()
    comm.register(shell)
    first, second = _Comm(), _Comm()
    _Manager.targets[comm.TARGET](first, {})
    first.message({"type": "watch", "users": ["alice"]})  # the first link observes the session
    _Manager.targets[comm.TARGET](second, {})
    assert comm.link_count() == 1 and first.closed and not second.closed
    second.message({"type": "watch", "users": ["alice"]})
    assert old.observer_count == 2  # the public table's and the one link's: the first let go of it
    comm.unregister(shell)
    current["session"] = new
    second.sent.clear()
    comm.register(shell)  # `%reload_ext gamekernel`: no player acted
    views = second.of("view", "alice")
    assert views and views[-1]["view"]["mine"] == ["C0", "C1"]
    assert old.observer_count == 1  # the old session is let go of


def test_pushes_wait_for_the_end_of_the_cell_and_go_once():
    class _Loop:
        def __init__(self) -> None:
            self.callbacks: list = []

        def add_callback(self, callback) -> None:
            self.callbacks.append(callback)

    class _Kernel:
        io_loop = _Loop()

    s = _table()
    channel = _Comm()
    TableLink(channel, lambda: s, _Kernel())
    channel.message({"type": "watch", "users": ["alice"]})
    channel.sent.clear()
    for _ in range(5):
        s.roll("1d6")
    assert channel.sent == [] and len(_Kernel.io_loop.callbacks) == 1
    _Kernel.io_loop.callbacks.pop()()
    view = channel.of("view", "alice")
    assert len(view) == 1 and len(view[0]["view"]["story"]) == 5


@pytest.mark.parametrize("seed", range(5))
def test_the_story_told_event_by_event_is_the_story_told_at_once(seed):
    from gamekernel.render.story import StoryCache, tell

    rng = random.Random(seed)
    s = _table()
    cache = StoryCache()
    for _ in range(60):
        move = rng.choice(["roll", "roll", "secret", "note", "undo", "check"])
        if move == "roll":
            s.roll("1d6", actor="C0")
        elif move == "secret":
            s.roll("1d6", secret=True)
        elif move == "note":
            s.note(f"n{rng.random():.3f}")
        elif move == "check":
            s.gurps.check("DX", actor="C1")
        elif s.log:
            s.undo()
        assert cache.blocks(s.log) == list(tell(s.log).blocks)
