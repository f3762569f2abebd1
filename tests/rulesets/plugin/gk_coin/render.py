"""The coin's results and log lines, in the current language."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gamekernel.display import TEXT, renders, summarizes
from gamekernel.display.html import esc, panel
from gamekernel.i18n import t
from gk_coin.actions import FlipResult


def _faces(faces: Iterable[str]) -> str:
    return ", ".join(t(f"coin.{face}") for face in faces)


@renders(FlipResult, TEXT)
def flip_text(result: FlipResult) -> str:
    return t("coin.flipped", faces=_faces(result.faces))


@renders(FlipResult)
def flip_html(result: FlipResult) -> str:
    return panel("coin", esc(flip_text(result)))


@summarizes("coin.flip")
def flip_summary(data: Mapping[str, Any]) -> str:
    return t("coin.flipped", faces=_faces(data["faces"]))
