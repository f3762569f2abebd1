"""What a widget leaves in its cell's saved output: the snapshot with its caption, and one static
line per action taken in it (the principle "the notebook is the session log").

A widget is displayed as two outputs, each with a display id (`IPython.display.update_display`
reaches them after their cell has run, also from a click's message):

1. the widget itself: the live view for JupyterLab, and for viewers without a kernel or widget
   state its text/html snapshot, captioned "state after event N";
2. its record: a copy of the snapshot, then the line of each action taken in the widget, in
   order, as the magic would have shown it. The copy is kept hidden (`hidden` and an inline
   `display:none`: JupyterLab's and Notebook 7's sanitizer strip `hidden` and `<style>` from an
   untrusted notebook but keep the inline style, so it still shows one picture) unless the output
   just above is a widget view that drew nothing: what `jupyter nbconvert --execute` writes when
   it saves the widget state (the view needs the widget libraries online, and nbconvert drops
   the text/html beside it), or a trusted notebook reopened in JupyterLab after its kernel is gone.

Both are updated after each action taken in this widget, so a saved notebook reads as what
happened. Live, every widget view keeps showing the current state (it is a control); its saved
snapshot is its state after the last action taken in it, and the caption says after which event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any

from gamekernel.i18n import t

# Unhide the snapshot copy when the output just above is a widget view that drew nothing of ours:
# nbconvert's page with the widget state saved (a bare <script>, offline), or JupyterLab reopening a
# trusted notebook whose widget models are gone ("Error displaying widget: model not found").
_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_SHOW_COPY_AFTER_UNRENDERED_VIEW = (
    f"<style>.jp-OutputArea-child:has(script[type='{_WIDGET_VIEW}'], .jupyter-widgets)"
    ":not(:has([class*='gk-'])) + .jp-OutputArea-child .gk-widget-snapshot-copy{display:block !important}</style>"
)


def caption_text(event: int) -> str:
    return t("core.widget.after_event", event=event)


def captioned_html(snapshot_html: str, event: int) -> str:
    """The snapshot with its caption (the caption is plain escaped text, readable without styles)."""
    return (f'<div class="gk-widget-snapshot">{snapshot_html}'
            f'<div class="gk-widget-caption"><small>{escape(caption_text(event))}</small></div></div>')


def result_html(result: Any) -> str:
    """A result as the magic would show it (its html), else its text."""
    draw = getattr(result, "_repr_html_", None)
    html = draw() if callable(draw) else None
    return html if html else f"<pre>{escape(str(result))}</pre>"


def result_text(result: Any) -> str:
    return repr(result) if hasattr(result, "_repr_html_") else str(result)


@dataclass
class ActionRecord:
    """The lines of the actions taken in one widget, oldest first."""

    texts: list[str] = field(default_factory=list)
    htmls: list[str] = field(default_factory=list)

    def add(self, result: Any) -> None:
        self.texts.append(result_text(result))
        self.htmls.append(result_html(result))

    def bundle(self, snapshot_html: str, event: int) -> dict[str, str]:
        lines = "".join(f'<div class="gk-widget-action">{html}</div>' for html in self.htmls)
        copy = (f'<div class="gk-widget-snapshot-copy" hidden style="display:none">'
                f'{captioned_html(snapshot_html, event)}</div>')
        return {"text/plain": "\n".join(self.texts),
                "text/html": f'<div class="gk-widget-record">{_SHOW_COPY_AFTER_UNRENDERED_VIEW}{copy}{lines}</div>'}
