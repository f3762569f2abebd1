"""Small HTML building blocks shared by every renderer.

Output must read the same in a saved notebook on GitHub or nbviewer without a kernel, so styles are
inline (renderers there drop <style> blocks), the `gk-` classes are only hooks for tests and
themes, nothing is random or time-dependent, and every user string passes through `esc`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

# The one palette of every output: JupyterLab's theme variables, each with a light fallback for
# viewers without them (GitHub, nbviewer, exported HTML). Text and background always come as a
# pair (INK on PAPER or PAPER_ALT), so a theme sets both or, where a sanitizer strips `var()`
# (an untrusted notebook), neither and the theme's own colours show. A tone is carried by an
# accent border and by words, never by a text colour, so every theme keeps its contrast.
INK = "var(--jp-content-font-color1,#1f1f1f)"
PAPER = "var(--jp-layout-color1,#fff)"
PAPER_ALT = "var(--jp-layout-color2,#eee)"
RULE = "var(--jp-border-color2,#d0d0d0)"
ACCENTS = {
    "neutral": "var(--jp-border-color1,#9e9e9e)",
    "good": "var(--jp-success-color1,#2e7d32)",
    "great": "var(--jp-brand-color1,#1976d2)",
    "bad": "var(--jp-error-color1,#d32f2f)",
    "awful": "var(--jp-error-color0,#b71c1c)",
    "warn": "var(--jp-warn-color1,#f57c00)",
    "muted": "var(--jp-border-color1,#9e9e9e)",
}
TONES = tuple(ACCENTS)
TEXT = f"color:{INK}"  # for spans that only change size or weight: the pair is set by their box

# JupyterLab's content font first, then the common Japanese system fonts (nothing is bundled). Every
# output names it once, so it holds no name another covers: system-ui is the system font of every
# current browser (Segoe UI on Windows, -apple-system's), Hiragino Sans every macOS since 10.11's
FONT_STACK = ("var(--jp-content-font-family,system-ui,sans-serif),"
              "'Hiragino Sans','Yu Gothic',YuGothic,Meiryo,'Noto Sans CJK JP','Noto Sans JP',sans-serif")
FONT = f"font-family:{FONT_STACK};font-size:13px;line-height:1.45"
TABULAR = "font-variant-numeric:tabular-nums"  # figures of one width: dice, HP and totals line up
# what a box sets for everything inside it (both are inherited properties)
INHERITED = frozenset({f"font-family:{FONT_STACK}", TABULAR})
_STYLE = re.compile(r' style="([^"]*)"')
# A table cell: Lab's own table style aligns right with a 0.5em padding, so alignment and padding are
# ours; `vertical-align:middle` is already every browser's and Lab's, and the rule under a row is
# drawn once by its <tr> (the table collapses borders) instead of once by each of its cells.
CELL = "padding:1px 8px;text-align:left"
ROW_RULE = f"border-bottom:1px solid {RULE}"


_SPECIAL = re.compile("[&<>\"']")


def esc(value: object) -> str:
    """HTML-escape any value (quotes included) - use for every user-supplied string."""
    text = str(value)
    # most values (numbers, notation, names) have nothing to escape: one search instead of five replaces
    return html.escape(text, quote=True) if _SPECIAL.search(text) else text


def accent(tone: str) -> str:
    return ACCENTS.get(tone, ACCENTS["neutral"])


def tone_style(tone: str) -> str:
    """A result box: theme text on theme paper, the tone as a thick left border."""
    return f"background:{PAPER};color:{INK};border:1px solid {RULE};border-left:4px solid {accent(tone)}"


def chip_style(tone: str) -> str:
    """A badge: theme text on the theme's second paper, the tone as its border."""
    return f"background:{PAPER_ALT};color:{INK};border:1px solid {accent(tone)}"


def inherit_font(body_html: str) -> str:
    """`body_html` without the inherited declarations its box sets for it (INHERITED): a box, chip,
    bar or table inside a box inherits the font stack (~200 characters) and the tabular figures, so
    an output names them once, on its outermost box, and still carries them itself (no output relies
    on another cell's). The theme's ink (TEXT) is inherited too when nothing in `body_html` sets
    another text colour (a card's own ink): then every element inside reads the box's INK, on its
    own paper or the box's, so each pair stays a pair; the ink was 9% of a saved session's markup."""
    styles = _STYLE.findall(body_html)
    if not styles:
        return body_html
    if any(map(_sets_other_ink, styles)):
        return _STYLE.sub(_drop_inherited, body_html)
    return _STYLE.sub(_drop_inherited_and_ink, body_html)


@lru_cache(maxsize=4096)
def _sets_other_ink(style: str) -> bool:
    """Whether a style attribute's value sets a text colour other than the theme's ink; cached, as
    the few styles of the renderers come back in every output."""
    return any(d.strip().startswith("color:") and d.strip() != TEXT for d in style.split(";"))


@lru_cache(maxsize=4096)
def _kept_style(style: str, dropped: frozenset[str]) -> str:
    """The style attribute without the `dropped` declarations (none left: no attribute); cached."""
    kept = ";".join(d for d in style.split(";") if d and d not in dropped)
    return f' style="{kept}"' if kept else ""


