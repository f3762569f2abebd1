"""`%gamekernel` (`%gk`): every command by rule set, its usage from its declaration (gamekernel/syntax.py),
what it does (i18n `cmd.summary.NAME`) and where its help is (`%NAME?`)."""

from __future__ import annotations

from dataclasses import dataclass

from gamekernel import rulesets
from gamekernel.display import Displayable
from gamekernel.i18n import t
from gamekernel.syntax import COMMANDS

ALIASES = {"gk": "gamekernel"}  # a second name of a command: shown with it, not as a row of its own
WIDTH = 100  # the text overview's widest line: a notebook output or a terminal without scrolling


@dataclass(frozen=True)
class CommandRow:
    name: str
    usage: str


@dataclass(frozen=True)
class CommandOverview(Displayable):
    """The commands of each group: core, each rule set's (as it declares them), campaign, in that order."""

    groups: tuple[tuple[str, tuple[CommandRow, ...]], ...]

    @classmethod
    def build(cls) -> CommandOverview:
        groups = []
        for group in rulesets.groups():
            rows = tuple(CommandRow(name, syntax.usage()) for name, syntax in COMMANDS.items()
                         if group in syntax.group and name not in ALIASES)
            if rows:
                groups.append((group, rows))
        return cls(tuple(groups))

    @staticmethod
    def _aliases(name: str) -> str:
        return "".join(f" (%{alias})" for alias, target in ALIASES.items() if target == name)

    def __repr__(self) -> str:
        lines = [t("cmd.overview.title"), t("cmd.overview.hint")]
        for group, rows in self.groups:
            lines += ["", t(f"cmd.group.{group}")]
            for row in rows:
                lines += self._text_row(row)
        return "\n".join(lines)

    def _text_row(self, row: CommandRow) -> list[str]:
        """The usage (wrapped to the page, never one line wider than WIDTH), then what it does and its
        help pointer, indented below it: a usage of 200 characters no longer pushes the words off."""
        import textwrap

        usage = textwrap.wrap(row.usage, WIDTH - 2, initial_indent="  ", subsequent_indent="      ",
                              break_on_hyphens=False, break_long_words=False)
        does = f"{t(f'cmd.summary.{row.name}')}{self._aliases(row.name)}  %{row.name}?"
        return [*usage, *textwrap.wrap(does, WIDTH, initial_indent="      ", subsequent_indent="      ")]

    def _repr_html_(self) -> str:
        from gamekernel.display.html import esc, panel, table

        parts = [f'<div style="margin-bottom:4px">{esc(t("cmd.overview.hint"))}</div>']
        headers = (t("cmd.overview.usage"), t("cmd.overview.does"), t("cmd.overview.help"))
        for group, rows in self.groups:
            parts.append(f'<div class="gk-title" style="font-weight:600;margin-top:6px">'
                         f'{esc(t(f"cmd.group.{group}"))}</div>')
            cells = [(f'<code style="white-space:normal;overflow-wrap:anywhere">{esc(row.usage)}</code>',
                      esc(t(f"cmd.summary.{row.name}") + self._aliases(row.name)),
                      f"<code>{esc('%' + row.name + '?')}</code>") for row in rows]
            parts.append(table(headers, cells, raw=True, cls="gk-table gk-commands"))
        return panel("commands", "".join(parts), title_html=esc(t("cmd.overview.title")))
