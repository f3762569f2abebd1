"""Text normalisation for matching what people type against names and command words.

Two forms, and only two: `half_width` for parsing input while keeping it displayable (full-width
letters, digits and signs to ASCII: `３ｄ＋２` -> `3d+2`, case kept), and `match_key` for comparing
(half width, case-folded, spaces collapsed). A key is never shown: callers keep the user's text
(or the data's own name) for display and use the key only to look things up.

And one guard for text people type that others will read (`visible`): invisible format characters
(bidi overrides and isolates, zero-width spaces and joiners, tag characters) are taken out where the
text enters (a label, a note, a name), so a line never reads differently from what it holds.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable
from functools import lru_cache


def half_width(text: str) -> str:
    """NFKC: full-width forms to their ASCII/half-width equivalents (and compatibility characters to
    their plain form); case and spacing are kept."""
    return unicodedata.normalize("NFKC", text)


_HIDDEN_CATEGORIES = frozenset({"Cf", "Zl", "Zp"})


def visible(text: str) -> str:
    """`text` as a reader sees it: every invisible format character (Unicode category Cf: bidi
    embeddings, overrides, isolates and marks, zero-width space and joiners, word joiner, BOM, tag
    characters, soft hyphen) removed, line and paragraph separators as spaces. A right-to-left
    override would make "rolls 6 (by alice)" read "rolls 6 )by bob(", a zero-width space two names
    look alike. Applied where user text enters (labels, notes, names), so the event records what
    everyone reads. Idempotent."""
    if text.isascii():
        return text
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if category in _HIDDEN_CATEGORIES:
            if category != "Cf":
                kept.append(" ")
        else:
            kept.append(char)
    return "".join(kept)


@lru_cache(maxsize=4096)  # the same few names are looked up on every replayed event
def match_key(text: str) -> str:
    """The comparison form of a name: invisible controls out (`visible`), NFKC, case-folded, runs of
    white space as one space, stripped. Idempotent: `match_key(match_key(x)) == match_key(x)`."""
    key = visible(text)
    for _ in range(4):  # casefold can leave text NFKC changes again; it settles in a step or two
        folded = " ".join(unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", key).casefold()).split())
        if folded == key:
            break
        key = folded
    return key


def same_name(a: str, b: str) -> bool:
    """Whether two names match (width, case and spacing ignored)."""
    return match_key(a) == match_key(b)


def find_name(name: str, names: Iterable[str]) -> str | None:
    """The first of `names` that matches `name` (exact spelling first), or None."""
    names = list(names)
    if name in names:
        return name
    key = match_key(name)
    return next((n for n in names if match_key(n) == key), None)


def close_names(name: str, names: Iterable[str], n: int = 3, cutoff: float = 0.5) -> list[str]:
    """Up to `n` of `names` that look like `name` (compared by their keys), for "did you mean" hints."""
    by_key: dict[str, str] = {}
    for candidate in names:
        by_key.setdefault(match_key(candidate), candidate)
    return [by_key[k] for k in difflib.get_close_matches(match_key(name), list(by_key), n=n, cutoff=cutoff)]


def prefix_names(name: str, names: Iterable[str]) -> list[str]:
    """The `names` whose key starts with `name`'s key, one per key (`Sir` -> `Sir Henryk`)."""
    key = match_key(name)
    by_key: dict[str, str] = {}
    for candidate in names:
        if key and match_key(candidate).startswith(key):
            by_key.setdefault(match_key(candidate), candidate)
    return list(by_key.values())


def resolve_name(name: str, names: Iterable[str]) -> tuple[str | None, list[str]]:
    """The one lookup of a character someone names: `(found, [])` when `name` matches one of `names`
    after the one normalisation (`match_key`), or is the start of exactly one of them (`Sir` for `Sir
    Henryk`); else `(None, candidates)`: the names it starts (ambiguous), or close matches. Never
    guesses beyond that: a typo is the caller's error to report, never a new character. What creates
    or replaces by name asks `find_name`, which takes no prefix."""
    names = list(names)
    found = find_name(name, names)
    if found is not None:
        return found, []
    starting = prefix_names(name, names)
    if len(starting) == 1:
        return starting[0], []
    return None, starting or close_names(name, names)
