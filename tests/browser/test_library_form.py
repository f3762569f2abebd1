"""The library widget as a GM uses it in a real JupyterLab + Chromium (usable as a form): the colour and the
difficulty stay as chosen across checks (mouse and keyboard), Enter in the difficulty checks, a
negative difficulty shows `%check`'s refusal and changes nothing (MTG-CHK-03), Boost is disabled after
use with its reason (MTG-CHK-13), the figures are labelled and the exile row stays inside the widget."""

import pytest

pytestmark = pytest.mark.browser

DECK = "Deck\\n4 Elvish Mystic\\n4 Runeclaw Bear\\n12 Forest\\n4 Steam Vents\\n4 Ornithopter\\n"
W = ".gk-library"


def test_library_keeps_selections_and_disables_a_used_boost(lab):
    page = lab.open("library_form.ipynb", [
        "%load_ext gamekernel",
        "%seed 7",
        f"open('mira.txt', 'w').write('{DECK}')",
        "%library load Mira mira.txt",
        "from gamekernel.magics import current_session as cs\ns = cs()\n"
        "kinds = lambda: [e.kind for e in s.log if e.kind in ('mtg.check', 'mtg.boost')]",
        "w = %library show @Mira\nw",
    ])
    page.locator(f"{W} .gk-lib-check").first.wait_for()
    assert page.locator(f"{W} .gk-lib-left .gk-lib-figure-label").first.inner_text() == "Cards left"
    assert page.locator(f"{W} .gk-lib-left .gk-lib-figure-value").first.inner_text() == "28"

    page.locator(f"{W} .gk-lib-kind").first.select_option("red")  # the mouse picks a colour
    difficulty = page.locator(f"{W} .gk-lib-difficulty").first
    difficulty.fill("-4")
    difficulty.press("Enter")  # the keyboard checks
    page.locator(f"{W} .gk-lib-error", has_text="difficulty -4 is below 0").first.wait_for()
    lab.run(page, "print('NONE', kinds())", expect="NONE []")

    difficulty = page.locator(f"{W} .gk-lib-difficulty").first
    difficulty.fill("8")
    difficulty.press("Enter")
    page.locator(f"{W} .gk-lib-verdict", has_text="[8]").first.wait_for()
    page.wait_for_function("() => document.activeElement?.dataset?.focusId === 'difficulty'")
    assert page.locator(f"{W} .gk-lib-kind").first.input_value() == "red"  # kept, not reset to green/2
    assert page.locator(f"{W} .gk-lib-difficulty").first.input_value() == "8"
    assert page.locator(f"{W} .gk-lib-first .gk-lib-figure-label").first.inner_text() == "Target"
    assert "+ difficulty 8" in page.locator(f"{W} .gk-lib-first .gk-lib-figure-note").first.inner_text()
    assert page.locator(f"{W} .gk-lib-second .gk-lib-figure-label").first.inner_text() == "Achievement"
    lab.run(page, "e = s.log[-1]\nprint('CHECK', e.kind, e.data['result']['kind'], e.data['result']['difficulty'])",
            expect="CHECK mtg.check red 8")

    page.locator(f"{W} .gk-lib-boost-button:not([disabled])").first.click()  # the mouse boosts
    page.locator(f"{W} .gk-lib-boost-reason", has_text="already boosted this scene").first.wait_for()
    assert page.locator(f"{W} .gk-lib-boost-button").first.is_disabled()
    assert page.locator(f"{W} .gk-lib-kind").first.input_value() == "red"
    width = page.locator(f"{W} .gk-lib-exile").first.evaluate("n => n.getBoundingClientRect().width")
    frame = page.locator(W).first.evaluate("n => n.getBoundingClientRect().width")
    assert width <= frame  # the exile row wraps inside the widget
    lab.run(page, "print('KINDS', kinds())", expect="KINDS ['mtg.check', 'mtg.boost']")
    paths = lab.themed_screenshots(page, f".jp-OutputArea-output:has({W})", "library-widget")
    assert all(path.stat().st_size > 0 for path in paths)
    lab.close_page(page)
