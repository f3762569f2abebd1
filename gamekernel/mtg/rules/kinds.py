"""Check kinds, the colour pentagon and the colour modifier (MTG-CHK-02, -07, -08) plus the OPEN flags.

Kept apart from check.py so the exact-odds module uses the very same modifier function.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gamekernel.errors import UsageError
from gamekernel.mtg.rules.facts import COLOURS, colour_words
from gamekernel.text import half_width, match_key

COLOURLESS = "colourless"
KINDS = (*COLOURS, COLOURLESS)  # MTG-CHK-02
USUAL_DIFFICULTIES = range(0, 9)  # MTG-CHK-03
SAME, ALLIED, OTHER, NO_COLOUR = "same", "allied", "other", "colourless"
MODIFIERS = {SAME: 5, ALLIED: 3, OTHER: 0, NO_COLOUR: 0}  # MTG-CHK-07

# MTG-CHK-08: neighbours on the colour pentagon W-U-B-R-G.
ALLIES = {colour: (COLOURS[(i - 1) % 5], COLOURS[(i + 1) % 5]) for i, colour in enumerate(COLOURS)}

# Every word that names a kind (its key, mana letter, aliases of data/colours.json) in match_key form.
KIND_ALIASES = {
    match_key(word): kind
    for kind, row in (*colour_words()["colours"].items(), (COLOURLESS, colour_words()["colourless"]))
    for word in (kind, row["letter"], *row["aliases"])
}
_SPEC = re.compile(r"^\s*(?P<kind>[^\d\s\[\(+\-]+?)\s*[\[\(]?\s*(?P<diff>[+-]?\d+)?\s*[\]\)]?\s*$")


@dataclass(frozen=True)
class MtgOptions:
    """The OPEN choices of RULES.md MTG-CHK as flags; the defaults are RULES.md's recommendations."""

    # OPEN: a colourless check gives +0 to every card; True = +5 for a colourless card (unsupported).
    colourless_check_rewards_colourless: bool = False
    # Which lands count as colourless for the boost (MTG-CHK-13): "basic" (seed 002: basic lands count
    # as colourless; a coloured non-basic land such as Dryad Arbor keeps its colour), or "any" land.
    boost_colourless_lands: str = "basic"
    # OPEN: boost-exiled cards stay exiled until the library is reset (recommended); False = they go
    # to the bottom of the library in random order.
    boost_exile_stays: bool = True
    # OPEN: once per PC per scene (recommended); False = once per scene for the whole table.
    boost_per_character: bool = True
    boost_cards: int = 6  # MTG-CHK-13


DEFAULT_OPTIONS = MtgOptions()


def _kind_key(text: str) -> str:
    return match_key(match_key(text).removesuffix("判定"))


_LEADING_KIND = re.compile(r"^\s*(?P<kind>[^\d\s\[\(+\-:]+)(?P<after>.*)$", re.DOTALL)


def names_a_kind(text: str) -> bool:
    """Whether a check line is an MtG action check by its words: it starts with a check kind
    ('green 2', 'G2', '緑2', '緑判定[2]', 'colourless') followed by nothing, a number, a bracket or a
    colon. 'Black Market' (a kind word, then a word) is not. Valid or not, such a line is MtG's."""
    match = _LEADING_KIND.match(half_width(text))
    if not match or _kind_key(match["kind"]) not in KIND_ALIASES:
        return False
    after = match["after"].strip()
    return not after or after[0] in "0123456789[(+-:.,"


def parse_kind(text: str) -> str:
    """'green', 'G', '緑', 'colorless', 'C' ... -> one of KINDS."""
    key = _kind_key(text)
    if key in KIND_ALIASES:
        return KIND_ALIASES[key]
    from gamekernel.i18n import t

    raise UsageError(t("mtg.error.kind", kind=text, kinds=", ".join(KINDS)))


def parse_check_spec(text: str) -> tuple[str, int]:
    """'green 2', 'G2', '緑2', 'Green [2]', '緑判定[2]', 'colorless 3' -> (kind, difficulty)."""
    normal = half_width(text).strip()
    match = _SPEC.match(normal)
    if not match or match["diff"] is None:
        from gamekernel.i18n import t

        raise UsageError(t("mtg.error.spec", spec=text))
    return parse_kind(match["kind"]), int(match["diff"])


def relation(kind: str, colour: str | None, options: MtgOptions = DEFAULT_OPTIONS) -> str:
    """How a card colour relates to the check kind: same, allied, other, or colourless."""
    if colour is None:
        return SAME if kind == COLOURLESS and options.colourless_check_rewards_colourless else NO_COLOUR
    if kind == COLOURLESS:
        return OTHER
    if colour == kind:
        return SAME
    return ALLIED if colour in ALLIES[kind] else OTHER


def colour_modifier(kind: str, colour: str | None, options: MtgOptions = DEFAULT_OPTIONS) -> int:
    """MTG-CHK-07: +5 same colour, +3 allied, +0 otherwise (a colourless check: always +0)."""
    return MODIFIERS[relation(kind, colour, options)]
