"""What Gamma World teaches: the working of an overcharge and an Alpha Flux (`--explain`, `%explain`) and
its quiz (`%quiz alpha`, the game's word for its mutation cards), registered in gamekernel.lessons when
the rule set's handles are imported (the teaching features read it and name no rule set)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from gamekernel.display.html import sign
from gamekernel.i18n import t
from gamekernel.lessons import (
    Explanation,
    Question,
    QuestionKind,
    Step,
    code_texts,
    explains_on_table,
    fraction_choices,
    fraction_texts,
    quiz_set,
    shuffled,
)

if TYPE_CHECKING:
    from gamekernel.events import Event
    from gamekernel.rulesets import Core


def overcharge_explanation(detail: Mapping[str, Any], card: str, who: str) -> Explanation:
    """An overcharge from its logged detail: once per power (ALPHA-12), d20 + origin bonus
    (ALPHA-14) against the card's number (ALPHA-13), a natural 1 as a flux (ALPHA-10)."""
    from gamekernel.gammaworld.rules.odds import p_overcharge

    face, bonus, total, need = detail["face"], detail["bonus"], detail["total"], detail["success_min"]
    steps = [Step("GW-ALPHA-12", "explain.gw.overcharge_once", {"card": card})]
    if bonus:
        steps.append(Step("GW-ALPHA-14", "explain.gw.origin_bonus", {"face": face, "bonus": bonus, "total": total}))
    key = "explain.gw.overcharge_success" if detail["success"] else "explain.gw.overcharge_failure"
    steps.append(Step("GW-ALPHA-13", key, {"total": total, "need": need}))
    if not detail["success"] and detail.get("attack"):
        steps.append(Step("GW-ALPHA-13", "explain.gw.attack_still_works", {"card": card}))
    if detail.get("flux"):
        steps.append(Step("GW-ALPHA-10", "explain.gw.natural_one", {"label": "d20", "who": who}))
    return Explanation(tuple(steps), p_overcharge(bonus, need), "explain.title.overcharge", {"who": who, "card": card})


def flux_pending_explanation(detail: Mapping[str, Any], who: str) -> Explanation:
    """A natural 1 on a d20 in an encounter (ALPHA-10): one flux per natural 1."""
    from gamekernel.gammaworld.rules.odds import p_flux

    count = int(detail.get("count", 1))
    steps = (Step("GW-ALPHA-10", "explain.gw.natural_one", {"label": detail.get("label") or "d20", "who": who}),
             Step("GW-ALPHA-10", "explain.gw.flux_owed", {"who": who, "count": count}))
    return Explanation(steps, p_flux(1), "explain.title.flux", {"who": who})


def flux_explanation(detail: Mapping[str, Any], who: str, card_name: Callable[[str], str]) -> Explanation:
    """The flux itself (ALPHA-10): one readied card out, its replacement from the GM deck, usable now."""
    discarded = card_name(detail["discarded"]) if detail.get("discarded") else "—"
    drawn = ", ".join(card_name(c) for c in detail.get("drawn") or ()) or "—"
    source = detail.get("source", "gm")
    steps = (Step("GW-ALPHA-10", "explain.gw.flux_swap", {"who": who, "discarded": discarded, "drawn": drawn}),
             Step("GW-ALPHA-10" if source == "gm" else "GW-ALPHA-04", f"explain.gw.flux_source.{source}", {}),
             Step("GW-ALPHA-10", "explain.gw.flux_usable", {"drawn": drawn}))
    return Explanation(steps, None, "explain.title.flux", {"who": who})


# ---------------------------------------------------------------- the events, with the table at hand

@explains_on_table("gw.overcharge")
def _overcharge_event(table: Core, event: Event) -> Explanation:
    detail = event.data["detail"]
    return overcharge_explanation(detail, _card_name(table, detail["card_id"]), event.actor or "")


@explains_on_table("gw.flux_pending")
def _flux_pending_event(table: Core, event: Event) -> Explanation:
    return flux_pending_explanation(event.data["detail"], event.actor or "")


@explains_on_table("gw.flux")
def _flux_event(table: Core, event: Event) -> Explanation:
    return flux_explanation(event.data["detail"], event.actor or "", lambda card: _card_name(table, card))


def _card_name(table: Core, card_id: str) -> str:
    try:
        return str(table.state["gammaworld"].catalog.card(card_id).name)  # the "gammaworld" state part
    except Exception:  # a card of a catalog no longer loaded: its id
        return card_id


# ---------------------------------------------------------------- the quiz: `%quiz alpha`

FLUX_CHOICES = ("flux", "nothing", "overcharge", "end")


def _make_overcharge(rng: random.Random) -> Question:
    """The chance an overcharge succeeds with an origin bonus (GW-ALPHA-13, ALPHA-14)."""
    from gamekernel.gammaworld.rules.odds import p_overcharge

    bonus = rng.randint(0, 5)
    odds = {b: p_overcharge(b) for b in range(bonus - 4, bonus + 5)}
    choices, answer = fraction_choices(odds[bonus], [odds[bonus + 2], odds[bonus - 2], odds[bonus + 4],
                                                     odds[bonus - 4]], rng)
    return {"type": "alpha.overcharge", "bonus": bonus, "choices": choices, "answer": answer}


def _make_natural_one(rng: random.Random) -> Question:
    """What a natural 1 on a d20 in an encounter brings (GW-ALPHA-10)."""
    bonus = rng.randint(0, 6)
    choices = shuffled(FLUX_CHOICES, rng)
    return {"type": "alpha.natural_one", "label": f"1d20+{bonus}", "choices": choices, "answer": choices.index("flux")}


def _explain_overcharge(question: Question) -> Explanation:
    from gamekernel.gammaworld.rules.odds import p_overcharge

    bonus = question["bonus"]
    faces = sum(1 for face in range(1, 21) if face + bonus >= 10)
    steps = (Step("GW-ALPHA-14", "explain.quiz.origin", {"bonus": bonus}),
             Step("GW-ALPHA-13", "explain.quiz.overcharge_faces", {"need": 10 - bonus, "faces": faces}))
    return Explanation(steps, p_overcharge(bonus))


quiz_set(
    "alpha", rule_set="gammaworld",
    overcharge=QuestionKind(make=_make_overcharge,
                            prompt=lambda q: t("quiz.q.alpha.overcharge", bonus=sign(q["bonus"])),
                            choices=fraction_texts, explain=_explain_overcharge),
    natural_one=QuestionKind(make=_make_natural_one, prompt=lambda q: t("quiz.q.alpha.natural_one", label=q["label"]),
                             choices=code_texts,
                             explain=lambda q: flux_pending_explanation({"count": 1, "label": q["label"]}, "")),
)
