"""A secret Alpha Flux resolved in a real JupyterLab + Chromium: the hand widget on the page keeps
the card the players saw, counts included, while `%hand Rin --gm` shows the true hand with the
replacement marked secret; `%reveal N` puts the replacement on the page (GW-ALPHA-10)."""

import re

import pytest

pytestmark = pytest.mark.browser


def test_the_hand_widget_keeps_a_secret_flux_off_the_page(lab):
    page = lab.open("hand-secret.ipynb", [
        "%load_ext gamekernel",
        "%seed 11",
        "%deck gm",
        "%gw new Rin level 4",
        "%draw alpha @Rin",
        "w = %hand Rin\nw",
    ])
    hand = page.locator(".gk-hand-widget").first
    hand.wait_for()
    names = page.locator(".gk-hand-widget .gk-card-name")
    seen = [names.nth(i).inner_text() for i in range(names.count())]
    counts = page.locator(".gk-hand-widget .gk-hand-counts").first.inner_text()
    out = lab.run(page, "from gamekernel.magics import current_session as cs\n"
                        "s = cs()\n"
                        "%encounter start\n"
                        "while not s.gw.state.secret_flux: s.roll('1d20', actor='Rin', secret=True)\n"
                        "old = s.gw.state.readied('Rin')\n"
                        "s.gw.flux('Rin', old[1])\n"
                        "new = [u for u in s.gw.state.readied('Rin') if u not in old][0]\n"
                        "gw = s.gw.state\n"
                        "print('NEW=' + gw.catalog.card(gw.table.card(new).def_id).name + '=', s.log[-1].seq)",
                  expect="NEW=")
    replacement, seq = re.search(r"NEW=(.+)= (\d+)", out).groups()
    assert replacement not in seen
    # the widget's trait updates travel on iopub before the cell's output: they are on the page now
    assert [names.nth(i).inner_text() for i in range(names.count())] == seen
    assert page.locator(".gk-hand-widget .gk-hand-counts").first.inner_text() == counts
    assert replacement not in hand.inner_text()
    lab.run(page, "%hand Rin --gm", expect="secret (GM only)")
    assert replacement in page.locator(".gk-secret-card").first.locator("xpath=../..").inner_text()
    lab.run(page, f"%reveal {seq}\nprint('REVEALED')", expect="REVEALED")
    page.locator(".gk-hand-widget .gk-card-name", has_text=replacement).first.wait_for()
    lab.close_page(page)
