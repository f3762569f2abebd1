"""The hand widget as a GM uses it in a real JupyterLab + Chromium (usable as a form): Tap by keyboard (Enter on
the card's button) and Untap by mouse, a tapped card upright with its badge and no Overcharge button
(GW-ALPHA-08, 12), the focus kept on the pressed button, and every card's rules text inside the card."""

import pytest

pytestmark = pytest.mark.browser

NOT_CUT = """() => [...document.querySelectorAll('.gk-hand-widget .gk-card')].every(card => {
    const box = card.getBoundingClientRect();
    return [...card.children].every(child => child.getBoundingClientRect().bottom <= box.bottom + 0.5);
})"""


def test_hand_taps_by_keyboard_and_mouse_and_keeps_cards_readable(lab):
    page = lab.open("hand_readable.ipynb", [
        "%load_ext gamekernel",
        "%seed 11",
        "%deck new Rin alpha",
        '%deck add Rin "Gravity Knot" x2\n%deck add Rin "Thought Needle" x2\n%deck add Rin "Sap Bloom" x2\n'
        '%deck add Rin "Heavy Knuckle"',
        "%gw Rin level 4 bonus +2",
        "%draw alpha @Rin",
        "from gamekernel.magics import current_session as cs\ns = cs()\n"
        "tapped = lambda: [s.gw.state.table.card(u).tapped for u in s.gw.state.readied('Rin')]",
        "w = %hand Rin\nw",
    ])
    page.locator(".gk-hand-widget .gk-card").first.wait_for()
    assert page.locator(".gk-hand-widget .gk-card .gk-overcharge").count() == 2  # both powers unused
    first_uid = page.locator(".gk-hand-widget .gk-card").first.get_attribute("data-uid")

    tap = page.locator(".gk-hand-widget .gk-card").first.locator(".gk-tap")
    tap.focus()
    tap.press("Enter")
    tapped = page.locator(f'.gk-hand-widget .gk-card.gk-card-tapped[data-uid="{first_uid}"]').first
    tapped.wait_for()
    assert tapped.evaluate("n => getComputedStyle(n).transform") == "none"  # upright, readable
    assert tapped.locator(".gk-tapped-badge").inner_text() == "Tapped: used this encounter"
    assert tapped.locator(".gk-overcharge").count() == 0  # a used power is not offered Overcharge
    assert tapped.locator(".gk-tap").inner_text() == "Untap"
    page.wait_for_function("(id) => document.activeElement?.dataset?.focusId === id", arg=f"tap:{first_uid}")
    lab.run(page, "print('TAPPED', tapped(), s.log[-1].kind)", expect="TAPPED [True, False] gw.tap")
    page.wait_for_function(NOT_CUT)
    paths = lab.themed_screenshots(page, ".jp-OutputArea-output:has(.gk-hand-widget)", "hand-widget")
    assert all(path.stat().st_size > 0 for path in paths)

    tapped.locator(".gk-tap").click()  # the mouse: Untap
    page.locator(".gk-hand-widget .gk-card.gk-card-tapped").first.wait_for(state="detached")
    assert page.locator(".gk-hand-widget .gk-card .gk-overcharge").count() == 2
    lab.run(page, "print('UNTAPPED', tapped(), s.log[-1].kind)", expect="UNTAPPED [False, False] gw.untap")
    lab.close_page(page)
