"""One definition of "public": no player's view ever holds a secret or its consequences.

Random tables (Hypothesis): public and secret rolls, checks, notes, damage, asks, card draws, MtG
checks and undos, with canaries in every secret label, note and ask; no player or spectator view ever
contains one, and HP after secret damage stays out of every player's view until `%reveal`.
"""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamekernel import Session
from gamekernel.errors import GameKernelError
from gamekernel.remote.projection import GM, SPECTATOR, Audience, PublicTable, shift
from gamekernel.remote.views import view

CANARY = "Zq9canary"
DECK = "4 Forest\n4 Llanowar Elves\n4 Serra Angel\n4 Plains\n4 Lightning Bolt\n"


def table() -> Session:
    s = Session(seed=11)
    s.gurps.char_new("Aiko", st=11, dx=13, skills=[("Stealth", 4)])
    s.gurps.char_new("Bren", st=12, ht=12)
    s.gurps.char_new("Guard", activate=False)
    s.mtg.library_load("Mira", "mira.txt", text=DECK)
    s.seats.seat("alice", "Aiko")
    s.seats.seat("bob", "Bren")
    s.seats.seat("bob", "Mira")
    return s


OPS = st.sampled_from([
    "roll", "secret_roll", "check", "secret_check", "note", "gm_note", "damage", "secret_damage",
    "ask", "mtg_check", "undo", "reveal_last_secret", "disclose",
])


def play(s: Session, op: str, n: int) -> None:
    if op == "roll":
        s.roll("3d6 stairs")
    elif op == "secret_roll":
        s.roll(f"3d6 {CANARY}-{n}", secret=True)
    elif op == "check":
        s.gurps.check("Stealth", actor="Aiko")
    elif op == "secret_check":
        s.gurps.check(f"Per-{n % 3} {CANARY}", actor="Bren", secret=True)
    elif op == "note":
        s.note("the door creaks")
    elif op == "gm_note":
        s.note(f"the guard is {CANARY}", gm_only=True)
    elif op == "damage":
        s.gurps.damage("1d cr", target="Guard")
    elif op == "secret_damage":
        s.gurps.damage(f"{1 + n % 3}d cut", target="Bren", secret=True)
    elif op == "ask":
        s.seats.ask("bob", f"Will-{n % 4} {CANARY}")
    elif op == "mtg_check":
        s.mtg.check("green", 1, actor="Mira")
    elif op == "undo":
        s.undo()
    elif op == "reveal_last_secret":
        secret = [e for e in s.log if e.secret and e.kind != "table.ask" and e.seq not in s.seats.state.revealed]
        if secret:
            s.seats.reveal(secret[-1].seq)
    elif op == "disclose":
        s.seats.disclose("outcome" if s.seats.state.disclose == "full" else "full")


def revealed_text(s: Session) -> str:
    """What the GM made public on purpose: the revealed events' own labels may carry a canary."""
    return json.dumps([dict(e.data) for e in s.log if e.seq in s.seats.state.revealed], ensure_ascii=False)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(OPS, min_size=1, max_size=14))
def test_no_view_but_the_gms_holds_a_canary(ops):
    s = table()
    public = PublicTable(s)
    for n, op in enumerate(ops):
        with contextlib.suppress(GameKernelError):  # a refused step (nothing to undo) changes nothing
            play(s, op, n)
        revealed = CANARY in revealed_text(s)
        for audience in (Audience.player("alice"), Audience(SPECTATOR), Audience.player("carol")):
            text = json.dumps(view(s, audience, public), ensure_ascii=False)
            assert revealed or CANARY not in text, (ops[: n + 1], audience)
    incremental = public.public
    public.rebuild()
    assert public.public == incremental  # kept event by event = rebuilt from the log


