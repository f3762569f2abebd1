"""Results every adapter shares around another result: a one-line error, the notice shown instead of a
secret result, a result with who made it, and a result with the notices the rules raised by themselves.
Facts only: gamekernel/render/wrappers.py draws them (around the inner result's own drawing)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gamekernel.display import Displayable

if TYPE_CHECKING:  # the events module is not needed until a session exists (`%load_ext` stays light)
    from gamekernel.events import Event


@dataclass(frozen=True, repr=False)
class ErrorResult(Displayable):
    """A user mistake, shown as one line; the session was left unchanged."""

    message: str


@dataclass(frozen=True, repr=False)
class SecretNotice(Displayable):
    """Shown instead of a secret result: the players see that the GM rolled, not what."""

    kind: str


@dataclass(frozen=True, repr=False)
class Attributed(Displayable):
    """A result shown with who made it (`%roll 1d20+4 @Rin` -> "Rin · ..."); attributes pass through."""

    actor: str
    result: object

    def __getattr__(self, name: str) -> Any:  # the wrapped result's own fields, whatever its type
        return getattr(self.result, name)


@dataclass(frozen=True, repr=False)
class GmView(Displayable):
    """A result shown as the GM's view (`--gm`): the truth, secrets included, marked as such, so a
    table that sees the notebook knows it is not theirs."""

    result: object

    def __getattr__(self, name: str) -> Any:
        return getattr(self.result, name)


@dataclass(frozen=True, repr=False)
class WithNotices(Displayable):
    """A result followed by what the rules triggered by themselves (e.g. alpha flux)."""

    result: object
    notices: tuple[Event, ...]

    def __getattr__(self, name: str) -> Any:  # the wrapped result's own fields, whatever its type
        return getattr(self.result, name)
