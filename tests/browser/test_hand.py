"""The Gamma World hand widget in a real JupyterLab + Chromium: draw, click a card to tap it (the
kernel's session sees the tap, GW-ALPHA-08), trigger Alpha Flux and pick the card to discard in the
page (GW-ALPHA-10)."""

import pytest

pytestmark = pytest.mark.browser


def test_hand_widget_taps_and_resolves_flux_in_the_page(lab):
    page = lab.open("hand.ipynb", [
        "%load_ext gamekernel",
        "%seed 11",
        "%deck new Rin alpha",
        '%deck add Rin "Gravity Knot" x2\n%deck add Rin "Thought Needle" x2\n%deck add Rin "Sap Bloom" x2\n'
        '%deck add Rin "Heavy Knuckle"',
        "%gw Rin level 4 bonus +2",
        "%draw alpha @Rin",
        "w = %hand Rin\nw",
    ])
    hand = page.locator(".gk-hand-widget").first
    hand.wait_for()
    cards = page.locator(".gk-hand-widget .gk-card")
    assert cards.count() == 2
    assert "own deck 5" in page.locator(".gk-hand-widget .gk-hand-counts").first.inner_text()

    cards.first.click()
    page.locator(".gk-hand-widget .gk-card.gk-card-tapped").first.wait_for()
    tapped = page.locator(".gk-hand-widget .gk-card.gk-card-tapped").first
    # readable in any notebook: upright (a rotation cannot survive a sanitizer), marked by a dashed border and a badge
    assert tapped.evaluate("n => getComputedStyle(n).transform") == "none"
    assert tapped.evaluate("n => getComputedStyle(n).borderTopStyle") == "dashed"
    assert page.locator(".gk-hand-widget .gk-card.gk-card-tapped .gk-tapped-badge").first.is_visible()
    lab.run(page, "from gamekernel.magics import current_session as cs\n"
                  "s = cs(); print('TAPPED', [s.gw.state.table.card(u).tapped for u in s.gw.state.readied('Rin')])",
            expect="TAPPED [True, False]")

    page.locator(".gk-hand-widget .gk-overcharge").first.click()
    # the line already holds the tap's text: wait for the overcharge's own
    page.locator(".gk-hand-widget .gk-hand-last", has_text="overcharges").first.wait_for()
    assert "overcharges" in page.locator(".gk-hand-widget .gk-hand-last").first.inner_text()
    lab.run(page, "print('LAST', s.log[-1].kind)", expect="LAST gw.overcharge")

    lab.run(page, "%encounter start\n"
                  "while not s.gw.state.flux: s.roll('1d20+4', actor='Rin')\n"
                  "print('FLUX', s.gw.state.flux)", expect="FLUX {'Rin': 1}")
    banner = page.locator(".gk-hand-widget .gk-flux-banner").first
    banner.wait_for()
    choices = page.locator(".gk-hand-widget .gk-flux-choice")
    assert choices.count() == 2
    lab.screenshot(page, "hand-flux.png")
    chosen = choices.first.get_attribute("data-uid")
    choices.first.click()
    banner.wait_for(state="detached")
    lab.run(page, f"gw = s.gw.state\nprint('AFTER', {chosen!r} in gw.readied('Rin'), len(gw.readied('Rin')), gw.flux, "
                  "[e.kind for e in s.log][-1])",
            expect="AFTER False 2 {} gw.flux")
    lab.screenshot(page, "hand.png")
    lab.close_page(page)
