"""MTG-CHK-04..12 and test vectors T-22..T-24: the action check on plain card-fact libraries."""

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamekernel.errors import RuleError, UsageError
from gamekernel.i18n import set_language
from gamekernel.mtg.rules.check import CheckImpossible, action_check

from .conftest import (
    COUNTERSPELL,
    DARK_RITUAL,
    DRYAD_ARBOR,
    ELVISH_MYSTIC,
    EVOLVING_WILDS,
    FIRE_ICE,
    FOREST,
    ISLAND,
    KITCHEN_FINKS,
    LIGHTNING_BOLT,
    ORNITHOPTER,
    RUNECLAW_BEAR,
    SERRA_ANGEL,
    SOL_RING,
    STEAM_VENTS,
    SWAMP,
    WASTES,
    card,
)

FILLER = [card(f"Filler {i}", 3, "B") for i in range(4)]


def run(first, second, kind="green", difficulty=2, seed=0, **kwargs):
    return action_check([first, second, *FILLER], kind, difficulty, random.Random(seed), **kwargs)


def test_t22_seed_worked_example_elvish_mystic_then_runeclaw_bear():
    """T-22 / MTG-CHK-05, -06, -07, -11: Green [2]: target 1 + 2 = 3; achievement 2 + 5 = 7; success."""
    result = run(ELVISH_MYSTIC, RUNECLAW_BEAR, "緑", 2)
    assert (result.target, result.modifier, result.achievement, result.success) == (3, 5, 7, True)
    assert result.relation == "same"
    assert set(result.bottom) == {"Elvish Mystic", "Runeclaw Bear"}
    text = str(result)
    assert "target 3" in text and "achievement 7" in text and "green = check colour" in text
    assert "success (7 ≥ 3)" in text


def test_mtg_chk_05_first_card_colour_does_not_matter():
    green_first = run(RUNECLAW_BEAR, SERRA_ANGEL, "white", 1)
    red_first = run(card("Red Bear", 2, "R"), SERRA_ANGEL, "white", 1)
    assert green_first.target == red_first.target == 3


@pytest.mark.parametrize(("second", "kind", "modifier", "relation"), [
    (RUNECLAW_BEAR, "green", 5, "same"),          # same colour
    (SERRA_ANGEL, "green", 3, "allied"),          # white is allied with green
    (LIGHTNING_BOLT, "green", 3, "allied"),       # red is allied with green
    (COUNTERSPELL, "green", 0, "other"),          # enemy
    (DARK_RITUAL, "green", 0, "other"),           # enemy
    (ORNITHOPTER, "green", 0, "colourless"),      # colourless card
    (SOL_RING, "colourless", 0, "colourless"),    # colourless check, colourless card
    (RUNECLAW_BEAR, "colourless", 0, "other"),    # colourless check, coloured card
])
def test_mtg_chk_07_every_modifier_case(second, kind, modifier, relation):
    result = run(ELVISH_MYSTIC, second, kind, 0)
    assert (result.modifier, result.relation) == (modifier, relation)
    assert result.achievement == second.mana_value + modifier


def test_mtg_chk_07_reason_texts():
    assert "white is allied with green" in str(run(ELVISH_MYSTIC, SERRA_ANGEL, "G", 0))
    assert "blue is not allied with green" in str(run(ELVISH_MYSTIC, COUNTERSPELL, "G", 0))
    assert "(colourless)" in str(run(ELVISH_MYSTIC, ORNITHOPTER, "G", 0))


def test_t23_mtg_chk_09_basic_lands_count_as_their_colour_for_the_achievement():
    """T-23: white check; an Island (blue, allied) gives 0 + 3; a Swamp (black) gives 0."""
    island = run(ELVISH_MYSTIC, ISLAND, "white", 0)
    assert (island.chosen_colour, island.modifier, island.achievement) == ("blue", 3, 3)
    assert "Island counts as blue for the achievement" in str(island)
    swamp = run(ELVISH_MYSTIC, SWAMP, "white", 0)
    assert (swamp.chosen_colour, swamp.modifier, swamp.achievement) == ("black", 0, 0)
    forest = run(ELVISH_MYSTIC, FOREST, "green", 0)
    assert forest.achievement == 5


def test_mtg_chk_09_lands_count_only_for_the_achievement_not_the_target():
    result = run(FOREST, ELVISH_MYSTIC, "green", 2)
    assert result.target == 2  # Forest MV 0: its colour plays no part in the target


def test_mtg_chk_09_lands_without_basic_land_types_are_colourless():
    for land in (WASTES, EVOLVING_WILDS):
        result = run(ELVISH_MYSTIC, land, "green", 0)
        assert (result.chosen_colour, result.modifier) == (None, 0)


