"""A player's intent: refused unless the user is seated and the character theirs (their turn, their
defence); carried out by the same Session method as the magic (the same event, stamped `by`); a
refusal is one line and changes nothing; with approval on it waits for the GM."""

from __future__ import annotations

import pytest

from gamekernel.magics import current_session
from gamekernel.remote.intents import handle

DECK = "4 Forest\n4 Llanowar Elves\n4 Serra Angel\n4 Plains\n"


@pytest.fixture
def table(ip):
    for line in ("char new Aiko dx=13 st=11", "char skill Stealth 4", "char weapon Aiko Broadsword:Broadsword:sw+1 cut",
                 "char new Bren st=12", "table seat alice Aiko", "table seat bob Bren"):
        magic, _, rest = line.partition(" ")
        assert "error" not in repr(ip.run_line_magic(magic, rest)), line
    return ip


def _event(session):
    e = session.log[-1]
    return e.kind, dict(e.data), e.actor, e.secret


@pytest.mark.parametrize(("line", "intent"), [
    (("check", "Stealth-2 @Aiko"), {"action": "check", "spec": "Stealth-2"}),
    (("roll", "3d6+2 @Aiko"), {"action": "roll", "dice": "3d6+2"}),
])
def test_an_intent_records_the_same_event_as_the_magic_and_says_who(table, line, intent):
    session = current_session()
    table.run_line_magic("seed", "9")
    table.run_line_magic(*line)
    by_magic = _event(current_session())
    assert current_session().log[-1].by is None
    table.run_line_magic("seed", "9")
    reply = handle(session, "alice", intent)
    assert reply.ok, reply
    assert _event(session) == by_magic
    assert session.log[-1].by == "alice"


def test_an_mtg_check_and_a_gamma_world_draw_go_the_magics_way(table):
    session = current_session()
    session.mtg.library_load("Mira", "mira.txt", text=DECK)
    session.seats.seat("alice", "Mira")
    table.run_line_magic("seed", "4")
    table.run_line_magic("check", "green 1 @Mira")
    by_magic = _event(session)
    table.run_line_magic("seed", "4")
    session.undo()
    reply = handle(session, "alice", {"action": "check", "spec": "green 1", "character": "Mira"})
    assert reply.ok, reply
    assert _event(session) == by_magic and session.log[-1].by == "alice"


@pytest.mark.parametrize(("user", "intent", "error"), [
    ("carol", {"action": "check", "spec": "DX"}, "you have no seat at this table: ask the GM to seat you"),
    ("alice", {"action": "check", "spec": "DX", "character": "Bren"}, "'Bren' is not one of your characters"),
    ("alice", {"action": "fly"}, "unknown action 'fly'; known: roll, check, attack, defend, draw, tap, overcharge, "
                                 "boost, answer"),
    ("alice", {"action": "check", "spec": "DX\n%load evil"}, "the intent needs a short text in spec"),
    ("alice", {"action": "check", "spec": "x" * 201}, "the intent needs a short text in spec"),
    ("alice", {"action": "roll", "dice": 7}, "the intent needs a short text in dice"),
    ("alice", ["check"], "an intent is an object with an action"),
    ("alice", {"action": "attack", "target": "Bren", "weapon": "Broadsword"}, "no fight is running"),
    ("alice", {"action": "answer", "ask": 99}, "the GM has not asked you for that roll (or it was answered)"),
    ("alice", {"action": "roll", "dice": "3d+"}, "expected a number after '+' at column 4"),
])
def test_a_bad_intent_is_one_line_to_that_player_and_changes_nothing(table, user, intent, error):
    session = current_session()
    before = (len(session.log), session.state.to_dict(), session.rng.getstate())
    reply = handle(session, user, intent)
    assert reply.ok is False and reply.text == error
    assert (len(session.log), session.state.to_dict(), session.rng.getstate()) == before


def test_in_a_fight_a_player_acts_on_their_turn_and_defends_only_when_attacked(table):
    session = current_session()
    table.run_line_magic("combat", "start Aiko Bren")
    current = session.combat.state.current.name
    other_user, other = ("bob", "Bren") if current == "Aiko" else ("alice", "Aiko")
    user = "alice" if current == "Aiko" else "bob"
    refused = handle(session, other_user, {"action": "attack", "target": current, "weapon": "Punch"})
    assert refused.text == f"it is {current}'s turn, not yours"
    assert handle(session, user, {"action": "defend"}).text == "no attack waits for your defence"
    weapon = session.combat.state.current.weapons[0].name
    assert handle(session, user, {"action": "attack", "target": other, "weapon": weapon}).ok
    if session.combat.state.pending is not None:
        done = handle(session, other_user, {"action": "defend"})
        assert done.ok and session.log[-1].kind == "combat.defend" and session.log[-1].by == other_user


def test_an_ask_is_answered_by_its_player_alone_and_its_result_is_the_gms(table):
    session = current_session()
    asked = repr(table.run_line_magic("table", "ask bob Will"))
    seq = int(asked.split("(event ")[1].split(")")[0])
    assert session.seats.state.asks[seq]["n"] == 1  # bob's first ask: his page calls it 1, not the event number
    number = 1
    assert handle(session, "alice", {"action": "answer", "ask": number}).ok is False
    reply = handle(session, "bob", {"action": "answer", "ask": number})
    assert reply.ok and reply.text == "rolled: the GM has the result"
    check = session.log[-2]
    assert check.kind == "gurps.check" and check.secret and check.by == "bob" and check.actor == "Bren"
    assert session.seats.state.asks == {}


def test_with_approval_on_an_action_waits_for_the_gm(table):
    session = current_session()
    table.run_line_magic("table", "approve on")
    count = len(session.log)
    assert handle(session, "alice", {"action": "roll", "dice": "1d6"}).text == "sent: it waits for the GM's approval"
    assert handle(session, "carol", {"action": "roll", "dice": "1d6"}).ok is False
    assert len(session.log) == count and [p["user"] for p in session.seats.pending] == ["alice"]
    approved = repr(table.run_line_magic("table", "approve 1"))
    assert approved.startswith("1d6 → [") and session.log[-1].kind == "roll"
    assert session.log[-1].by == "alice" and session.seats.pending == []
    handle(session, "bob", {"action": "roll", "dice": "2d6"})
    assert repr(table.run_line_magic("table", "refuse 1")) == "the GM refused the action of bob"
    assert repr(table.run_line_magic("table", "approve 7")) == "error: no player action 7 waits for approval"


def test_a_bare_table_is_still_the_dashboard(table):
    from gamekernel.table.widget import TableDashboard

    assert isinstance(table.run_line_magic("table", ""), TableDashboard)


def test_reveal_and_disclose_through_the_magics(table):
    session = current_session()
    table.run_line_magic("check", "Per --secret @Aiko")
    seq = session.log[-1].seq
    assert repr(table.run_line_magic("reveal", str(seq))) == f"event {seq} is public now"
    assert repr(table.run_line_magic("reveal", str(seq))) == f"error: event {seq} is revealed already"
    assert repr(table.run_line_magic("reveal", "1")) == "error: event 1 is not secret: everyone sees it already"
    assert repr(table.run_line_magic("table", "disclose outcome")) == "players see only whether a check succeeded"
