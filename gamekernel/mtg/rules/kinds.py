"""Check kinds, the colour pentagon and the colour modifier (MTG-CHK-02, -07, -08) plus the OPEN flags.

Kept apart from check.py so the exact-odds module uses the very same modifier function.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from gamekernel.errors import UsageError
from gamekernel.mtg.rules.facts import COLOURS, colour_words
from gamekernel.text import close_names, half_width, match_key

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


# The one reader of a check line's words (half width first): a kind word is a run of anything but
# digits, spaces, brackets, signs and punctuation; the difficulty follows it (`green 2`, `G2`, `赤:2`,
# `緑判定[2]`) or comes first (`2 green`).
_KIND_WORD = r"[^\d\s\[\]\(\)+\-:.,]+"
_KIND_FIRST = re.compile(rf"^\s*(?P<kind>{_KIND_WORD})(?P<after>.*)$", re.DOTALL)
_KIND_LAST = re.compile(rf"^\s*(?P<before>[+-]?\d+)\s*(?P<kind>{_KIND_WORD})\s*$")
_DIFFICULTY = re.compile(r"[:]?\s*[\[(]?\s*(?P<diff>[+-]?\d+)\s*[\])]?")
# A number written as a word after a kind (`green two`) marks the line as an MtG check (with MtG's error),
# where another word (`Black Market`) leaves it to GURPS.
_NUMBER_WORDS = frozenset({"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"})


@lru_cache(maxsize=1024)  # every `%check` line is asked (is it MtG's?) before any rule set runs it
def read_check(text: str) -> tuple[str, str] | None:
    """The one reader of an MtG check line: `(kind, difficulty text)` when the line names a check kind
    (MTG-CHK-02) first ('green 2', 'G2', '緑2', '緑判定[2]', '赤：2', 'green', 'green two') or last ('2 green'),
    else None ('Black Market': a kind word, then a word; 'Lockpicking-5'). Valid or not, a line it
    reads is MtG's; `parse_check_spec` then reads the difficulty."""
    normal = half_width(text)
    first = _KIND_FIRST.match(normal)
    if first and _kind_key(first["kind"]) in KIND_ALIASES:
        after = first["after"].strip()
        if not after or after[0] in "0123456789[(+-:.," or match_key(after) in _NUMBER_WORDS:
            return KIND_ALIASES[_kind_key(first["kind"])], after
        return None
    last = _KIND_LAST.match(normal)
    if last and _kind_key(last["kind"]) in KIND_ALIASES:
        return KIND_ALIASES[_kind_key(last["kind"])], last["before"]
    return None


def names_a_kind(text: str) -> bool:
    """Whether a check line is an MtG action check by its words (`read_check` reads it)."""
    return read_check(text) is not None


def parse_kind(text: str) -> str:
    """'green', 'G', '緑', 'colorless', 'C' ... -> one of KINDS."""
    key = _kind_key(text)
    if key in KIND_ALIASES:
        return KIND_ALIASES[key]
    from gamekernel.i18n import t

    close = close_names(text, KINDS, n=1, cutoff=0.6)  # `grene` -> green: named, never read as another colour
    if close:
        raise UsageError(t("mtg.err.kind_close", kind=text, close=close[0], kinds=", ".join(KINDS)))
    raise UsageError(t("mtg.err.kind", kind=text, kinds=", ".join(KINDS)))


def parse_check_spec(text: str) -> tuple[str, int]:
    """'green 2', 'G2', '緑2', 'Green [2]', '緑判定[2]', '赤：2', '2 green', 'colorless 3' -> (kind, difficulty),
    read by `read_check`; an unknown colour word is named with the valid ones."""
    from gamekernel.i18n import t

    read = read_check(text)
    if read is None:
        first = _KIND_FIRST.match(half_width(text))
        parse_kind(first["kind"] if first else text)  # an unknown colour word: its own error
        raise UsageError(t("mtg.err.spec", spec=text))
    kind, after = read
    difficulty = _DIFFICULTY.fullmatch(after)
    if difficulty is None:
        raise UsageError(t("mtg.err.spec", spec=text))
    return kind, int(difficulty["diff"])


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
