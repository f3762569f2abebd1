"""Gamma World through the session: events, automatic Alpha Flux on a natural 1 (GW-ALPHA-10),
replay and undo of every step, snapshots of the state part."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamekernel import Session
from gamekernel.errors import GameKernelError, RuleError, UsageError
from gamekernel.gammaworld.rules import AlphaState
from gamekernel.gammaworld.rules.state import deck_zone
from gamekernel.session import replay


def table_of_five(seed: int = 3) -> Session:
    session = Session(seed=seed)
    session.gw.deck_new("Rin")
    for card in ("Sap Bloom", "Bristle Hide", "Sticky Pads", "Gravity Knot"):
        session.gw.deck_add("Rin", card, 2)
    for name, level in (("Rin", 4), ("Bren", 1), ("Ash", 8), ("Kit", 5), ("Mo", 2)):
        session.gw.character(name, level=level, origin_bonus=1, new=name != "Rin")
    session.gw.draw()
    return session


def roll_until_natural_1(session: Session, actor: str) -> int:
    for count in range(1, 500):
        result = session.roll("1d20+4", actor=actor)
        if result.to_dict()["dice"][0]["rolls"][0] == 1:
            return count
    raise AssertionError("no natural 1 in 500 rolls")


def test_gw_alpha_06_draw_alpha_for_a_table_of_five() -> None:
    session = table_of_five()
    counts = {name: len(session.gw.state.readied(name)) for name in session.gw.state.characters}
    assert counts == {"Rin": 2, "Bren": 1, "Ash": 3, "Kit": 2, "Mo": 1}
    assert session.gw.hand("Rin").deck_count == 6


def test_gw_alpha_10_natural_1_in_an_encounter_records_a_flux_event_by_itself() -> None:
    session = table_of_five()
    session.gw.encounter_start()
    roll_until_natural_1(session, "Rin")
    assert session.log[-1].kind == "gw.flux_pending" and session.log[-1].actor == "Rin"
    assert "ALPHA FLUX! Rin rolled a natural 1" in session.log[-1].summary()
    assert session.gw.state.flux == {"Rin": 1}
    assert "Alpha Flux pending" in str(session.gw.hand("Rin"))
    card = session.gw.hand("Rin").cards[0]
    result = session.gw.flux("Rin", card.uid)
    assert result.kind == "flux" and session.gw.state.flux == {}
    assert card.uid not in session.gw.state.readied("Rin")


def test_gw_alpha_10_rolls_without_encounter_or_actor_do_not_flux() -> None:
    session = table_of_five()
    for _ in range(60):
        session.roll("1d20", actor="Rin")
        session.roll("1d20")
    assert not any(e.kind == "gw.flux_pending" for e in session.log)


def test_secret_roll_flux_is_recorded_secret() -> None:
    session = table_of_five()
    session.gw.encounter_start()
    for _ in range(500):
        session.roll("1d20", actor="Bren", secret=True)
        if session.log[-1].kind == "gw.flux_pending":
            break
    assert session.log[-1].kind == "gw.flux_pending" and session.log[-1].secret


def test_replay_of_the_log_reproduces_the_state_and_undo_restores_it() -> None:
    session = table_of_five()
    session.gw.encounter_start()
    rin = session.gw.hand("Rin").cards
    session.gw.tap("Rin", rin[0].uid)
    roll_until_natural_1(session, "Ash")
    session.gw.flux("Ash", session.gw.hand("Ash").cards[0].uid)
    before = session.state.to_dict()
    session.gw.encounter_end()
    assert replay(session.active).to_dict() == session.state.to_dict()
    session.undo()
    assert session.state.to_dict() == before
    session.gw.rest(["Rin"])
    assert replay(session.active).to_dict() == session.state.to_dict()


def test_state_part_snapshot_round_trip() -> None:
    session = table_of_five()
    part = session.gw.state
    assert AlphaState.from_dict(json.loads(json.dumps(part.to_dict()))).to_dict() == part.to_dict()


def test_bad_input_changes_nothing() -> None:
    session = table_of_five()
    before, events = session.state.to_dict(), len(session.log)
    for call in (
        lambda: session.gw.tap("Rin", "No Such Card"),
        lambda: session.gw.flux("Rin"),
        lambda: session.gw.overcharge("Nobody", "Sap Bloom"),
        lambda: session.gw.deck_add("Rin", "Sap Blom"),
        lambda: session.gw.draw("Rin"),
        lambda: session.gw.draw("Rni"),  # a typo is an error, never a new character
    ):
        with pytest.raises(GameKernelError):
            call()
    assert session.state.to_dict() == before and len(session.log) == events


def test_refused_tap_and_untap_leave_the_rng_state_and_log_unchanged() -> None:
    """The RNG state is saved only when a command draws (tap/untap draw nothing): a refusal must
    still leave the RNG exactly where it was, so the next draws are the same."""
    session = table_of_five()
    card = session.gw.hand("Rin").cards[0].card_id
    name = session.gw.state.catalog.card(card).name
    session.gw.tap("Rin", name)
    state, events = session.rng.getstate(), len(session.log)
    for call in (lambda: session.gw.tap("Rin", name), lambda: session.gw.tap("Rin", "No Such Card"),
                 lambda: session.gw.untap("Bren", "No Such Card")):
        with pytest.raises(GameKernelError):
            call()
    assert session.rng.getstate() == state and len(session.log) == events


def test_custom_cards_join_the_catalog_through_an_event(tmp_path) -> None:
    path = tmp_path / "mine.json"
    card = {
        "id": "HOME-1",
        "kind": "alpha",
        "energy": "psi",
        "name": "Kettle Sense",
        "rarity": "rare",
        "benefit": "You always know when water boils.",
    }
    path.write_text(json.dumps({"schema": 1, "language": "en", "cards": [card]}), encoding="utf-8")
    session = Session(seed=1)
    session.gw.load_cards(path)
    session.gw.deck_new("Rin")
    session.gw.deck_add("Rin", "kettle sense", 2)
    assert session.gw.deck_show("Rin").card_ids == ("HOME-1", "HOME-1")
    assert replay(session.active).to_dict() == session.state.to_dict()
    with pytest.raises(RuleError, match="already known"):
        session.gw.load_cards(path)


ACTIONS = ("tap", "untap", "overcharge", "roll", "flux", "start", "end", "rest", "draw", "level")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 4)), max_size=25))
def test_property_any_sequence_replays_exactly_and_undo_restores(seed: int, steps) -> None:
    session = table_of_five(seed)
    names = list(session.gw.state.characters)
    for action, index in steps:
        name = names[index % len(names)]
        cards = session.gw.state.readied(name)
        uid = cards[index % len(cards)] if cards else "none"
        before = session.state.to_dict()
        try:
            if action == "tap":
                session.gw.tap(name, uid)
            elif action == "untap":
                session.gw.untap(name, uid)
            elif action == "overcharge":
                session.gw.overcharge(name, uid)
            elif action == "roll":
                session.roll("2d20", actor=name)
            elif action == "flux":
                session.gw.flux(name, uid)
            elif action == "start":
                session.gw.encounter_start()
            elif action == "end":
                session.gw.encounter_end()
            elif action == "rest":
                session.gw.rest([name])
            elif action == "draw":
                session.gw.draw(name)
            else:
                session.gw.character(name, level=1 + index * 2)
        except GameKernelError:
            assert session.state.to_dict() == before
            continue
        session.gw.state.table.check()
        assert len(session.gw.state.table.cards) == 26 + 8
    assert replay(session.active).to_dict() == session.state.to_dict()
    if len(session.active) > 1 and session.log[-1].kind.startswith("gw."):
        expected = replay(session.active[:-1]).to_dict()
        session.undo()
        assert session.state.to_dict() == expected


def _natural_1(session: Session, notation: str, actor: str, ones: int = 1):
    for _ in range(5000):
        result = session.roll(notation, actor=actor)
        if sum(face == 1 for face in result.to_dict()["dice"][0]["rolls"]) >= ones:
            return result
    raise AssertionError("no such roll in 5000")


def test_gw_alpha_10_a_natural_1_by_a_mistyped_name_asks_instead_of_skipping_the_flux() -> None:
    """`%roll 1d20+3 @Rni` (Rin is the only Gamma World character, in an encounter) was silently no flux."""
    session = Session(seed=5)
    session.gw.character("Rin", level=1, new=True)
    session.gw.draw()
    session.gw.encounter_start()
    _natural_1(session, "1d20+3", "Rni")
    event = session.log[-1]
    assert event.kind == "gw.flux_ask"
    assert event.summary() == ("ALPHA FLUX? A natural 1 (1d20+3) by 'Rni', who is not a Gamma World character: "
                               "whose roll was it — Rin? (%flux NAME --force)")
    result = session.gw.flux("Rin", force=True)
    assert result.kind == "flux"


def test_gw_alpha_10_two_natural_1s_in_one_roll_say_two_fluxes() -> None:
    session = Session(seed=5)
    session.gw.character("Rin", level=4, new=True)
    session.gw.draw()
    session.gw.encounter_start()
    _natural_1(session, "2d20", "Rin", ones=2)  # earlier single 1s each left a flux pending too
    assert session.log[-1].data["detail"]["count"] == 2
    assert session.log[-1].summary().startswith("ALPHA FLUX ×2! Rin rolled 2 natural 1s (2d20) — after this "
                                                "action, 2 times:")


def test_gw_alpha_11_deck_edits_are_refused_during_an_encounter() -> None:
    """Seed 000: decks change after an extended rest (or between sessions); mid-encounter edits were
    accepted without a word. Nothing is recorded by the refusal."""
    session = table_of_five()
    session.gw.encounter_start()
    before = len(session.log)
    for edit in (lambda: session.gw.deck_add("Rin", "Sap Bloom"), lambda: session.gw.deck_remove("Rin", "Sap Bloom")):
        with pytest.raises(RuleError) as error:
            edit()
        assert str(error.value) == ("Rin's deck cannot change during an encounter: decks change after an extended "
                                    "rest (%rest) or between sessions (GW-ALPHA-11)")
    assert len(session.log) == before
    session.gw.encounter_end()
    session.gw.rest(draw=False)
    assert session.gw.deck_remove("Rin", "Sap Bloom").kind == "deck_remove"


def test_gw_alpha_11_deck_edits_only_once_every_card_is_back() -> None:
    """Seed 000:40: every alpha card returns at an extended rest or a session's end, and only then
    may a deck change: between encounters (cards readied) and after a rest that drew again, refused."""
    session = table_of_five()
    session.gw.encounter_start()
    session.gw.encounter_end()
    before = len(session.log)
    with pytest.raises(RuleError, match=r"Rin's deck changes only when every alpha card is back in its deck \(\d+ "):
        session.gw.deck_add("Rin", "Sap Bloom")
    with pytest.raises(RuleError, match="only when every alpha card is back"):
        session.gw.deck_add("GM", "Sap Bloom")  # the GM deck too: its cards are readied
    session.gw.rest()  # back, shuffled and drawn again at once
    with pytest.raises(RuleError, match="only when every alpha card is back"):
        session.gw.deck_remove("Rin", "Sap Bloom")
    assert len(session.log) == before + 1
    session.gw.rest(draw=False)  # back and shuffled; nobody draws yet
    assert session.gw.deck_add("Rin", "Bristle Hide").kind == "deck_add"
    assert session.gw.deck_add("GM", "Sap Bloom").kind == "deck_add"


def test_gw_alpha_02_copy_limit_is_reported_on_add_not_only_at_the_next_draw() -> None:
    session = Session(seed=2)
    session.gw.deck_new("Rin")
    fine = session.gw.deck_add("Rin", "Sap Bloom", 2)
    assert "breaks" not in str(fine)
    over = str(session.gw.deck_add("Rin", "Sap Bloom"))
    assert ("warning: Rin's deck now breaks the deck-building rules (GW-ALPHA-02): 3 copies of Sap Bloom > 2; "
            "%deck remove Rin CARD fixes it") in over
    assert "breaks" not in str(session.gw.deck_add("Rin", "Bristle Hide"))  # only the name just added


def test_gw_alpha_11_removing_more_copies_than_the_deck_holds_is_refused() -> None:
    """A rebuilt deck holds every copy it owns, so the one refusal left is asking for more than it holds:
    one line naming the deck, the card and both numbers, and nothing recorded."""
    session = table_of_five()
    session.gw.encounter_start()
    session.gw.encounter_end()
    session.gw.rest(draw=False)
    held = [c for c in session.gw.state.table.home_of(deck_zone("Rin"))
            if session.gw.state.catalog.card(c.def_id, "en").name == "Sap Bloom"]
    before = len(session.log)
    with pytest.raises(UsageError) as error:
        session.gw.deck_remove("Rin", "Sap Bloom", count=len(held) + 1)
    assert str(error.value) == (f"Rin's deck holds {len(held)} Sap Bloom, so {len(held) + 1} cannot be "
                                "removed")
    assert len(session.log) == before
    assert session.gw.deck_remove("Rin", "Sap Bloom", count=len(held)).kind == "deck_remove"
