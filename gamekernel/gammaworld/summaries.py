"""Gamma World's log lines: the one-line text of each `gw.*` event, drawn when the log is viewed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamekernel.display import summarizes
from gamekernel.gammaworld.render import step_summary
from gamekernel.gammaworld.rules.state import Step

Data = Mapping[str, Any]


# ---------------------------------------------------------------- gamma world


@summarizes("gw.*")
def _gamma_world(d: Data) -> str:
    return step_summary(Step.from_dict(d))
