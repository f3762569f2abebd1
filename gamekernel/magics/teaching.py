"""Teaching magics (issue 15): `%explain [N]`, `%explore ...`, `%quiz ...`, and the `--explain`
option the rolling commands share.

`--explain` is one declaration (`EXPLAIN`) and one decorator (`explainable`) placed under a magic's
`@command`: the command runs as usual, then the steps of the events it recorded are shown with its
result (session.explain_since). The steps themselves come from gamekernel.systems.explain.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from IPython.core.magic import line_magic, magics_class

from gamekernel.magics._base import SessionMagics, guarded
from gamekernel.magics.syntax import Args, Flag, Integer, command

EXPLAIN = Flag("explain", "show the working: each step with its rule id, source and reason")


def explainable(method: Callable) -> Callable:
    """Under `@command`: with `--explain`, the result comes back with the steps that decided it
    (a secret result stays a secret)."""

    @functools.wraps(method)
    def wrapper(self, args: Args):
        mark = len(self.session.log)
        result = method(self, args)
        if not getattr(args, "explain", False) or getattr(result, "_gk_secret", False):
            return result
        return self.session.explain_since(mark, result)

    return wrapper


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
        return self.session.explain(args.event)


MAGICS = [TeachingMagics]
