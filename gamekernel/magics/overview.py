"""`%gamekernel` (`%gk`): every command by rule set, its usage from its declaration (gamekernel/syntax.py),
what it does (i18n `cmd.summary.NAME`) and where its help is (`%NAME?`)."""

from __future__ import annotations

from gamekernel import rulesets
from gamekernel.render.commands import CommandOverview, CommandRow
from gamekernel.syntax import COMMANDS

ALIASES = {"gk": "gamekernel"}  # a second name of a command: shown with it, not as a row of its own


def command_overview() -> CommandOverview:
    """The commands of each group: core, each rule set's (as it declares them), campaign, in that order."""
    groups = []
    for group in rulesets.groups():
        rows = tuple(CommandRow(name, syntax.usage(), _aliases(name)) for name, syntax in COMMANDS.items()
                     if group in syntax.group and name not in ALIASES)
        if rows:
            groups.append((group, rows))
    return CommandOverview(tuple(groups))


def _aliases(name: str) -> str:
    return "".join(f" (%{alias})" for alias, target in ALIASES.items() if target == name)
