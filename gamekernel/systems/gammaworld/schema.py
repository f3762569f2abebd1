"""Alpha Mutation card facts (GW-ALPHA-01, -12, -13) and their JSON loader.

A card file is `{"schema": 1, "language": "en", "cards": [ {...}, ... ]}`; each card has
id, kind (alpha/omega), energy (bio/dark/psi), name, rarity, optional benefit, optional power
{usage, action, keywords, range, trigger?, attack?, hit?, effect?} and optional overcharge
{when, success_min (10), success, failure}. Errors name the file and the field path.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamekernel.errors import DataError

KINDS = ("alpha", "omega")
ENERGIES = ("bio", "dark", "psi")
RARITIES = ("common", "uncommon", "rare")
USAGES = ("encounter", "at-will", "daily")
ACTIONS = ("standard", "move", "minor", "free", "immediate_interrupt", "immediate_reaction", "no_action")


@dataclass(frozen=True)
class Power:
    """A card's power block (4e style). `is_attack` decides GW-ALPHA-13's "still works normally"."""

    usage: str
    action: str
    keywords: tuple[str, ...]
    range: str
    trigger: str = ""
    attack: str = ""
    hit: str = ""
    effect: str = ""

    @property
    def is_attack(self) -> bool:
        return bool(self.attack) or "attack" in self.keywords


@dataclass(frozen=True)
class Overcharge:
    """GW-ALPHA-13: d20 (+ origin bonus) >= success_min -> success text, else failure text."""

    when: str
    success: str
    failure: str
    success_min: int = 10


@dataclass(frozen=True)
class AlphaCard:
    """One card's printed facts in one language."""

    id: str
    kind: str
    energy: str
    name: str
    rarity: str
    benefit: str = ""
    power: Power | None = None
    overcharge: Overcharge | None = None
    set: str = ""
    number: int = 0
    language: str = "en"


class _Reader:
    """Field access with error messages naming file and field path."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> DataError:
        return DataError(f"{self.source}: {where}: {message}")

    def text(self, data: Mapping[str, Any], key: str, where: str, *, required: bool = True) -> str:
        value = data.get(key)
        if value is None:
            if required:
                raise self.fail(f"{where}.{key}", "missing")
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            raise self.fail(f"{where}.{key}", f"expected text, got {value!r}")
        return value

    def choice(self, data: Mapping[str, Any], key: str, where: str, allowed: tuple[str, ...]) -> str:
        value = self.text(data, key, where)
        if value not in allowed:
            raise self.fail(f"{where}.{key}", f"unknown value {value!r} (one of {', '.join(allowed)})")
        return value

    def mapping(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(where, f"expected an object, got {type(value).__name__}")
        return value


def parse_card(data: Any, where: str, reader: _Reader, language: str = "en") -> AlphaCard:
    """One card from its JSON object; DataError naming `where` (e.g. "cards[3]") on a bad field."""
    data = reader.mapping(data, where)
    power = None
    if data.get("power") is not None:
        block = reader.mapping(data["power"], f"{where}.power")
        keywords = block.get("keywords", [])
        if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
            raise reader.fail(f"{where}.power.keywords", "expected a list of words")
        power = Power(
            usage=reader.choice(block, "usage", f"{where}.power", USAGES),
            action=reader.choice(block, "action", f"{where}.power", ACTIONS),
            keywords=tuple(keywords),
            range=reader.text(block, "range", f"{where}.power"),
            trigger=reader.text(block, "trigger", f"{where}.power", required=False),
            attack=reader.text(block, "attack", f"{where}.power", required=False),
            hit=reader.text(block, "hit", f"{where}.power", required=False),
            effect=reader.text(block, "effect", f"{where}.power", required=False),
        )
    overcharge = None
    if data.get("overcharge") is not None:
        block = reader.mapping(data["overcharge"], f"{where}.overcharge")
        success_min = block.get("success_min", 10)
        if not isinstance(success_min, int) or isinstance(success_min, bool) or not 1 <= success_min <= 30:
            raise reader.fail(f"{where}.overcharge.success_min", f"expected a number 1-30, got {success_min!r}")
        if power is None:
            raise reader.fail(f"{where}.overcharge", "a card without a power cannot be overcharged")
        overcharge = Overcharge(
            when=reader.text(block, "when", f"{where}.overcharge"),
            success=reader.text(block, "success", f"{where}.overcharge"),
            failure=reader.text(block, "failure", f"{where}.overcharge"),
            success_min=success_min,
        )
    number = data.get("number", 0)
    if not isinstance(number, int) or isinstance(number, bool):
        raise reader.fail(f"{where}.number", f"expected a whole number, got {number!r}")
    card = AlphaCard(
        id=reader.text(data, "id", where),
        kind=reader.choice(data, "kind", where, KINDS),
        energy=reader.choice(data, "energy", where, ENERGIES),
        name=reader.text(data, "name", where),
        rarity=reader.choice(data, "rarity", where, RARITIES),
        benefit=reader.text(data, "benefit", where, required=False),
        power=power,
        overcharge=overcharge,
        set=reader.text(data, "set", where, required=False),
        number=number,
        language=language,
    )
    if not card.benefit and card.power is None:
        raise reader.fail(where, f"card {card.id!r} has neither a benefit nor a power")
    return card


def parse_cards(document: Any, source: str) -> tuple[AlphaCard, ...]:
    """Every card of a parsed card document; `source` names it in errors."""
    reader = _Reader(source)
    document = reader.mapping(document, "top level")
    if document.get("schema", 1) != 1:
        raise reader.fail("schema", f"unsupported version {document.get('schema')!r} (expected 1)")
    language = document.get("language", "en")
    cards = document.get("cards")
    if not isinstance(cards, list):
        raise reader.fail("cards", "expected a list of cards")
    parsed = tuple(parse_card(card, f"cards[{i}]", reader, language) for i, card in enumerate(cards))
    seen: dict[str, int] = {}
    for index, card in enumerate(parsed):
        if card.id in seen:
            raise reader.fail(f"cards[{index}].id", f"duplicate id {card.id!r} (also cards[{seen[card.id]}])")
        seen[card.id] = index
    return parsed


def load_cards(path: str | Path) -> tuple[AlphaCard, ...]:
    """Load a card JSON file; DataError with file:line:column for bad JSON, file + field otherwise."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise DataError(f"{path.name}: cannot read ({error.strerror})") from error
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise DataError(f"{path.name}:{error.lineno}:{error.colno}: invalid JSON ({error.msg})") from error
    return parse_cards(document, path.name)
