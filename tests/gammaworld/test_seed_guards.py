"""Every Gamma World seed rule guarded (seed 000, RULES.md GW-ALPHA-xx), names that never
fork a character, and a natural 1 without `@Name`."""

from __future__ import annotations

import pytest

from gamekernel.errors import GameKernelError, NotFoundError, RuleError
from gamekernel.gammaworld.rules.state import GM_DECK, deck_zone
from gamekernel.magic_base import current_session
from gamekernel.session import replay
from gamekernel.table_session import Session


def run(ip, magic: str, line: str = ""):
    return ip.run_line_magic(magic, line)


def two_barbs(seed: int = 5) -> Session:
    """Rin (level 4) whose two readied cards are both Ivory Barbs (her deck holds only those two)."""
    session = Session(seed=seed)
    session.gw.deck_new("Rin")
    session.gw.deck_add("Rin", "Ivory Barbs", 2)
    session.gw.character("Rin", level=4)
    session.gw.draw("Rin")
    return session


# -- names never fork a character ----------------------------------------------------------------


def test_magics_resolve_case_and_width_and_refuse_typos_without_creating(ip) -> None:
    run(ip, "gw", "new Rin level 4")
    assert "Rin draws" in repr(run(ip, "draw", "alpha @rin"))  # case: the same Rin
    session = current_session()
    assert list(session.gw.state.characters) == ["Rin"]
    refused = repr(run(ip, "draw", "alpha @Rni"))
    assert "no Gamma World character 'Rni'; did you mean Rin?" in refused
    assert "Rin" in repr(run(ip, "gw", "ＲＩＮ level 8"))  # full width: the same Rin
    assert session.gw.state.characters["Rin"].level == 8
    assert "did you mean Rin" in repr(run(ip, "gw", "rni level 8"))
    assert "%gw new Bob" in repr(run(ip, "gw", "Bob level 2"))  # nobody close: how to create one
    assert "already a Gamma World character" in repr(run(ip, "gw", "new rin"))
    assert list(session.gw.state.characters) == ["Rin"]
    assert "Rin" in repr(run(ip, "hand", "rin --static")) and "Rin" in repr(run(ip, "hand", "@RIN --static"))


def test_mtg_actor_and_gurps_character_resolve_through_the_same_lookup() -> None:
    session = Session(seed=2)
    session.mtg.library_load("Mira", "mira.txt", text="4 Elvish Mystic\n12 Forest\n4 Runeclaw Bear\n")
    assert session.mtg.actor("mira") == "Mira" and session.mtg.actor("ＭＩＲＡ") == "Mira"
    with pytest.raises(NotFoundError, match="did you mean Mira"):
        session.mtg.actor("Mria")
    session.mtg.library_load("mira", "mira.txt", text="4 Elvish Mystic\n16 Forest\n")  # a reload, not a second library
    assert list(session.mtg.state.decks) == ["Mira"]
    session.gurps.char_new("Cara", dx=12)
    assert session.gurps.character("cara").name == "Cara"
    with pytest.raises(NotFoundError, match="did you mean Cara"):
        session.gurps.character("Crau")
    with pytest.raises(NotFoundError, match="did you mean Cara"):
        session.combat.start("Carra")
    session.combat.start("cara")
    assert [c.name for c in session.combat.state.combatants] == ["Cara"]


# -- GW-ALPHA-10: a natural 1 with no @Name ------------------------------------------------------


def roll_until_one(session: Session) -> None:
    for _ in range(600):
        if session.roll("1d20+4").total == 5:
            return
    raise AssertionError("no natural 1 in 600 rolls")


def test_gw_alpha_10_natural_1_without_a_name_is_the_only_characters_flux() -> None:
    """Seed 000 step 5: 「君が遭遇中に行なうd20ロールのいずれかで“出目1”を出したなら」 - any d20 roll."""
    session = Session(seed=3)
    session.gw.character("Rin", new=True)
    session.gw.draw("Rin")
    session.gw.encounter_start()
    roll_until_one(session)
    assert session.log[-1].kind == "gw.flux_pending" and session.log[-1].actor == "Rin"
    assert session.gw.state.flux == {"Rin": 1}


