"""What a player reads of each step is drawn from their view, one test per
finding: a hidden fighter is "someone" in a reply and never announced; `%table hide` matches names
as every name is; outcomes alone in attack and defence replies; ask ids that count one player's
asks; no bidi or zero-width control in a story; a player's check never draws the GM's secret dice;
the approval list shows what will be rolled; an ask's spec is read when the GM asks."""

from __future__ import annotations

import json
import re

import pytest

from gamekernel import Session
from gamekernel.remote.intents import handle
from gamekernel.remote.projection import Audience
from gamekernel.remote.views import view

KNIFE = "ST=10 DX=14 HT=10 HP=10 weapon=Knife:14:thr-1 imp"


def ambush(first: str = "Assassin") -> Session:
    """Aiko (alice) and Bren (bob) against a hidden Assassin, who acts first (or `first` does)."""
    s = Session(seed=3)
    s.gurps.char_new("Aiko", st=11, dx=13)
    s.gurps.char_new("Bren", st=11, dx=10)
    s.seats.seat("alice", "Aiko")
    s.seats.seat("bob", "Bren")
    s.combat.npc("Assassin", KNIFE)
    s.seats.hide("Assassin")
    s.combat.start("Aiko Bren Assassin")
    while s.combat.state.current.name != first:
        s.combat.next()
    return s


def players_text(s: Session, *users: str) -> str:
    return json.dumps([view(s, Audience.player(u), s.public_table()) for u in users], ensure_ascii=False)


def test_the_defender_of_a_hidden_fighter_reads_someone_not_his_name():
    """GURPS-SR-09: what the players must not know stays the GM's (here, who attacks)."""
    s = ambush()
    s.combat.attack("Assassin", "Aiko", "Knife")
    reply = handle(s, "alice", {"action": "defend"})
    assert reply.ok, reply
    assert reply.text.startswith("someone attacks Aiko, who tries ") and "Assassin" not in reply.text
    assert "Assassin" not in players_text(s, "alice", "bob")


def test_a_player_cannot_name_a_hidden_fighter_and_is_not_told_he_exists():
    s = ambush(first="Aiko")
    for target in ("Assassin", "assassin", "Ass", "Nobody"):
        before = len(s.log)
        reply = handle(s, "alice", {"action": "attack", "target": target, "weapon": "Punch"})
        assert reply.ok is False and len(s.log) == before
        assert reply.text == "nobody by that name is in the fight as you see it: Aiko, Bren"  # the same for any


def test_a_hidden_fighters_turn_is_never_announced():
    s = ambush()
    fight = view(s, Audience.player("alice"), s.public_table())["fight"]
    assert fight["turn"] == "" and fight["order"] == ["Aiko", "Bren"] and not fight["my_turn"]  # he opened it
    refused = handle(s, "alice", {"action": "attack", "target": "Bren", "weapon": "Punch"})
    assert refused.text == "it is not your turn yet"
    s.combat.next()  # Aiko, Bren, then the Assassin again: the turn stays Bren's as the players see it
    s.combat.next()
    s.combat.next()
    assert s.combat.state.current.name == "Assassin"
    fight = view(s, Audience.player("alice"), s.public_table())["fight"]
    assert (fight["round"], fight["turn"]) == (1, "Bren") and s.combat.state.round == 2
    assert "?" not in json.dumps(fight)


@pytest.mark.parametrize("typed", ["assassin", "ASSASSIN", "Ａｓｓａｓｓｉｎ", "Assa"])
def test_table_hide_matches_a_name_as_every_name_is(ip, typed):
    from gamekernel.magics import current_session

    ip.run_line_magic("combat", f"npc Assassin {KNIFE}")
    assert repr(ip.run_line_magic("table", f"hide {typed}")) == "Assassin is hidden from the players"
    assert current_session().seats.state.hidden == ["Assassin"]
    assert repr(ip.run_line_magic("table", f"show {typed.lower()}")) == "the players see Assassin again"


def test_table_hide_refuses_a_name_of_nobody_in_one_line(ip):
    from gamekernel.magics import current_session

    ip.run_line_magic("combat", f"npc Assassin {KNIFE}")
    before = len(current_session().log)
    assert repr(ip.run_line_magic("table", "hide Asassin")) == (
        "error: no fighter or character 'Asassin' at this table (did you mean Assassin?)")
    assert repr(ip.run_line_magic("table", "hide Nobody")) == "error: no fighter or character 'Nobody' at this table"
    assert len(current_session().log) == before and current_session().seats.state.hidden == []


