"""What Fate teaches: the working of a check (`--explain`, `%explain`) and the quiz `%quiz fate`,
registered in gamekernel.lessons (the teaching features read it; they name no rule set)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from gamekernel.display.html import sign
from gamekernel.i18n import t
from gamekernel.lessons import Explanation, QuestionKind, Step, explains, quiz_set
from gk_fate.rules import LADDER, FateCheck, chance_at_least, ladder_word, outcome

OUTCOMES = ("fail", "tie", "succeed", "style")


def check_explanation(check: FateCheck) -> Explanation:
    """The steps of one check: the skill on the ladder, the dice, the result, the shifts."""
    steps = (
        Step("FATE-SKILL", "fate.explain.skill", {"name": check.skill, "rating": sign(check.rating),
                                                  "word": t(f"fate.ladder.{ladder_word(check.rating)}")}),
        Step("FATE-DICE", "fate.explain.dice", {"faces": " ".join(_face(f) for f in check.faces),
                                                "total": sign(sum(check.faces))}),
        Step("FATE-LADDER", "fate.explain.result", {"result": sign(check.result),
                                                    "word": t(f"fate.ladder.{ladder_word(check.result)}")}),
        Step("FATE-OUTCOME", "fate.explain.outcome", {"shifts": check.shifts, "opposition": sign(check.opposition),
                                                      "outcome": t(f"fate.outcome.{check.outcome}")}),
    )
    # the chance of at least a success (one shift) before the dice: the dice must make up the rest
    return Explanation(steps, chance_at_least(check.opposition + 1 - check.rating), title="fate.explain.title",
                       title_fields={"actor": check.actor})


@explains("fate.check")
def _explain_check(data: Mapping[str, Any], actor: str | None) -> Explanation:
    return check_explanation(FateCheck.from_dict(dict(data)))


def _face(value: int) -> str:
    return {-1: "−", 0: "0", 1: "+"}[value]


# -- the quiz: what a total reads on the ladder, and what a check's shifts make of it ------------
def _make_ladder(rng: random.Random) -> dict[str, Any]:
    value = rng.randint(-2, 8)
    others = [v for v in LADDER if v != value]
    rng.shuffle(others)
    choices = [value, *others[:3]]
    rng.shuffle(choices)
    return {"value": value, "choices": choices, "answer": choices.index(value)}


def _make_outcome(rng: random.Random) -> dict[str, Any]:
    rating, opposition = rng.randint(0, 4), rng.randint(0, 4)
    faces = [rng.choice((-1, 0, 1)) for _ in range(4)]
    right = outcome(rating + sum(faces) - opposition)
    return {"rating": rating, "faces": faces, "opposition": opposition, "choices": list(OUTCOMES),
            "answer": OUTCOMES.index(right)}


def _outcome_check(question: Mapping[str, Any]) -> FateCheck:
    return FateCheck("", t("fate.quiz.skill"), question["rating"], tuple(question["faces"]), question["opposition"])


LADDER_QUESTION = QuestionKind(
    make=_make_ladder,
    prompt=lambda q: t("fate.quiz.q.ladder", value=sign(q["value"])),
    choices=lambda q: [t(f"fate.ladder.{LADDER[v]}") for v in q["choices"]],
    explain=lambda q: Explanation((Step("FATE-LADDER", "fate.explain.result", {
        "result": sign(q["value"]), "word": t(f"fate.ladder.{LADDER[q['value']]}")}),)),
)
OUTCOME_QUESTION = QuestionKind(
    make=_make_outcome,
    prompt=lambda q: t("fate.quiz.q.outcome", rating=sign(q["rating"]), opposition=sign(q["opposition"]),
                       faces=" ".join(_face(f) for f in q["faces"])),
    choices=lambda q: [t(f"fate.outcome.{code}") for code in q["choices"]],
    explain=lambda q: check_explanation(_outcome_check(q)),
)
quiz_set("fate", ladder=LADDER_QUESTION, outcome=OUTCOME_QUESTION)
