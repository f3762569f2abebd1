"""What every magic shares: finding the kernel's session and showing errors (the line itself is
read by each magic's declaration, gamekernel/syntax.py).

Magics only parse, call the session and return a result object for IPython to display; a
GameKernelError becomes a one-line ErrorResult and leaves the session unchanged.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from IPython.core.magic import Magics

from gamekernel.display.results import ErrorResult, SecretNotice, WithNotices
from gamekernel.errors import GameKernelError, UsageError
from gamekernel.i18n import t
from gamekernel.syntax import Args, Flag

if TYPE_CHECKING:  # the session's core as everything below the public Session reaches it
    from gamekernel.rulesets import Core, Shared

_kernel_magics: SessionMagics | None = None


def set_kernel_magics(magics: SessionMagics | None) -> None:
    global _kernel_magics
    _kernel_magics = magics


def kernel_magics() -> SessionMagics | None:
    """The magics object `%load_ext gamekernel` registered (None before it or after unloading):
    unloading closes its session and takes it out of IPython's configurables."""
    return _kernel_magics


def current_session() -> Core:
    """The session of the running kernel (after `%load_ext gamekernel`)."""
    if _kernel_magics is None:
        raise UsageError(t("core.err.not_loaded"))
    return _kernel_magics.session


class SessionMagics(Magics):
    """Base of every magics class: access to the kernel's session."""

    @property
    def session(self) -> Core:
        return current_session()


def guarded(kind: str = "result", *, secret_flag: bool = True) -> Callable:
    """Wrap a magic: errors become one line; reactions (e.g. alpha flux) are shown with the result.

    A result flagged secret is replaced by a SecretNotice (the event is in the log).
    """

    def decorate(method: Callable) -> Callable:
        @functools.wraps(method)
        def wrapper(self: SessionMagics, line: str = "", cell: str | None = None) -> object:
            session = self.session
            mark = len(session.reaction_events)
            try:
                with session.command():  # one caller at a time; a refused command consumes no dice
                    result = method(self, line) if cell is None else method(self, line, cell)
            except GameKernelError as error:
                return ErrorResult(str(error))
            if type(result) is Secret:
                return SecretNotice(kind)
            if len(session.reaction_events) > mark:
                return WithNotices(result, tuple(session.reaction_events[mark:]))
            return result

        return wrapper

    return decorate


@dataclass(frozen=True)
class Secret:
    """Marks a result that must stay out of the visible output."""

    result: object


Explains = Callable[["Core", int, object], object]  # (session, log length before the command, its result)
_explain: Explains | None = None


def explain_with(explain: Explains) -> None:
    """How `--explain` shows a result with the steps that decided it: teaching's explain mode registers
    it (gamekernel/teaching/actions.py), from above; this base of every rule set's magics names none."""
    global _explain
    _explain = explain


EXPLAIN = Flag("explain", "show the working: each step with its rule id, source and reason")


def explainable(method: Callable) -> Callable:
    """Under `@command`: with `--explain`, the result comes back with the steps that decided it
    (a secret result stays a secret)."""

    @functools.wraps(method)
    def wrapper(self: SessionMagics, args: Args) -> object:
        if not getattr(args, "explain", False):  # known from the line: most commands explain nothing
            return method(self, args)
        session = self.session
        mark = len(session.log)
        result = method(self, args)
        if type(result) is Secret:
            return result
        if _explain is None:
            raise RuntimeError("--explain: no explainer registered (gamekernel/teaching/actions.py registers it)")
        return _explain(session, mark, result)

    return wrapper


class ProgressBar:
    """A text/HTML progress bar in one display handle, for loading large data files (MtG card data,
    a GCS library): every rule set's loading magic shows the same one."""

    def __init__(self) -> None:
        from IPython.display import display

        self.handle = display(self._html(0, 1), display_id=True)
        self.shown = -1

    @staticmethod
    def _html(done: int, total: int) -> Any:
        from IPython.display import HTML

        share = 0 if total <= 0 else min(100, done * 100 // total)
        return HTML(f'<div class="gk-progress" style="width:240px;border:1px solid #ccc;height:10px">'
                    f'<div style="width:{share}%;height:10px;background:#3b82c4"></div></div>'
                    f'<span style="font-size:11px">{share}% of {total:,} bytes</span>')

    def __call__(self, done: int, total: int) -> None:
        share = 0 if total <= 0 else done * 100 // total
        if share != self.shown and self.handle is not None:
            self.shown = share
            self.handle.update(self._html(done, total))


def holders_for(session: Core, command: Shared, words: Any, args: Args) -> frozenset[str]:
    """The rule sets a shared command's line goes by (`%check`, `%rest`): those holding the character
    it names (`RuleSet.characters`; `words`: the line's spec or names, which decide when nobody holds it),
    after refusing a flag the rule set the line goes to does not
    declare (`--secret` on an MtG check). The magic's one path, and a prepared scene button's
    (gamekernel/scenes/run.py), so a click records what the typed line records."""
    from gamekernel.rulesets import holders_of, rule_set_for
    from gamekernel.syntax import COMMANDS

    holders = frozenset(holders_of(args.actor, session.state) if args.actor else ())
    chosen = rule_set_for(command, words, holders)
    own = [name for name, _ in chosen.form(command).flags]
    for option in COMMANDS[command].options:
        if option is not EXPLAIN and option.name not in own and getattr(args, option.attr, False):
            raise UsageError(t("core.err.option", name=option.name, column=args.column(option.attr),
                               known=", ".join(f"--{name}" for name in own) or t("cmd.none")))
    return holders
