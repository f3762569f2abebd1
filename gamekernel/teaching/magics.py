"""Teaching magics: `%explain [N]`, `%explore ...`, `%quiz ...`, and the `--explain`
option the rolling commands share.

`--explain` is one declaration (`EXPLAIN`) and one decorator (`explainable`, both in
gamekernel/magic_base.py, as every rule set's magics use them) placed under a magic's `@command`:
the command runs as usual, then the steps of the events it recorded are shown with its result
(session.teaching.explain_since, registered below with `explain_with`). The steps themselves come
from gamekernel.teaching.explain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from IPython.core.magic import line_magic, magics_class

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.magic_base import SessionMagics, explain_with, guarded
from gamekernel.syntax import Args, Integer, Rest, Sub, Word, command

if TYPE_CHECKING:
    from gamekernel.rulesets import Core
    from gamekernel.teaching.actions import Teaching


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
    def explain(self, args: Args):
        """The working of an event already in the log: `%explain` (the last roll or check), `%explain 12`.
        Each step names its rule id, the seed and section, and the rule in one sentence."""
        return _teaching(self.session).explain(args.event)

    @line_magic
    @guarded("explore")
    @command("explore",
             subs=(Sub("check", Rest("spec", "Lockpicking, 12, Stealth+2", missing="explore.err.usage"),
                       help="success and criticals over effective skill, a modifier slider and toggles"),
                   Sub("contest", Rest("sides", "14 vs 12", missing="explore.err.usage"),
                       help="Quick Contest win/lose/tie and Regular Contest rounds over both skills"),
                   Sub("library", help="MtG success by colour x difficulty, without and with boost"),
                   Sub("alpha", help="Gamma World: Alpha Flux over N d20 rolls, overcharge by bonus")),
             actor="whose skill, library or origin bonus", unknown="explore.err.usage", group="core")
    def explore(self, args: Args):
        """Odds explorers: `%explore check Lockpicking @Aiko`, `%explore contest 14 vs 12`,
        `%explore library @Mira`, `%explore alpha @Rin`. Every figure is exact (hover for the fraction)."""
        from gamekernel.gammaworld.actions import GammaWorld
        from gamekernel.gurps.actions import Gurps
        from gamekernel.gurps.rules.checks import parse_check_spec, parse_side, split_vs
        from gamekernel.mtg.actions import Mtg
        from gamekernel.teaching.widgets import explore as x
        session = self.session
        if args.sub == "check":
            spec = parse_check_spec(args.spec, offset=args.column("spec") - 1)
            base = Gurps.of(session).check_target(spec, args.actor)
            explorer: x.Explorer = x.CheckExplorer(args.spec, base)
        elif args.sub == "contest":
            sides = split_vs(args.sides)
            if len(sides) != 2:
                raise UsageError(t("explore.err.usage"))
            a = Gurps.of(session).check_target(parse_side(sides[0]), args.actor)
            b = Gurps.of(session).check_target(parse_side(sides[1]), None)
            explorer = x.ContestExplorer(min(max(a, 3), 18), min(max(b, 3), 18))
        elif args.sub == "library":
            actor = Mtg.of(session).actor(args.actor)
            explorer = x.LibraryExplorer(actor, Mtg.of(session).knowledge(actor))
        else:
            from gamekernel.gammaworld.rules.play import character

            name = character(GammaWorld.of(session).state, args.actor).name if args.actor else ""
            explorer = x.AlphaExplorer(name, GammaWorld.of(session).state.origin_bonus(name) if name else 0)
        return x.ExploreWidget(session, explorer)

    @line_magic
    @guarded("quiz")
    @command("quiz", Word("set", "gurps, mtg or alpha", metavar="gurps|mtg|alpha", missing="quiz.err.usage"),
             Integer("count", "how many questions (default 3)", optional=True, default=3, metavar="N",
                     error="core.err.count_word"),
             group="core")
    def quiz(self, args: Args):
        """A short quiz drawn from the rules engine: `%quiz gurps 3`, `%quiz mtg`, `%quiz alpha 2`.
        Click an answer: a wrong one shows the steps that give the right one; scores go to the log."""
        from gamekernel.teaching.widgets.quiz import QuizWidget

        return QuizWidget(self.session, _teaching(self.session).quiz(args.set.lower(), args.count))


MAGICS = [TeachingMagics]


def _explain_since(session: Core, mark: int, result: object) -> object:
    """`--explain` on any rule set's command: the result with the steps of the events it recorded."""
    return _teaching(session).explain_since(mark, result)


explain_with(_explain_since)  # the magics' base (below the rule sets) names no feature above it
