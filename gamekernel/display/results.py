"""Results every adapter shares around another result: a one-line error, the notice shown instead of a
secret result, a result with who made it, and a result with the notices the rules raised by themselves."""

from __future__ import annotations

from dataclasses import dataclass

from gamekernel.display import Displayable
from gamekernel.display.html import chip, esc, panel
from gamekernel.events import Event
from gamekernel.i18n import t


@dataclass(frozen=True)
class ErrorResult(Displayable):
    """A user mistake, shown as one line; the session was left unchanged."""

    message: str

    def __repr__(self) -> str:
        return t("core.error", message=self.message)

    def _repr_html_(self) -> str:
        return panel("error", esc(repr(self)), tone="bad")


@dataclass(frozen=True)
class SecretNotice(Displayable):
    """Shown instead of a secret result: the players see that the GM rolled, not what."""

    kind: str

    def __repr__(self) -> str:
        return t("core.secret_result", kind=self.kind)

    def _repr_html_(self) -> str:
        return panel("secret", esc(repr(self)), tone="muted")


@dataclass(frozen=True)
class Attributed(Displayable):
    """A result shown with who made it (`%roll 1d20+4 @Rin` -> "Rin · ..."); attributes pass through."""

    actor: str
    result: object

    def __getattr__(self, name: str):
        return getattr(self.result, name)

    def __repr__(self) -> str:
        return f"{self.actor} · {self.result!r}"

    def _repr_html_(self) -> str:
        return (f'<div class="gk-attributed"><div class="gk-actor" style="font-weight:600;font-size:12px;'
                f'margin:2px 0 0 2px">{esc(self.actor)}</div>{html_of(self.result)}</div>')


@dataclass(frozen=True)
class WithNotices(Displayable):
    """A result followed by what the rules triggered by themselves (e.g. alpha flux)."""

    result: object
    notices: tuple[Event, ...]

    def __getattr__(self, name: str):
        return getattr(self.result, name)

    def __repr__(self) -> str:
        lines = [repr(self.result)] + [f"⚠ {e.summary()}" for e in self.notices]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        inner = html_of(self.result)
        notes = "".join(
            f'<div class="gk-notice">{chip("⚠", "warn")} {esc(e.summary())}</div>' for e in self.notices
        )
        return f'<div class="gk-with-notices">{inner}{panel("notices", notes, tone="warn")}</div>'


def html_of(result: object) -> str:
    method = getattr(result, "_repr_html_", None)
    return method() if callable(method) else f"<pre>{esc(repr(result))}</pre>"
