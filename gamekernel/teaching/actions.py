"""Explain mode in the session (the `session.teaching` handle): `session.teaching.explain(seq)` explains an event of the
log from its stored outcome (a teaching feature). Each rule set gives the steps of its own events
(gamekernel/lessons.py, filled by the rule sets' `lessons.py`); this module names none of them."""

from __future__ import annotations

from typing import Any

from gamekernel.errors import NotFoundError, RuleError, UsageError
from gamekernel.events import Event, kind_word, register_event
from gamekernel.i18n import t
from gamekernel.lessons import EXPLAINERS, TABLE_EXPLAINERS
from gamekernel.rulesets import RuleSetHandle
from gamekernel.teaching import explain as ex

register_event("quiz.start", changes=())  # the questions drawn (an outcome of the RNG), so the log replays them
register_event("quiz.answer", changes=())  # one answer, whether it was right, and the running score


class Teaching(RuleSetHandle):
    """Teaching on one table (`session.teaching`): `explain`, the working of any roll, check or card
    rule already in the log; `quiz` and `quiz_answer`, questions drawn from the rules engine, answers
    and scores logged."""

    name = "teaching"

    def quiz(self, rule_set: str, count: int = 3) -> int:
        """Draw `count` questions of a quiz set (gurps, mtg, alpha, a plug-in's; or a rule set's one quiz
        set by the rule set's name) with the session RNG; returns the event number that identifies the quiz."""
        from gamekernel.teaching.quiz import make_quiz, quiz_set_named

        name = quiz_set_named(rule_set)
        questions = make_quiz(name, count, self.table.rng)
        return self.table.record("quiz.start", {"set": name, "questions": questions}).seq

    def quiz_state(self, quiz: int) -> dict[str, Any]:
        """The quiz's questions and the answers given so far (undone answers left out)."""
        start = next((e for e in self.table.active if e.seq == quiz and e.kind == "quiz.start"), None)
        if start is None:
            raise NotFoundError(t("quiz.err.no_quiz", quiz=quiz))
        answers = {e.data["number"]: e.data for e in self.table.active
                   if e.kind == "quiz.answer" and e.data.get("quiz") == quiz}
        return {"quiz": quiz, "set": start.data["set"], "questions": start.data["questions"], "answers": answers}

    def quiz_answer(self, quiz: int, number: int, choice: int) -> dict[str, Any]:
        """Answer question `number` (1-based) with choice `choice` (0-based); logged with the score."""
        from gamekernel.teaching.quiz import is_correct

        state = self.quiz_state(quiz)
        questions = state["questions"]
        if not 1 <= number <= len(questions):
            raise UsageError(t("quiz.err.number", number=number, count=len(questions)))
        if number in state["answers"]:
            raise RuleError(t("quiz.err.answered", number=number))
        correct = is_correct(questions[number - 1], choice)
        right = sum(1 for a in state["answers"].values() if a["correct"]) + correct
        data = {"quiz": quiz, "set": state["set"], "number": number, "choice": choice, "correct": correct,
                "right": right, "answered": len(state["answers"]) + 1, "of": len(questions)}
        self.table.record("quiz.answer", data)
        return data

    def explain(self, seq: int | None = None, *, result: Any = None) -> ex.Explained:
        """The steps of event `seq` (default: the last event that has any), shown with `result`."""
        if seq is None:
            for earlier in reversed(self.table.log):
                found = self.explain_event(earlier)
                if found is not None and not earlier.secret:
                    return ex.Explained(result, (found,), earlier.seq, earlier.by)
            raise NotFoundError(t("explain.err.empty"))
        event = next((e for e in self.table.log if e.seq == seq), None)
        if event is None:
            log = self.table.log
            raise NotFoundError(t("explain.err.no_event", seq=seq, last=log[-1].seq if log else 0))
        if event.secret:
            raise RuleError(t("explain.err.secret", seq=seq))
        found = self.explain_event(event)
        if found is None:
            raise RuleError(_nothing_to_explain(event))
        return ex.Explained(result, (found,), event.seq, event.by)

    def explain_since(self, mark: int, result: Any) -> ex.Explained:
        """`--explain`: `result` with the steps of every explainable event it recorded (log[mark:])."""
        found = tuple(e for e in (self.explain_event(ev) for ev in self.table.log[mark:] if not ev.secret) if e)
        return ex.Explained(result, found)

    def explain_event(self, event: Event) -> ex.Explanation | None:
        """The explanation of one event, or None for a kind that decides nothing by a rule: each rule
        set's own working (gamekernel/lessons.py, registered from above), with the table at hand or
        from the event's facts alone."""
        on_table = TABLE_EXPLAINERS.get(event.kind)
        if on_table is not None:
            return on_table(self.table, event)
        explainer = EXPLAINERS.get(event.kind)
        return None if explainer is None else explainer(event.data, event.actor)

def _nothing_to_explain(event: Event) -> str:
    """Why event `event` has no steps: a plain roll is named as such (its dice are its whole result),
    so the refusal never lists "rolls" among what is explained while refusing one."""
    if event.kind == "roll":
        return t("explain.none_roll", seq=event.seq)
    return t("explain.none", seq=event.seq, kind=kind_word(event.kind))
