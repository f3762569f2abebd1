"""MtG's log lines: the one-line text of each `mtg.*` event, drawn when the log is viewed, in the
current language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamekernel.display import summarizes
from gamekernel.i18n import t
from gamekernel.mtg.rules.facts import display_name

Data = Mapping[str, Any]


# ---------------------------------------------------------------- mtg


@summarizes("mtg.library")
def _mtg_library(d: Data) -> str:
    return t("mtg.event.library", actor=d["actor"], count=d["deck"]["main"], source=d["deck"]["source"])


@summarizes("mtg.check")
def _mtg_check(d: Data) -> str:
    r = d["result"]
    verdict = t("mtg.check.success" if r["success"] else "mtg.check.failure")
    names = d.get("ja_names", {})  # an event of an earlier version has none: the English names
    return t("mtg.event.check", actor=d["actor"], kind=t(f"mtg.kind.{r['kind']}"), difficulty=r["difficulty"],
             first=display_name(r["first"], names.get(r["first"])), target=r["target"],
             second=display_name(r["second"], names.get(r["second"])), achievement=r["achievement"],
             verdict=verdict)


@summarizes("mtg.boost")
def _mtg_boost(d: Data) -> str:
    return t("mtg.event.boost", actor=d["actor"], bonus=d["result"]["bonus"], achievement=d["result"]["achievement"])


@summarizes("mtg.scene")
def _mtg_scene(d: Data) -> str:
    return t("mtg.event.scene", scene=d["scene"])


@summarizes("mtg.peek")
def _mtg_peek(d: Data) -> str:
    return t("mtg.event.peek", actor=d["actor"], count=d["count"])


@summarizes("mtg.reset")
def _mtg_reset(d: Data) -> str:
    return t("mtg.event.reset", actor=d["actor"])


@summarizes("mtg.config")
def _mtg_config(d: Data) -> str:
    return t("mtg.event.config", changes=", ".join(f"{k}={v}" for k, v in d["changes"].items()))