def test_outcome_disclosure_covers_attack_and_defence_replies():
    """GURPS-SR-06: the margin is what `disclose outcome` keeps from the players."""
    s = Session(seed=8)
    s.gurps.char_new("Aiko", st=11, dx=13)
    s.seats.seat("alice", "Aiko")
    s.combat.npc("Orc", "ST=12 DX=11 HT=12 HP=18 weapon=Club:11:sw cr")
    s.seats.disclose("outcome")
    s.combat.start("Aiko Orc")
    told = []
    for _ in range(6):
        fight = s.combat.state
        if fight.current.name == "Aiko" and fight.pending is None:
            told.append(handle(s, "alice", {"action": "attack", "target": "Orc", "weapon": "Punch"}).text)
            if s.combat.state.pending is not None:
                s.combat.defend("Orc")
        elif fight.current.name == "Orc" and fight.pending is None:
            s.combat.attack("Orc", "Aiko", "Club")
            if s.combat.state.pending is not None:
                told.append(handle(s, "alice", {"action": "defend"}).text)
        s.combat.next()
    assert told and all(text for text in told)
    for text in told:  # no roll, target, margin, odds or the NPC's defences
        for shape in (r"rolled", r"odds", r"by \d", r"(Parry|Dodge|Block) \d", r"may defend", r"\bvs\b", r"\[",
                      r"\(\d+\)"):
            assert not re.search(shape, text), (shape, text)


def test_ask_ids_count_only_that_players_asks():
    s = Session(seed=2)
    s.gurps.char_new("Aiko")
    s.gurps.char_new("Bren")
    s.seats.seat("alice", "Aiko")
    s.seats.seat("bob", "Bren")
    for _ in range(5):
        s.roll("3d6")
    s.seats.ask("bob", "Per")
    s.note("the GM notes something", gm_only=True)
    s.seats.ask("alice", "Will")
    s.seats.ask("bob", "Will-2")
    table = s.public_table()
    assert [a["id"] for a in view(s, Audience.player("bob"), table)["asks"]] == [1, 2]
    assert [a["id"] for a in view(s, Audience.player("alice"), table)["asks"]] == [1]
    assert handle(s, "bob", {"action": "answer", "ask": 2}).text == "rolled: the GM has the result"
    assert [a["spec"] for a in view(s, Audience.player("bob"), table)["asks"]] == ["Per"]
    s.seats.ask("bob", "Per+1")  # a new ask is never the number of an answered one
    assert [a["id"] for a in view(s, Audience.player("bob"), table)["asks"]] == [1, 3]
    s.undo()
    assert [a["id"] for a in view(s, Audience.player("bob"), table)["asks"]] == [1]  # replay agrees


def test_an_ask_spec_is_read_when_the_gm_asks(ip):
    from gamekernel.magics import current_session

    for line in ("char new Bren", "table seat bob Bren"):
        ip.run_line_magic(*line.split(" ", 1))
    s = current_session()
    before = len(s.log)
    refused = repr(ip.run_line_magic("table", "ask bob Per canary"))
    assert refused.startswith("error: ") and "\n" not in refused and len(s.log) == before
    assert repr(ip.run_line_magic("table", "ask bob Per @Aiko")).startswith("error: an ask rolls for bob's Bren")
    assert "asked bob for Per-1 dark" in repr(ip.run_line_magic("table", "ask bob Per-1 dark"))
    s.mtg.library_load("Mira", "m.txt", text="4 Forest\n")
    s.seats.seat("bob", "Mira")
    s.seats.unseat("bob")
    s.seats.seat("bob", "Mira")
    s.seats.seat("bob", "Bren")  # his first character has no GURPS sheet: the ask rolls for Bren
    ip.run_line_magic("table", "ask bob Will")
    assert list(s.seats.state.asks.values())[-1]["character"] == "Bren"


