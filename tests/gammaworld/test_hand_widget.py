"""The hand widget's Python side: traits mirror the session, clicks become logged session calls."""

from __future__ import annotations

from gamekernel import Session
from gamekernel.gammaworld.widgets.hand import HandWidget


def test_hand_widget_taps_overcharges_and_resolves_flux_through_the_session() -> None:
    session = Session(seed=6)
    session.gw.deck_new("Rin")
    for card in ("Gravity Knot", "Thought Needle", "Heavy Knuckle", "Ember Thought"):
        session.gw.deck_add("Rin", card, 2)
    session.gw.character("Rin", level=4)
    session.gw.draw("Rin")
    widget = HandWidget(session, "Rin")
    assert len(widget.cards) == 2 and widget.deck_count == 6
    uid = widget.cards[0]["uid"]
    events = len(session.log)
    widget.handle_action("tap", {"uid": uid})
    assert widget.cards[0]["tapped"] and session.log[-1].kind == "gw.tap" and len(session.log) == events + 1
    widget.handle_action("tap", {"uid": uid})
    assert not widget.cards[0]["tapped"] and session.log[-1].kind == "gw.untap"
    widget.handle_action("overcharge", {"uid": widget.cards[1]["uid"]})
    assert widget.cards[1]["overcharged"] and widget.cards[1]["tapped"] and "overcharges" in widget.last
    session.gw.encounter_start()
    while not session.gw.state.flux:
        session.roll("1d20", actor="Rin")
    assert widget.flux_pending == 1
    widget._on_custom_message(widget, {"action": "flux", "uid": uid}, [])
    assert widget.flux_pending == 0 and uid not in [c["uid"] for c in widget.cards] and widget.error == ""
    widget._on_custom_message(widget, {"action": "flux", "uid": "nope"}, [])
    assert "no Alpha Flux pending" in widget.error
    assert repr(widget).startswith("HandWidget(Rin · level 4")
    bundle, _ = widget._repr_mimebundle_()
    assert "gk-hand" in widget._record_bundle()["text/html"] and bundle["text/plain"] == repr(widget)
    widget.close()


def _rin_hand(seed: int = 6) -> tuple[Session, HandWidget]:
    session = Session(seed=seed)
    session.gw.deck_new("Rin")
    for card in ("Gravity Knot", "Thought Needle", "Heavy Knuckle", "Ember Thought"):
        session.gw.deck_add("Rin", card, 2)
    session.gw.character("Rin", level=4)
    session.gw.draw("Rin")
    return session, HandWidget(session, "Rin")


def test_gw_alpha_12_overcharge_offered_only_where_the_rules_allow_it() -> None:
    """GW-ALPHA-12..14: a tapped (used) or overcharged power is not offered Overcharge; the widget reads
    the hand view's refusal, the same text the session gives when asked anyway."""
    session, widget = _rin_hand()
    first, second = (card["uid"] for card in widget.cards)
    assert all(card["can_overcharge"] for card in widget.cards if card["lines"])
    widget.handle_action("tap", {"uid": first})
    tapped = widget.cards[0]
    assert tapped["tapped"] and not tapped["can_overcharge"] and "used" in tapped["overcharge_refused"].lower()
    events = len(session.log)
    widget._on_custom_message(widget, {"action": "overcharge", "uid": first}, [])
    assert widget.error == tapped["overcharge_refused"] and len(session.log) == events  # refused: nothing logged
    widget.handle_action("overcharge", {"uid": second})
    assert not widget.cards[1]["can_overcharge"] and widget.cards[1]["overcharged"]
    widget.close()


def test_tapped_card_snapshot_upright_with_its_mark() -> None:
    _, widget = _rin_hand()
    widget.handle_action("tap", {"uid": widget.cards[0]["uid"]})
    html = widget.snapshot_html()
    assert "rotate" not in html and "gk-tapped" in html and "overflow:hidden" not in html
    assert widget.labels["tapped_badge"] == "Tapped: used this encounter"
    assert (widget.labels["tap"], widget.labels["untap"]) == ("Tap", "Untap")
    widget.close()