_INHERITED_AND_INK = INHERITED | {TEXT}


def _drop_inherited(match: re.Match[str]) -> str:
    return _kept_style(match.group(1), INHERITED)


def _drop_inherited_and_ink(match: re.Match[str]) -> str:
    return _kept_style(match.group(1), _INHERITED_AND_INK)


def panel(kind: str, body_html: str, *, title_html: str = "", tone: str = "neutral") -> str:
    """A result box: `<div class="gk gk-{kind}">`; `body_html` and `title_html` must already be escaped."""
    body_html = inherit_font(body_html)
    title = (
        f'<div class="gk-title" style="font-weight:600;margin-bottom:2px">{title_html}</div>\n'
        if title_html
        else ""
    )
    return (
        f'<div class="gk gk-{esc(kind)}" style="{FONT};{TABULAR};{tone_style(tone)};border-radius:6px;'
        f'padding:6px 10px;margin:2px 0;display:inline-block;max-width:100%">{title}{body_html}</div>'
    )


SLOT = "\x00"  # marks a value's place in a frame (`filled`); no renderer's own markup holds it


def filled(frame: Sequence[str], values: Sequence[str]) -> str:
    """A result's markup from its frame: the markup of its shape drawn once with SLOT at each value's
    place and cut there (`markup.split(SLOT)`), the escaped values put back in order. The result then
    runs neither `panel` nor its style pass (an escaped value holds no style attribute for it)."""
    out = [""] * (2 * len(values) + 1)
    out[1::2] = values
    out[::2] = frame  # the markup between the values (an extended slice refuses a frame of another size)
    return "".join(out)


def chip(text: str, tone: str = "neutral", *, cls: str = "") -> str:
    """A small inline badge for a die face, a status or a verdict; `text` is escaped here.

    With every style stripped (Markdown, plain viewers) badges must stay apart, so the separation
    is real text: a die face is bracketed ("[3][2][4]", not "324") and every badge is followed by
    a space ("tapped overcharged", not "tappedovercharged")."""
    shown = f"[{text}]" if "gk-die" in cls.split() else text
    return chip_box(esc(shown), tone, cls)


def dice_chip(faces: Iterable[object]) -> str:
    """Every face of one roll in one chip, each face its own `gk-die` span: "3 5 1" (empty without
    faces). A chip per face repeated ~150 characters of style three times in every 3d roll, a sixth
    of a saved session; spaces keep faces apart with styles stripped, and no bracket sits inside
    the box (the box is the dice's mark)."""
    inner = " ".join(f'<span class="gk-die">{esc(face)}</span>' for face in faces)
    return chip_box(inner, "neutral", "gk-dice") if inner else ""


def chip_box(inner_html: str, tone: str = "neutral", cls: str = "") -> str:
    """The chip's box around `inner_html` (already escaped), followed by the space that keeps it apart
    from the next (so it needs no margin)."""
    extra = f" {esc(cls)}" if cls else ""
    return (
        f'<span class="gk-chip{extra}" style="{chip_style(tone)};border-radius:4px;padding:0 4px;'
        f'display:inline-block;{TABULAR}">{inner_html}</span> '
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
    # cells and rows are joined by a newline: invisible in a table, a separator when styles are stripped
    head = "\n".join(f'<th style="{CELL}">{esc(h)}</th>' for h in headers)
    body = []
    for index, row in enumerate(rows):
        cells = "\n".join(f'<td style="{CELL}">{c if raw else esc(c)}</td>' for c in row)
        body.append(f'<tr style="{row_style(index in highlight)}">{cells}</tr>')
    return (
        f'<table class="{esc(cls)}" style="border-collapse:collapse;margin:4px 0;{FONT};'
        f'background:{PAPER};color:{INK}">'
        f'<thead><tr style="{ROW_RULE}">{head}</tr></thead><tbody>{chr(10).join(body)}</tbody></table>\n'
    )


def row_style(highlighted: bool = False) -> str:
    """A table row's style: its rule underneath, and the theme's second paper when highlighted."""
    if highlighted:
        return f"background:{PAPER_ALT};color:{INK};font-weight:600;{ROW_RULE}"
    return ROW_RULE


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
        colour = ACCENTS["great"] if index in highlight else RULE
        length = round(width_px * value / peak)
        rows.append(
            '<div style="display:flex;align-items:center;gap:6px;height:15px">'
            f'<span style="width:44px;text-align:right;{TABULAR}">{esc(label)}</span>'
            f'<span style="display:inline-block;height:11px;width:{length}px;background:{colour}"></span>'
            f'<span style="font-size:11px">{esc(caption)}</span></div>'
        )
    return (f'<div class="{esc(cls)}" style="{FONT};margin:4px 0;background:{PAPER};color:{INK}">'
            f'{"".join(rows)}</div>')


def sign(value: int) -> str:
    """A signed integer with a true minus sign, as the rules print modifiers: +2, −5, +0."""
    return f"+{value}" if value >= 0 else f"−{-value}"