@pytest.mark.parametrize("spec", ["Per --secret", "Per -s", "Per --gm", "Per @Bren"])
def test_a_players_check_never_draws_the_gms_secret_dice(spec):
    """GURPS-SR-09: secret rolls are the GM's; a player's check is public."""
    s = Session(seed=4)
    s.gurps.char_new("Aiko")
    s.gurps.char_new("Bren")
    s.seats.seat("alice", "Aiko")
    s.roll("1d6", secret=True)  # the secret dice are keyed
    before = (len(s.log), s.secret_rng.getstate(), s.rng.getstate())
    reply = handle(s, "alice", {"action": "check", "spec": spec})
    assert reply.ok is False and reply.text in {
        "your rolls are public: a secret roll is the GM's to ask for",
        "name no character in the spec: choose which of yours rolls"}
    assert (len(s.log), s.secret_rng.getstate(), s.rng.getstate()) == before


CONTROLS = "\u202e\u202a\u2066\u2069\u200b\u200d\u2060\ufeff\u2028"


def test_bidi_and_zero_width_controls_never_reach_a_story():
    s = Session(seed=6)
    s.gurps.char_new("A\u200bi\u202eko")
    s.seats.seat("alice", "Aiko")
    s.roll("3d6 won 6 : \u202eby bob\u202c")
    s.note("a \u2066note\u2069 with\u200b controls\u2028here")
    s.gurps.check("DX-1 in \u202ethe dark", actor="Aiko")
    reply = handle(s, "alice", {"action": "roll", "dice": "2d6 won \u202e6 : )by bob("})
    assert reply.ok and reply.text == "Aiko rolls won 6 : )by bob(: " + reply.text.split(": ")[-1]
    seen = players_text(s, "alice")
    assert not any(c in seen or c in reply.text for c in CONTROLS)
    assert "won 6 : by bob" in seen and "a note with controls here" in seen and "DX-1 in the dark" not in seen
    labels = [e.data["result"]["label"] for e in s.log if e.kind == "roll"]
    assert labels == ["won 6 : by bob", "won 6 : )by bob("]  # recorded as read
    assert "Aiko" in s.gurps.state.characters


def test_the_approval_list_shows_what_will_be_rolled_escaped():
    from gamekernel.table.players_widget import PlayersPanel, panel_facts, panel_text

    s = Session(seed=1)
    s.gurps.char_new("Aiko")
    s.seats.seat("alice", "Aiko")
    s.seats.approval(True)
    assert handle(s, "alice", {"action": "roll", "dice": "3d6+2 <b>sneak</b>", "junk": "x" * 100_000}).ok
    assert handle(s, "alice", {"action": "check", "spec": "Stealth-2", "character": "Aiko"}).ok
    pending = panel_facts(s)["pending"]
    assert [p["action"] for p in pending] == ["roll · 3d6+2 <b>sneak</b>", "check · Stealth-2 · (Aiko)"]
    assert "1: alice wants roll · 3d6+2 <b>sneak</b>" in panel_text(panel_facts(s))
    assert s.seats.pending[0]["intent"] == {"action": "roll", "dice": "3d6+2 <b>sneak</b>"}  # nothing else kept
    html = PlayersPanel(s).snapshot_html()
    assert "&lt;b&gt;sneak&lt;/b&gt;" in html and "<b>sneak</b>" not in html


@pytest.mark.parametrize(("intent", "error"), [
    ({"action": "roll", "dice": "x" * 201}, "the intent needs a short text in dice"),
    ({"action": "fly"}, "unknown action 'fly'; known: roll, check, attack, defend, draw, tap, overcharge, boost, "
                        "answer"),
])
def test_with_approval_on_a_bad_intent_is_refused_at_once(intent, error):
    s = Session(seed=1)
    s.gurps.char_new("Aiko")
    s.seats.seat("alice", "Aiko")
    s.seats.approval(True)
    assert handle(s, "alice", intent) == handle(s, "alice", intent)
    assert handle(s, "alice", intent).text == error and s.seats.pending == []


def test_a_hidden_mutant_or_library_owner_is_in_no_players_rows():
    s = Session(seed=1)
    s.gurps.char_new("Aiko")
    s.seats.seat("alice", "Aiko")
    s.gw.character("Rin", level=4, new=True)
    s.mtg.library_load("Mira", "m.txt", text="4 Forest\n")
    s.seats.hide("rin")
    s.seats.hide("MIRA")
    seen = view(s, Audience.player("alice"), s.public_table())
    assert seen["gamma"] == [] and seen["mtg"] == []
