"""Quiz questions generated from the rules engine (a teaching feature): every answer and every explanation is
computed by the rule sets' own functions, and the questions are drawn with the session RNG.

A question is plain JSON data (stored in the `quiz.start` event, so the log replays it): its type,
the numbers it is about, the choices (codes or exact fractions) and the index of the right one.
Each rule set registers its quiz sets and kinds of question in gamekernel/lessons.py (`quiz_set`, in
its `lessons.py`); this module names none of them. `explanation(question)` gives the steps shown when
the learner answers wrong.
"""

from __future__ import annotations

import random

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.lessons import QUESTION_KINDS, QUIZ_OWNERS, QUIZ_SETS, Explanation, Question, QuestionKind, taught

MAX_QUESTIONS = 20


def quiz_sets() -> list[str]:
    """Every quiz set, in the order of the rule sets they are of (then any other)."""
    from gamekernel.rulesets import rule_sets

    taught()
    names = [name for declared in rule_sets() for name, owner in QUIZ_OWNERS.items() if owner == declared.name]
    return names + [name for name in QUIZ_SETS if name not in names]


def quiz_set_named(word: str) -> str:
    """The quiz set `%quiz WORD` asks: a quiz set by its name (`alpha`), or a rule set's one quiz set by
    the rule set's name (`gammaworld`); a one-line refusal for a rule set that offers no quiz (or
    several) and for any other word, naming the quiz sets there are."""
    from gamekernel.rulesets import rule_sets

    taught()
    if word in QUIZ_SETS:
        return word
    sets = ", ".join(quiz_sets())
    if word in {declared.name for declared in rule_sets()}:
        own = [name for name, owner in QUIZ_OWNERS.items() if owner == word]
        if len(own) == 1:
            return own[0]
        if not own:
            raise UsageError(t("quiz.err.none", name=word, sets=sets))
    raise UsageError(t("quiz.err.set", got=word, sets=sets))


def make_quiz(quiz_set: str, count: int, rng: random.Random) -> list[Question]:
    """`count` questions of `quiz_set` (a quiz set a rule set registered in gamekernel/lessons.py), its
    kinds of question in turn."""
    taught()
    if quiz_set not in QUIZ_SETS:
        raise UsageError(t("quiz.err.set", got=quiz_set, sets=", ".join(quiz_sets())))
    if not 1 <= count <= MAX_QUESTIONS:
        raise UsageError(t("quiz.err.count", count=count, most=MAX_QUESTIONS))
    types = QUIZ_SETS[quiz_set]
    return [{**QUESTION_KINDS[types[i % len(types)]].make(rng), "type": types[i % len(types)]} for i in range(count)]


def kind_of(question: Question) -> QuestionKind:
    """The kind of a stored question; a one-line refusal for a kind no installed rule set teaches (a
    quiz saved with a plug-in since removed)."""
    taught()
    kind = QUESTION_KINDS.get(question["type"])
    if kind is None:
        raise UsageError(t("quiz.err.kind", kind=question["type"]))
    return kind


def is_correct(question: Question, choice: int) -> bool:
    if not 0 <= choice < len(question["choices"]):
        raise UsageError(t("quiz.err.choice", choice=choice + 1, count=len(question["choices"])))
    return choice == question["answer"]


def explanation(question: Question) -> Explanation:
    """The steps that give the right answer, from the same rule functions as a live roll or check."""
    return kind_of(question).explain(question)
