"""The quiz widget (a teaching feature): `%quiz gurps|mtg|alpha [N]`. Shows the questions the session drew;
a click on a choice is `session.teaching.quiz_answer(...)`, a logged event; a wrong answer shows the steps
that give the right one (gamekernel.teaching.quiz.explanation)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import traitlets

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.teaching.actions import Teaching
from gamekernel.widgets.base import SessionWidget, script, styles

if TYPE_CHECKING:  # the Session it draws and calls: for the type checker only (pyproject.toml)
    from gamekernel.rulesets import Core


class QuizWidget(SessionWidget):
    _esm = script("teaching/quiz.js")
    _css = styles("teaching/quiz.css")

    quiz = traitlets.Int(0).tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    questions: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)

    def __init__(self, session: Core, quiz: int, **kwargs: Any):
        self._quiz = quiz
        super().__init__(session, **kwargs)

    def state(self) -> dict[str, Any]:
        return self.session.feature(Teaching).quiz_state(self._quiz)

    def explanations(self, state: dict[str, Any]) -> dict[int, Any]:
        """The steps of every question answered wrong."""
        from gamekernel.teaching.quiz import explanation

        return {n: explanation(state["questions"][n - 1]) for n, a in state["answers"].items() if not a["correct"]}

    def refresh(self) -> None:
        from gamekernel.teaching.render_explain import odds_line, step_rows
        from gamekernel.teaching.render_quiz import question_parts, score_text

        state = self.state()
        wrong = self.explanations(state)
        rows = []
        for number, question in enumerate(state["questions"], 1):
            answer = state["answers"].get(number)
            head, choices, verdict = question_parts(number, question, answer, wrong.get(number))
            rows.append({"number": number, "prompt": head, "choices": choices,
                         "chosen": None if answer is None else answer["choice"],
                         "correct": None if answer is None else answer["correct"], "verdict": verdict,
                         "steps": step_rows(wrong[number]) if number in wrong else [],
                         "odds": odds_line(wrong[number]) if number in wrong else ""})
        self.quiz = self._quiz
        self.title = t("quiz.title", set=t(f"quiz.set.{state['set']}")) + " · " + score_text(state)
        self.questions = rows

    def answer(self, number: int, choice: int) -> None:
        """Answer question `number` (1-based) with `choice` (0-based) as a click does: its line goes
        into the cell's record."""
        self.record_action(self._answer(number, choice))

    def handle_action(self, action: str, payload: dict[str, Any]) -> object:
        if action != "answer":
            raise UsageError(t("quiz.err.action", action=action))
        number_given: Any = payload.get("number")  # any JSON value from the front end, or absent
        choice_given: Any = payload.get("choice")
        try:
            number, choice = int(number_given), int(choice_given)
        except (TypeError, ValueError):
            raise UsageError(t("quiz.err.action", action=action)) from None
        return self._answer(number, choice)

    def _answer(self, number: int, choice: int) -> object:
        """Record the answer (a session event); returns its logged line for the cell's saved record (and
        the snapshot updated with it), so a notebook saved after answering shows the answers and the score."""
        from gamekernel.results import EventLines

        log = self.session.log
        mark = len(log)
        self.session.feature(Teaching).quiz_answer(self._quiz, number, choice)
        return EventLines(tuple(event.summary() for event in log[mark:]))

    def snapshot_html(self) -> str:
        from gamekernel.teaching.render_quiz import quiz_html

        state = self.state()
        return quiz_html(state, self.explanations(state))

    def __repr__(self) -> str:
        from gamekernel.teaching.render_quiz import quiz_text

        state = self.state()
        return quiz_text(state, self.explanations(state))
