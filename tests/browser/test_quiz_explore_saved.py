"""Quiz answers and explorer changes survive save + reopen without a kernel, in a
real JupyterLab + Chromium: each click leaves its line under the widget and the widget's saved
snapshot shows the state after it ("1 right of 1 answered", the moved slider's figures)."""

from __future__ import annotations

import json
import time

import pytest

pytestmark = pytest.mark.browser

CELLS = ["%load_ext gamekernel\n%seed 3", "q = %quiz gurps 1\nq", "%explore contest 14 vs 12"]
QUIZ, EXPLORER = 1, 2


def _cell(page, index: int):
    return page.locator(".jp-Notebook .jp-CodeCell").nth(index)


def _html(notebook, cell: int, output: int) -> str:
    outputs = notebook["cells"][cell]["outputs"]
    return "".join(outputs[output]["data"]["text/html"]) if len(outputs) > output else ""


def _saved(path, predicate, timeout_s: float = 60):
    deadline = time.monotonic() + timeout_s
    while True:
        notebook = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
        if notebook is not None and predicate(notebook):
            return notebook
        if time.monotonic() > deadline:
            raise AssertionError(f"{path.name} never reached the expected state")
        time.sleep(0.5)


def test_quiz_answers_and_explorer_moves_are_in_the_reopened_notebook(lab):
    page = lab.open("quiz-explore-saved.ipynb", CELLS, timeout_ms=40_000)
    quiz, explorer = _cell(page, QUIZ), _cell(page, EXPLORER)
    quiz.locator(".gk-quiz .gk-q-choice").first.wait_for()
    right = lab.run(page, "print('RIGHT', q.state()['questions'][0]['answer'])", expect="RIGHT").split()[-1]
    quiz.locator(f'.gk-quiz .gk-q-choice[data-choice="{right}"]').first.click()
    quiz.locator(".gk-widget-action").first.wait_for()
    slider = explorer.locator('.gk-explore .gk-x-control[data-name="a"] input').first
    slider.evaluate("n => { n.value = '10'; n.dispatchEvent(new Event('input'));"
                    " n.dispatchEvent(new Event('change')); }")
    explorer.locator(".gk-widget-action").first.wait_for()

    page.evaluate("window.jupyterapp.commands.execute('docmanager:save')")
    _saved(lab.root / "quiz-explore-saved.ipynb",
           lambda nb: "1 right of 1 answered" in _html(nb, QUIZ, 1) and "10 vs 12" in _html(nb, EXPLORER, 1))
    lab.close_page(page)  # the kernel is shut down: its widget models are gone

    page = lab.browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(40_000)
    page.goto(f"{lab.base}/lab/tree/quiz-explore-saved.ipynb?token={lab.token}&reset")
    quiz, explorer = _cell(page, QUIZ), _cell(page, EXPLORER)
    quiz.locator(".gk-widget-record > .gk-widget-snapshot").first.wait_for(state="visible")
    assert "1 right of 1 answered" in quiz.locator(".gk-widget-record > .gk-widget-snapshot").first.inner_text()
    assert "right" in quiz.locator(".gk-widget-action").first.inner_text()
    explorer.locator(".gk-widget-record > .gk-widget-snapshot").first.wait_for(state="visible")
    assert "10 vs 12" in explorer.locator(".gk-widget-record > .gk-widget-snapshot").first.inner_text()
    assert "A's skill → 10" in explorer.locator(".gk-widget-action").first.inner_text()
    lab.screenshot(page, "quiz-explore-reopened.png")
    lab.close_page(page)
