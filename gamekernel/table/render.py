"""Text and HTML of the table dashboard (`%table`): every character of the session by game, from
`session.seats.view()`. Deterministic and escaped; the widget's saved snapshot and its repr."""

from __future__ import annotations

from typing import Any

from gamekernel.display.html import esc, panel
from gamekernel.i18n import t
from gamekernel.rulesets import rule_sets


def header_text(view: dict[str, Any]) -> str:
    """"Round 2 · Aiko's turn · No encounter · Scene 1": where the table stands."""
    fight = view["fight"]
    turn = t("table.turn", round=fight["round"], name=fight["turn"]) if fight and fight["turn"] else \
        t("table.round", round=fight["round"]) if fight else t("table.no_fight")
    parts = [t("table.gm_view"), turn] if view.get("gm") else [turn]
    if fight and fight["pending"]:
        parts.append(t("table.pending", name=fight["pending"]))
    parts.append(t("table.encounter") if view["encounter"] else t("table.no_encounter"))
    parts.append(t("table.scene", scene=view["scene"]))
    return " · ".join(parts)


def sections(view: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """(title, column heads, rows of cell texts) for each game with characters at the table: each rule
    set's own section of the view (`RuleSet.dashboard_section`: GURPS HP/FP and state, Gamma World's
    readied cards, MtG's libraries), then the rows a rule set declares as data (`RuleSet.dashboard`)."""
    out = [found for r in rule_sets() if r.dashboard_section is not None
           if (found := r.dashboard_section(view)) is not None]
    for board in view.get("boards", {}).values():  # each rule set's own rows (RuleSet.dashboard)
        out.append((t(board["title"]), [t(c) for c in board["columns"]], [list(r) for r in board["rows"]]))
    return out


def table_text(view: dict[str, Any]) -> str:
    lines = [f"{t('table.title')} · {header_text(view)}"]
    parts = sections(view)
    if not parts:
        lines.append(t("table.empty"))
    for title, heads, rows in parts:
        lines.append(f"{title}:")
        lines += ["  " + " · ".join(f"{h} {c}" if i else c
                                    for i, (h, c) in enumerate(zip(heads, row, strict=True)) if c)
                  for row in rows]
    return "\n".join(lines)


def table_html(view: dict[str, Any]) -> str:
    body = [f'<div class="gk-table-status">{esc(header_text(view))}</div>']
    parts = sections(view)
    if not parts:
        body.append(f"<em>{esc(t('table.empty'))}</em>")
    for title, heads, rows in parts:
        head = "".join(f"<th>{esc(h)}</th>" for h in heads)
        cells = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
        body.append(f'<div class="gk-table-section"><b>{esc(title)}</b>'
                    f'<table class="gk-table-grid"><thead><tr>{head}</tr></thead><tbody>{cells}</tbody></table></div>')
    return panel("table-dashboard", "".join(body), title_html=esc(t("table.title")))
