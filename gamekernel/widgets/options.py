"""The options line of a widget's header (`%gw config` / `%mtg config`): what the table plays by,
each option named in the current language beside its setting written the way the magics take it
(`key=value`), so a GM reads what it means and can still copy one back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamekernel.i18n import t


def setting(key: str, value: Any) -> str:
    """`flux_outside_encounter=false`: one option as `%gw config` / `%mtg config` takes it."""
    shown = str(value).lower() if isinstance(value, bool) else str(value)
    return f"{key}={shown}"


def house_rules(options: Mapping[str, Any], defaults: Mapping[str, Any], names: str) -> tuple[str, str]:
    """A widget header's options: ("house rules: 2 changed", the changed ones by `options_line`), only
    the options set otherwise than the rules' recommendation (the defaults), so the screen the table
    shares carries one line, with the detail on demand; ("", "") when the table plays by the defaults."""
    changed = {key: value for key, value in options.items() if defaults.get(key, value) != value}
    if not changed:
        return "", ""
    return t("core.widget.house_rules", count=len(changed)), options_line(changed, names)


def options_line(options: Mapping[str, Any], names: str) -> str:
    """`{"boost_cards": 6}` with the option names under `names` ("mtg.option") -> `cards a boost reveals
    (boost_cards=6)`, in Japanese `ブーストでめくる枚数（boost_cards=6）`: the words from `{names}.{key}`."""
    return " · ".join(t("core.widget.option", name=t(f"{names}.{key}"), setting=setting(key, value))
                      for key, value in options.items())
