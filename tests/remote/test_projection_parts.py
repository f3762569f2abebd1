"""The players' table pictures only the parts an event's kind may change (`EventKind.changes`) and
builds a projected part only when a view reads it; both must give what the whole-state method gave.

The reference here is that method: the whole state pictured after every event, the public state
moved by `shift` for every visible event. Random tables mix GURPS checks and damage, fights, Gamma
World taps and (secret) fluxes, MtG checks, asks, reveals and undos (GURPS-SR-09, GW-ALPHA-10).
"""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamekernel import Session
from gamekernel.errors import GameKernelError
from gamekernel.events import EVENT_KINDS, EventKind
from gamekernel.remote.projection import PublicTable, picture_after, shift, visible
from gamekernel.state import PartsOnDemand, TableState

DECK = "4 Forest\n4 Llanowar Elves\n4 Serra Angel\n4 Plains\n4 Lightning Bolt\n"


def whole_state_public(session: Session) -> dict:
    """The public table by the whole-state method: every part pictured after every event."""
    revealed = list(session.state["seats"].revealed)
    state = TableState()
    gm = state.to_dict()
    public = gm
    for event in session.active:
        reducer = EVENT_KINDS[event.kind].apply
        if reducer is not None:
            reducer(state, event.data)
            after = state.to_dict()
            if visible(event, revealed):
                public = shift(public, gm, after)
            gm = after
    return public


def table() -> Session:
    s = Session(seed=3)
    s.gurps.char_new("Aiko", st=11, dx=13, skills=[("Stealth", 4)])
    s.gurps.char_new("Bren", st=12, ht=12)
    s.combat.npc("Orc", "ST=12 DX=11 HT=12 HP=18 weapon=Club:11:sw cr")
    s.mtg.library_load("Mira", "mira.txt", text=DECK)
    s.gw.character("Rin", level=4, new=True)
    s.gw.draw("Rin")
    s.seats.seat("alice", "Aiko")
    s.seats.seat("alice", "Rin")
    return s


OPS = st.sampled_from([
    "secret_check", "secret_damage", "damage", "fight", "fight", "fight", "gw_secret_roll", "gw_tap",
    "gw_flux", "gw_encounter", "mtg_check", "ask", "undo", "reveal",
])


def play(s: Session, op: str, n: int) -> None:
    fight = s.combat.state
    if op == "secret_check":
        s.gurps.check("Per-1", actor="Bren", secret=True)
    elif op == "secret_damage":
        s.gurps.damage("1d cut", target="Bren", secret=True)
    elif op == "damage":
        s.gurps.damage("1d cr", target="Aiko")
    elif op == "fight" and (fight is None or fight.over):
        s.combat.start("Aiko Bren Orc")
    elif op == "fight" and fight.pending is not None:
        s.combat.defend(fight.pending.target)
    elif op == "fight" and n % 4 == 0:  # a secret hit the players do not see
        s.combat.damage(fight.combatants[n % len(fight.combatants)].name, "1d cr", secret=True)
    elif op == "fight" and fight.current.chosen:
        s.combat.next()
    elif op == "fight":
        me = fight.current
        foe = next(c for c in fight.combatants if c.side != me.side)
        s.combat.attack(me.name, foe.name, me.weapons[0].name)
    elif op == "gw_secret_roll":
        s.roll("1d20", actor="Rin", secret=True)
    elif op == "gw_tap" and s.gw.state.readied("Rin"):
        s.gw.tap("Rin", s.gw.state.readied("Rin")[n % len(s.gw.state.readied("Rin"))])
    elif op == "gw_flux" and s.gw.state.readied("Rin"):
        s.gw.flux("Rin", s.gw.state.readied("Rin")[0])
    elif op == "gw_encounter":
        s.gw.encounter_end() if s.gw.state.encounter else s.gw.encounter_start()
    elif op == "mtg_check":
        s.mtg.check("green", 1, actor="Mira")
    elif op == "ask":
        s.seats.ask("alice", "Will-2")
    elif op == "undo":
        s.undo()
    elif op == "reveal":
        hidden = [e for e in s.active_secrets() if e.seq not in s.seats.state.revealed and e.kind != "table.ask"
                  and e.kind != "secret.entropy"]
        if hidden:
            s.seats.reveal(hidden[n % len(hidden)].seq)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(OPS, min_size=1, max_size=24))
def test_the_players_table_is_the_whole_state_methods_after_every_event(ops):
    s = table()
    public = s.public_table()
    for n, op in enumerate(ops):
        with contextlib.suppress(GameKernelError):  # a refused step changes nothing
            play(s, op, n)
        table_now = s.public_table()
        assert table_now.public == whole_state_public(s), ops[: n + 1]
        assert table_now.gm_before == s.state.to_dict(), ops[: n + 1]
    assert public is s.public_table()  # one projection, kept event by event


def test_a_kind_that_declares_no_parts_is_pictured_whole():
    """A rule set of another package may not declare `changes`: then every part is pictured again."""
    s = Session(seed=1)
    before = {name: {"stale": True} for name in s.state.to_dict()}
    undeclared = EventKind("plugin.step", lambda state, data: None)
    assert picture_after(s.state, undeclared, before) == s.state.to_dict()
    declared = EventKind("plugin.step", lambda state, data: None, changes=("core",))
    picture = picture_after(s.state, declared, before)
    assert picture["core"] == s.state.to_dict()["core"] and picture["gurps"] == {"stale": True}


def secret_hit_on_bren() -> Session:
    s = table()
    s.gurps.damage("2d cut", target="Bren", secret=True)
    assert s.public_table().hidden
    return s


def test_a_projected_state_builds_each_part_on_first_read():
    s = secret_hit_on_bren()
    state = s.public_table().state()
    assert isinstance(state, PartsOnDemand) and state._made == {}
    bren = state["gurps"].characters["Bren"]
    assert list(state._made) == ["gurps"]
    assert bren.hp - bren.hp_lost == bren.hp  # the players saw no wound
    assert s.state["gurps"].characters["Bren"].hp_lost > 0
    assert state.to_dict() == s.public_table().public  # every part, when all are read
    assert state["gurps"] is not s.state["gurps"]  # a projection of its own: later events never reach it


def test_a_step_about_to_show_reads_the_gms_own_part_where_the_players_see_it_alike():
    s = secret_hit_on_bren()
    live = s.public_state()
    assert live is not s.state  # something is hidden
    assert live["gammaworld"] is s.state["gammaworld"]  # the secret touched GURPS only
    assert live["gurps"] is not s.state["gurps"]
    assert live["gurps"].characters["Bren"].hp_lost == 0


def test_an_unknown_part_is_a_key_error():
    s = secret_hit_on_bren()
    with pytest.raises(KeyError):
        s.public_table().state()["no such part"]


def test_pictures_shared_with_the_gm_are_never_changed_in_place():
    """The public picture shares the parts the players see as the GM does (no copy); a later public
    event gives both a new picture of that part, leaving the old one as it was."""
    s = secret_hit_on_bren()
    table_ = s.public_table()
    shared = table_.public["mtg"]
    assert shared is table_.gm_before["mtg"]
    frozen = repr(shared)
    s.mtg.check("green", 1, actor="Mira")
    assert repr(shared) == frozen and table_.public["mtg"] is table_.gm_before["mtg"] is not shared


def test_the_whole_state_method_agrees_on_a_fresh_table():
    s = table()
    assert isinstance(s.public_table(), PublicTable)
    assert s.public_table().public == whole_state_public(s) == s.state.to_dict()
