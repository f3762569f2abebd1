"""Explain mode drawn: the result, then its working as numbered steps, each with its rule id, the
seed and section it comes from, and the rule in one sentence of our own (a teaching feature).

The steps come from gamekernel.teaching.explain (facts only); the step texts are i18n messages
(explain.json), their fields in each rule set's words (`explain_words` in its lessons.py), the rule
sentences data (<set>/data/explain.json).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from gamekernel.dice.render import percent
from gamekernel.display import HTML, TEXT, renders
from gamekernel.display.html import chip, esc, panel
from gamekernel.i18n import get_language, t
from gamekernel.lessons import STEP_WORDS, taught
from gamekernel.teaching.explain import Explained, Explanation, RuleNote, Step, rule_notes


def _value(key: str, name: str, value: Any) -> str:
    """A step's (or a title's) field as shown: in its rule set's own words when one words it
    (gamekernel/lessons.py `explain_words`: a skill's Japanese name, a colour's), else plainly."""
    for words in STEP_WORDS:
        worded = words(key, name, value)
        if worded is not None:
            return worded
    if isinstance(value, Fraction):
        return f"{float(value):g}"
    if isinstance(value, bool):
        return t("explain.yes") if value else t("explain.no")
    if isinstance(value, Sequence) and not isinstance(value, str):
        return ",".join(str(v) for v in value)
    return str(value)


def step_text(step: Step) -> str:
    """The working of one step, with its numbers, in the current language."""
    taught()  # the rule sets' words of their steps (`explain_words`)
    fields = {name: _value(step.key, name, value) for name, value in step.fields.items()}
    text = t(step.key, **fields).strip()
    side = step.fields.get("side")
    return t("explain.side", side=side, text=text) if side else text


def _title(explanation: Explanation) -> str:
    if not explanation.title:
        return ""
    taught()
    fields = {k: _value(explanation.title, k, v) for k, v in explanation.title_fields.items()}
    return t(explanation.title, **fields).strip()


def _source(rule: str) -> tuple[str, str]:
    """Where a teacher reads `rule` and why; ("", "") for a rule its rule set wrote no note for (the
    notes are optional: the step still shows its working and rule id)."""
    cited, why, _ = _cited(rule)
    return cited, why


def _cited(rule: str) -> tuple[str, str, str]:
    """(the book a teacher has and its section, the rule in one sentence, the seed's lines for the
    GM and developers). A book is named by its rule set's catalog (`explain.book.<seed>`: "GURPS Lite",
    the Gamma World Rulebook with its page); the seed's line numbers are the project's own file,
    kept as the hover title only, not what a learner reads."""
    if rule not in rule_notes():
        return "", "", ""
    note = RuleNote.lookup(rule, get_language())
    if note.seed == "std":
        return t("explain.source_std", section=note.section), note.text, ""
    if not note.seed.isdigit():  # a rule set's own source by name (a plug-in's rules document)
        return t("explain.source_named", source=note.seed, section=note.section), note.text, ""
    seed = t("explain.source_seed", seed=note.seed, lines=note.lines)
    book = t(f"explain.book.{note.seed}")
    if book == f"explain.book.{note.seed}":  # no book named: the seed is what there is to cite
        return t("explain.source", seed=note.seed, lines=note.lines, section=note.section), note.text, ""
    return t("explain.source_named", source=book, section=note.section), note.text, seed


def explanation_text(explanation: Explanation) -> str:
    lines = [_title(explanation)] if explanation.title else []
    previous = ""
    for number, step in enumerate(explanation.steps, 1):
        source, why = _source(step.rule) if step.rule != previous else ("", "")  # one line per fact
        previous = step.rule
        cited = f"{step.rule}, {source}" if source else step.rule
        lines.append(f"{number}. {step_text(step)} ({cited})" + (f" — {why}" if why else ""))
    if explanation.odds is not None:
        lines.append(f"   {_odds_text(explanation.odds)}")
    return "\n".join(lines)


def _odds_text(p: Fraction) -> str:
    return f"{t('explain.odds', p=percent(p))} ({t('explain.odds_exact', fraction=f'{p.numerator}/{p.denominator}')})"


def explanation_html(explanation: Explanation) -> str:
    items = []
    previous = ""
    for step in explanation.steps:
        # a rule cited once: the step after it under the same rule shows its working and rule id only
        source, why, seed = _cited(step.rule) if step.rule != previous else ("", "", "")
        previous = step.rule
        hover = f' title="{esc(seed)}"' if seed else ""
        said = f'<div class="gk-why" style="opacity:.85;font-size:12px">{esc(why)}</div>' if why else ""
        items.append(
            f'<li class="gk-explain-step" data-rule="{esc(step.rule)}">{esc(step_text(step))} '
            f'{chip(step.rule, "info", cls="gk-rule")} '
            f'<span class="gk-source"{hover} style="opacity:.8">{esc(source)}</span>{said}</li>'
        )
    odds = ""
    if explanation.odds is not None:
        p = explanation.odds
        odds = (f'<div class="gk-explain-odds" title="{esc(f"{p.numerator}/{p.denominator}")}">'
                f"{esc(_odds_text(p))}</div>")
    title = f'<div style="font-weight:600">{esc(_title(explanation))}</div>' if explanation.title else ""
    steps = f'<ol style="margin:2px 0;padding-left:22px">{"".join(items)}</ol>'
    return f'<div class="gk-explanation">{title}{steps}{odds}</div>'


def _result_text(result: Any) -> str:
    return "" if result is None else repr(result)


def _event_title(item: Explained) -> str:
    title = t("explain.title.event", seq=item.seq)
    return title if item.by is None else f"{title} {t('core.log.by', user=item.by)}"


@renders(Explained, TEXT)
def explained_text(item: Explained) -> str:
    parts = [_result_text(item.result)] if item.result is not None else []
    if item.seq is not None:
        parts.append(_event_title(item))
    parts += [explanation_text(e) for e in item.explanations] or [t("explain.nothing_here")]
    return "\n".join(p for p in parts if p)


@renders(Explained, HTML)
def explained_html(item: Explained) -> str:
    result = ""
    if item.result is not None:
        draw = getattr(item.result, "_repr_html_", None)
        result = draw() if draw is not None else f"<pre>{esc(repr(item.result))}</pre>"
    heading = t("explain.heading") if item.seq is None else _event_title(item)
    body = "".join(explanation_html(e) for e in item.explanations) or esc(t("explain.nothing_here"))
    return result + panel("explain", body, title_html=esc(heading), tone="neutral")


def step_rows(explanation: Explanation) -> list[dict[str, str]]:
    """The steps as plain rows (text, rule, source, why) for a widget front end."""
    rows = []
    previous = ""
    for step in explanation.steps:
        source, why, seed = _cited(step.rule) if step.rule != previous else ("", "", "")
        previous = step.rule
        rows.append({"text": step_text(step), "rule": step.rule, "source": source, "why": why, "seed": seed})
    return rows


def odds_line(explanation: Explanation) -> str:
    return "" if explanation.odds is None else _odds_text(explanation.odds)
