"""Rendering of alpha cards, hands and results: escaped, deterministic, shows the working."""

from __future__ import annotations

import re

from gamekernel import Session
from gamekernel.gammaworld.render import card_html
from gamekernel.gammaworld.rules import starter_catalog


def test_card_html_is_coloured_by_energy_and_tapped_cards_stay_upright_with_a_badge() -> None:
    """Readable in any notebook: a sanitizer strips `transform`, so a tapped card is marked in words, not turned."""
    catalog = starter_catalog()
    card = catalog.find("Gravity Knot")
    html = card_html(card)
    assert "gk-energy-dark" in html and "rotate(90deg)" not in html
    tapped = card_html(card, tapped=True)
    assert "gk-card-tapped" in tapped and "rotate(" not in tapped and not re.search(r"(?<!text-)transform", tapped)
    assert ">tapped</span>" in tapped and "border:2px dashed" in tapped and "border:2px dashed" not in html
    assert "10+" in html and "9 or less" in html


def test_user_strings_are_escaped_and_output_is_deterministic() -> None:
    outputs = []
    for _ in range(2):
        session = Session(seed=9)
        session.gw.character("<b>Rin</b>", new=True, level=4)
        result = session.gw.draw("<b>Rin</b>")
        outputs.append(result._repr_html_())
    assert outputs[0] == outputs[1]
    assert "<b>Rin</b>" not in outputs[0] and "&lt;b&gt;Rin&lt;/b&gt;" in outputs[0]


def test_overcharge_output_shows_the_working() -> None:
    session = Session(seed=2)
    session.gw.deck_new("Rin")
    session.gw.deck_add("Rin", "Gravity Knot")
    session.gw.character("Rin", origin_bonus=2)
    session.gw.draw("Rin")
    result = session.gw.overcharge("Rin", "Gravity Knot")
    d = result.detail
    assert f"d20 {d['face']} +2 = {d['face'] + 2} vs 10+" in str(result)


def test_hand_html_shows_flux_banner_and_counts() -> None:
    session = Session(seed=4)
    session.gw.character("Rin", new=True)
    session.gw.draw("Rin")
    session.gw.encounter_start()
    while not session.gw.state.flux:
        session.roll("1d20", actor="Rin")
    html = session.gw.hand("Rin")._repr_html_()
    assert "gk-flux-banner" in html and "GM deck 25" in html


def test_every_gamma_world_event_kind_has_its_own_renderer() -> None:
    """One small renderer per step kind (STEP_LINES), exactly the `gw.*` event kinds recorded: a new kind
    without one would be shown as its bare name."""
    import gamekernel.gammaworld.actions  # noqa: F401 (registers the gw.* event kinds)
    from gamekernel.events import EVENT_KINDS
    from gamekernel.gammaworld.render import STEP_LINES

    assert set(STEP_LINES) == {kind.removeprefix("gw.") for kind in EVENT_KINDS if kind.startswith("gw.")}
