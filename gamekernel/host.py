"""The Session as its mixins see it: the one declared surface the actions/*.py mixins may use.

Why: each mixin (CoreActions, GurpsActions ...) is written against `self`, and `self` is the whole
Session; without a declared host a mixin could reach any attribute of the session or of another
mixin, and nobody would see the dependency until it broke. `SessionHost` lists exactly the
members the mixins use without defining them themselves: what session.py owns (the RNG, the log,
the state, `record` ...) and the few methods one mixin borrows from another.
tests/core/test_session_host.py checks that Session has every member declared here (with the same
parameters) and, reading the mixins with `ast`, that every `self.X` a mixin uses is defined in
that mixin or declared here, and that nothing is declared here that no mixin uses.

How the mixins are annotated, at no cost at run time: each mixin subclasses `HostBase`, which is
`SessionHost` for a type checker (so `self.rng`, `self.record(...)` are typed in every method)
and plain `object` when the program runs (so Session's bases, MRO, metaclass and attribute
look-ups are exactly what they were). To use something new of the session in a mixin, declare it
here first.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from gamekernel.events import Event, LogStore
    from gamekernel.rng import TransactionalRandom
    from gamekernel.state import TableState

__all__ = ["HostBase", "SessionHost"]


@runtime_checkable
class SessionHost(Protocol):
    """What a Session mixin may use of the session beyond its own members."""

    # ---- owned by Session (gamekernel/session.py)
    rng: TransactionalRandom  # every public die and shuffle; a refused command puts its draws back
    max_dice: int  # the dice limit of `%config GameKernel.max_dice`
    log: list[Event]  # every event, undo/redo included, in order
    active: list[Event]  # the events in effect after undo/redo
    state: TableState  # the replay of `active`: one part per rule set
    load_warnings: list[str]  # what resuming a log file reported
    _redo_stack: list[list[Event]]  # the undone groups redo can put back (campaign load swaps it)
    _store: LogStore | None  # the open log file (campaign load swaps it)

    def record(self, kind: str, data: Mapping[str, Any] | None = None, *, actor: str | None = None,
               secret: bool = False) -> Event:
        """Apply and log one event (write-ahead); the only way a mixin changes the state."""
        ...

    def dice_for(self, secret: bool) -> random.Random:
        """The stream a roll draws from: `secret_rng` for a secret roll, else `rng`."""
        ...

    def restart_secret_stream(self, seed: int) -> None:
        """A new public seed: the secret stream is keyed afresh (new entropy) at the next secret roll."""
        ...

    def undo(self, count: int = 1) -> list[Event]: ...

    def redo(self, count: int = 1) -> list[Event]: ...

    def close(self) -> None:
        """Close the log file."""
        ...


if TYPE_CHECKING:
    HostBase = SessionHost
else:
    HostBase = object  # the mixins' base at run time: nothing added to Session
