"""Card facts from Forge's card scripts (its `res/cardsfolder`: one small text file per card).

A script is `Key:Value` lines - `Name:`, `ManaCost:` (shards separated by spaces: `1 R`, hybrid
`2 RW`, `2/W`, phyrexian `PG`, `X G G`, `no cost`), `Types:` (supertypes, card types and subtypes in
one line), `Colors:` (a colour indicator or a colour set by the rules, which then replaces the cost's
colours) - and one more face
after a line `ALTERNATE` for split, double-faced, flip and adventure cards (`AlternateMode:`). Only
those facts are kept, never rules text. Split and aftermath cards combine both halves (`Fire // Ice`,
mana value 4, blue and red); every other two-faced card is its front face.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from gamekernel.errors import DataError
from gamekernel.i18n import t
from gamekernel.mtg.rules.facts import LETTER_TO_COLOUR, SUPERTYPES, CardFacts, FactsIndex, order_colours

CARD_TYPES = frozenset({"Artifact", "Battle", "Conspiracy", "Creature", "Dungeon", "Enchantment", "Instant",
                        "Kindred", "Land", "Phenomenon", "Plane", "Planeswalker", "Scheme", "Sorcery", "Tribal",
                        "Vanguard"})
COMBINED_MODES = frozenset({"Split"})  # both halves are one card in the library (CR 709.4)
SKIPPED_TYPES = frozenset({"Vanguard", "Scheme", "Plane", "Phenomenon", "Conspiracy", "Dungeon"})


def forge_faces(text: str) -> tuple[list[dict[str, str]], str]:
    """A script's faces (each a dict of its first `Key:Value` per key) and its AlternateMode."""
    faces: list[dict[str, str]] = [{}]
    for line in text.splitlines():
        line = line.strip()
        if line == "ALTERNATE":
            faces.append({})
            continue
        key, sep, value = line.partition(":")
        if sep and key and key not in faces[-1]:
            faces[-1][key] = value.strip()
    return faces, faces[0].get("AlternateMode", "")


def mana_value(cost: str) -> int:
    """`1 R` -> 2, `2 RW` (hybrid) -> 3, `2/W` -> 2, `X G G` -> 2, `PG` (phyrexian) -> 1, `no cost` -> 0."""
    total = 0
    for shard in cost.split():
        if shard.isdigit():
            total += int(shard)
        elif shard in ("X", "Y", "Z") or shard.casefold() in ("no", "cost"):
            continue
        elif shard.split("/")[0].isdigit():  # 2/W: two generic or one white
            total += int(shard.split("/")[0])
        else:
            total += 1
    return total


def _colours(face: dict[str, str]) -> tuple[str, ...]:
    """`Colors:` when the script sets them (colour indicator, Devoid, Ghostfire), else the cost's."""
    if "Colors" in face:
        words = [w.strip().lower() for w in face["Colors"].split(",")]
        return order_colours(w for w in words if w in LETTER_TO_COLOUR.values())
    letters = set(face.get("ManaCost", "").replace("no cost", ""))  # hybrid `RW`, phyrexian `PG`, `2/W`
    return order_colours(letter for letter in letters if letter in LETTER_TO_COLOUR)


def _types(face: dict[str, str]) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    words = face.get("Types", "").split()
    supertypes = tuple(w for w in words if w in SUPERTYPES)
    types = tuple(w for w in words if w in CARD_TYPES)
    subtypes = tuple(w for w in words if w not in SUPERTYPES and w not in CARD_TYPES)
    return types, subtypes, supertypes


def forge_card(text: str, where: str = "script") -> CardFacts | None:
    """One script -> facts (None for non-deck cards such as planes, schemes and vanguards)."""
    faces, mode = forge_faces(text)
    if not faces[0].get("Name"):
        raise DataError(t("mtg.err.forge_script", where=where))
    used = faces if mode in COMBINED_MODES and len(faces) > 1 else faces[:1]
    parsed = [_types(face) for face in used]
    if any(kind in SKIPPED_TYPES for kind in parsed[0][0]):
        return None

    def union(index: int) -> tuple[str, ...]:
        return tuple(dict.fromkeys(item for entry in parsed for item in entry[index]))

    name = " // ".join(face.get("Name", "") for face in used)
    colours = order_colours(c for face in used for c in _colours(face))
    return CardFacts(name, sum(mana_value(face.get("ManaCost", "")) for face in used), colours, union(0),
                     union(1), union(2))


def iter_forge_folder(folder: Path) -> Iterator[CardFacts]:
    """Every card script under `folder` (sorted, so the first of duplicate names is stable)."""
    for path in sorted(folder.rglob("*.txt")):
        card = forge_card(path.read_text(encoding="utf-8", errors="replace"), path.name)
        if card is not None:
            yield card


def forge_cardsfolder(folder: str | Path) -> FactsIndex:
    """Facts of every card in a Forge `cardsfolder` (a folder of card scripts)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise DataError(t("mtg.err.no_data_file", path=folder))
    index = FactsIndex(iter_forge_folder(folder), source=folder.name)
    if not len(index):
        raise DataError(t("mtg.err.forge_empty", folder=folder.name))
    return index
