"""GCS nameable placeholders ("@Body Part@") filled in from the row's own replacements, as GCS shows
them, wherever a name reaches the table: a natural weapon's name (`%attack` types it), an item's.
Each document is a small .gcs v5 written for the test."""

from __future__ import annotations

from typing import Any

from gamekernel.gurps.rules.gcs import import_gcs


def striker(replacements: dict[str, str] | None) -> dict[str, Any]:
    trait: dict[str, Any] = {"id": "t1", "name": "Crushing Striker (@Body Part@)", "weapons": [
        {"id": "w1", "usage": "Strike", "damage": {"type": "cr", "st": "thr"}, "reach": "C",
         "defaults": [{"type": "dx"}], "parry": "0"},
        {"id": "w2", "usage": "Sweep @Body Part@", "damage": {"type": "cr", "st": "sw"}, "reach": "1",
         "defaults": [{"type": "dx", "modifier": -2}]}]}
    if replacements is not None:
        trait["replacements"] = replacements
    return {"version": 5, "profile": {"name": "Wyrm"}, "total_points": 50, "attributes": [],
            "traits": [trait], "skills": [],
            "equipment": [{"id": "e1", "description": "Ring of @Element@", "quantity": 1, "equipped": True,
                           "replacements": {"Element": "Fire"}}]}


def test_a_weapon_and_an_item_are_named_as_gcs_shows_them() -> None:
    ch = import_gcs(striker({"Body Part": "Tail"})).character
    assert [w.name for w in ch.weapons] == ["Crushing Striker (Tail)", "Crushing Striker (Tail) (Sweep Tail)"]
    assert ch.weapon("Crushing Striker (Tail)").damage.startswith("thr")
    assert "Ring of Fire" in ch.equipment


def test_a_placeholder_without_a_replacement_stays_as_written() -> None:
    ch = import_gcs(striker(None)).character
    assert ch.weapons[0].name == "Crushing Striker (@Body Part@)"
