"""Shared helpers for the MtG tests: hand-made card facts that cover every rule case."""

from __future__ import annotations

import pytest

from gamekernel.i18n import set_language
from gamekernel.mtg.rules.facts import CardFacts


def card(name: str, mv: int = 0, colours: str = "", types: str = "Creature", subtypes: str = "",
         supertypes: str = "") -> CardFacts:
    from gamekernel.mtg.rules.facts import order_colours

    return CardFacts(name, mv, order_colours(colours), tuple(types.split()), tuple(subtypes.split()),
                     tuple(supertypes.split()))


ELVISH_MYSTIC = card("Elvish Mystic", 1, "G", subtypes="Elf Druid")
RUNECLAW_BEAR = card("Runeclaw Bear", 2, "G", subtypes="Bear")
FOREST = card("Forest", 0, "", "Land", "Forest", "Basic")
ISLAND = card("Island", 0, "", "Land", "Island", "Basic")
SWAMP = card("Swamp", 0, "", "Land", "Swamp", "Basic")
STEAM_VENTS = card("Steam Vents", 0, "", "Land", "Island Mountain")
WASTES = card("Wastes", 0, "", "Land", "", "Basic")
EVOLVING_WILDS = card("Evolving Wilds", 0, "", "Land")
DRYAD_ARBOR = card("Dryad Arbor", 0, "G", "Land Creature", "Forest Dryad")
ORNITHOPTER = card("Ornithopter", 0, "", "Artifact Creature", "Thopter")
SOL_RING = card("Sol Ring", 1, "", "Artifact")
FIRE_ICE = card("Fire // Ice", 4, "UR", "Instant")
LIGHTNING_BOLT = card("Lightning Bolt", 1, "R", "Instant")
SERRA_ANGEL = card("Serra Angel", 5, "W", subtypes="Angel")
COUNTERSPELL = card("Counterspell", 2, "U", "Instant")
DARK_RITUAL = card("Dark Ritual", 1, "B", "Instant")
KITCHEN_FINKS = card("Kitchen Finks", 3, "WG", subtypes="Ouphe")


@pytest.fixture(autouse=True)
def english():
    set_language("en")
    yield
    set_language("en")