def test_gw_alpha_10_natural_1_without_a_name_with_several_characters_asks_whose(ip) -> None:
    run(ip, "gw", "new Rin")
    run(ip, "gw", "new Bren")
    run(ip, "draw", "alpha")
    run(ip, "encounter", "start")
    for _ in range(600):
        result = run(ip, "roll", "1d20")
        if "ALPHA FLUX?" in repr(result):
            break
    text = repr(result)
    assert "whose roll was it — Rin, Bren? (%flux NAME --force)" in text
    assert text.count("\n") <= 2  # the roll line and the one-line prompt


def test_gw_alpha_10_one_undo_takes_back_the_roll_and_its_flux() -> None:
    session = Session(seed=3)
    session.gw.character("Rin", new=True)
    session.gw.draw("Rin")
    session.gw.encounter_start()
    roll_until_one(session)
    assert session.gw.state.flux == {"Rin": 1}
    taken = session.undo()
    assert [e.kind for e in taken] == ["roll", "gw.flux_pending"]
    assert session.gw.state.flux == {} and session.active[-1].kind != "gw.flux_pending"
    assert [e.kind for e in session.redo()] == ["roll", "gw.flux_pending"] and session.gw.state.flux == {"Rin": 1}
    assert session.log[-1].kind == "redo"  # the log stays append-only


# -- GW-ALPHA-08/10: the tapped copy -------------------------------------------------------------


def test_gw_alpha_10_flux_discards_the_tapped_copy_and_says_which() -> None:
    session = two_barbs()
    first, second = session.gw.state.readied("Rin")
    session.gw.tap("Rin", "Ivory Barbs")
    assert session.gw.state.table.cards[first].tapped and not session.gw.state.table.cards[second].tapped
    result = session.gw.flux("Rin", "Ivory Barbs", force=True)
    assert result.detail["copy"] == first and first not in session.gw.state.readied("Rin")
    assert f"the tapped copy of Ivory Barbs ({first})" in repr(result)
    assert second in session.gw.state.readied("Rin")


def test_gw_alpha_08_untap_picks_the_tapped_copy() -> None:
    session = two_barbs()
    first, second = session.gw.state.readied("Rin")
    session.gw.tap("Rin", "Ivory Barbs")
    session.gw.tap("Rin", "Ivory Barbs")  # the second copy now
    session.gw.untap("Rin", first)
    result = session.gw.untap("Rin", "Ivory Barbs")
    assert result.detail["copy"] == second and not session.gw.state.table.cards[second].tapped
    assert f"the tapped copy of Ivory Barbs ({second})" in repr(result)


def test_gw_alpha_12_overcharge_is_refused_on_a_used_power() -> None:
    """Seed 000 step 3: a power is used once per encounter and the card tapped; a used power cannot
    be overcharged."""
    session = Session(seed=4)
    session.gw.deck_new("Rin")
    session.gw.deck_add("Rin", "Gravity Knot", 2)
    session.gw.deck_add("Rin", "Thought Needle", 2)
    session.gw.deck_add("Rin", "Heavy Knuckle", 2)
    session.gw.deck_add("Rin", "Ember Thought", 2)
    session.gw.character("Rin", level=4)
    session.gw.draw("Rin")
    card = session.gw.hand("Rin").cards[0].uid
    session.gw.tap("Rin", card)
    events, rng = len(session.log), session.rng.getstate()
    with pytest.raises(RuleError, match="is tapped: its power is used"):
        session.gw.overcharge("Rin", card)
    assert len(session.log) == events and session.rng.getstate() == rng


# -- GW-ALPHA-09/11: encounters -----------------------------------------------------------------