def test_mtg_chk_09_dryad_arbor_is_green_by_indicator_and_land_type():
    result = run(ELVISH_MYSTIC, DRYAD_ARBOR, "green", 0)
    assert (result.colours, result.modifier) == (("green",), 5)
    assert not result.random_colour


def test_mtg_chk_10_dual_land_with_two_land_types_picks_a_colour_at_random():
    """MTG-CHK-09 + -10: Steam Vents counts as blue and red; a white check picks one at random."""
    seen = Counter()
    for seed in range(200):
        result = run(ELVISH_MYSTIC, STEAM_VENTS, "white", 0, seed=seed)
        assert result.colours == ("blue", "red")
        assert result.modifier == {"blue": 3, "red": 0}[result.chosen_colour]
        seen[result.chosen_colour] += 1
    assert seen["blue"] > 60 and seen["red"] > 60
    text = str(run(ELVISH_MYSTIC, STEAM_VENTS, "white", 0, seed=1))
    assert "Steam Vents counts as blue and red for the achievement" in text
    assert "chosen at random from blue and red" in text


def test_t23_mtg_chk_10_multicolour_card_random_colour_not_the_best():
    """T-23 / MTG-CHK-10: a red/blue card in a white check gives +3 (blue) or +0 (red), by the rng."""
    results = {run(ELVISH_MYSTIC, FIRE_ICE, "white", 0, seed=seed).modifier for seed in range(50)}
    assert results == {0, 3}
    hybrid = {run(ELVISH_MYSTIC, KITCHEN_FINKS, "green", 0, seed=s).chosen_colour for s in range(50)}
    assert hybrid == {"white", "green"}


def test_mtg_chk_10_colour_pick_uses_the_given_rng_only():
    a = [run(ELVISH_MYSTIC, FIRE_ICE, "white", 0, seed=s).chosen_colour for s in range(20)]
    b = [run(ELVISH_MYSTIC, FIRE_ICE, "white", 0, seed=s).chosen_colour for s in range(20)]
    assert a == b


@pytest.mark.parametrize(("target_mv", "second_mv", "success"), [(2, 2, True), (3, 2, False), (0, 0, True)])
def test_mtg_chk_11_success_iff_achievement_at_least_target(target_mv, second_mv, success):
    result = run(card("A", target_mv, "B"), card("B", second_mv, "B"), "green", 0)
    assert result.achievement == second_mv and result.target == target_mv
    assert result.success is success


def test_mtg_chk_12_both_revealed_cards_go_to_the_bottom_in_random_order():
    library = [ELVISH_MYSTIC, RUNECLAW_BEAR, *FILLER]
    orders = set()
    for seed in range(40):
        result = action_check(library, "green", 2, random.Random(seed))
        assert result.new_order[:4] == (2, 3, 4, 5)
        assert set(result.new_order[4:]) == {0, 1}
        assert result.bottom == tuple(library[i].name for i in result.new_order[4:])
        orders.add(result.new_order[4:])
    assert orders == {(0, 1), (1, 0)}


def test_mtg_chk_04_12_known_top_cards_exiled_and_returned_on_top_in_order():
    library = [SOL_RING, FOREST, ELVISH_MYSTIC, RUNECLAW_BEAR, *FILLER]
    result = action_check(library, "green", 2, random.Random(5), known={0, 1})
    assert [c.name for c in result.known_cards] == ["Sol Ring", "Forest"]
    assert (result.first, result.second) == (ELVISH_MYSTIC, RUNECLAW_BEAR)
    assert result.new_order[:2] == (0, 1)  # back on top, same order
    assert set(result.new_order[-2:]) == {2, 3}
    assert sorted(result.new_order) == list(range(len(library)))
    assert "known top cards exiled" in str(result)


def test_mtg_chk_04_only_the_unbroken_known_run_from_the_top_is_exiled():
    library = [SOL_RING, ELVISH_MYSTIC, RUNECLAW_BEAR, *FILLER]
    result = action_check(library, "green", 2, random.Random(5), known={0, 2})
    assert [c.name for c in result.known_cards] == ["Sol Ring"]
    assert result.first == ELVISH_MYSTIC


def test_t24_mtg_chk_04_three_cards_one_known_allowed_two_known_refused():
    """T-24: 3-card library; top known -> 2 left -> allowed; top two known -> 1 left -> refused."""
    library = [SOL_RING, ELVISH_MYSTIC, RUNECLAW_BEAR]
    assert action_check(library, "green", 2, random.Random(0), known={0}).first == ELVISH_MYSTIC
    rng = random.Random(0)
    state = rng.getstate()
    with pytest.raises(CheckImpossible, match=r"1 card left after exiling 2 known.*nothing moved"):
        action_check(library, "green", 2, rng, known={0, 1})
    assert rng.getstate() == state  # nothing drawn, nothing moved


