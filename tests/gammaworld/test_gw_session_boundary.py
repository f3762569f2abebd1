"""Game-session boundaries as seed 000 says (GW-ALPHA-11; 000:33 shuffle before a session, 000:40 every
alpha card back at a session's end, and only then may a deck change): opening a campaign in a new kernel
is a new game session unless the GM says `--same-session`; `%campaign session new` starts one at any
time. Each is recorded as an event, so the log shows it and `%undo` takes it back."""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.errors import RuleError

CARDS = ("Sap Bloom", "Bristle Hide", "Sticky Pads", "Gravity Knot")


def played(folder) -> list[str]:
    """A campaign where Rin (own deck) and Bren (GM deck) hold readied cards and one encounter ended."""
    session = Session(seed=4)
    session.campaign_open(folder)
    session.gw.deck_new("Rin")
    for card in CARDS:
        session.gw.deck_add("Rin", card, 2)
    session.gw.character("Bren", level=1, new=True)
    session.gw.draw()
    session.gw.encounter_start()
    session.gw.encounter_end()  # the first hands are in the discard pile
    readied = session.gw.state.readied("Rin") + session.gw.state.readied("Bren")
    session.campaign_close()
    return readied


def out_of_decks(session: Session) -> int:
    state = session.gw.state
    return sum(1 for card in state.table.cards.values() if card.zone != card.home)


def test_gw_alpha_11_a_new_kernel_opening_the_campaign_is_a_new_game_session(tmp_path):
    played(tmp_path / "c")
    session = Session()
    status = session.campaign_open(tmp_path / "c")
    assert out_of_decks(session) == 0  # readied and discarded cards all home
    assert session.gw.state.readied("Rin") == [] and session.gw.state.readied("Bren") == []
    event = session.log[-1]
    assert event.kind == "gw.rest" and event.data["detail"]["session"] is True
    assert "New game session: 2 readied cards and all discards back to their decks" in str(status)
    assert "New game session" in event.summary()
    assert session.gw.deck_add("Rin", "Sap Bloom").kind == "deck_add"  # decks may change now
    session.undo(1)
    session.undo(1)  # the session boundary is an event like any other: undo puts the cards back out
    assert len(session.gw.state.readied("Rin")) == 1 and out_of_decks(session) > 2
    session.campaign_close()


def test_gw_alpha_11_the_gm_says_a_restart_is_the_same_session(tmp_path):
    readied = played(tmp_path / "c")
    session = Session()
    status = session.campaign_open(tmp_path / "c", same_session=True)
    assert session.gw.state.readied("Rin") + session.gw.state.readied("Bren") == readied
    assert session.log[-1].kind != "gw.rest" and "New game session" not in str(status)
    with pytest.raises(RuleError, match="only when every alpha card is back"):
        session.gw.deck_add("Rin", "Sap Bloom")
    session.campaign_close()


def test_gw_alpha_11_new_session_magics(ip, tmp_path):
    played(tmp_path / "c")
    shown = str(ip.run_line_magic("campaign", f"open {tmp_path / 'c'} --same-session"))
    assert "New game session" not in shown
    shown = str(ip.run_line_magic("campaign", "session new"))
    assert "New game session: 2 readied cards" in shown
    assert "New game session" in str(ip.run_line_magic("log", ""))
    refused = str(ip.run_line_magic("campaign", "session old"))
    assert refused.startswith("error: usage: %campaign session new")
    refused = str(ip.run_line_magic("campaign", "status --same-session"))
    assert refused == "error: --same-session goes with %campaign open only"
    ip.run_line_magic("campaign", "close")


def test_a_new_session_without_gamma_world_records_nothing(tmp_path):
    session = Session(seed=1)
    session.campaign_open(tmp_path / "c")
    session.roll("3d6")
    session.campaign_close()
    again = Session()
    status = again.campaign_open(tmp_path / "c")
    assert again.log[-1].kind == "campaign.open" and "New game session" not in str(status)
    assert str(again.game_session_new()) == "New game session: nothing to return or shuffle"
    again.campaign_close()


def test_gw_alpha_11_the_new_session_at_open_does_not_replay_the_players_table(tmp_path):
    """The boundary is recorded, not described: describing it would show the hands as the players know
    them, which for a campaign holding a secret rebuilds the players' projection over the whole log
    (that made the open of a 100,000-event campaign 9.3 s where reading it takes 1.0 s)."""
    played(tmp_path / "c")
    session = Session(seed=5)
    session.campaign_open(tmp_path / "c", same_session=True)
    session.roll("1d6", secret=True)  # the campaign now holds a secret
    session.campaign_close()
    session = Session()
    session.campaign_open(tmp_path / "c")
    assert session.log[-1].kind == "gw.rest" and session.log[-1].data["detail"]["session"] is True
    assert session._public_table is None  # nobody asked for the players' table: not built
    assert out_of_decks(session) == 0
    session.campaign_close()
