"""Fate's results and log lines, in the current language, and its rows on the `%table` dashboard."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamekernel.display import TEXT, renders, summarizes
from gamekernel.display.html import esc, panel, sign
from gamekernel.i18n import t
from gk_fate.actions import FateCharacter, FateResult
from gk_fate.rules import FateCheck, ladder_word


def _rated(value: int) -> str:
    return f"{t('fate.ladder.' + ladder_word(value))} ({sign(value)})"


def check_text(check: FateCheck) -> str:
    faces = " ".join({-1: "−", 0: "0", 1: "+"}[f] for f in check.faces)
    return t("fate.checked", actor=check.actor, skill=check.skill, rating=_rated(check.rating), faces=faces,
             result=_rated(check.result), opposition=_rated(check.opposition), shifts=check.shifts,
             outcome=t(f"fate.outcome.{check.outcome}"))


def character_text(name: str, skills: Mapping[str, int]) -> str:
    listed = ", ".join(f"{skill} {_rated(value)}" for skill, value in sorted(skills.items())) or t("fate.no_skills")
    return t("fate.character", name=name, skills=listed)


@renders(FateResult, TEXT)
def result_text(result: FateResult) -> str:
    return check_text(result.check)


@renders(FateResult)
def result_html(result: FateResult) -> str:
    tone = {"fail": "bad", "tie": "neutral", "succeed": "good", "style": "good"}[result.check.outcome]
    return panel("fate", esc(check_text(result.check)), tone=tone)


@renders(FateCharacter, TEXT)
def sheet_text(sheet: FateCharacter) -> str:
    return character_text(sheet.name, dict(sheet.skills))


@renders(FateCharacter)
def sheet_html(sheet: FateCharacter) -> str:
    return panel("fate", esc(sheet_text(sheet)))


@summarizes("fate.check")
def check_summary(data: Mapping[str, Any]) -> str:
    return check_text(FateCheck.from_dict(dict(data)))


@summarizes("fate.character")
def character_summary(data: Mapping[str, Any]) -> str:
    return character_text(data["name"], data["skills"])
