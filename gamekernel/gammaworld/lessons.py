"""What Gamma World teaches: the working of an overcharge and an Alpha Flux (`--explain`, `%explain`),
registered in gamekernel.lessons when the rule set's handles are imported (the teaching features read
it and name no rule set)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from gamekernel.lessons import Explanation, Step, explains_on_table

if TYPE_CHECKING:
    from gamekernel.events import Event
    from gamekernel.rulesets import Core


def overcharge_explanation(detail: Mapping[str, Any], card: str, who: str) -> Explanation:
    """An overcharge from its logged detail: once per power (ALPHA-12), d20 + origin bonus
    (ALPHA-14) against the card's number (ALPHA-13), a natural 1 as a flux (ALPHA-10)."""
    from gamekernel.gammaworld.rules.odds import p_overcharge

    face, bonus, total, need = detail["face"], detail["bonus"], detail["total"], detail["success_min"]
    steps = [Step("GW-ALPHA-12", "explain.gw.overcharge_once", {"card": card})]
    if bonus:
        steps.append(Step("GW-ALPHA-14", "explain.gw.origin_bonus", {"face": face, "bonus": bonus, "total": total}))
    key = "explain.gw.overcharge_success" if detail["success"] else "explain.gw.overcharge_failure"
    steps.append(Step("GW-ALPHA-13", key, {"total": total, "need": need}))
    if not detail["success"] and detail.get("attack"):
        steps.append(Step("GW-ALPHA-13", "explain.gw.attack_still_works", {"card": card}))
    if detail.get("flux"):
        steps.append(Step("GW-ALPHA-10", "explain.gw.natural_one", {"label": "d20", "who": who}))
    return Explanation(tuple(steps), p_overcharge(bonus, need), "explain.title.overcharge", {"who": who, "card": card})


def flux_pending_explanation(detail: Mapping[str, Any], who: str) -> Explanation:
    """A natural 1 on a d20 in an encounter (ALPHA-10): one flux per natural 1."""
    from gamekernel.gammaworld.rules.odds import p_flux

    count = int(detail.get("count", 1))
    steps = (Step("GW-ALPHA-10", "explain.gw.natural_one", {"label": detail.get("label") or "d20", "who": who}),
             Step("GW-ALPHA-10", "explain.gw.flux_owed", {"who": who, "count": count}))
    return Explanation(steps, p_flux(1), "explain.title.flux", {"who": who})


def flux_explanation(detail: Mapping[str, Any], who: str, card_name: Callable[[str], str]) -> Explanation:
    """The flux itself (ALPHA-10): one readied card out, its replacement from the GM deck, usable now."""
    discarded = card_name(detail["discarded"]) if detail.get("discarded") else "—"
    drawn = ", ".join(card_name(c) for c in detail.get("drawn") or ()) or "—"
    source = detail.get("source", "gm")
    steps = (Step("GW-ALPHA-10", "explain.gw.flux_swap", {"who": who, "discarded": discarded, "drawn": drawn}),
             Step("GW-ALPHA-10" if source == "gm" else "GW-ALPHA-04", f"explain.gw.flux_source.{source}", {}),
             Step("GW-ALPHA-10", "explain.gw.flux_usable", {"drawn": drawn}))
    return Explanation(steps, None, "explain.title.flux", {"who": who})


# ---------------------------------------------------------------- the events, with the table at hand

@explains_on_table("gw.overcharge")
def _overcharge_event(table: Core, event: Event) -> Explanation:
    detail = event.data["detail"]
    return overcharge_explanation(detail, _card_name(table, detail["card_id"]), event.actor or "")


@explains_on_table("gw.flux_pending")
def _flux_pending_event(table: Core, event: Event) -> Explanation:
    return flux_pending_explanation(event.data["detail"], event.actor or "")


@explains_on_table("gw.flux")
def _flux_event(table: Core, event: Event) -> Explanation:
    return flux_explanation(event.data["detail"], event.actor or "", lambda card: _card_name(table, card))


def _card_name(table: Core, card_id: str) -> str:
    try:
        return str(table.state["gammaworld"].catalog.card(card_id).name)  # the "gammaworld" state part
    except Exception:  # a card of a catalog no longer loaded: its id
        return card_id
