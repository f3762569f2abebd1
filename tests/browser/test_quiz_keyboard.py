"""The quiz keeps the keyboard, in a real JupyterLab + Chromium: answering with
Enter moves the focus to the next question's first choice, then to the title after the last, so a
learner answers the whole quiz from the keyboard."""

import pytest

pytestmark = pytest.mark.browser


def test_answering_by_keyboard_moves_the_focus_to_the_next_question(lab):
    page = lab.open("quiz-keys.ipynb", ["%load_ext gamekernel\n%seed 3", "%quiz gurps 2"], timeout_ms=40_000)
    first = page.locator('.gk-quiz .gk-q[data-number="1"] .gk-q-choice').first
    first.wait_for()
    first.focus()
    page.keyboard.press("Enter")
    page.locator('.gk-quiz .gk-q[data-number="1"] .gk-q-verdict').first.wait_for()
    page.wait_for_function("document.activeElement?.dataset.focusId === 'q2-0'")
    page.keyboard.press("Enter")
    page.locator('.gk-quiz .gk-q[data-number="2"] .gk-q-verdict').first.wait_for()
    page.wait_for_function("document.activeElement?.dataset.focusId === 'title'")
    assert "2 answered" in page.locator(".gk-quiz .gk-q-title").first.inner_text()
    lab.close_page(page)
