"""What a rule set teaches, registered from above: the working of its events (`--explain`, `%explain`),
its kinds of quiz question (`%quiz SET`) and what its odds explorers (`%explore NAME`) share.

The teaching features (gamekernel/teaching/) read these registries; a rule set fills them when its
session operations are imported (as it registers its event kinds), so the teaching features name no
rule set and a plug-in's events explain and quiz like the built-ins'. `Step` and `Explanation` are
the plain facts of a working (rule id, i18n key, numbers); gamekernel/teaching draws them. An
odds explorer is declared in its rule set's `RuleSet.explorers` (gamekernel/rulesets.py: `Explore`,
`Explorer`) and draws its tables with `cell` and `bounded` below.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gamekernel.display.numbers import percent
from gamekernel.errors import UsageError
from gamekernel.i18n import t

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


# a step's field in a rule set's own words, in the current language: (step or title key, field name,
# value) -> the text, or None to leave the field to the next rule set's words and then to the plain
# drawing (gamekernel/teaching/render_explain.py)
StepWords = Callable[[str, str, object], "str | None"]
STEP_WORDS: list[StepWords] = []


def explain_words(fn: StepWords) -> StepWords:
    """Decorator: `fn(key, name, value)` words the fields of the rule set's steps and titles (a skill's
    Japanese name, a colour's name), or returns None for a field it does not word."""
    STEP_WORDS.append(fn)
    return fn


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
QUIZ_OWNERS: dict[str, str] = {}  # quiz set -> the rule set it is of (`alpha` is Gamma World's)
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


def quiz_set(name: str, *, rule_set: str | None = None, **kinds: QuestionKind) -> None:
    """Register the quiz set `name` (`%quiz NAME`) of the rule set `rule_set` (default: `name`): its
    question types (`TYPE=QuestionKind(...)`, each type named `NAME.<type>` in the stored question),
    asked in the order given, in turn."""
    if not kinds:
        raise ValueError(f"quiz set {name!r} has no kind of question")
    types = tuple(f"{name}.{kind}" for kind in kinds)
    QUIZ_SETS[name] = types
    QUIZ_OWNERS[name] = rule_set or name
    QUESTION_KINDS.update(zip(types, kinds.values(), strict=True))


def taught() -> None:
    """Every rule set's lessons registered: each rule set imports them with its handles (its `handles`
    hook, gamekernel/rulesets.py), as a session does when it is made; a teaching feature read outside
    one (a quiz drawn from a bare RNG) calls this first."""
    from gamekernel.rulesets import handle_classes

    handle_classes()


# -- what the kinds of question share ---------------------------------------------------------
def fraction_choices(correct: Fraction, others: Sequence[Fraction], rng: random.Random) -> tuple[list[list[int]], int]:
    """The right chance and up to three other ones, shuffled, as stored ([numerator, denominator]
    pairs), with the index of the right one."""
    pool = [correct, *[p for p in dict.fromkeys(others) if p != correct][:3]]
    rng.shuffle(pool)
    return [[p.numerator, p.denominator] for p in pool], pool.index(correct)


def fraction_texts(question: Question) -> list[str]:
    """Choices stored as fractions, as shown: "50.0% (1/2)"."""
    return [f"{percent(Fraction(n, d))} ({n}/{d})" for n, d in question["choices"]]


def shuffled(codes: Sequence[str], rng: random.Random) -> list[str]:
    choices = list(codes)
    rng.shuffle(choices)
    return choices


def code_texts(question: Question) -> list[str]:
    """Choices stored as codes, each worded by `quiz.choice.<type>.<code>` in the current language."""
    return [t(f"quiz.choice.{question['type']}.{code}") for code in question["choices"]]


# -- odds explorers ---------------------------------------------------------------------------
Table = dict[str, Any]


def bounded(value: Any, low: int, high: int, name: str) -> int:
    """A control's value as a whole number from `low` to `high`, or a one-line refusal naming the control."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise UsageError(t("explore.err.number", name=name, value=value)) from None
    if not low <= number <= high:
        raise UsageError(t("explore.err.range", name=name, value=number, low=low, high=high))
    return number


def fraction_text(p: Fraction | None) -> str:
    return "—" if p is None else f"{p.numerator}/{p.denominator}"


def cell(p: Fraction | None, *, mark: bool = False, text: str | None = None,
         title: str | None = None) -> dict[str, Any]:
    """One cell of an explorer's table: its text (a percentage), the exact fraction for the hover
    title, a 0..1 heat and whether it is the current point."""
    return {"text": text if text is not None else ("—" if p is None else percent(p)),
            "title": title if title is not None else fraction_text(p),
            "heat": 0.0 if p is None else float(p), "mark": mark}
