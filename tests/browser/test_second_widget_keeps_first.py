"""A displayed widget is never closed by a later one: in a real JupyterLab +
Chromium, for every widget family, a second widget of the same kind and target leaves the first
drawn, and the first still answers a click (it wakes and follows the session again)."""

import pytest

pytestmark = pytest.mark.browser

DECK = "Deck\\n4 Elvish Mystic\\n4 Runeclaw Bear\\n12 Forest\\n4 Steam Vents\\n4 Ornithopter\\n"
HAND_SETUP = [
    "%load_ext gamekernel",
    "%seed 11\n%deck new Rin alpha\n%deck add Rin \"Gravity Knot\" x2\n%deck add Rin \"Sap Bloom\" x2\n"
    "%gw Rin level 4 bonus +2\n%draw alpha @Rin",
]


def in_cell(page, index: int, selector: str):
    """`selector` inside the output of code cell `index` (0-based)."""
    return page.locator(".jp-Notebook .jp-Cell").nth(index).locator(selector).first


def open_two(lab, name: str, setup: list[str], show: str, selector: str):
    """Run `setup`, then `show` in two cells; both widgets drawn; returns (page, first, second)."""
    page = lab.open(name, [*setup, show, show])
    first, second = in_cell(page, len(setup), selector), in_cell(page, len(setup) + 1, selector)
    second.wait_for()
    first.wait_for()
    return page, first, second


def move(locator, value) -> None:
    """Set a slider or number box the way a user's drag ends: a value, then a change event."""
    locator.evaluate("(input, value) => { input.value = String(value); input.dispatchEvent(new Event('input'));"
                     " input.dispatchEvent(new Event('change')); }", value)


def test_a_second_explorer_leaves_the_first_live(lab):
    page, first, second = open_two(lab, "two_explorers.ipynb", ["%load_ext gamekernel"],
                                   "%explore contest 14 vs 12", ".gk-explore")
    move(first.locator('.gk-x-control[data-name="a"] input'), 10)
    first.locator(".gk-x-summary", has_text="10 vs 12").wait_for()
    assert "14 vs 12" in second.locator(".gk-x-summary").inner_text()
    lab.close_page(page)


def test_a_second_quiz_leaves_the_first_live(lab):
    page, first, second = open_two(lab, "two_quizzes.ipynb", ["%load_ext gamekernel\n%seed 3"],
                                   "%quiz gurps 2", ".gk-quiz")
    first.locator('.gk-q[data-number="1"] .gk-q-choice').first.click()
    first.locator('.gk-q[data-number="1"] .gk-q-verdict').wait_for()
    assert "1 answered" in first.locator(".gk-q-title").inner_text()
    assert second.locator(".gk-q").count() == 2  # still drawn
    lab.close_page(page)


def test_a_second_hand_leaves_the_first_live(lab):
    page, first, second = open_two(lab, "two_hands.ipynb", HAND_SETUP, "%hand Rin", ".gk-hand-widget")
    assert first.locator(".gk-card").count() == 2
    first.locator(".gk-card").first.click()
    first.locator(".gk-card.gk-card-tapped").wait_for()
    assert second.locator(".gk-card").count() == 2
    lab.close_page(page)


def test_a_second_sheet_leaves_the_first_live(lab):
    page, first, second = open_two(lab, "two_sheets.ipynb", ["%load_ext gamekernel\n%char new Aiko dx=12 ht=11"],
                                   "%sheet Aiko", ".gk-sheet")
    dx = first.locator(".gk-attr-input[data-key=dx]")
    dx.fill("14")
    dx.press("Enter")
    first.locator(".gk-derived-dodge .gk-value", has_text="9").wait_for()  # floor((14+11)/4) + 3
    assert second.locator(".gk-derived-dodge .gk-value").count() == 1
    lab.close_page(page)


def test_a_second_tracker_leaves_the_first_live(lab):
    setup = ["%load_ext gamekernel\n%seed 4\n%combat npc Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp\n"
             "%combat start Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,pc=1} Goblin*2"]
    page, first, second = open_two(lab, "two_trackers.ipynb", setup, "%combat tracker", ".gk-tracker-widget")
    first.locator(".gk-next").click()
    first.locator('.gk-combatant.gk-active[data-name="Goblin1"]').wait_for()
    assert second.locator(".gk-combatant").count() == 3
    lab.close_page(page)


def test_a_second_library_leaves_the_first_live(lab):
    setup = ["%load_ext gamekernel\n%seed 7", f"open('mira.txt', 'w').write('{DECK}')\n",
             "%library load Mira mira.txt"]
    page, first, second = open_two(lab, "two_libraries.ipynb", setup, "%library show @Mira", ".gk-library")
    first.locator(".gk-lib-check").click()
    first.locator(".gk-lib-verdict").wait_for()
    assert second.locator(".gk-lib-left .gk-lib-figure-value").count() == 1
    lab.close_page(page)
