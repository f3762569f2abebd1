"""Small HTML building blocks shared by every renderer.

Output must read the same in a saved notebook on GitHub or nbviewer without a kernel, so styles are
inline (renderers there drop <style> blocks), the `gk-` classes are only hooks for tests and
themes, nothing is random or time-dependent, and every user string passes through `esc`.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

# Colours chosen to read on both light and dark notebook themes.
TONES = {
    "neutral": ("#f4f4f6", "#3a3a44", "#c9c9d3"),
    "good": ("#e7f6ea", "#1d5e2c", "#8fcf9f"),
    "great": ("#d9f2ff", "#0d4a6b", "#7cc4ea"),
    "bad": ("#fdeaea", "#7a1f1f", "#e5a0a0"),
    "awful": ("#f9d6e6", "#6b0d3a", "#df8bb2"),
    "warn": ("#fff4dc", "#6b4a00", "#e8c66f"),
    "muted": ("#eeeeee", "#666666", "#cccccc"),
}

# JupyterLab's content font first, then the common Japanese system fonts (nothing is bundled)
FONT_STACK = ("var(--jp-content-font-family,system-ui,-apple-system,'Segoe UI',sans-serif),"
              "'Hiragino Sans','Hiragino Kaku Gothic ProN','Yu Gothic',YuGothic,Meiryo,"
              "'Noto Sans CJK JP','Noto Sans JP',sans-serif")
FONT = f"font-family:{FONT_STACK};font-size:13px;line-height:1.45"


def esc(value: object) -> str:
    """HTML-escape any value (quotes included) - use for every user-supplied string."""
    return html.escape(str(value), quote=True)


def tone_style(tone: str) -> str:
    background, foreground, border = TONES.get(tone, TONES["neutral"])
    return f"background:{background};color:{foreground};border:1px solid {border}"


def panel(kind: str, body_html: str, *, title_html: str = "", tone: str = "neutral") -> str:
    """A result box: `<div class="gk gk-{kind}">`; `body_html` and `title_html` must already be escaped."""
    title = (
        f'<div class="gk-title" style="font-weight:600;margin-bottom:2px">{title_html}</div>'
        if title_html
        else ""
    )
    return (
        f'<div class="gk gk-{esc(kind)}" style="{FONT};{tone_style(tone)};border-radius:6px;'
        f'padding:6px 10px;margin:2px 0;display:inline-block;max-width:100%">{title}{body_html}</div>'
    )


def chip(text: str, tone: str = "neutral", *, cls: str = "") -> str:
    """A small inline badge for a die face, a status or a verdict; `text` is escaped here."""
    extra = f" {esc(cls)}" if cls else ""
    return (
        f'<span class="gk-chip{extra}" style="{tone_style(tone)};border-radius:4px;padding:0 5px;'
        f'margin:0 1px;display:inline-block;font-variant-numeric:tabular-nums">{esc(text)}</span>'
    )


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    cls: str = "gk-table",
    raw: bool = False,
    highlight: set[int] | None = None,
) -> str:
    """A compact table; cells are escaped unless `raw` (then they must be escaped HTML already)."""
    highlight = highlight or set()
    cell = "padding:1px 8px;border-bottom:1px solid #ddd;text-align:left"
    head = "".join(f'<th style="{cell}">{esc(h)}</th>' for h in headers)
    body = []
    for index, row in enumerate(rows):
        style = ' style="background:#fff4dc"' if index in highlight else ""
        cells = "".join(f'<td style="{cell}">{c if raw else esc(c)}</td>' for c in row)
        body.append(f"<tr{style}>{cells}</tr>")
    return (
        f'<table class="{esc(cls)}" style="border-collapse:collapse;margin:4px 0;{FONT}">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def bars(
    items: Sequence[tuple[str, float, str]],
    *,
    width_px: int = 220,
    highlight: set[int] | None = None,
    cls: str = "gk-bars",
) -> str:
    """A horizontal bar chart in plain HTML: (label, fraction 0..1, caption) per row, no scripts."""
    highlight = highlight or set()
    peak = max((value for _, value, _ in items), default=0) or 1
    rows = []
    for index, (label, value, caption) in enumerate(items):
        colour = "#3b82c4" if index in highlight else "#a9b8c8"
        length = round(width_px * value / peak)
        rows.append(
            '<div style="display:flex;align-items:center;gap:6px;height:15px">'
            f'<span style="width:44px;text-align:right;font-variant-numeric:tabular-nums">{esc(label)}</span>'
            f'<span style="display:inline-block;height:11px;width:{length}px;background:{colour}"></span>'
            f'<span style="color:#555;font-size:11px">{esc(caption)}</span></div>'
        )
    return f'<div class="{esc(cls)}" style="{FONT};margin:4px 0">{"".join(rows)}</div>'


def sign(value: int) -> str:
    """A signed integer with a true minus sign, as the rules print modifiers: +2, −5, +0."""
    return f"+{value}" if value >= 0 else f"−{-value}"