@pytest.mark.parametrize("size", [0, 1])
def test_mtg_chk_04_library_of_one_or_fewer_cards_refused(size):
    with pytest.raises(CheckImpossible):
        action_check([ELVISH_MYSTIC] * size, "green", 0, random.Random(0))


def test_mtg_chk_04_refusal_is_a_rule_error_in_japanese_too():
    set_language("ja")
    with pytest.raises(RuleError, match="行動判定は行えない"):
        action_check([ELVISH_MYSTIC], "緑", 0, random.Random(0), actor="ミラ")


def test_mtg_chk_03_unusual_difficulty_allowed_with_a_note():
    result = run(ELVISH_MYSTIC, RUNECLAW_BEAR, "green", 9)
    assert result.unusual_difficulty and result.target == 10
    assert "outside the usual 0–8" in str(result)
    assert not run(ELVISH_MYSTIC, RUNECLAW_BEAR, "green", 8).unusual_difficulty
    assert not run(ELVISH_MYSTIC, RUNECLAW_BEAR, "green", 0).unusual_difficulty


@pytest.mark.parametrize("difficulty", [-1, -4])
def test_mtg_chk_03_negative_difficulty_refused(difficulty):
    """MTG-CHK-03: difficulties start at 0; the magic and the library widget both refuse below it."""
    with pytest.raises(UsageError, match=f"difficulty {difficulty} is below 0"):
        run(ELVISH_MYSTIC, RUNECLAW_BEAR, "green", difficulty)


@pytest.mark.parametrize("difficulty", ["2", 2.5, True, None])
def test_mtg_chk_03_difficulty_must_be_an_integer(difficulty):
    with pytest.raises(UsageError):
        run(ELVISH_MYSTIC, RUNECLAW_BEAR, "green", difficulty)


def test_mtg_chk_result_keeps_every_outcome_for_replay():
    result = run(ELVISH_MYSTIC, FIRE_ICE, "white", 0, seed=3)
    data = result.to_dict()
    assert data["chosen_colour"] == result.chosen_colour
    assert data["new_order"] == list(result.new_order)
    assert data["odds"] == [result.odds.numerator, result.odds.denominator]
    import json

    assert json.loads(json.dumps(data)) == data


def test_mtg_chk_html_is_escaped_and_deterministic():
    evil = card("<b>Evil & Co</b>", 2, "G")
    result = run(ELVISH_MYSTIC, evil, "green", 2, actor="<Mira>")
    html = result._repr_html_()
    assert "<b>Evil" not in html and "&lt;b&gt;Evil &amp; Co" in html and "&lt;Mira&gt;" in html
    assert html == run(ELVISH_MYSTIC, evil, "green", 2, actor="<Mira>")._repr_html_()


def test_mtg_chk_05_06_japanese_html_says_mana_value_in_japanese():
    """MTG-CHK-05/06 (target and achievement from the cards' mana values): the HTML's figure is マナ総量."""
    html = run(ELVISH_MYSTIC, RUNECLAW_BEAR, "green", 2)._repr_html_()
    assert html.count(" MV ") == 2
    set_language("ja")
    html = run(ELVISH_MYSTIC, RUNECLAW_BEAR, "green", 2)._repr_html_()
    assert html.count(" マナ総量 ") == 2 and "MV" not in html


def test_mtg_chk_japanese_text():
    set_language("ja")
    text = str(run(ELVISH_MYSTIC, RUNECLAW_BEAR, "緑", 2, actor="ミラ"))
    assert "緑判定［2］" in text and "目標値3" in text and "達成値7" in text and "成功" in text


@given(st.lists(st.sampled_from([ELVISH_MYSTIC, RUNECLAW_BEAR, FOREST, STEAM_VENTS, FIRE_ICE, SOL_RING]),
                min_size=2, max_size=12),
       st.integers(0, 3), st.integers(0, 2**32), st.sampled_from(["W", "U", "B", "R", "G", "C"]))
def test_mtg_chk_12_plan_is_a_permutation_keeping_known_cards_on_top(library, known, seed, kind):
    known = min(known, len(library) - 2)
    result = action_check(library, kind, 2, random.Random(seed), known=set(range(known)))
    assert sorted(result.new_order) == list(range(len(library)))
    assert result.new_order[:known] == tuple(range(known))
    assert set(result.new_order[-2:]) == {known, known + 1}
