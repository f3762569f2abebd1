"""What a rule set teaches, registered from above: the working of its events (`--explain`, `%explain`)
and its kinds of quiz question (`%quiz SET`).

The teaching features (gamekernel/teaching/) read these registries; a rule set fills them when its
session operations are imported (as it registers its event kinds), so the teaching features name no
rule set and a plug-in's events explain and quiz like the built-ins'. `Step` and `Explanation` are
the plain facts of a working (rule id, i18n key, numbers); gamekernel/teaching draws them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gamekernel.events import Event
    from gamekernel.rulesets import Core


@dataclass(frozen=True)
class Step:
    """One numbered step of the working: `rule` decided it; `key` + `fields` say how, with numbers."""

    rule: str
    key: str
    fields: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Explanation:
    """The steps of one result, in order, and the exact chance of its success (when one applies)."""

    steps: tuple[Step, ...]
    odds: Fraction | None = None
    title: str = ""  # i18n key naming what is explained
    title_fields: Mapping[str, Any] = field(default_factory=dict)

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(step.rule for step in self.steps)


# an event's working from its stored facts: (data, actor) -> Explanation, or None when it decided nothing
Explainer = Callable[[Mapping[str, Any], "str | None"], "Explanation | None"]
EXPLAINERS: dict[str, Explainer] = {}
# an event's working that needs the table at hand (the actor's sheet, a card's name, the fight just
# before the event): (table, event) -> Explanation, or None
TableExplainer = Callable[["Core", "Event"], "Explanation | None"]
TABLE_EXPLAINERS: dict[str, TableExplainer] = {}


class Who(str):
    """Who rolled: "Aiko Lockpicking" as text, keeping the actor and the roll's label apart so that
    the label can be drawn in the current language (render_explain.py)."""

    actor: str
    label: str

    def __new__(cls, actor: str, label: str) -> Who:
        who = super().__new__(cls, " ".join(part for part in (actor, label) if part))
        who.actor, who.label = actor, label
        return who

Question = dict[str, Any]


@dataclass(frozen=True)
class QuestionKind:
    """One kind of quiz question: `make` draws one (plain JSON, stored in the `quiz.start` event) with
    the session RNG; `prompt` and `choices` word it in the current language; `explain` gives the
    steps of the right answer, from the same rule functions as a live roll."""

    make: Callable[[random.Random], Question]
    prompt: Callable[[Question], str]
    choices: Callable[[Question], list[str]]
    explain: Callable[[Question], Explanation]


QUIZ_SETS: dict[str, tuple[str, ...]] = {}  # quiz set -> its question types, asked in turn
QUESTION_KINDS: dict[str, QuestionKind] = {}


def explains(*kinds: str) -> Callable[[Explainer], Explainer]:
    """Decorator: `fn(event_data, actor)` is the working of the events of these kinds."""

    def register(fn: Explainer) -> Explainer:
        for kind in kinds:
            EXPLAINERS[kind] = fn
        return fn

    return register


def explains_on_table(*kinds: str) -> Callable[[TableExplainer], TableExplainer]:
    """Decorator: `fn(table, event)` is the working of the events of these kinds, read with the table
    at hand (the built-in rule sets' checks, fights and cards)."""

    def register(fn: TableExplainer) -> TableExplainer:
        for kind in kinds:
            TABLE_EXPLAINERS[kind] = fn
        return fn

    return register


def quiz_set(name: str, **kinds: QuestionKind) -> None:
    """Register the quiz set `name` (`%quiz NAME`): its question types (`TYPE=QuestionKind(...)`,
    each type named `NAME.<type>` in the stored question), asked in the order given, in turn."""
    if not kinds:
        raise ValueError(f"quiz set {name!r} has no kind of question")
    types = tuple(f"{name}.{kind}" for kind in kinds)
    QUIZ_SETS[name] = types
    QUESTION_KINDS.update(zip(types, kinds.values(), strict=True))
