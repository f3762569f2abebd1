"""Explain mode: which rule decided what, derived from an event's stored outcome (a teaching feature).

Each rule set gives the working of its own events (numbered `Step`s: the rule id of shared RULES.md
that decided that part, an i18n key with its numbers), registered in gamekernel.lessons from its
`lessons.py` (gamekernel/gurps/lessons.py ...); here are the explained result and the rule notes:
the explanation of each rule and its source (seed document, lines, section) are data, one file per
rule set (gamekernel/<rule set>/data/explain.json), read by `rule_note`. Nothing here draws:
render_explain.py does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from gamekernel.display import Displayable
from gamekernel.lessons import Explanation, Step, Who  # noqa: F401  (what the renderers read)


@dataclass(frozen=True, repr=False)  # text and html: the render registry
class Explained(Displayable):
    """A result shown together with its working (`--explain`, `%explain N`); `result` may be None
    when an event is explained from the log alone."""

    result: Any
    explanations: tuple[Explanation, ...]
    seq: int | None = None
    by: str | None = None  # the player whose action it was (a remote table), None for the GM's own


@dataclass(frozen=True)
class RuleNote:
    """A rule's own-words explanation and where the seed says it."""

    rule: str
    text: str
    seed: str
    lines: str
    section: str

    @classmethod
    def lookup(cls, rule: str, language: str) -> RuleNote:
        """The note of `rule` in `language` (en or ja), read from the rule sets' explain.json."""
        note = rule_notes()[rule]
        return cls(rule, note[language], note["seed"], note["lines"], note["section"][language])


@cache
def rule_notes() -> dict[str, dict[str, Any]]:
    """Every rule id with an explanation: the union of the rule sets' explain.json files."""
    from gamekernel.rulesets import rule_sets

    notes: dict[str, dict[str, Any]] = {}
    for declared in rule_sets():
        path = None if declared.rule_notes is None else declared.folder / declared.rule_notes
        if path is not None and path.is_file():  # optional: a rule set without notes explains by its steps
            notes.update(json.loads(path.read_text(encoding="utf-8")))
    return notes
