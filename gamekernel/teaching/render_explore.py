"""The odds explorers drawn: table specs (title, columns, rows of cells with text, an exact fraction
for the hover title, a 0..1 heat and a mark for the current point) shared by the widget front end
(widgets/explore.js) and the static snapshot (`explorer_html`), and a plain-text form for __repr__."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gamekernel.dice.render import percent
from gamekernel.display.html import FONT, esc, panel, sign
from gamekernel.i18n import t

Table = dict[str, Any]


def fraction_text(p: Fraction | None) -> str:
    return "—" if p is None else f"{p.numerator}/{p.denominator}"


def cell(p: Fraction | None, *, mark: bool = False, text: str | None = None, title: str | None = None) -> dict:
    return {"text": text if text is not None else ("—" if p is None else percent(p)),
            "title": title if title is not None else fraction_text(p),
            "heat": 0.0 if p is None else float(p), "mark": mark}


def check_tables(points, effective: int) -> list[Table]:
    shown = min(max(effective, points[0].skill), points[-1].skill)
    rows = [{"head": str(p.skill), "mark": p.skill == shown,
             "cells": [cell(p.success, mark=p.skill == shown), cell(p.critical_success), cell(p.critical_failure)]}
            for p in points]
    return [{"id": "curve", "title": t("explore.check.curve"),
             "columns": [t("explore.check.skill"), t("explore.check.success"), t("explore.check.crit_success"),
                         t("explore.check.crit_failure")], "rows": rows}]


def check_summary(label: str, base: int, effective: int, odds) -> str:
    """"Lockpicking 13 -3 = effective 10: ..." with the skill named as the current language names it."""
    from gamekernel.gurps.render import display_name

    return t("explore.check.summary", label=display_name(label) or base, base=base, change=sign(effective - base),
             effective=effective, p=percent(odds.success), fraction=fraction_text(odds.success))


def contest_tables(grid, a: int, b: int) -> list[Table]:
    columns = [t("explore.contest.corner")] + [str(c.b) for c in grid[0]]
    quick = [{"head": str(row[0].a), "mark": row[0].a == a,
              "cells": [cell(c.a_wins, mark=(c.a, c.b) == (a, b),
                             title=t("explore.contest.hover", a=fraction_text(c.a_wins), b=fraction_text(c.b_wins),
                                     tie=fraction_text(c.tie))) for c in row]} for row in grid]
    regular = [{"head": str(row[0].a), "mark": row[0].a == a,
                "cells": [cell(None if c.regular_rounds is None else 1 / c.regular_rounds, mark=(c.a, c.b) == (a, b),
                               text="∞" if c.regular_rounds is None else f"{float(c.regular_rounds):.2f}",
                               title=fraction_text(c.regular_rounds)) for c in row]} for row in grid]
    return [{"id": "quick", "title": t("explore.contest.quick"), "columns": columns, "rows": quick},
            {"id": "regular", "title": t("explore.contest.regular"), "columns": columns, "rows": regular}]


def contest_summary(odds, rounds: Fraction | None) -> str:
    return t("explore.contest.summary", a=odds.a, b=odds.b, win=percent(odds.a_wins), lose=percent(odds.b_wins),
             tie=percent(odds.tie), rounds="∞" if rounds is None else f"{float(rounds):.2f}")


def library_tables(grid) -> list[Table]:
    columns = [t("explore.library.corner")] + [str(c.difficulty) for c in grid[0]]
    rows = []
    for row in grid:
        cells = []
        for c in row:
            text = "—" if c.success is None else f"{percent(c.success)} / {percent(c.with_boost)}"
            title = t("explore.library.hover", plain=fraction_text(c.success), boost=fraction_text(c.with_boost))
            cells.append(cell(c.success, text=text, title=title))
        rows.append({"head": t(f"mtg.colour.{row[0].kind}"), "mark": False, "cells": cells})
    return [{"id": "library", "title": t("explore.library.grid"), "columns": columns, "rows": rows}]


def library_summary(actor: str, size: int, known_at_bottom: int = 0, exiled_known: int = 0) -> str:
    """Says what the figures take into account: the known top cards a check exiles first (MTG-CHK-04)
    and the cards known at the bottom (MTG-CHK-12)."""
    from gamekernel.mtg.render import given_text

    known = t("mtg.odds.known", count=exiled_known) if exiled_known else ""
    return t("explore.library.summary", actor=actor, size=size) + known + given_text(known_at_bottom)


def alpha_tables(figures, rolls: int, bonus: int) -> list[Table]:
    flux = [{"head": str(n), "mark": n == rolls, "cells": [cell(p, mark=n == rolls)]} for n, p in figures.flux]
    over = [{"head": sign(b), "mark": b == bonus, "cells": [cell(p, mark=b == bonus)]} for b, p in figures.overcharge]
    return [{"id": "flux", "title": t("explore.alpha.flux"), "columns": [t("explore.alpha.rolls"),
                                                                           t("explore.alpha.at_least_one")],
             "rows": flux},
            {"id": "overcharge", "title": t("explore.alpha.overcharge"),
             "columns": [t("explore.alpha.bonus"), t("explore.alpha.success")], "rows": over}]


def alpha_summary(actor: str, rolls: int, flux: Fraction, bonus: int, over: Fraction) -> str:
    return t("explore.alpha.summary", actor=actor, rolls=rolls, flux=percent(flux), bonus=sign(bonus),
             over=percent(over))


def _cell_html(c: dict) -> str:
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
