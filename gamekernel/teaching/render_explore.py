"""The odds explorers drawn: the table specs a rule set's explorer gives (title, columns, rows of cells
with text, an exact fraction for the hover title, a 0..1 heat and a mark for the current point;
gamekernel/lessons.py `cell`), shared by the widget front end (widgets/explore.js), as the static
snapshot (`explorer_html`) and as plain text for __repr__."""

from __future__ import annotations

from typing import Any

from gamekernel.display.html import FONT, esc, panel
from gamekernel.i18n import t
from gamekernel.lessons import Table


def _cell_html(c: dict[str, Any]) -> str:
    heat = round(60 + 40 * (1 - c["heat"]))
    style = f"padding:1px 6px;text-align:right;background:hsl(210,60%,{heat}%)"
    if c["mark"]:
        style += ";outline:2px solid #b45309;font-weight:700"
    return f'<td class="gk-x-cell" title="{esc(c["title"])}" style="{style}">{esc(c["text"])}</td>'


def table_html(table: Table) -> str:
    head = "".join(f'<th style="padding:1px 6px">{esc(c)}</th>' for c in table["columns"])
    rows = []
    for row in table["rows"]:
        mark = ' class="gk-x-mark"' if row["mark"] else ""
        rows.append(f'<tr{mark}><th style="padding:1px 6px">{esc(row["head"])}</th>'
                    f'{"".join(_cell_html(c) for c in row["cells"])}</tr>')
    return (f'<div class="gk-x-table" data-id="{esc(table["id"])}"><div style="font-weight:600">{esc(table["title"])}'
            f'</div><table style="border-collapse:collapse;{FONT}"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def explorer_html(summary: str, tables: list[Table]) -> str:
    body = f'<div class="gk-x-summary">{esc(summary)}</div>' + "".join(table_html(x) for x in tables)
    return panel("explore", body, title_html=esc(t("explore.title")))


def explorer_text(summary: str, tables: list[Table]) -> str:
    lines = [summary]
    for table in tables:
        rows = [row for row in table["rows"] if row["mark"]] or table["rows"]
        lines.append(f"{table['title']}: " + " · ".join(
            f"{row['head']} {'/'.join(c['text'] for c in row['cells'])}" for row in rows))
    return "\n".join(lines)
