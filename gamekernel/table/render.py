"""Text and HTML of the table dashboard (`%table`): every character of the session by game, from
`session.seats.view()`. Deterministic and escaped; the widget's saved snapshot and its repr."""

from __future__ import annotations

from typing import Any

from gamekernel.display.html import esc, panel
from gamekernel.gurps.combat_render import badge_text
from gamekernel.i18n import t


def _state(row: dict[str, Any]) -> str:
    if row["in_fight"]:
        return ", ".join(badge_text(b) for b in row["state"])
    return ", ".join(t(f"gurps.condition.{c}") for c in row["state"])


def _points(row: dict[str, Any]) -> list[str]:
    """HP and FP cells: numbers, or for a fighter nobody plays the word the table may read (and no FP)."""
    if "condition" in row:
        return [t(f"table.condition.{row['condition']}"), "—"]
    return [f"{row['hp']}/{row['hp_max']}", f"{row['fp']}/{row['fp_max']}"]


def _card(card: dict[str, Any]) -> str:
    marks = [t("table.tapped")] * card["tapped"] + [t("table.overcharged")] * card["overcharged"]
    return card["name"] + (f" ({', '.join(marks)})" if marks else "")


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
    """(title, column heads, rows of cell texts) for each game with characters at the table."""
    out = []
    if view["gurps"]:
        out.append((t("table.gurps"), [t(f"table.col.{k}") for k in ("name", "hp", "fp", "state")],
                    [[r["name"], *_points(r), _state(r)] for r in view["gurps"]]))
    if view["gamma"]:
        out.append((t("table.gamma"), [t(f"table.col.{k}") for k in ("name", "cards", "flux")],
                    [[r["name"], "; ".join(_card(c) for c in r["cards"]) or "—", str(r["flux"])]
                     for r in view["gamma"]]))
    if view["mtg"]:
        out.append((t("table.mtg"), [t(f"table.col.{k}") for k in ("name", "library", "known", "boost")],
                    [[r["name"], f"{r['library']:,}", ", ".join(r["known_top"]) or "—",
                      t("table.boost.used" if r["boost_used"] else "table.boost.free")] for r in view["mtg"]]))
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
