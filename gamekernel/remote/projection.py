"""What each audience may see: one projection of the session, computed from public facts only.

The GM sees the session as it is. Everyone else sees the *public table*: the state that the public
events alone would have made. It is kept beside the GM's state event by event: a public event moves
the public state by what it changed in the GM's (numbers by their difference, anything else to its
new value); a secret event moves nothing, so neither it nor its consequences (HP after secret damage,
a secret natural 1's flux, a count of cards) reach a player until the GM reveals it (`%reveal N`,
which rebuilds the public state with that event public). A player also sees what they own: their
seats' sheets, hands and the asks addressed to them. Every player-visible byte is drawn from here:
the players' page, the intents' replies and the `%table` view of a seat.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gamekernel.events import EVENT_KINDS, Event
from gamekernel.state import TableState

META_KINDS = frozenset({"undo", "redo"})
GM, PLAYER, SPECTATOR = "gm", "player", "spectator"


@dataclass(frozen=True)
class Audience:
    """Who is looking: the GM, a player (a Jupyter user, seated or not) or a spectator."""

    kind: str
    user: str | None = None

    @classmethod
    def player(cls, user: str) -> Audience:
        return cls(PLAYER, user)


def is_number(value: Any) -> bool:
    return type(value) in (int, float)


def shift(public: Any, before: Any, after: Any) -> Any:
    """`public` moved by what changed from `before` to `after`: a number by the difference, a dict key
    by key, anything else (text, lists, flags) to its new value; what did not change keeps `public`'s."""
    if before == after:
        return public
    if is_number(before) and is_number(after) and is_number(public):
        return public + (after - before)
    if isinstance(before, dict) and isinstance(after, dict) and isinstance(public, dict):
        moved = dict(public)
        for key in after.keys() | before.keys():
            if key not in after:
                moved.pop(key, None)
            elif key not in before or key not in public:
                moved[key] = copy.deepcopy(after[key])
            elif before[key] != after[key]:
                moved[key] = shift(public[key], before[key], after[key])
        return moved
    return copy.deepcopy(after)


def visible(event: Event, revealed: Iterable[int]) -> bool:
    return not event.secret or event.seq in set(revealed)


class PublicTable:
    """The public state beside the GM's, kept up to date by observing the session."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.public: dict[str, Any] = {}
        self.gm_before: dict[str, Any] = {}
        self.version = 0  # moves with every event: what every player's view shares is drawn once a version
        self._shared: tuple[int, dict[str, Any]] | None = None
        self.rebuild()
        self.stop = session.observe(self.on_event)

    def revealed(self) -> list[int]:
        return list(self.session.state["seats"].revealed)

    def rebuild(self) -> None:
        """Replay the active events once, moving the public state by every visible one."""
        revealed = self.revealed()
        state = TableState()
        gm = state.to_dict()
        public = copy.deepcopy(gm)
        for event in self.session.active:
            reducer = EVENT_KINDS[event.kind].apply
            if reducer is not None:
                reducer(state, event.data)
                after = state.to_dict()
                if visible(event, revealed):
                    public = shift(public, gm, after)
                gm = after
        self.public, self.gm_before = public, gm

    def on_event(self, session: Any, event: Event) -> None:
        self.version += 1
        if event.kind in META_KINDS or event.kind == "table.reveal":
            self.rebuild()
            return
        after = session.state.to_dict()
        if visible(event, self.revealed()):
            self.public = shift(self.public, self.gm_before, after)
        self.gm_before = after

    def state(self) -> TableState:
        rebuilt = TableState.from_dict(copy.deepcopy(self.public))
        assert rebuilt is not None  # every part can be rebuilt (campaign snapshots rely on it too)
        return rebuilt

    def shared(self, draw: Any) -> dict[str, Any]:
        """`draw(table)` once per version of the public table: the facts and story every player's view
        starts from (a table of 8 players draws them once per event, not 8 times)."""
        if self._shared is None or self._shared[0] != self.version:
            self._shared = (self.version, draw(self))
        return self._shared[1]

    def events(self) -> list[Event]:
        """The events everyone may know of, the revealed ones shown as public."""
        revealed = set(self.revealed())
        return [replace(e, secret=False) if e.secret and e.seq in revealed else e
                for e in self.session.active if visible(e, revealed)]


def shadow_session(state: TableState, events: Sequence[Event]) -> Any:
    """A Session that holds `state` and `events` and records nothing: the same read methods the
    notebook uses (sheets, hands, libraries, the fight) then read the projected state."""
    from gamekernel.session import Session

    shadow = Session()
    shadow.state, shadow.log, shadow.active = state, list(events), list(events)
    return shadow


def view(session: Any, audience: Audience, table: PublicTable) -> dict[str, Any]:
    """Everything `audience` may see, as plain JSON-able data."""
    from gamekernel.remote.views import gm_view, player_view

    if audience.kind == GM:
        return gm_view(session)
    return player_view(session, audience, table)


def owned(seats: Mapping[str, Sequence[str]], user: str | None) -> set[str]:
    return set(seats.get(user, ())) if user else set()
