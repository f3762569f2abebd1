"""The GM's panel of a remote table (`%table players`): who sits where, the players' actions that wait
for approval, the asks not yet rolled, the players' latest actions and the secret events that can be
revealed; one click approves, refuses, asks or reveals (each the same session call as the magic)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import traitlets

from gamekernel.display.html import esc, panel
from gamekernel.errors import UsageError
from gamekernel.events import ENTROPY_KIND
from gamekernel.i18n import t
from gamekernel.table.seats import Seats
from gamekernel.widgets.base import SessionWidget, script, styles

if TYPE_CHECKING:  # the Session it draws: for the type checker only
    from gamekernel.rulesets import Core

_LABELS = ("title", "seats", "pending", "asks", "recent", "secrets", "approve", "refuse", "reveal", "ask", "user",
           "spec", "outcome", "full", "approval", "none")


def panel_facts(session: Core) -> dict[str, Any]:
    """The panel's facts: plain data, the GM's own (secrets included: only the GM sees this panel)."""
    from gamekernel.remote.intents import describe

    seats = session.feature(Seats).state
    secret = [e for e in session.active_secrets() if e.seq not in seats.revealed  # a handout: one click to all
              and (not e.kind.startswith("table.") or e.kind == "table.handout")
              and e.kind not in (ENTROPY_KIND, "rolltable.define")]  # the dice's key, a GM's table: never shown
    return {
        "seats": [[u, list(c)] for u, c in sorted(seats.seats.items())],
        "pending": [{"id": p["id"], "user": p["user"], "action": describe(p["intent"])}  # what will be rolled
                    for p in session.feature(Seats).pending],
        "asks": [{"id": i, "user": a["user"], "character": a["character"], "spec": a["spec"]}
                 for i, a in sorted(seats.asks.items())],
        "recent": [{"seq": e.seq, "by": e.by, "summary": e.summary()} for e in session.log if e.by is not None][-10:],
        "secrets": [{"seq": e.seq, "summary": e.summary()} for e in secret][-10:],
        "disclose": seats.disclose,
        "approval": seats.approval,
    }


def panel_text(facts: dict[str, Any]) -> str:
    lines = [t("remote.panel.title")]
    seats = [t("remote.seated", user=u, characters=", ".join(c)) for u, c in facts["seats"]]
    lines += seats or [t("remote.seats.none")]
    lines += [t("remote.pending.line", id=p["id"], user=p["user"], action=p["action"]) for p in facts["pending"]]
    lines += [f"{t('remote.panel.asks')}: " + ", ".join(f"{a['user']} {a['spec']}" for a in facts["asks"])
              if facts["asks"] else f"{t('remote.panel.asks')}: {t('remote.panel.none')}"]
    return "\n".join(lines)


class PlayersPanel(SessionWidget):
    """`PlayersPanel(session)` - what `%table players` shows."""

    _esm = script("table/players.js")
    _css = styles("table/players.css")

    facts = traitlets.Dict({}).tag(sync=True)
    labels = traitlets.Dict({}).tag(sync=True)

    def refresh(self) -> None:
        self.labels = {k: t(f"remote.panel.{k}") for k in _LABELS}
        self.facts = panel_facts(self.session)

    def snapshot_html(self) -> str:
        return panel("players", "<br>".join(esc(line) for line in panel_text(panel_facts(self.session)).split("\n")))

    def __repr__(self) -> str:
        return panel_text(panel_facts(self.session))

    def handle_action(self, action: str, payload: dict[str, Any]) -> Any:
        from gamekernel.remote.intents import approve
        from gamekernel.results import TableNotice

        s = self.session
        if action in ("approve", "refuse"):
            reply = approve(s, int(payload.get("id", 0)), refuse=action == "refuse")
            self.refresh()  # the queue is no event: redraw now
            return TableNotice(reply.text)
        if action == "reveal":
            return TableNotice(t("remote.revealed", seq=s.feature(Seats).reveal(int(payload.get("seq", 0)))))
        if action == "ask":
            user, spec = str(payload.get("user", "")), str(payload.get("spec", ""))
            return TableNotice(t("remote.asked", user=user, spec=spec, seq=s.feature(Seats).ask(user, spec)))
        if action == "disclose":
            return TableNotice(t(f"remote.disclosed.{s.feature(Seats).disclose(str(payload.get('how', '')))}"))
        if action == "approval":
            on = s.feature(Seats).approval(bool(payload.get("on")))
            return TableNotice(t("remote.approval.on" if on else "remote.approval.off"))
        raise UsageError(t("table.err.dashboard_action", action=action))
