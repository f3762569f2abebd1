"""A prepared scene's saved picture: the GM's notes as escaped text, each mark a chip with its last
result beside it on one line (or "not rolled"), so a saved notebook reads what was rolled where."""

from __future__ import annotations

from gamekernel.display.html import chip, esc, panel
from gamekernel.i18n import t
from gamekernel.scenes.notes import Mark, Notes


def scene_text(notes: Notes, results: dict[int, str]) -> str:
    """The notes as text, each mark followed by its last result (`→ ...`)."""
    out = [t("scene.title", title=notes.title) if notes.title else t("scene.untitled")]
    for line in notes.lines:
        out.append("".join(f"[{p.text}]" + (f" → {results[p.index]}" if p.index in results else "")
                           if isinstance(p, Mark) else p for p in line))
    return "\n".join(out)


def scene_html(notes: Notes, results: dict[int, str]) -> str:
    """The notes, escaped, one `div` a line; a mark's chip, then its result (muted when not rolled)."""
    rows = []
    for line in notes.lines:
        parts = []
        for piece in line:
            if isinstance(piece, Mark):
                done = results.get(piece.index)
                parts.append(chip(f"[{piece.text}]", "good" if done else "neutral", cls="gk-scene-mark"))
                parts.append(f'<span class="gk-scene-result">→ {esc(done)}</span> ' if done else
                             f'<span class="gk-scene-result gk-muted" style="opacity:.75">'
                             f'({esc(t("scene.not_rolled"))})</span> ')
            else:
                parts.append(esc(piece))
        rows.append(f'<div class="gk-scene-line" style="white-space:pre-wrap">{"".join(parts) or "&nbsp;"}</div>')
    title = esc(t("scene.title", title=notes.title) if notes.title else t("scene.untitled"))
    return panel("scene", "\n".join(rows), title_html=title)
