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

from gamekernel import limits
from gamekernel.errors import DataError
from gamekernel.i18n import t

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


class CardReader:
    """Field access with error messages naming file and field path."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, key: str, **fields: object) -> DataError:
        """'<file>: <field path>: <what is wrong>', the last part the message `key` in the current language."""
        return DataError(t("gammaworld.err.data", source=self.source, where=where, message=t(key, **fields)))

    def text(self, data: Mapping[str, Any], key: str, where: str, *, required: bool = True) -> str:
        value = data.get(key)
        if value is None:
            if required:
                raise self.fail(f"{where}.{key}", "gammaworld.err.data.missing")
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            raise self.fail(f"{where}.{key}", "gammaworld.err.data.text", value=value)
        return value

    def choice(self, data: Mapping[str, Any], key: str, where: str, allowed: tuple[str, ...]) -> str:
        value = self.text(data, key, where)
        if value not in allowed:
            raise self.fail(f"{where}.{key}", "gammaworld.err.data.choice", value=value, allowed=", ".join(allowed))
        return value

    def mapping(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(where, "gammaworld.err.data.object", got=type(value).__name__)
        return value


def parse_card(data: Any, where: str, reader: CardReader, language: str = "en") -> AlphaCard:
    """One card from its JSON object; DataError naming `where` (e.g. "cards[3]") on a bad field."""
    data = reader.mapping(data, where)
    power = None
    if data.get("power") is not None:
        block = reader.mapping(data["power"], f"{where}.power")
        keywords = block.get("keywords", [])
        if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
            raise reader.fail(f"{where}.power.keywords", "gammaworld.err.data.keywords")
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
            raise reader.fail(f"{where}.overcharge.success_min", "gammaworld.err.data.success_min", value=success_min)
        if power is None:
            raise reader.fail(f"{where}.overcharge", "gammaworld.err.data.no_power")
        overcharge = Overcharge(
            when=reader.text(block, "when", f"{where}.overcharge"),
            success=reader.text(block, "success", f"{where}.overcharge"),
            failure=reader.text(block, "failure", f"{where}.overcharge"),
            success_min=success_min,
        )
    number = data.get("number", 0)
    if not isinstance(number, int) or isinstance(number, bool):
        raise reader.fail(f"{where}.number", "gammaworld.err.data.number", value=number)
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
        raise reader.fail(where, "gammaworld.err.data.empty_card", card=card.id)
    return card


def parse_cards(document: Any, source: str) -> tuple[AlphaCard, ...]:
    """Every card of a parsed card document; `source` names it in errors."""
    reader = CardReader(source)
    document = reader.mapping(document, t("gammaworld.err.data.top_level"))
    if document.get("schema", 1) != 1:
        raise reader.fail("schema", "gammaworld.err.data.schema", version=document.get("schema"))
    language = document.get("language", "en")
    cards = document.get("cards")
    if not isinstance(cards, list):
        raise reader.fail("cards", "gammaworld.err.data.cards")
    parsed = tuple(parse_card(card, f"cards[{i}]", reader, language) for i, card in enumerate(cards))
    seen: dict[str, int] = {}
    for index, card in enumerate(parsed):
        if card.id in seen:
            raise reader.fail(f"cards[{index}].id", "gammaworld.err.data.duplicate", card=card.id, other=seen[card.id])
        seen[card.id] = index
    return parsed


def load_cards(path: str | Path) -> tuple[AlphaCard, ...]:
    """Load a card JSON file; DataError with file:line:column for bad JSON, file + field otherwise."""
    path = Path(path)
    try:
        text = limits.read_text(path)
    except OSError as error:
        raise DataError(t("gammaworld.err.read", file=path.name, reason=error.strerror)) from error
    try:
        document = limits.load_json(text, path.name)
    except json.JSONDecodeError as error:
        raise DataError(t("gammaworld.err.json", file=path.name, line=error.lineno, column=error.colno,
                          reason=error.msg)) from error
    return parse_cards(document, path.name)
