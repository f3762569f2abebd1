"""What a widget leaves in its cell's saved output: its picture (the snapshot with its caption), and
one static line per action taken in it (the principle "the notebook is the session log").

A widget is displayed as two outputs, each with a display id (`IPython.display.update_display`
reaches them after their cell has run, also from a click's message):

1. the widget itself: the live view, with an empty text/html for viewers that cannot draw it;
2. its record: the picture, then one compact line per action taken in the widget, in order, as the
   log words it.

The picture is in the record, not beside the view, because the record is the one output every
viewer shows the same way, while the view's own fallback is shown by some and not others: a
sanitizer (nbconvert's `--sanitize-html`, GitHub's) strips `style`, `hidden` and `<style>`, so
nothing in the saved html can hide a second copy there; and where the widget state is saved
(nbconvert offline) or gone (a trusted notebook reopened without its kernel: "model not found")
the view's text/html is not shown at all. So the saved html shows the picture everywhere, and only
a view that did draw hides it: the rule doing so is in the widgets' own stylesheet
(widgets/common.css), which only a drawn view loads (live JupyterLab, Notebook 7, Voila, nbconvert's
page online). The record holds no `<style>` (a sanitizer would print it as text).

That rule is keyed on the widget's picture id (`data-gk-picture` on the record), never on a host's
classes: JupyterLab, Notebook 7 and VS Code lay outputs out differently (VS Code's are sibling
`div.output`s in one webview), and a rule naming one host's layout leaves two pictures in another.
The id is deterministic (saved outputs replay byte for byte under nbval, and git diffs stay quiet):
drawn from the session's dice stream, the widget's kind and how many widgets the session made, so
two notebooks open side by side do not share one.

Both are updated after each action taken in this widget, so a saved notebook reads as what
happened. Live, every widget view keeps showing the current state (it is a control); its saved
picture is its state after the last action taken in it, and the caption says after which event.
"""

from __future__ import annotations

import hashlib
import weakref
from dataclasses import dataclass, field
from html import escape
from typing import Any

from gamekernel.i18n import t

_MADE: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()  # session -> widgets made


def picture_id(session: Any, kind: str) -> str:
    """A new widget's picture id: the same for the same notebook run again, different for another."""
    made = _MADE.get(session, 0) + 1
    _MADE[session] = made
    state = session.rng.getstate()  # the seed and every die drawn so far
    digest = hashlib.sha256(f"{state!r}|{kind}|{made}".encode()).hexdigest()[:12]
    return f"gk-{made}-{digest}"


def caption_text(event: int) -> str:
    return t("core.widget.after_event", event=event)


def captioned_html(snapshot_html: str, event: int) -> str:
    """The snapshot with its caption: plain escaped text in a `div`, a tag every sanitizer keeps
    (nbconvert's prints a `<small>` as text), made small by a style only where styles survive."""
    return (f'<div class="gk-widget-snapshot">{snapshot_html}'
            f'<div class="gk-widget-caption" style="font-size:smaller">{escape(caption_text(event))}</div></div>')


def result_text(result: Any) -> str:
    return repr(result) if hasattr(result, "_repr_html_") else str(result)


def compact_line(result: Any) -> str:
    """One line for an action whose events say nothing the table may read (a quiz answer, an explorer's
    move, a secret roll's notice): its text, its lines joined."""
    return " · ".join(line.strip() for line in result_text(result).splitlines() if line.strip())


@dataclass
class ActionRecord:
    """The lines of the actions taken in one widget, oldest first: one compact line per action, as the
    log words it (a saved session reads like a session log, not one framed result per click: two
    turns of six fighters made a cell of ~4,900 px); the picture above shows the state they led to."""

    texts: list[str] = field(default_factory=list)

    def add(self, result: Any, line: str = "") -> None:
        self.texts.append(line or compact_line(result))

    def bundle(self, snapshot_html: str, event: int, *, picture: str = "") -> dict[str, str]:
        """The record's output: the widget's picture, then its actions, one line each. The record is an
        output of its own, so a notebook folds it as it folds any output (no `<details>`: nbconvert's
        sanitizer prints it as text)."""
        key = f' data-gk-picture="{escape(picture)}"' if picture else ""
        lines = "".join(f'<div class="gk-widget-action">{escape(text)}</div>' for text in self.texts)
        return {"text/plain": "\n".join(self.texts),
                "text/html": f'<div class="gk-widget-record"{key}>{captioned_html(snapshot_html, event)}{lines}</div>'}
