"""The library odds explorer in a real JupyterLab + Chromium, switched to Japanese mid-session: each card
control's label, tooltip and aria-label are redrawn with the card's Japanese name and the catalog's words
(MTG-CHK-13's explorer); the front end writes only the words the kernel sends."""

import pytest

pytestmark = pytest.mark.browser

DECK = "Deck\\n4 Elvish Mystic\\n20 Forest\\n"


def test_a_switch_to_japanese_relabels_the_explorer_card_controls_in_the_page(lab):
    page = lab.open("explore-ja.ipynb", [
        "%load_ext gamekernel",
        f"open('mira.txt', 'w').write('{DECK}')",
        "%library load Mira mira.txt",
        "%explore library @Mira",
    ])
    control = page.locator('.gk-explore .gk-x-control[data-name="Elvish Mystic"]').first
    control.wait_for()
    assert control.locator(".gk-x-label").inner_text() == "Elvish Mystic"
    assert control.locator("input").get_attribute("aria-label") == "copies of Elvish Mystic in this library (0 to 60)"
    lab.run(page, "%config GameKernel.language = 'ja'\nprint('SWITCHED')", expect="SWITCHED")
    control.locator(".gk-x-label", has_text="エルフの神秘家").wait_for()
    hint = "このライブラリーの《エルフの神秘家》の枚数（0～60）"
    assert control.locator("input").get_attribute("aria-label") == hint
    assert control.get_attribute("title") == hint
    forest = page.locator('.gk-explore .gk-x-control[data-name="Forest"]').first
    assert forest.locator(".gk-x-label").inner_text() == "森"
    lab.screenshot(page, "explore-ja.png")
    lab.close_page(page)
