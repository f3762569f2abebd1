"""The secret events still in effect, read once each and grouped by rule set.

A public step asks before it shows anything (did a secret change what it is about to show?,
GURPS-SR-09, GW-ALPHA-10), so the answer must not cost a walk of the campaign: each active event is
read once, and a step asks only for its own rule set's secrets (a fight's step reads the secret
combat events, not the thousands of secret checks a long campaign gathers).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Any, overload

from gamekernel.events import Event


class SoFar(Sequence[Event]):
    """The first `count` events of a list that only grows by appending: what a caller was given
    stays what it was when later events are added, without a copy."""

    __slots__ = ("_events", "_count")

    def __init__(self, events: list[Event], count: int) -> None:
        self._events, self._count = events, count

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Event]: ...
    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return self._events[: self._count][index]
        return self._events[range(self._count)[index]]  # a negative index counts from this count

    def __iter__(self) -> Iterator[Event]:
        return islice(self._events, self._count)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def __repr__(self) -> str:
        return f"SoFar({list(self)!r})"


_NONE: list[Event] = []


class SecretIndex:
    """The secret events of one active list, kept by reading only the events added since last asked;
    a new active list (an undo, a redo, a campaign opened) is read afresh."""

    def __init__(self) -> None:
        self.active: list[Event] | None = None
        self.read = 0  # how many events of `active` were read
        self._last: Event | None = None
        self._every: list[Event] = []
        self._groups: dict[str, list[Event]] = {}

    def of(self, active: list[Event], group: str | None = None) -> SoFar:
        """The secret events of `active` in log order; of kinds of `group` only (a kind's prefix
        before its first dot: "combat", "gw"), when given."""
        read = self.read
        if self.active is not active or read > len(active) or (read and active[read - 1] is not self._last):
            self.active, read, self._every, self._groups = active, 0, [], {}
        if read < len(active):
            every, groups = self._every, self._groups
            for event in active[read:]:  # a slice copies the new events only (islice would walk from 0)
                if event.secret:
                    every.append(event)
                    groups.setdefault(event.kind.partition(".")[0], []).append(event)
            self.read, self._last = len(active), active[-1]
        found = self._every if group is None else self._groups.get(group, _NONE)
        return SoFar(found, len(found))
