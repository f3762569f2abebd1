"""The options line of a widget's header (`%gw config` / `%mtg config`): what the table plays by,
written the way the magics take it (`key=value`), so a GM can copy one back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def options_line(options: Mapping[str, Any]) -> str:
    """`{"flux_outside_encounter": False, "boost_cards": 6}` -> `flux_outside_encounter=false · boost_cards=6`."""

    def shown(value: Any) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    return " · ".join(f"{key}={shown(value)}" for key, value in options.items())
