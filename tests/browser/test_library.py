"""The MtG library widget in a real JupyterLab + Chromium: it renders the session's library and its
buttons become logged session calls (MTG-CHK check, MTG-CHK-13 boost, a new scene)."""

import pytest

pytestmark = pytest.mark.browser

DECK = "Deck\\n4 Elvish Mystic\\n4 Runeclaw Bear\\n12 Forest\\n4 Steam Vents\\n4 Ornithopter\\n"


def test_library_widget_shows_state_and_sends_checks_boosts_scenes(lab):
    page = lab.open("library.ipynb", [
        "%load_ext gamekernel",
        "%seed 7",
        f"open('mira.txt', 'w').write('{DECK}')",
        "%library load Mira mira.txt",
        "%library stack Elvish Mystic, Runeclaw Bear @Mira",
        "w = %library show @Mira\nw",
    ])
    widget = page.locator(".gk-library").first
    widget.wait_for()
    assert page.locator(".gk-library .gk-lib-left .gk-lib-figure-value").first.inner_text() == "28"
    assert "green" in widget.inner_text()

    page.locator(".gk-library .gk-lib-check").first.click()  # green 2 by default: the seed's example
    page.locator(".gk-library .gk-lib-target").first.wait_for()
    assert page.locator(".gk-library .gk-lib-target").first.inner_text() == "3"
    assert page.locator(".gk-library .gk-lib-achievement").first.inner_text() == "7"
    assert "success" in page.locator(".gk-library .gk-lib-verdict").first.inner_text()
    bottom = page.locator(".gk-library .gk-lib-known-bottom .gk-lib-figure-value").first  # MTG-CHK-12
    bottom.wait_for()
    assert bottom.inner_text() == "2"
    lab.run(page, "from gamekernel.magics import current_session as cs\n"
                  "print('KINDS', [e.kind for e in cs().log][-1])", expect="KINDS mtg.check")

    # a success cannot be boosted (seed 002:35,64): the button is disabled and says why
    page.locator(".gk-library .gk-lib-boost-reason", has_text="already succeeded").first.wait_for()
    assert page.locator(".gk-library .gk-lib-boost-button").first.is_disabled()
    page.locator(".gk-library .gk-lib-difficulty").first.fill("8")  # target >= 8 > any achievement here
    page.locator(".gk-library .gk-lib-check").first.click()
    page.locator(".gk-library .gk-lib-verdict", has_text="[8]").first.wait_for()
    page.locator(".gk-library .gk-lib-boost-button").first.click()
    page.locator(".gk-library .gk-lib-boost.gk-bad").first.wait_for()
    assert page.locator(".gk-library .gk-lib-exile .gk-chip").count() == 6
    # a second boost this scene is not offered, with the reason
    page.locator(".gk-library .gk-lib-boost-reason", has_text="already boosted").first.wait_for()
    assert page.locator(".gk-library .gk-lib-boost-button").first.is_disabled()

    page.locator(".gk-library .gk-lib-new-scene").first.click()
    page.locator(".gk-library .gk-lib-boost.gk-ok").first.wait_for()
    text = lab.run(page, "print('EVENTS', [e.kind for e in cs().log if e.kind.startswith('mtg.')])",
                   expect="EVENTS")
    assert "['mtg.library', 'mtg.reset', 'mtg.check', 'mtg.check', 'mtg.boost', 'mtg.scene']" in text, text
    lab.screenshot(page, "library.png")
    lab.close_page(page)
