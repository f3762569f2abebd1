"""The Gamma World hand widget: one character's readied alpha cards, live.

Cards lie face up, coloured by energy source, each as tall as its text; a tapped card stays upright
with a "Tapped" badge. Its Tap/Untap button (or a click on the card, or Enter on it) taps or untaps it;
Overcharge is offered only where the rules allow it (the hand view's refusal, gammaworld/rules/
allowed.py), and a pending Alpha Flux shows a banner with a button per readied card. Every click
becomes a session call (logged, undoable); the widget keeps no state of its own beyond the copy of
the session state in its traits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import traitlets

from gamekernel.display.results import SecretNotice
from gamekernel.gammaworld.actions import GammaWorld
from gamekernel.gammaworld.rules.results import AlphaResult, as_the_table_sees
from gamekernel.gammaworld.rules.state import GWConfig
from gamekernel.i18n import t
from gamekernel.widgets.base import SessionWidget, script, styles
from gamekernel.widgets.options import house_rules

if TYPE_CHECKING:  # the table's core it draws and calls (below the rule sets)
    from gamekernel.rulesets import Core


def _power_lines(card) -> list[list[str]]:
    lines: list[list[str]] = []
    if card.benefit:
        lines.append([t("gammaworld.label.benefit"), card.benefit])
    if card.power:
        p = card.power
        lines.append([t("gammaworld.usage." + p.usage), f"{t('gammaworld.action.' + p.action)} · {p.range}"])
        for key in ("trigger", "attack", "hit", "effect"):
            if getattr(p, key):
                lines.append([t("gammaworld.label." + key), getattr(p, key)])
    if card.overcharge:
        o = card.overcharge
        lines.append([t("gammaworld.label.overcharge"), o.when])
        lines.append([t("gammaworld.label.success", min=o.success_min), o.success])
        lines.append([t("gammaworld.label.failure", max=o.success_min - 1), o.failure])
    return lines


class HandWidget(SessionWidget):
    """`HandWidget(session, "Rin")` - also what `%hand Rin` shows."""

    _esm = script("gammaworld/hand.js")
    _css = styles("gammaworld/hand.css")
    watches = frozenset({"gammaworld", "seats"})  # the hand, and what the players may see of it

    character = traitlets.Unicode("").tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    cards: traitlets.List[dict[str, Any]] = traitlets.List([]).tag(sync=True)
    deck_count = traitlets.Int(-1).tag(sync=True)  # -1: no own deck
    gm_count = traitlets.Int(0).tag(sync=True)
    discard_count = traitlets.Int(0).tag(sync=True)
    counts = traitlets.Unicode("").tag(sync=True)
    flux_pending = traitlets.Int(0).tag(sync=True)
    encounter = traitlets.Bool(False).tag(sync=True)
    labels = traitlets.Dict({}).tag(sync=True)
    last = traitlets.Unicode("").tag(sync=True)

    def __init__(self, session: Core, name: str, **kwargs: Any):
        self._name = GammaWorld.of(session).hand(name).name
        # the last click's result: its line is drawn again in a new language
        self._last_result: AlphaResult | SecretNotice | None = None
        super().__init__(session, **kwargs)

    def view(self):
        return GammaWorld.of(self.session).hand(self._name)

    def refresh(self) -> None:
        from gamekernel.gammaworld.render import hand_counts

        view = self.view()
        catalog = view.catalog
        self.character = view.name
        self.title = t(
            "gammaworld.hand.title", name=view.name, level=view.level, count=len(view.cards), target=view.readied_target
        )
        cards = []
        for card in view.cards:
            facts = catalog.card(card.card_id)
            cards.append(
                {
                    "uid": card.uid,
                    "name": facts.name,
                    "energy": facts.energy,
                    "energy_label": t("gammaworld.energy." + facts.energy),
                    "tapped": card.tapped,
                    "overcharged": card.overcharged,
                    "can_overcharge": card.overcharge_refused is None,  # the rules' answer, not the widget's
                    "overcharge_refused": card.overcharge_refused or "",
                    "lines": _power_lines(facts),
                }
            )
        self.cards = cards
        self.deck_count = -1 if view.deck_count is None else view.deck_count
        self.gm_count = view.gm_count or 0
        self.discard_count = view.discard_count
        self.counts = hand_counts(view)
        self.flux_pending = view.flux_pending
        self.encounter = view.encounter
        rules, detail = house_rules(GammaWorld.of(self.session).state.config.to_dict(), GWConfig().to_dict(),
                                    "gammaworld.option")
        self.labels = {
            "tapped": t("gammaworld.hand.tapped"),
            "ready": t("gammaworld.hand.ready"),
            "overcharge": t("gammaworld.hand.overcharge_button"),
            "tap": t("gammaworld.hand.tap_button"),
            "untap": t("gammaworld.hand.untap_button"),
            "tapped_badge": t("gammaworld.hand.tapped_badge"),
            "overcharged": t("gammaworld.hand.overcharged"),
            "flux": t("gammaworld.flux.banner"),
            "flux_choose": t("gammaworld.hand.flux_choose"),
            "empty": t("gammaworld.hand.empty"),
            "options": rules,  # "house rules: 2 changed", only when some differ from the defaults
            "options_detail": detail,
        }
        self.last = self._last_line()

    def _last_line(self) -> str:
        """The footer's line: the first line of the last click's result, drawn in the current language."""
        return "" if self._last_result is None else str(self._last_result).split("\n", 1)[0]

    def handle_action(self, action: str, payload: dict[str, Any]):
        uid = str(payload.get("uid", ""))
        gw = GammaWorld.of(self.session)
        result: AlphaResult | SecretNotice
        if action == "tap":
            uid = gw.card_in_place(self._name, uid)  # GW-ALPHA-10: the card in its place
            tapped = gw.state.table.card(uid).tapped if uid in gw.state.table.cards else False
            result = gw.untap(self._name, uid) if tapped else gw.tap(self._name, uid)
        elif action == "overcharge":
            result = gw.overcharge(self._name, uid)
        elif action == "flux":  # GW-ALPHA-10: a secret flux's resolution stays the GM's
            result = as_the_table_sees(gw.flux(self._name, uid))
        else:
            from gamekernel.errors import UsageError

            raise UsageError(t("gammaworld.err.hand_action", action=action))
        self._last_result = result
        self.last = self._last_line()
        return result

    def snapshot_html(self) -> str:
        from gamekernel.gammaworld.render import hand_html

        return hand_html(self.view())

    def __repr__(self) -> str:
        return f"HandWidget({self.view()})"