def test_hp_after_secret_damage_stays_out_until_revealed():
    s = table()
    public = PublicTable(s)
    s.gurps.damage("3d cut", target="Bren", secret=True)
    secret_seq = s.log[-1].seq
    assert s.log[-1].secret
    hurt = s.gurps.character("Bren").current_hp
    assert hurt < 12
    row = next(r for r in view(s, Audience.player("bob"), public)["gurps"] if r["name"] == "Bren")
    assert row["hp"] == 12  # his own sheet too: the secret is the GM's until revealed
    s.seats.reveal(secret_seq)
    row = next(r for r in view(s, Audience.player("alice"), public)["gurps"] if r["name"] == "Bren")
    assert row["hp"] == hurt
    s.gurps.damage("1d cr", target="Bren")
    after = s.gurps.character("Bren").current_hp
    assert view(s, Audience(GM), public)["facts"]["gurps"][1]["hp"] == after


def test_npc_hp_is_a_condition_word_and_hands_of_others_are_counts():
    s = table()
    public = PublicTable(s)
    s.gurps.damage("2d cr", target="Guard")
    alice = view(s, Audience.player("alice"), public)
    guard = next(r for r in alice["gurps"] if r["name"] == "Guard")
    assert "hp" not in guard and guard["condition"] in {"hurt", "badly_hurt", "down", "unhurt"}
    mira = next(r for r in alice["mtg"] if r["name"] == "Mira")
    assert mira["hidden"] is True and "known_top" not in mira
    assert next(r for r in view(s, Audience.player("bob"), public)["mtg"] if r["name"] == "Mira").get("hidden") is None


def test_an_ask_is_seen_by_the_asked_player_alone_and_outcomes_only_when_disclosed():
    s = table()
    public = PublicTable(s)
    ask = s.seats.ask("bob", "Will")
    assert s.seats.state.asks[ask]["n"] == 1
    assert view(s, Audience.player("bob"), public)["asks"] == [{"id": 1, "character": "Bren", "spec": "Will"}]
    assert view(s, Audience.player("alice"), public)["asks"] == []
    s.gurps.check("Stealth", actor="Aiko")
    s.seats.disclose("outcome")
    line = view(s, Audience.player("bob"), public)["story"][-1]["text"]
    assert line in {"Aiko tries Stealth — succeeded", "Aiko tries Stealth — failed"}


@pytest.mark.parametrize(("public", "before", "after", "moved"), [
    (10, 6, 3, 7),  # a number by the difference: 4 secret damage stays out
    ({"a": 1, "b": 2}, {"a": 1, "b": 5}, {"a": 1, "b": 6}, {"a": 1, "b": 3}),
    ({"x": "old"}, {"x": "secret"}, {"x": "new"}, {"x": "new"}),
    ({"k": [1]}, {"k": [1, 2]}, {"k": [1, 2]}, {"k": [1]}),  # unchanged by this event: the public value stays
    ({"gone": 1, "kept": 2}, {"gone": 1, "kept": 2}, {"kept": 2}, {"kept": 2}),
    (True, False, True, True),  # a flag is not a number
])
def test_shift_moves_numbers_by_their_difference_and_the_rest_to_the_new_value(public, before, after, moved):
    assert shift(public, before, after) == moved


def test_a_hidden_fighter_is_in_no_players_view_until_shown(ip):
    """An ambush: `%table hide Assassin` keeps him out of every player's fight, rows and story."""
    from gamekernel.magics import current_session

    for magic, line in (("char", "new Aiko dx=12"), ("table", "seat alice Aiko"),
                        ("combat", "npc Assassin ST=10 DX=14 HT=10 HP=10 weapon=Knife:14:thr-1 imp"),
                        ("table", "hide Assassin"), ("combat", "start Aiko Assassin")):
        assert "error" not in repr(ip.run_line_magic(magic, line)), line
    s = current_session()
    public = PublicTable(s)
    seen = json.dumps(view(s, Audience.player("alice"), public))
    assert "Assassin" not in seen
    assert "Assassin" in json.dumps(view(s, Audience(GM), public))
    assert repr(ip.run_line_magic("table", "show Assassin")) == "the players see Assassin again"
    assert "Assassin" in json.dumps(view(s, Audience.player("alice"), public))
    assert repr(ip.run_line_magic("table", "show Nobody")) == "error: 'Nobody' is not hidden"
