"""The quiz widget in a real JupyterLab + Chromium (a teaching feature): an answer clicked right, one clicked
wrong (the steps that give the right answer appear, with their rule ids), both logged with the score."""

import re

import pytest

pytestmark = pytest.mark.browser


def test_quiz_answered_right_and_wrong_through_the_page(lab):
    page = lab.open("quiz.ipynb", ["%load_ext gamekernel", "%seed 3", "quiz = %quiz gurps 2\nquiz"])
    page.locator(".gk-quiz .gk-q").nth(1).wait_for()
    text = lab.run(page, "print('ANS', [q['answer'] for q in quiz.state()['questions']])", expect="ANS")
    right, second = (int(n) for n in re.findall(r"\d+", text.split("ANS", 1)[1])[:2])
    wrong = (second + 1) % 4

    page.locator(f'.gk-quiz .gk-q[data-number="1"] .gk-q-choice[data-choice="{right}"]').first.click()
    page.locator('.gk-quiz .gk-q[data-number="1"] .gk-q-right').first.wait_for()
    assert page.locator('.gk-quiz .gk-q[data-number="1"] .gk-q-step').count() == 0

    page.locator(f'.gk-quiz .gk-q[data-number="2"] .gk-q-choice[data-choice="{wrong}"]').first.click()
    page.locator('.gk-quiz .gk-q[data-number="2"] .gk-q-wrong').first.wait_for()
    step = page.locator('.gk-quiz .gk-q[data-number="2"] .gk-q-step').first
    step.wait_for()
    assert (step.get_attribute("data-rule") or "").startswith("GURPS-SR-")
    page.locator(".gk-quiz .gk-q-title", has_text="1 right of 2 answered").first.wait_for()

    code = ("from gamekernel.magics import current_session as cs\n"
            "print('LOG', [(e.kind, e.data.get('correct')) for e in cs().log if e.kind.startswith('quiz')])")
    log = lab.run(page, code, expect="LOG")
    assert "('quiz.start', None), ('quiz.answer', True), ('quiz.answer', False)" in log, log
    lab.screenshot(page, "quiz.png")
    lab.close_page(page)
