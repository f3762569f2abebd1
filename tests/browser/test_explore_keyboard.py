"""The explorers by keyboard inside JupyterLab: a slider takes the arrow keys (the
notebook does not move to another cell) and keeps the focus while the figures follow; a library
count typed in commits on Enter (MTG-CHK-05..13 figures recomputed by the kernel)."""

import pytest

pytestmark = pytest.mark.browser

DECK = "Deck\\n4 Elvish Mystic\\n4 Runeclaw Bear\\n12 Forest\\n4 Steam Vents\\n4 Ornithopter\\n"


def test_slider_takes_arrow_keys_and_keeps_the_focus(lab):
    page = lab.open("explore-keys.ipynb", ["%load_ext gamekernel", "x = %explore contest 14 vs 12\nx"],
                    timeout_ms=40_000)
    slider = page.locator('.gk-explore .gk-x-control[data-name="a"] input').first
    slider.wait_for()
    focused = "document.activeElement && document.activeElement.dataset.focusId === 'a'"
    slider.focus()
    page.wait_for_function(focused)  # the key goes to the slider only once it holds the focus
    page.keyboard.press("ArrowRight")
    page.locator(".gk-explore .gk-x-summary", has_text="15 vs 12").first.wait_for()
    # The move redraws the view twice: at once from the model, then as a fresh view when the kernel
    # re-displays the output with the move's line in its record. A key pressed between the two goes
    # to a slider about to be dropped, so wait for the fresh view (the line is in the record) holding
    # the focus on its slider at 15, then press again.
    page.wait_for_function(
        "(() => { const a = document.activeElement;"
        " return !!a && a.isConnected && a.dataset.focusId === 'a' && a.value === '15'"
        " && document.querySelectorAll('.gk-widget-record .gk-widget-action').length >= 1; })()")
    page.keyboard.press("ArrowRight")
    page.locator(".gk-explore .gk-x-summary", has_text="16 vs 12").first.wait_for()
    assert page.evaluate("document.activeElement.dataset.focusId") == "a"
    assert page.evaluate("window.jupyterapp.shell.currentWidget.content.activeCellIndex") == 1  # not moved
    lab.run(page, "print('A', x.explorer.a)", expect="A 16")
    lab.close_page(page)


def test_library_count_commits_on_enter(lab):
    page = lab.open("explore-count.ipynb", [
        "%load_ext gamekernel", f"open('mira.txt', 'w').write('{DECK}')\n%library load Mira mira.txt",
        "%explore library @Mira"], timeout_ms=40_000)
    page.locator(".gk-explore .gk-x-summary", has_text="28 cards").first.wait_for()
    count = page.locator('.gk-explore .gk-x-control[data-name="Ornithopter"] input').first
    count.fill("10")
    count.press("Enter")
    page.locator(".gk-explore .gk-x-summary", has_text="34 cards").first.wait_for()
    lab.close_page(page)
