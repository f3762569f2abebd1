"""The words of GURPS combat: maneuvers, postures and defenses, with the other spellings people type
(English abbreviations, Japanese), from data/vocabulary.json. One list each, read by the rules, the
session and the widgets; the words shown are the i18n catalogs' combat.word.<key>."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.text import match_key

GROUPS = ("maneuvers", "postures", "defenses")


@cache
def vocabulary() -> dict[str, dict[str, tuple[str, ...]]]:
    """{group: {key: aliases}} in the file's order (the order menus show)."""
    text = resources.files("gamekernel.gurps").joinpath("data/vocabulary.json").read_text("utf-8")
    data = json.loads(text)
    return {group: {key: tuple(aliases) for key, aliases in data[group].items()} for group in GROUPS}


def keys(group: str) -> tuple[str, ...]:
    """The rule keys of a group: `keys("maneuvers")` -> ("do_nothing", "move", ...)."""
    return tuple(vocabulary()[group])


@cache
def _aliases(group: str) -> dict[str, str]:
    out = {}
    for key, aliases in vocabulary()[group].items():
        for word in (key, *aliases):
            out[_form(word)] = key
    return out


def _form(text: str) -> str:
    """A typed word as a key would spell it: matched case/width-insensitively, "-" and " " as "_"."""
    return match_key(text).replace("-", "_").replace(" ", "_")


def resolve(group: str, text: str) -> str:
    """The rule key a typed word names, or the word in key form when it names none (the rule that
    takes it then says what is allowed, with its did-you-mean)."""
    form = _form(text)
    return _aliases(group).get(form, form)


def maneuver_key(text: str) -> str:
    """"AoA", "all-out attack", "全力攻撃" -> "all_out_attack"."""
    return resolve("maneuvers", text)


def posture_key(text: str) -> str:
    """"kneel", "膝立ち" -> "kneeling"; "prone", "伏せ" -> "lying_down"."""
    return resolve("postures", text)


def defense_key(text: str) -> str:
    """"Dodge", "よけ" -> "dodge"; "none"/"なし" for no defense; anything else is refused."""
    key = resolve("defenses", text)
    if key not in vocabulary()["defenses"]:
        raise UsageError(t("combat.err.defense_or_none", text=text))
    return key
