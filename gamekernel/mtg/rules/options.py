"""Changing the MtG OPEN-choice flags (MtgOptions) from user input: one validation for the session's
`mtg_config(...)`, its event and its replay, so a bad value is refused before anything is recorded."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.mtg.rules.kinds import DEFAULT_OPTIONS, MtgOptions

CHOICES = {"boost_colourless_lands": ("any", "basic")}  # the string options and their values
TRUE, FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def option_names() -> tuple[str, ...]:
    return tuple(f.name for f in fields(MtgOptions))


def _value(key: str, value: Any) -> Any:
    """`value` checked (and, from text, converted) for option `key`."""
    default = getattr(DEFAULT_OPTIONS, key)
    if isinstance(default, bool):
        if isinstance(value, str) and value.strip().casefold() in TRUE + FALSE:
            return value.strip().casefold() in TRUE
        if isinstance(value, bool):
            return value
        allowed = "true, false"
    elif isinstance(default, int):
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return value
        allowed = t("mtg.config.whole_number")
    else:
        choices = CHOICES[key]
        if isinstance(value, str) and value.strip().casefold() in choices:
            return value.strip().casefold()
        allowed = ", ".join(choices)
    raise UsageError(t("mtg.err.config_value", key=key, value=value, allowed=allowed))


def changed_options(options: MtgOptions, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The validated changes (only those that differ from `options`), or UsageError naming the bad one."""
    names = option_names()
    result = {}
    for key, value in changes.items():
        if key not in names:
            raise UsageError(t("mtg.err.config_key", key=key, keys=", ".join(names)))
        checked = _value(key, value)
        if checked != getattr(options, key):
            result[key] = checked
    return result


def options_from(data: Mapping[str, Any]) -> MtgOptions:
    """The options a campaign saved (only the keys MtgOptions knows; replays never fail on old keys)."""
    names = set(option_names())
    return replace(DEFAULT_OPTIONS, **{k: v for k, v in data.items() if k in names})


