"""Teaching magics: `%explain [N]`, `%explore ...`, `%quiz ...`, and the `--explain`
option the rolling commands share.

`--explain` is one declaration (`EXPLAIN`) and one decorator (`explainable`, both in
gamekernel/magic_base.py, as every rule set's magics use them) placed under a magic's `@command`:
the command runs as usual, then the steps of the events it recorded are shown with its result
(session.teaching.explain_since, registered below with `explain_with`). The steps themselves come
from gamekernel.teaching.explain.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from IPython.core.magic import line_magic, magics_class

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.magic_base import SessionMagics, explain_with, guarded
from gamekernel.syntax import Args, Integer, Rest, Sub, Word, command

if TYPE_CHECKING:
    from gamekernel.rulesets import Core
    from gamekernel.teaching.actions import Teaching


def _explore_subs() -> tuple[Sub, ...]:
    """`%explore`'s subcommands: every rule set's explorers (`RuleSet.explorers`), read from the
    declarations when `%load_ext` declares the command (no rule set is imported)."""
    from gamekernel.rulesets import explorers

    return tuple(Sub(e.name, Rest(e.arg, e.words, missing="explore.err.usage"), help=e.help) if e.words
                 else Sub(e.name, help=e.help) for e in explorers().values())


def _offered(method: Callable[..., object]) -> Callable[..., object]:
    """`%explore NAME` naming a rule set that offers no explorer by that name (a plug-in without one, or
    `gammaworld` for `alpha`) says so in one line, naming the explorers there are."""

    @functools.wraps(method)
    def wrapper(self: SessionMagics, line: str = "", cell: str | None = None) -> object:
        from gamekernel.rulesets import explorers, rule_sets

        word = line.split(maxsplit=1)[0].casefold() if line.strip() else ""
        offered = explorers()
        if word not in offered and word in {declared.name for declared in rule_sets()}:
            own = [e for declared in rule_sets() if declared.name == word for e in declared.explorers]
            names = ", ".join(e.name for e in own) or ", ".join(offered)
            raise UsageError(t("explore.err.of" if own else "explore.err.none", name=word, explorers=names))
        return method(self, line) if cell is None else method(self, line, cell)

    return wrapper


def _teaching(session: Core) -> Teaching:
    """Teaching's handle on the session, typed; imported on the first command (`%load_ext` stays light)."""
    from gamekernel.teaching.actions import Teaching

    return session.feature(Teaching)



@magics_class
class TeachingMagics(SessionMagics):
    """`%explain`, `%explore`, `%quiz`: the rules taught from the session's own results."""

    @line_magic
    @guarded("explain")
    @command("explain", Integer("event", "the event number in %log (default: the last roll or check)",
                                optional=True, metavar="N", error="core.err.count_word"),
             group="core")
    def explain(self, args: Args) -> object:
        """The working of an event already in the log: `%explain` (the last roll or check), `%explain 12`.
        Each step names its rule id, the seed and section, and the rule in one sentence."""
        return _teaching(self.session).explain(args.event)

    @line_magic
    @guarded("explore")
    @_offered
    @command("explore", subs=_explore_subs(), actor="whose skill, library or origin bonus",
             unknown="explore.err.usage", group="core")
    def explore(self, args: Args) -> object:
        """Odds explorers, each a rule set's: `%explore check Lockpicking @Aiko`, `%explore contest 14 vs 12`,
        `%explore library @Mira`, `%explore alpha @Rin`. Every figure is exact (hover for the fraction)."""
        from gamekernel.rulesets import explorers
        from gamekernel.teaching.widgets.explore import ExploreWidget

        return ExploreWidget(self.session, explorers()[str(args.sub)].opens(self.session, args))

    @line_magic
    @guarded("quiz")
    @command("quiz", Word("set", "a quiz set: gurps, mtg, alpha, or a plug-in's (or its rule set's name)",
                          metavar="gurps|mtg|alpha", missing="quiz.err.usage"),
             Integer("count", "how many questions (default 3)", optional=True, default=3, metavar="N",
                     error="core.err.count_word"),
             group="core")
    def quiz(self, args: Args) -> object:
        """A short quiz drawn from the rules engine: `%quiz gurps 3`, `%quiz mtg`, `%quiz alpha 2`.
        Click an answer: a wrong one shows the steps that give the right one; scores go to the log."""
        from gamekernel.teaching.widgets.quiz import QuizWidget

        return QuizWidget(self.session, _teaching(self.session).quiz(args.set.lower(), args.count))


MAGICS = [TeachingMagics]


def _explain_since(session: Core, mark: int, result: object) -> object:
    """`--explain` on any rule set's command: the result with the steps of the events it recorded."""
    return _teaching(session).explain_since(mark, result)


explain_with(_explain_since)  # the magics' base (below the rule sets) names no feature above it
