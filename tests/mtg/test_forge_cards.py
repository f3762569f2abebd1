"""Card facts from Forge card scripts (res/cardsfolder). The scripts here are written for the tests
(facts only); a real cardsfolder is read when GAMEKERNEL_FORGE_CARDSFOLDER names one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gamekernel.errors import DataError
from gamekernel.mtg.rules.forge_cards import forge_card, forge_cardsfolder, mana_value
from gamekernel.mtg.rules.loaders import load_card_data


@pytest.mark.parametrize(("cost", "value"), [("1 R", 2), ("2 RW", 3), ("2/W 2/U", 4), ("X G G", 2), ("PG", 1),
                                             ("no cost", 0), ("", 0), ("C", 1), ("16", 16)])
def test_mana_value_of_forge_costs(cost, value):
    assert mana_value(cost) == value


def test_split_halves_combine_and_a_double_faced_card_is_its_front():
    split = forge_card("Name:Fire\nManaCost:1 R\nTypes:Instant\nAlternateMode:Split\n\nALTERNATE\n\n"
                       "Name:Ice\nManaCost:1 U\nTypes:Instant\n")
    assert (split.name, split.mana_value, split.colours, split.types) == ("Fire // Ice", 4, ("blue", "red"),
                                                                          ("Instant",))
    front = forge_card("Name:Delver of Secrets\nManaCost:U\nTypes:Creature Human Wizard\n"
                       "AlternateMode:DoubleFaced\nALTERNATE\nName:Insectile Aberration\nManaCost:no cost\n"
                       "Colors:blue\nTypes:Creature Human Insect\n")
    assert (front.name, front.mana_value, front.colours, front.subtypes) == ("Delver of Secrets", 1, ("blue",),
                                                                              ("Human", "Wizard"))


def test_colors_line_replaces_the_cost_and_types_split_into_three():
    arbor = forge_card("Name:Dryad Arbor\nManaCost:no cost\nTypes:Land Creature Forest Dryad\nColors:green\n")
    assert (arbor.colours, arbor.types, arbor.subtypes, arbor.is_land) == (("green",), ("Land", "Creature"),
                                                                           ("Forest", "Dryad"), True)
    devoid = forge_card("Name:Ghostfire\nManaCost:2 R\nTypes:Instant\nColors:colorless\n")
    assert devoid.colours == ()
    forest = forge_card("Name:Forest\nManaCost:no cost\nTypes:Basic Land Forest\n")
    assert forest.is_basic_land and forest.supertypes == ("Basic",) and forest.colours == ()
    hybrid = forge_card("Name:Boros Reckoner\nManaCost:RW RW RW\nTypes:Creature Minotaur Wizard\n")
    assert (hybrid.mana_value, hybrid.colours) == (3, ("white", "red"))


def test_planes_and_schemes_are_not_deck_cards_and_a_script_needs_a_name():
    assert forge_card("Name:Some Plane\nManaCost:no cost\nTypes:Plane Somewhere\n") is None
    with pytest.raises(DataError, match=r"x\.txt: not a Forge card script"):
        forge_card("ManaCost:G\n", "x.txt")


def test_a_cardsfolder_loads_through_load_card_data(tmp_path):
    (tmp_path / "l").mkdir()
    (tmp_path / "l" / "llanowar_elves.txt").write_text("Name:Llanowar Elves\nManaCost:G\nTypes:Creature Elf Druid\n",
                                                        encoding="utf-8")
    (tmp_path / "f").mkdir()
    (tmp_path / "f" / "forest.txt").write_text("Name:Forest\nManaCost:no cost\nTypes:Basic Land Forest\n",
                                                encoding="utf-8")
    index = load_card_data(tmp_path)
    assert len(index) == 2 and index.find("llanowar elves").colours == ("green",)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(DataError, match="empty: no Forge card scripts"):
        forge_cardsfolder(empty)


@pytest.mark.skipif(not os.environ.get("GAMEKERNEL_FORGE_CARDSFOLDER"),
                    reason="set GAMEKERNEL_FORGE_CARDSFOLDER to Forge's res/cardsfolder")
def test_a_real_forge_cardsfolder():
    index = forge_cardsfolder(Path(os.environ["GAMEKERNEL_FORGE_CARDSFOLDER"]))
    assert len(index) > 20_000
    facts = {name: index.find(name) for name in ("Llanowar Elves", "Fire // Ice", "Dryad Arbor", "Forest",
                                                 "Steam Vents", "Reaper King", "Boros Reckoner")}
    assert (facts["Llanowar Elves"].mana_value, facts["Llanowar Elves"].colours) == (1, ("green",))
    assert (facts["Fire // Ice"].mana_value, facts["Fire // Ice"].colours) == (4, ("blue", "red"))
    assert facts["Dryad Arbor"].colours == ("green",) and facts["Dryad Arbor"].is_land
    assert facts["Forest"].is_basic_land and facts["Steam Vents"].subtypes == ("Island", "Mountain")
    assert facts["Reaper King"].mana_value == 10 and len(facts["Reaper King"].colours) == 5
    assert facts["Boros Reckoner"].colours == ("white", "red")
