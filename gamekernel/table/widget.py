"""The table dashboard (`%table`): every character of the session side by side - GURPS HP/FP and
state, Gamma World readied alpha cards and pending flux, MtG library, known top cards and boost -
with whose turn it is, and one click per common action (next turn, tap a card, resolve flux, an
MtG check, new scene, start or end an encounter, end the fight). Its facts come from one session
call (`session.seats.view()`); every click is one session call. No rules here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import traitlets

from gamekernel.errors import UsageError
from gamekernel.i18n import get_language, t
from gamekernel.rulesets import dashboard_actions, dashboard_labels
from gamekernel.table.seats import Seats
from gamekernel.widgets.base import SessionWidget, script, styles

if TYPE_CHECKING:  # the Session it draws and calls: for the type checker only (pyproject.toml)
    from gamekernel.rulesets import Core

_BUTTONS = ("next", "end_fight", "tap", "untap", "flux", "check", "scene", "encounter_start", "encounter_end")


def last_public_event(log: list[Any]) -> Any:
    """The last event the players may see: the dashboard is on the table, so a secret roll (or an
    undo/redo naming one) never shows in it, live or in the widget state a notebook saves."""
    from bisect import bisect_left
    from operator import attrgetter

    for event in reversed(log):
        if event.secret:
            continue
        if event.kind in ("undo", "redo"):
            named = [log[i] for s in event.data["seqs"] if (i := bisect_left(log, s, key=attrgetter("seq"))) < len(log)
                     and log[i].seq == s]
            if any(e.secret for e in named) or len(named) != len(event.data["seqs"]):
                continue
        return event
    return None


class TableDashboard(SessionWidget):
    """`TableDashboard(session)` - also what `%table` shows."""

    _esm = script("table/table.js")
    _css = styles("table/table.css")

    view = traitlets.Dict({}).tag(sync=True)
    texts = traitlets.Dict({}).tag(sync=True)  # the snapshot's words: header line and state texts
    labels = traitlets.Dict({}).tag(sync=True)
    last = traitlets.Unicode("").tag(sync=True)

    def __init__(self, session: Core, *, gm: bool = False, **kwargs: Any):
        self._labels_language = ""
        self.gm = gm  # `%table --gm`: the truth, marked as the GM's view; else what the table may see
        super().__init__(session, **kwargs)

    def refresh(self) -> None:
        from gamekernel.table.render import header_text, sections

        view = self.session.feature(Seats).view(gm=self.gm)
        if self._labels_language != get_language():
            self._labels_language = get_language()
            self.labels = {
                "title": t("table.title"), "gurps": t("table.gurps"), "gamma": t("table.gamma"), "mtg": t("table.mtg"),
                "buttons": {k: t(f"table.button.{k}") for k in _BUTTONS},
                "colour": t("table.colour"), "difficulty": t("table.difficulty"),
                **dashboard_labels(),  # the rule sets' own words (MtG's colours)
                "tapped": t("table.tapped"), "overcharged": t("table.overcharged"), "empty": t("table.empty"),
            }
        self.texts = {"header": header_text(view),
                      "sections": [[title, heads, rows] for title, heads, rows in sections(view)]}
        self.view = view
        self.last = self._last()

    def _last(self) -> str:
        """The last step, as the table may read it: no secret, no fighter the GM hides (a line naming
        one says "someone"), no hiding itself (`%table hide` is the GM's business)."""
        if self.gm:
            return self.session.log[-1].summary() if self.session.log else ""
        from gamekernel.display import summarize_hiding
        from gamekernel.hiding import hidden_keys, is_hidden, scrub

        log = [e for e in self.session.log if e.kind != "table.hide"]
        last = last_public_event(log)
        if last is None:
            return ""
        hidden = hidden_keys(self.session)  # a hidden fighter's roll numbers stay out (GURPS-SR-09)
        line = (summarize_hiding(last.kind, last.data, lambda name: is_hidden(name, hidden)) if hidden
                else last.summary())
        return scrub(self.session, line)

    def snapshot_html(self) -> str:
        from gamekernel.table.render import table_html

        return table_html(self.session.feature(Seats).view(gm=self.gm))

    def __repr__(self) -> str:
        from gamekernel.table.render import table_text

        return table_text(self.session.feature(Seats).view(gm=self.gm))

    def handle_action(self, action: str, payload: dict[str, Any]) -> object:
        """One click: a rule set's own (`RuleSet.dashboard_actions`: GURPS's next turn, a Gamma World
        card tapped, an MtG check ...), one session call."""
        act = dashboard_actions().get(action)
        if act is None:
            raise UsageError(t("table.err.dashboard_action", action=action))
        return act(self.session, payload)
