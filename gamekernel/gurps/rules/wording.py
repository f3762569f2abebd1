"""Rule words (maneuvers, postures, defenses, status badges) inside error messages.

English messages always named the rule key itself ("all_out_attack", "parry", "kneeling"), which is
also what a command takes, so they keep it; other languages show the catalog's word (combat.word.*,
"全力攻撃", "受け", "膝立ち"), the one the tracker and the results use.
"""

from __future__ import annotations

from collections.abc import Iterable

from gamekernel.i18n import catalog, get_language, t


def word(key: str, *, spaced: bool = False) -> str:
    """`key` as an error message names it: the key in English (underscores as spaces when `spaced`),
    the translated word in other languages (the key itself when the catalog has none)."""
    plain = key.replace("_", " ") if spaced else key
    if get_language() == "en":
        return plain
    text = t(f"combat.word.{key}")
    return plain if text == f"combat.word.{key}" else text


def badges(items: Iterable[str]) -> str:
    """Status badges ("stunned", "shock −2", "aim 1") joined for a message, each head word translated."""
    out = []
    for badge in items:
        head, _, rest = badge.partition(" ")
        out.append(f"{word(head)} {rest}".strip() if rest else word(head))
    return ", ".join(out)


def english(key: str, /, **fields: object) -> str:
    """The English text of a message key whatever the current language: for texts a result keeps (the
    event log and replays stay in one language)."""
    return catalog("en")[key].format(**fields)
