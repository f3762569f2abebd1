"""`%gamekernel` (`%gk`): the command overview as text and html; the facts are built from the command
declarations by gamekernel/magics/overview.py."""

from __future__ import annotations

from dataclasses import dataclass

from gamekernel.display import TEXT, Displayable, renders
from gamekernel.display.html import esc, panel, table
from gamekernel.i18n import t


@dataclass(frozen=True)
class CommandRow:
    """One command: its name, its usage line, and its other names as shown after it (` (%gk)`)."""

    name: str
    usage: str
    aliases: str = ""


@dataclass(frozen=True, repr=False)
class CommandOverview(Displayable):
    """The commands of each group, in the order the groups are shown."""

    groups: tuple[tuple[str, tuple[CommandRow, ...]], ...]


WIDTH = 100  # the text overview's widest line: a notebook output or a terminal without scrolling


@renders(CommandOverview, TEXT)
def overview_text(overview: CommandOverview) -> str:
    lines = [t("cmd.overview.title"), t("cmd.overview.hint")]
    for group, rows in overview.groups:
        lines += ["", t(f"cmd.group.{group}")]
        for row in rows:
            lines += _text_row(row)
    return "\n".join(lines)


def _text_row(row: CommandRow) -> list[str]:
    """The usage (wrapped to the page, never one line wider than WIDTH), then what it does and its
    help pointer, indented below it: a usage of 200 characters no longer pushes the words off."""
    import textwrap

    usage = textwrap.wrap(row.usage, WIDTH - 2, initial_indent="  ", subsequent_indent="      ",
                          break_on_hyphens=False, break_long_words=False)
    does = f"{t(f'cmd.summary.{row.name}')}{row.aliases}  %{row.name}?"
    return [*usage, *textwrap.wrap(does, WIDTH, initial_indent="      ", subsequent_indent="      ")]


@renders(CommandOverview)
def overview_html(overview: CommandOverview) -> str:
    parts = [f'<div style="margin-bottom:4px">{esc(t("cmd.overview.hint"))}</div>']
    headers = (t("cmd.overview.usage"), t("cmd.overview.does"), t("cmd.overview.help"))
    for group, rows in overview.groups:
        parts.append(f'<div class="gk-title" style="font-weight:600;margin-top:6px">'
                     f'{esc(t(f"cmd.group.{group}"))}</div>')
        cells = [(f'<code style="white-space:normal;overflow-wrap:anywhere">{esc(row.usage)}</code>',
                  esc(t(f"cmd.summary.{row.name}") + row.aliases),
                  f"<code>{esc('%' + row.name + '?')}</code>") for row in rows]
        parts.append(table(headers, cells, raw=True, cls="gk-table gk-commands"))
    return panel("commands", "".join(parts), title_html=esc(t("cmd.overview.title")))
