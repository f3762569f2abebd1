"""Gamma World alpha-deck rules (RULES.md GW-ALPHA-01..14, test vectors T-26..T-28)."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from gamekernel.errors import DataError, NotFoundError, RuleError, UsageError
from gamekernel.gammaworld.render import deck_check_messages
from gamekernel.gammaworld.rules import (
    AlphaState,
    Step,
    apply_step,
    load_cards,
    p_card_in_draws,
    p_flux,
    p_overcharge,
    play,
    readied_count,
    starter_catalog,
    validate_deck,
)
from gamekernel.gammaworld.rules.state import DISCARD, GM_DECK, GWConfig, deck_zone

from .helpers import Rigged, Table

# ---------------------------------------------------------------- cards (GW-ALPHA-01, -03)


def test_gw_alpha_03_starter_deck_has_at_least_24_original_cards_in_en_and_ja() -> None:
    catalog = starter_catalog()
    assert len(catalog.starter_ids) >= 24
    assert set(catalog.by_language["en"]) == set(catalog.by_language["ja"])
    names = [catalog.card(i, "en").name for i in catalog.starter_ids]
    assert len(set(names)) == len(names)


def test_gw_alpha_01_every_card_has_one_of_three_energy_sources() -> None:
    catalog = starter_catalog()
    energies = {catalog.card(i, "en").energy for i in catalog.starter_ids}
    assert energies == {"bio", "dark", "psi"}


def test_cards_are_found_by_english_or_japanese_name_and_suggest_close_matches() -> None:
    catalog = starter_catalog()
    assert catalog.find("sap bloom").id == catalog.find("樹液の花").id
    assert catalog.find("ＳＡＰ　ＢＬＯＯＭ").id == catalog.find("Sap Bloom").id  # full-width input
    with pytest.raises(NotFoundError, match="did you mean Sap Bloom"):
        catalog.find("Sap Blom")


def test_loader_names_file_and_field(tmp_path) -> None:
    path = tmp_path / "mine.json"
    card = {
        "id": "X1",
        "kind": "alpha",
        "energy": "bio",
        "name": "Fern Hair",
        "rarity": "common",
        "power": {"usage": "encounter", "action": "standrd", "keywords": [], "range": "Personal"},
    }
    path.write_text(json.dumps({"schema": 1, "cards": [card]}), encoding="utf-8")
    with pytest.raises(DataError, match=r"mine\.json: cards\[0\]\.power\.action: unknown value 'standrd'"):
        load_cards(path)
    path.write_text('{"cards": [', encoding="utf-8")
    with pytest.raises(DataError, match=r"mine\.json:1:\d+: invalid JSON"):
        load_cards(path)
    card["power"]["action"] = "standard"
    card["energy"] = "plasma"
    path.write_text(json.dumps({"cards": [card]}), encoding="utf-8")
    with pytest.raises(DataError, match=r"cards\[0\]\.energy: unknown value 'plasma' \(one of bio, dark, psi\)"):
        load_cards(path)


def test_loader_refuses_overcharge_without_power_and_duplicate_ids(tmp_path) -> None:
    path = tmp_path / "mine.json"
    card = {
        "id": "X1",
        "kind": "alpha",
        "energy": "bio",
        "name": "Fern Hair",
        "rarity": "common",
        "benefit": "Soft.",
        "overcharge": {"when": "now", "success": "a", "failure": "b"},
    }
    path.write_text(json.dumps({"cards": [card]}), encoding="utf-8")
    with pytest.raises(DataError, match="without a power cannot be overcharged"):
        load_cards(path)
    del card["overcharge"]
    path.write_text(json.dumps({"cards": [card, card]}), encoding="utf-8")
    with pytest.raises(DataError, match=r"cards\[1\]\.id: duplicate id 'X1'"):
        load_cards(path)


# ---------------------------------------------------------------- deck building (GW-ALPHA-02)


def test_gw_alpha_02_seven_cards_is_enough_six_is_not() -> None:
    names = ["A", "A", "B", "B", "C", "C", "D"]
    assert validate_deck("Rin", names).ok
    assert deck_check_messages(validate_deck("Rin", names)) == ["ok: 7 cards"]
    check = validate_deck("Rin", names[:6])
    assert not check.ok and deck_check_messages(check) == ["too few cards: 6 < 7"]


def test_gw_alpha_02_two_copies_allowed_three_refused() -> None:
    names = ["Photosynthesis"] * 3 + ["B", "B", "C", "D", "E"]
    check = validate_deck("Rin", names)
    assert deck_check_messages(check) == ["3 copies of Photosynthesis > 2"]
    assert deck_check_messages(validate_deck("Rin", ["A", "A", "B", "B", "C", "C", "D", "D", "E"])) == ["ok: 9 cards"]


def test_gw_alpha_02_every_problem_is_listed() -> None:
    check = validate_deck("Rin", ["A", "A", "A"])
    assert deck_check_messages(check) == ["too few cards: 3 < 7", "3 copies of A > 2"]


# ---------------------------------------------------------------- levels (GW-ALPHA-06, T-26)


@pytest.mark.parametrize(("level", "count"), [(1, 1), (3, 1), (4, 2), (7, 2), (8, 3), (10, 3), (30, 3)])
def test_t26_gw_alpha_06_readied_count_by_level(level: int, count: int) -> None:
    assert readied_count(level) == count


def test_gw_alpha_06_level_below_one_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        readied_count(0)


@pytest.mark.parametrize(("level", "count"), [(3, 1), (4, 2), (7, 2), (8, 3)])
def test_t26_draw_fills_readied_cards_to_the_level(level: int, count: int) -> None:
    table = Table()
    table.do(play.plan_character(table.state, "Rin", new=True, level=level))
    assert play.readied_missing(table.state, "Rin") == count
    step = table.do(play.plan_draw(table.state, "Rin", table.rng))
    assert len(table.state.readied("Rin")) == count == len(step.detail["drawn"])
    assert play.readied_missing(table.state, "Rin") == 0
    with pytest.raises(RuleError, match=f"already has {count} readied"):
        play.plan_draw(table.state, "Rin", table.rng)


def test_gw_alpha_04_own_deck_by_default_gm_deck_by_choice_or_without_a_deck() -> None:
    table = Table()
    table.do(play.plan_deck_new(table.state, "Rin"))
    table.do(
        play.plan_deck_add(
            table.state, "Rin", ["GK-A01"] * 2 + ["GK-A02"] * 2 + ["GK-A03"] * 3, table.rng, table.catalog
        )
    )
    table.do(play.plan_character(table.state, "Rin", level=8))
    step = table.do(play.plan_draw(table.state, "Rin", table.rng))
    assert step.detail["source"] == "own"
    assert all(table.state.table.card(u).home == deck_zone("Rin") for u in table.state.readied("Rin"))
    table.do(play.plan_character(table.state, "Bren", new=True, level=1))
    assert table.do(play.plan_draw(table.state, "Bren", table.rng)).detail["source"] == "gm"
    table.do(play.plan_character(table.state, "Ash", new=True, level=1))
    table.do(play.plan_deck_new(table.state, "Ash"))
    table.do(play.plan_deck_add(table.state, "Ash", ["GK-A05"] * 2, table.rng, table.catalog))
    assert table.do(play.plan_draw(table.state, "Ash", table.rng, from_gm=True)).detail["source"] == "gm"


# ---------------------------------------------------------------- tapping (GW-ALPHA-08)


def test_gw_alpha_08_a_power_is_used_once_per_encounter() -> None:
    table = Table()
    table.do(play.plan_character(table.state, "Rin", new=True))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    name = table.readied_names("Rin")[0]
    table.do(play.plan_tap(table.state, "Rin", name, table.catalog))
    assert table.state.table.card(table.state.readied("Rin")[0]).tapped
    with pytest.raises(RuleError, match="already tapped"):
        play.plan_tap(table.state, "Rin", name, table.catalog)


def test_gw_alpha_08_unknown_card_lists_what_is_readied() -> None:
    table = Table()
    table.do(play.plan_character(table.state, "Rin", new=True))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    name = table.readied_names("Rin")[0]
    with pytest.raises(NotFoundError, match=f"readied: {name}"):
        play.plan_tap(table.state, "Rin", "Nothing Like It", table.catalog)


# ---------------------------------------------------------------- encounter end (GW-ALPHA-09)


def test_gw_alpha_09_encounter_end_discards_all_readied_and_draws_as_many() -> None:
    table = Table()
    table.do(play.plan_character(table.state, "Rin", new=True, level=8))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    before = set(table.state.readied("Rin"))
    table.do(play.plan_encounter_start(table.state))
    table.do(play.plan_tap(table.state, "Rin", table.state.readied("Rin")[0], table.catalog))
    table.do(play.plan_encounter_end(table.state, table.rng))
    after = table.state.readied("Rin")
    assert len(after) == 3 and not before & set(after)
    assert set(table.state.table.order(DISCARD)) == before
    assert not table.state.encounter
    assert not any(table.state.table.card(u).tapped for u in after)


# ---------------------------------------------------------------- flux (GW-ALPHA-10, T-28)


def test_t28_natural_1_with_both_cards_tapped_discards_one_and_draws_usable_from_gm_deck() -> None:
    table = Table()
    table.do(play.plan_deck_new(table.state, "Rin"))
    table.do(
        play.plan_deck_add(
            table.state,
            "Rin",
            ["GK-A01", "GK-A01", "GK-A02", "GK-A02", "GK-A03", "GK-A03", "GK-A04"],
            table.rng,
            table.catalog,
        )
    )
    table.do(play.plan_character(table.state, "Rin", level=4))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    table.do(play.plan_encounter_start(table.state))
    first, second = table.state.readied("Rin")
    table.do(play.plan_tap(table.state, "Rin", first, table.catalog))
    table.do(play.plan_tap(table.state, "Rin", second, table.catalog))
    pending = play.plan_d20(table.state, "Rin", [1], label="attack")
    assert pending is not None
    table.do(pending)
    assert table.state.flux == {"Rin": 1}
    step = table.do(play.plan_flux(table.state, "Rin", first, table.rng, table.catalog))
    readied = table.state.readied("Rin")
    assert first not in readied and second in readied and len(readied) == 2
    new = next(u for u in readied if u != second)
    assert table.state.table.card(new).home == GM_DECK  # from the GM deck, not Rin's own
    assert not table.state.table.card(new).tapped  # usable this encounter
    table.do(play.plan_tap(table.state, "Rin", new, table.catalog))
    assert table.state.flux == {} and step.detail["source"] == "gm"


def test_gw_alpha_10_no_flux_outside_an_encounter_or_without_a_1() -> None:
    table = Table()
    table.do(play.plan_character(table.state, "Rin", new=True))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    assert play.plan_d20(table.state, "Rin", [1]) is None  # no encounter running
    table.do(play.plan_encounter_start(table.state))
    assert play.plan_d20(table.state, "Rin", [2, 20]) is None
    assert play.plan_d20(table.state, "Nobody", [1]) is None  # not a Gamma World character
    typo = play.plan_d20(table.state, "Rni", [1])  # close to Rin: ask, never skip silently
    assert typo.kind == "flux_ask" and typo.detail["names"] == ["Rin"] and typo.detail["unknown"] == "Rni"
    # seed 000 "any d20 during an encounter": without @Name the roll is the only character's
    assert play.plan_d20(table.state, None, [1]).flux == (("Rin", 1),)


def test_gw_alpha_10_one_flux_per_natural_1_is_configurable() -> None:
    table = Table()
    table.do(play.plan_character(table.state, "Rin", new=True))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    table.do(play.plan_encounter_start(table.state))
    assert play.plan_d20(table.state, "Rin", [1, 1]).flux == (("Rin", 2),)
    table.do(play.plan_config(table.state, flux_per_natural_1=False))
    assert play.plan_d20(table.state, "Rin", [1, 1]).flux == (("Rin", 1),)


def test_gw_alpha_10_flux_needs_a_pending_flux_or_force_and_a_choice_of_card() -> None:
    table = Table()
    table.do(play.plan_character(table.state, "Rin", new=True, level=4))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    with pytest.raises(RuleError, match="no Alpha Flux pending"):
        play.plan_flux(table.state, "Rin", None, table.rng, table.catalog)
    with pytest.raises(UsageError, match="choose the card"):
        play.plan_flux(table.state, "Rin", None, table.rng, table.catalog, force=True)
    step = table.do(
        play.plan_flux(table.state, "Rin", table.readied_names("Rin")[0], table.rng, table.catalog, force=True)
    )
    assert step.detail["forced"]


def test_gw_alpha_10_encounter_end_lapses_unresolved_flux() -> None:
    table = Table()
    table.do(play.plan_character(table.state, "Rin", new=True))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    table.do(play.plan_encounter_start(table.state))
    table.do(play.plan_d20(table.state, "Rin", [1]))
    step = table.do(play.plan_encounter_end(table.state, table.rng))
    assert table.state.flux == {} and step.detail["lapsed_flux"] == {"Rin": 1}


# ---------------------------------------------------------------- overcharge (GW-ALPHA-12..14, T-27)


def _with_card(card_id: str, *, bonus: int | None = None, encounter: bool = True) -> Table:
    table = Table()
    table.do(play.plan_deck_new(table.state, "Rin"))
    table.do(play.plan_deck_add(table.state, "Rin", [card_id], table.rng, table.catalog))
    table.do(play.plan_character(table.state, "Rin", origin_bonus=bonus))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    if encounter:
        table.do(play.plan_encounter_start(table.state))
    return table


def test_t27_overcharge_total_10_succeeds_9_backfires() -> None:
    table = _with_card("GK-A10", bonus=2)  # Gravity Knot, an attack power
    step = play.plan_overcharge(table.state, "Rin", "Gravity Knot", Rigged([8]), table.catalog)
    assert (step.detail["face"], step.detail["bonus"], step.detail["total"], step.detail["success"]) == (8, 2, 10, True)
    step = play.plan_overcharge(table.state, "Rin", "Gravity Knot", Rigged([7]), table.catalog)
    assert (step.detail["total"], step.detail["success"]) == (9, False)


def test_t27_failed_attack_overcharge_still_resolves_the_attack() -> None:
    from gamekernel.gammaworld.rules import describe

    table = _with_card("GK-A10")
    step = table.do(play.plan_overcharge(table.state, "Rin", "Gravity Knot", Rigged([5]), table.catalog))
    text = str(describe(table.state, step, table.catalog))
    assert step.detail["attack"] and not step.detail["success"]
    assert "the attack still resolves normally, plus the backfire" in text
    assert "The knot tugs at you" in text  # the card's own 9-or-less text


def test_gw_alpha_12_overcharge_once_per_power_and_only_with_an_entry() -> None:
    table = _with_card("GK-A10")
    table.do(play.plan_overcharge(table.state, "Rin", "Gravity Knot", Rigged([15]), table.catalog))
    assert table.state.table.card(table.state.readied("Rin")[0]).tapped  # using the power taps it
    with pytest.raises(RuleError, match="already overcharged"):
        play.plan_overcharge(table.state, "Rin", "Gravity Knot", Rigged([15]), table.catalog)
    plain = _with_card("GK-A05")  # Silt Gills has no Overcharge entry
    with pytest.raises(RuleError, match="no Overcharge entry"):
        play.plan_overcharge(plain.state, "Rin", "Silt Gills", Rigged([15]), plain.catalog)


def test_gw_alpha_14_default_origin_bonus_is_a_config_flag() -> None:
    table = _with_card("GK-A10")
    table.do(play.plan_config(table.state, default_origin_bonus=3))
    step = play.plan_overcharge(table.state, "Rin", "Gravity Knot", Rigged([7]), table.catalog)
    assert (step.detail["bonus"], step.detail["total"], step.detail["success"]) == (3, 10, True)


def test_gw_alpha_14_open_natural_1_on_overcharge_is_also_a_flux() -> None:
    table = _with_card("GK-A10", bonus=9)
    step = table.do(play.plan_overcharge(table.state, "Rin", "Gravity Knot", Rigged([1]), table.catalog))
    assert step.detail["success"] and step.detail["flux"]  # 1 + 9 = 10 succeeds, and still fluxes
    assert table.state.flux == {"Rin": 1}
    other = _with_card("GK-A10", bonus=9)
    other.do(play.plan_config(other.state, overcharge_natural_1_flux=False))
    assert not play.plan_overcharge(other.state, "Rin", "Gravity Knot", Rigged([1]), other.catalog).detail["flux"]


# ---------------------------------------------------------------- rebuild (GW-ALPHA-11, -05)


def test_gw_alpha_11_rest_returns_every_card_home_shuffles_and_draws_again() -> None:
    table = Table()
    table.do(play.plan_deck_new(table.state, "Rin"))
    ids = ["GK-A01", "GK-A01", "GK-A02", "GK-A02", "GK-A03", "GK-A03", "GK-A04"]
    table.do(play.plan_deck_add(table.state, "Rin", ids, table.rng, table.catalog))
    table.do(play.plan_character(table.state, "Rin", level=4))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    table.do(play.plan_encounter_start(table.state))
    table.do(play.plan_d20(table.state, "Rin", [1]))
    table.do(play.plan_flux(table.state, "Rin", table.state.readied("Rin")[0], table.rng, table.catalog))
    table.do(play.plan_encounter_end(table.state, table.rng))
    step = table.do(play.plan_rest(table.state, table.rng, ["Rin"], draw=False))
    cards = table.state.table
    assert cards.count(DISCARD) == 0 and table.state.readied("Rin") == []
    assert cards.count(deck_zone("Rin")) == 7 and cards.count(GM_DECK) == len(table.catalog.starter_ids)
    assert step.detail["drawn"] == {}
    table.do(play.plan_deck_remove(table.state, "Rin", "GK-A04"))  # decks may be edited now
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    assert len(table.state.readied("Rin")) == 2


def test_gw_alpha_11_cards_in_play_cannot_be_removed_from_a_deck() -> None:
    table = Table()
    table.do(play.plan_deck_new(table.state, "Rin"))
    table.do(play.plan_deck_add(table.state, "Rin", ["GK-A01"], table.rng, table.catalog))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    with pytest.raises(RuleError, match="only when every alpha card is back in its deck"):
        play.plan_deck_remove(table.state, "Rin", "GK-A01")


def test_open_empty_own_deck_reshuffles_its_discards_then_draws_from_the_gm_deck() -> None:
    table = Table()
    table.do(play.plan_deck_new(table.state, "Rin"))
    table.do(play.plan_deck_add(table.state, "Rin", ["GK-A01", "GK-A02"], table.rng, table.catalog))
    table.do(play.plan_character(table.state, "Rin", level=4))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    table.do(play.plan_encounter_start(table.state))
    table.do(play.plan_encounter_end(table.state, table.rng))  # both discarded, reshuffled back, redrawn
    assert {table.state.table.card(u).home for u in table.state.readied("Rin")} == {deck_zone("Rin")}
    table.do(play.plan_character(table.state, "Rin", level=8))
    table.do(play.plan_draw(table.state, "Rin", table.rng))  # own deck empty, no discards -> GM deck
    homes = [table.state.table.card(u).home for u in table.state.readied("Rin")]
    assert homes.count(GM_DECK) == 1


def test_open_empty_own_deck_error_policy_refuses_in_players_words() -> None:
    table = Table()
    table.do(play.plan_config(table.state, empty_own_deck="error"))
    table.do(play.plan_deck_new(table.state, "Rin"))
    with pytest.raises(RuleError) as error:
        play.plan_draw(table.state, "Rin", table.rng)
    assert str(error.value) == ("cannot draw 1 card: Rin's deck is empty and none of its discarded cards can "
                                "come back (%gw config empty_own_deck=... decides what an empty deck does)")


def test_an_empty_gm_deck_is_named_as_players_say_it_never_by_its_zone() -> None:
    """The error said `cannot draw 1 from 'gw:gm' ... (empty-zone policy: error)`."""
    table = Table()
    table.do(play.plan_config(table.state, empty_gm_deck="error"))
    table.do(play.plan_character(table.state, "Rin", new=True))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    for _ in range(len(table.state.table.order(GM_DECK))):
        table.do(play.plan_encounter_end(table.state, table.rng, force=True))
    with pytest.raises(RuleError) as error:
        table.do(play.plan_encounter_end(table.state, table.rng, force=True))
    message = str(error.value)
    assert "the GM deck is empty" in message and "empty_gm_deck" in message
    assert "gw:" not in message and "empty-zone policy" not in message


def test_config_rejects_unknown_options_with_a_clear_error() -> None:
    with pytest.raises(DataError, match="unknown option 'flux_everywhere'"):
        GWConfig.from_dict({"flux_everywhere": True})


# ---------------------------------------------------------------- state, replay, snapshots


def test_steps_replay_exactly_and_undo_restores() -> None:
    table = Table(seed=5)
    table.do(play.plan_character(table.state, "Rin", new=True, level=8, origin_bonus=1))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    table.do(play.plan_encounter_start(table.state))
    before = table.state.to_dict()
    table.do(
        play.plan_overcharge(table.state, "Rin", table.state.readied("Rin")[0], table.rng, table.catalog)
        if table.catalog.card(table.state.table.card(table.state.readied("Rin")[0]).def_id).overcharge
        else play.plan_tap(table.state, "Rin", table.state.readied("Rin")[0], table.catalog)
    )
    rebuilt = AlphaState()
    for step in table.steps[:-1]:
        apply_step(rebuilt, Step.from_dict(json.loads(json.dumps(step.to_dict()))))
    assert rebuilt.to_dict() == before
    apply_step(rebuilt, Step.from_dict(json.loads(json.dumps(table.steps[-1].to_dict()))))
    assert rebuilt == table.state
    assert AlphaState.from_dict(json.loads(json.dumps(table.state.to_dict()))) == table.state


# ---------------------------------------------------------------- odds (exact)


def test_flux_odds_exact() -> None:
    assert p_flux(0) == 0
    assert p_flux(1) == Fraction(1, 20)
    assert p_flux(2) == Fraction(39, 400)
    with pytest.raises(UsageError):
        p_flux(-1)


@pytest.mark.parametrize(
    ("bonus", "expected"),
    [(0, Fraction(11, 20)), (2, Fraction(13, 20)), (9, 1), (-9, Fraction(1, 10)), (-10, Fraction(1, 20)), (-11, 0)],
)
def test_gw_alpha_13_overcharge_odds_by_bonus(bonus: int, expected: Fraction) -> None:
    assert p_overcharge(bonus) == expected


def test_deck_odds_hypergeometric_against_brute_force() -> None:
    from itertools import combinations

    deck = ["X", "X", "a", "b", "c", "d", "e"]
    for draws in range(len(deck) + 1):
        hands = list(combinations(range(len(deck)), draws))
        hits = sum(1 for hand in hands if any(deck[i] == "X" for i in hand))
        assert p_card_in_draws(len(deck), 2, draws).at_least_one == Fraction(hits, len(hands))
    assert sum(p_card_in_draws(9, 2, 3).exactly) == 1


# ---------------------------------------------------------------- a deck that runs out (RULES.md GW-ALPHA OPEN)


def _small_own_deck(seed: int) -> Table:
    """Rin at level 1 with an own deck of three cards, one of them readied."""
    table = Table(seed)
    table.do(play.plan_deck_new(table.state, "Rin"))
    table.do(play.plan_deck_add(table.state, "Rin", ["GK-A01", "GK-A02", "GK-A03"], table.rng, table.catalog))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    return table


@pytest.mark.parametrize("seed", range(12))
def test_gw_alpha_09_a_deck_that_runs_out_reshuffles_with_a_word_and_not_the_card_just_discarded(seed) -> None:
    """OPEN (GW-ALPHA-14 note): an empty own deck reshuffles its discards. The refresh that empties it
    must not hand back the card it just discarded, and the result says the deck was reshuffled."""
    from gamekernel.gammaworld.rules.results import describe

    table = _small_own_deck(seed)
    for _ in range(2):  # the deck's last two cards
        step = table.do(play.plan_encounter_end(table.state, table.rng, force=True))
        assert "reshuffled" not in step.detail
    (last,) = table.state.readied("Rin")
    assert list(table.state.table.order(deck_zone("Rin"))) == []
    step = table.do(play.plan_encounter_end(table.state, table.rng, force=True))
    (new,) = table.state.readied("Rin")
    assert new != last and last in table.state.table.order(DISCARD)
    assert step.detail["reshuffled"] == ["Rin's deck"]
    text = str(describe(table.state, step, table.catalog))
    assert "reshuffled: Rin's deck ran out, so its discarded cards were shuffled back in" in text


@pytest.mark.parametrize("seed", range(12))
def test_gw_alpha_10_flux_from_an_empty_gm_deck_never_draws_the_card_it_discards(seed) -> None:
    state = AlphaState()
    catalog = starter_catalog()
    rng = random.Random(seed)
    apply_step(state, play.plan_setup(state, catalog, rng, ["GK-A01", "GK-A02", "GK-A03"]))
    apply_step(state, play.plan_character(state, "Rin", new=True, level=4))
    apply_step(state, play.plan_draw(state, "Rin", rng))  # 2 of the GM deck's 3 cards
    apply_step(state, play.plan_encounter_start(state))
    for _ in range(3):
        apply_step(state, play.plan_d20(state, "Rin", [1]))
        gone = state.readied("Rin")[0]
        step = play.plan_flux(state, "Rin", gone, rng, catalog)
        apply_step(state, step)
        assert gone not in state.readied("Rin") and len(state.readied("Rin")) == 2


def test_gw_alpha_06_09_refresh_after_a_level_change_draws_the_new_count() -> None:
    """Level 8 readies 3; dropped to level 4 during the encounter, the refresh draws 2 (it drew 3:
    `3/2 readied`), and raised back to 8 it draws 3."""
    table = Table()
    table.do(play.plan_character(table.state, "Rin", new=True, level=8))
    table.do(play.plan_draw(table.state, "Rin", table.rng))
    table.do(play.plan_encounter_start(table.state))
    table.do(play.plan_character(table.state, "Rin", level=4))
    table.do(play.plan_encounter_end(table.state, table.rng))
    assert len(table.state.readied("Rin")) == 2
    table.do(play.plan_character(table.state, "Rin", level=8))
    table.do(play.plan_encounter_end(table.state, table.rng, force=True))
    assert len(table.state.readied("Rin")) == 3
