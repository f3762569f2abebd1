"""What every magic shares: finding the kernel's session, splitting a line, showing errors.

Magics only parse, call the session and return a result object for IPython to display; a
GameKernelError becomes a one-line ErrorResult and leaves the session unchanged.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from IPython.core.magic import Magics

from gamekernel.errors import GameKernelError, UsageError
from gamekernel.i18n import t
from gamekernel.render.log import ErrorResult, SecretNotice, WithNotices

_ACTOR = re.compile(r"""(?:(?<=\s)|^)@(?:"([^"]+)"|'([^']+)'|(\S+))""")
_FLAG = re.compile(r"(?:(?<=\s)|^)--([a-z][a-z-]*)(?:=(\S+))?(?=\s|$)")

_kernel_magics = None


def set_kernel_magics(magics) -> None:
    global _kernel_magics
    _kernel_magics = magics


def current_session():
    """The session of the running kernel (after `%load_ext gamekernel`)."""
    if _kernel_magics is None:
        raise UsageError(t("core.err.not_loaded"))
    return _kernel_magics.session


@dataclass(frozen=True)
class Line:
    """A magic's line split into free text, the `@Actor` and `--flags`."""

    text: str
    actor: str | None = None
    flags: dict[str, str | bool] = field(default_factory=dict)

    def flag(self, name: str) -> bool:
        return bool(self.flags.get(name, False))


def split_line(line: str, *, flags: tuple[str, ...] = ("secret",)) -> Line:
    """Take `@Name` (quoted if it has spaces) and the known `--flags` out of a magic line."""
    if line.isascii() and "@" not in line and "--" not in line:
        return Line(" ".join(line.split()))  # the common case: nothing to take out
    line = unicodedata.normalize("NFKC", line).strip()
    found: dict[str, str | bool] = {}

    def take_flag(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in flags:
            known = ", ".join(f"--{f}" for f in flags) or "none"
            raise UsageError(t("core.err.option", name=name, column=match.start() + 1, known=known))
        found[name] = match.group(2) if match.group(2) is not None else True
        return " "

    line = _FLAG.sub(take_flag, line)
    actors = list(_ACTOR.finditer(line))
    if len(actors) > 1:
        raise UsageError(t("core.err.actors", first=actors[0].start() + 1, second=actors[1].start() + 1))
    actor = None
    if actors:
        match = actors[0]
        actor = next(g for g in match.groups() if g)
        line = line[: match.start()] + line[match.end():]
    return Line(" ".join(line.split()), actor, found)


class SessionMagics(Magics):
    """Base of every magics class: access to the kernel's session."""

    @property
    def session(self):
        return current_session()


def guarded(kind: str = "result", *, secret_flag: bool = True) -> Callable:
    """Wrap a magic: errors become one line; reactions (e.g. alpha flux) are shown with the result.

    A result flagged secret is replaced by a SecretNotice (the event is in the log).
    """

    def decorate(method: Callable) -> Callable:
        @functools.wraps(method)
        def wrapper(self, line: str = "", cell: str | None = None):
            session = self.session
            mark = len(session.reaction_events)
            try:
                with session.transaction():  # a refused command consumes no dice
                    result = method(self, line) if cell is None else method(self, line, cell)
            except GameKernelError as error:
                return ErrorResult(str(error))
            if getattr(result, "_gk_secret", False):
                return SecretNotice(kind)
            notices = tuple(session.reaction_events[mark:])
            if notices:
                return WithNotices(result, notices)
            return result

        return wrapper

    return decorate


@dataclass(frozen=True)
class Secret:
    """Marks a result that must stay out of the visible output."""

    result: object
    _gk_secret: bool = True
