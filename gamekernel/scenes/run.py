"""A scene's mark as its magic: the line `%roll` or `%check` would take, read by that command's own
declaration, checked when the cell runs and run when its button is clicked.

Why a module of its own: the button and the magic must record the same events with the same dice;
so the mark goes through the magic's parser (`syntax.COMMANDS`) and its session call (`session.roll`,
`%check`'s dispatch by rule set with `magic_base.holders_for`), never a second reading of its words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gamekernel.errors import GameKernelError, UsageError
from gamekernel.i18n import t
from gamekernel.scenes.notes import Mark

if TYPE_CHECKING:  # the table's core with its own operations (`roll`), as the magics reach it
    from gamekernel.actions.core import CoreActions
    from gamekernel.syntax import Args


def mark_line(mark: Mark, actor: str = "") -> str:
    """The magic's line of `mark` for `actor` (the picker's character): the mark as written, with
    `@actor` added only when the mark names nobody itself (`[Per-2 @Aiko]` stays Aiko's)."""
    if not actor or any(word.startswith(("@", "＠")) for word in mark.text.split()):
        return mark.text
    return f'{mark.text} @"{actor}"' if " " in actor else f"{mark.text} @{actor}"


def mark_args(mark: Mark, actor: str = "") -> Args:
    """The mark read by its magic's declaration, as `%roll LINE` / `%check LINE` reads LINE."""
    from gamekernel.syntax import COMMANDS

    return COMMANDS[mark.kind].parse(mark_line(mark, actor))


def check_mark(mark: Mark, parts: Any) -> None:
    """Read `mark` as its magic would, running nothing: dice notation for a roll, the check line of
    the rule set it goes to (its `reads`) for a check; a bad one is one line naming it and its line."""
    from gamekernel.rulesets import handler_for, holders_of

    try:
        args = mark_args(mark)
        if mark.kind == "roll":
            from gamekernel.dice.parser import parse

            parse(args.expression)
        else:
            holders = frozenset(holders_of(args.actor, parts) if args.actor else ())
            reads = handler_for("check", args.spec, holders).reads
            if reads is not None:
                reads(args.spec)
    except GameKernelError as error:
        raise UsageError(t("scene.err.mark", line=mark.line, mark=mark.text, error=str(error))) from None


def run_mark(session: CoreActions, mark: Mark, actor: str = "") -> object:
    """Click `mark` for `actor`: `%roll LINE` or `%check LINE`, the same call as the magic's."""
    from gamekernel.magic_base import holders_for
    from gamekernel.rulesets import handler_for

    args = mark_args(mark, actor)
    if mark.kind == "roll":
        return session.roll(args.expression, actor=args.actor, secret=args.secret)
    return handler_for("check", args.spec, holders_for(session, "check", args.spec, args)).run(session, args)
