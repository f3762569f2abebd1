"""Quizzes drawn: question prompts and choices in the current language, the steps shown after a
wrong answer, the static snapshot of the quiz widget, and the log lines of quiz events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamekernel.display import summarizes
from gamekernel.display.html import chip, esc, panel
from gamekernel.i18n import t
from gamekernel.teaching.explain import Explanation
from gamekernel.teaching.quiz import kind_of
from gamekernel.teaching.render_explain import explanation_html, explanation_text


def prompt(question: dict[str, Any]) -> str:
    """The question in the current language, in its rule set's words (gamekernel/lessons.py)."""
    return kind_of(question).prompt(question)


def choice_texts(question: dict[str, Any]) -> list[str]:
    return kind_of(question).choices(question)


def score_text(state: dict[str, Any]) -> str:
    answers = state["answers"].values()
    return t("quiz.score", right=sum(1 for a in answers if a["correct"]), answered=len(state["answers"]),
             of=len(state["questions"]))


def question_parts(number: int, question: dict[str, Any], answer: dict | None, steps: Explanation | None,
                   ) -> tuple[str, list[str], str]:
    """(prompt, choices, verdict text) of one question as shown."""
    verdict = ""
    if answer is not None:
        right = choice_texts(question)[question["answer"]]
        verdict = t("quiz.right") if answer["correct"] else t("quiz.wrong", answer=right)
    return f"{number}. {prompt(question)}", choice_texts(question), verdict


def quiz_text(state: dict[str, Any], explanations: dict[int, Explanation]) -> str:
    lines = [t("quiz.title", set=t(f"quiz.set.{state['set']}")) + " · " + score_text(state)]
    for number, question in enumerate(state["questions"], 1):
        answer = state["answers"].get(number)
        head, choices, verdict = question_parts(number, question, answer, explanations.get(number))
        marks = [("▶ " if answer is not None and answer["choice"] == i else "  ") + f"{chr(97 + i)}) {c}"
                 for i, c in enumerate(choices)]
        lines += [head, *marks]
        if verdict:
            lines.append("   " + verdict)
        if number in explanations:
            lines.append(explanation_text(explanations[number]))
    return "\n".join(lines)


def quiz_html(state: dict[str, Any], explanations: dict[int, Explanation]) -> str:
    items = []
    for number, question in enumerate(state["questions"], 1):
        answer = state["answers"].get(number)
        head, choices, verdict = question_parts(number, question, answer, explanations.get(number))
        chosen = None if answer is None else answer["choice"]
        options = "".join(
            f'<li class="gk-q-choice{" gk-q-chosen" if i == chosen else ""}">'
            f'{chip(chr(97 + i), "info" if i == chosen else "neutral")} {esc(c)}</li>' for i, c in enumerate(choices))
        tone = "good" if answer and answer["correct"] else "bad"
        result = f'<div class="gk-q-verdict">{chip(verdict, tone)}</div>' if verdict else ""
        steps = explanation_html(explanations[number]) if number in explanations else ""
        items.append(f'<div class="gk-q" data-number="{number}"><div>{esc(head)}</div>'
                     f'<ol style="list-style:none;padding-left:8px;margin:2px 0">{options}</ol>{result}{steps}</div>')
    title = t("quiz.title", set=t(f"quiz.set.{state['set']}")) + " · " + score_text(state)
    return panel("quiz", "".join(items), title_html=esc(title))


@summarizes("quiz.start")
def _start(data: Mapping[str, Any]) -> str:
    return t("quiz.log.start", set=t(f"quiz.set.{data['set']}"), count=len(data["questions"]))


@summarizes("quiz.answer")
def _answer(data: Mapping[str, Any]) -> str:
    key = "quiz.log.right" if data["correct"] else "quiz.log.wrong"
    return t(key, number=data["number"], right=data["right"], answered=data["answered"], of=data["of"])