def test_gw_alpha_09_encounter_end_without_an_encounter_is_refused_unless_forced(ip) -> None:
    run(ip, "gw", "new Rin")
    run(ip, "draw", "alpha @Rin")
    run(ip, "encounter", "start")
    assert "every readied card discarded" in repr(run(ip, "encounter", "end"))
    assert "no encounter is running" in repr(run(ip, "encounter", "end"))
    assert "every readied card discarded" in repr(run(ip, "encounter", "end --force"))


def test_gw_alpha_11_rest_ends_the_encounter() -> None:
    session = Session(seed=2)
    session.gw.character("Rin", new=True)
    session.gw.draw("Rin")
    session.gw.encounter_start()
    session.gw.rest()
    assert not session.gw.state.encounter
    session.undo()
    assert session.gw.state.encounter


# -- GW-ALPHA-02: deck building -----------------------------------------------------------------


def test_gw_alpha_02_gm_deck_is_not_held_to_the_players_limits() -> None:
    session = Session(seed=1)
    session.gw.setup(["Sap Bloom", "Sap Bloom", "Sap Bloom"])
    assert session.gw.deck_validate("GM").ok
    assert "ok" in repr(session.gw.deck_validate("GM"))


def test_gw_alpha_02_an_illegal_player_deck_is_named_when_drawn_from() -> None:
    session = Session(seed=1)
    session.gw.deck_new("Rin")
    session.gw.deck_add("Rin", "Sap Bloom", 4)
    result = session.gw.draw("Rin")
    assert result.detail["source"] == "own"
    text = repr(result)
    assert "Rin's deck breaks the deck-building rules: too few cards: 4 < 7; 4 copies of Sap Bloom > 2" in text
    session.gw.character("Bren", new=True)
    assert "deck-building" not in repr(session.gw.draw("Bren"))  # from the GM deck: no player limits


# -- options ---------------------------------------------------------------------------------------


def test_gw_config_is_an_event_that_applies_to_existing_decks(ip) -> None:
    run(ip, "gw", "new Rin")
    run(ip, "draw", "alpha @Rin")
    run(ip, "deck", "new Rin alpha")
    session = current_session()
    assert session.gw.state.table.zones[GM_DECK].on_empty.mode == "reshuffle"
    run(ip, "gw", "config empty_gm_deck=error empty_own_deck=gm")
    assert session.log[-1].kind == "gw.config"
    assert session.gw.state.table.zones[GM_DECK].on_empty.mode != "reshuffle"
    assert session.gw.state.table.zones[deck_zone("Rin")].on_empty.mode == "fallback"
    assert replay(session.active).to_dict() == session.state.to_dict()  # replayed from the log (the campaign)
    session.undo()
    assert session.gw.state.table.zones[GM_DECK].on_empty.mode == "reshuffle"


def test_refused_gw_commands_change_nothing() -> None:
    session = two_barbs()
    before, events = session.state.to_dict(), len(session.log)
    for call in (lambda: session.gw.encounter_end(), lambda: session.gw.draw("rni"),
                 lambda: session.gw.character("Bob", level=3)):
        with pytest.raises(GameKernelError):
            call()
    assert session.state.to_dict() == before and len(session.log) == events


def test_gw_options_are_shown_in_the_hand_widget_header_and_follow_config() -> None:
    from gamekernel.gammaworld.widgets.hand import HandWidget

    session = Session(seed=1)
    session.gw.character("Rin", new=True)
    session.gw.draw("Rin")
    widget = HandWidget(session, "rin")
    assert widget.labels["options"] == widget.labels["options_detail"] == ""  # the defaults: nothing to say
    session.gw.config(flux_outside_encounter=True)
    assert widget.labels["options"] == "house rules: 1 changed"  # one line on the shared screen
    assert widget.labels["options_detail"] == "flux outside an encounter (flux_outside_encounter=true)"
    widget.close()
