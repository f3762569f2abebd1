"""Combat events store the facts of what they changed, and replay only writes them back (for speed):
the state they rebuild must be exactly the state the rules give when the operation is rerun on its
recorded dice (the way events without facts, from older logs, still replay), after every event of
a realistic fight that plays every combat event kind. [GURPS-CMB, GURPS-INJ replay]"""

from __future__ import annotations

import json

import pytest

from gamekernel import Session, i18n
from gamekernel.errors import DataError
from gamekernel.events import EVENT_KINDS
from gamekernel.gurps import combat_ops
from gamekernel.gurps.combat_ops import OPS
from gamekernel.gurps.combat_part import PART
from gamekernel.gurps.rules.combat import Combatant
from gamekernel.gurps.rules.combat.facts import apply_combatant_facts, combatant_facts, combatant_record, fight_facts
from gamekernel.gurps.rules.combat.state import CombatState, Weapon, copy_with
from gamekernel.session import replay
from gamekernel.state import TableState


def _defend_all(s: Session) -> None:
    while s.combat.state.pending is not None:
        s.combat.defend(s.combat.state.pending.target)


def _exchange(s: Session, rounds: int) -> None:
    """Each fighter attacks the first foe standing, the target defends, the turn passes."""
    for _ in range(rounds):
        fight = s.combat.state
        me = fight.current
        foes = [c for c in fight.combatants if c.side != me.side and c.can_act]
        if me.can_act and not me.stunned and foes:
            s.combat.attack(me.name, foes[0].name, me.weapons[0].name)
            _defend_all(s)
        s.combat.next()


def play(seed: int = 3) -> Session:
    """A fight with a session character and NPCs, then the aftermath: every combat operation."""
    s = Session(seed=seed)
    s.gurps.char_new("Aiko", st=11, dx=13, iq=12, ht=11, traits=["Combat Reflexes"])
    s.combat.npc("Orc", "ST=12 DX=11 HT=12 HP=18 weapon=Club:11:sw cr")
    s.combat.add("Bren", "ST=13 DX=12 HT=12 weapon=Axe:13:sw+2 cut side=pcs", pc=True)
    s.combat.arm("Aiko", "Broadsword:14:sw+1 cut")
    s.combat.start("Aiko Bren Orc*2")
    s.combat.range("Aiko", "Orc1", "3m")  # a distance set, then a step closer (GURPS-CMB-14, CMB-39)
    s.combat.range("Orc1", "Aiko", "-2")
    s.combat.posture(s.combat.state.current.name, "crouching")
    s.combat.maneuver(s.combat.state.current.name, "all_out_defense", option="dodge")
    s.combat.condition("Bren", "Blessed", 2)  # the GM's own conditions: a countdown ends mid-fight
    s.combat.condition("Orc1", "Cursed")
    s.combat.lift("Orc1", "cursed")
    s.combat.next()
    _exchange(s, 6)
    s.combat.join("Orc{ST=11,DX=10,HT=11,weapon=Spear:11:thr+2 imp}")
    s.combat.damage("Orc1", "3d cut", attacker="Bren")
    s.combat.damage("Orc2", "9 imp")
    while s.combat.state.current.name != "Aiko":
        s.combat.next()
    s.combat.maneuver("Aiko", "concentrate")  # a spell takes Concentrate (GURPS-MAG-05)
    s.combat.cast("Aiko", "Light", 3, 14)
    s.combat.next()
    s.combat.hazard("in_fire", "Bren")
    _exchange(s, 6)
    s.combat.side("Orc2", "neutral")
    s.combat.leave("Orc")
    s.combat.damage("Aiko", "2d+1 cut")
    s.combat.end()
    s.gurps.damage("1d+2 cr", target="Aiko")  # a character hurt outside the fight
    s.combat.hazard("fall", "Bren", metres=4)
    s.combat.first_aid("Aiko", 8, skill=12)
    s.combat.rest("Aiko", "30min")
    s.combat.natural_healing("Bren", 3)
    s.combat._combat("add", {"combatant": Combatant("Cara", ht=11, hp_max=11, hp=0, unconscious=True).to_dict()})
    s.combat.wake("Cara")
    s.combat._combat("add", {"combatant": Combatant("Dov", ht=12, hp_max=12, hp=-13, mortal=True,
                                             unconscious=True).to_dict()})
    s.combat.mortal_check("Dov")
    return s


@pytest.fixture(scope="module")
def played() -> Session:
    return play()


def _without_facts(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "facts"}


def test_the_fight_plays_every_combat_event_kind(played):
    kinds = {e.kind.partition(".")[2] for e in played.active if e.kind.startswith("combat.")}
    assert kinds == set(OPS) - {"damage_amount"}  # older logs only: test_an_older_logs_damage_amount...
    assert all("facts" in e.data for e in played.active if e.kind.startswith("combat."))


def test_facts_replay_equals_the_rules_rerun_after_every_event(played):
    """Replay from the stored lines (JSON) by facts, and by rerunning each operation on its dice as
    an older log replays: the same state after each event, and at the end the live state."""
    by_facts, by_rules = TableState(), TableState()
    for event in played.active:
        apply = EVENT_KINDS[event.kind].apply
        if apply is None:
            continue
        stored = json.loads(json.dumps(event.data))
        apply(by_facts, stored)
        apply(by_rules, _without_facts(stored) if event.kind.startswith("combat.") else stored)
        assert by_facts.to_dict() == by_rules.to_dict(), event.kind
    assert by_facts.to_dict() == played.state.to_dict()
    assert by_facts[PART].fight == played.state[PART].fight  # the values themselves, not only their dicts
    assert by_facts["gurps"].characters == played.state["gurps"].characters


def test_replay_by_facts_reruns_no_operation(played, monkeypatch):
    """The reducer writes the recorded facts: no rule (no operation) runs during the replay."""
    def refuse(*_args):
        raise AssertionError("a combat operation ran during replay")

    monkeypatch.setattr(combat_ops, "OPS", {name: refuse for name in OPS})
    assert replay(played.active).to_dict() == played.state.to_dict()


def test_undo_of_each_combat_event_by_facts(played):
    """Undo replays the log minus the last events: each prefix rebuilds the state it had."""
    events = [e for e in played.active if e.kind.startswith("combat.")]
    last = played.active.index(events[-1])
    for cut in (5, 20, 40, last):
        prefix = played.active[:cut]
        legacy = [type(e)(e.seq, e.kind, _without_facts(e.data) if e.kind.startswith("combat.") else e.data,
                          e.actor, e.secret, e.time) for e in prefix]
        assert replay(prefix).to_dict() == replay(legacy).to_dict()


def test_facts_hold_no_text_of_the_language(played):
    """Events store facts, never prose: the same fight played in Japanese stores the same facts."""
    i18n.set_language("ja")
    try:
        japanese = play()
    finally:
        i18n.set_language("en")
    assert [e.data.get("facts") for e in japanese.active] == [e.data.get("facts") for e in played.active]


def test_the_facts_of_a_turn_are_small(played):
    """A new turn stores the turn pointer, not the whole fight."""
    nexts = [e.data["facts"] for e in played.active if e.kind == "combat.next"]
    assert any(set(f.get("fight", {})) == {"active"} for f in nexts)
    assert all("whole" not in f.get("fight", {}) for f in nexts)


def test_facts_that_do_not_fit_the_state_are_refused():
    s = Session(seed=1)
    s.combat.start("A{DX=10} B{DX=10}")
    s.combat.next()
    event = s.log[-1]
    bad = json.loads(json.dumps(event.data))
    bad["facts"]["fight"]["fighters"] = [[7, {"hp": 1}]]  # a third fighter in a fight of two
    with pytest.raises(DataError):
        EVENT_KINDS[event.kind].apply(s.state, bad)
    with pytest.raises(DataError):  # no fight at all
        EVENT_KINDS[event.kind].apply(TableState(), json.loads(json.dumps(event.data)))


def test_fighter_facts_are_the_changed_fields_and_write_back_exactly():
    orc = Combatant("Orc", st=12, hp_max=18)
    assert combatant_facts(orc, orc) == {} and combatant_facts(orc, copy_with(orc, hp=18)) == {}
    hurt = copy_with(orc, hp=11, stunned=True)
    assert combatant_facts(orc, hurt) == {"hp": 11, "stunned": True}
    assert combatant_facts(orc, copy_with(orc, hp=18.0)) == {"hp": 18.0}  # same value, not the same fact
    assert apply_combatant_facts(orc, json.loads(json.dumps(combatant_facts(orc, hurt)))) == hurt
    fight = CombatState(combatants=(orc, Combatant("Bren")))
    assert fight_facts(fight, copy_with(fight, active=1)) == {"active": 1}
    joined = copy_with(fight, combatants=(*fight.combatants, Combatant("Cara")))
    assert set(fight_facts(fight, joined)) == {"whole"}  # someone joined: the whole fight


def test_a_whole_fighter_is_stored_as_its_fields_that_differ_from_the_defaults(played):
    """combat.start stores each fighter once per place, without the defaults (fewer bytes per event)."""
    orc = Combatant("Orc", st=12, hp_max=18, hp=18, weapons=(Weapon("Club", 11, "sw cr"),))
    assert combatant_record(orc) == {"name": "Orc", "st": 12, "hp_max": 18,  # HP, FP, Hearing filled in
                                     "weapons": [{"name": "Club", "skill": 11, "damage": "sw cr"}]}
    assert combatant_record(Combatant("Bren", hp=10.0))["hp"] == 10.0  # same value, not the same fact
    hurt = Combatant("Cara", iq=12, hp_max=11, hp=4, fp=9, hearing=14)
    assert combatant_record(hurt) == {"name": "Cara", "iq": 12, "hp_max": 11, "hp": 4, "fp": 9, "hearing": 14}
    assert Combatant.from_dict(json.loads(json.dumps(combatant_record(hurt)))) == hurt
    assert Combatant.from_dict(combatant_record(orc)) == orc
    start = next(e for e in played.active if e.kind == "combat.start")
    stored = json.loads(json.dumps(start.data))
    for record in stored["args"]["combatants"]:
        fighter = Combatant.from_dict(record)
        assert record == combatant_record(fighter) and "posture" not in record  # a default left out
    assert CombatState.from_dict(stored["facts"]["fight"]["whole"]) == replay(played.active[:played.active.index(
        start) + 1])[PART].fight


def test_a_fight_started_in_the_full_form_of_earlier_versions_replays_the_same(played):
    """Older logs stored every field of every fighter (Combatant.to_dict), twice at the start: they
    still replay to the same state, by facts and by rerunning the operation."""
    def full(event):
        if event.kind != "combat.start":
            return event
        data = json.loads(json.dumps(event.data))
        data["args"]["combatants"] = [Combatant.from_dict(c).to_dict() for c in data["args"]["combatants"]]
        whole = data["facts"]["fight"]["whole"]
        data["facts"]["fight"]["whole"] = CombatState.from_dict(whole).to_dict()
        return type(event)(event.seq, event.kind, data, event.actor, event.secret, event.time)

    old = [full(e) for e in played.active]
    starts = [e for e in old if e.kind == "combat.start"]
    assert starts and all("posture" in c for e in starts for c in e.data["args"]["combatants"])
    assert len(json.dumps(starts[0].data)) > 2 * len(json.dumps(next(
        e for e in played.active if e.kind == "combat.start").data))
    assert replay(old).to_dict() == played.state.to_dict()
    legacy = [type(e)(e.seq, e.kind, _without_facts(e.data), e.actor, e.secret, e.time)
              if e.kind.startswith("combat.") else e for e in old]
    assert replay(legacy).to_dict() == played.state.to_dict()


def test_an_older_logs_damage_amount_event_still_replays():
    """Basic damage rolled at the table was once its own event (`combat.damage_amount`, without facts):
    a saved log holding one replays it through DR and wounding (GURPS-DMG-04..08), as before."""
    s = Session(seed=1)
    s.combat.start("A{DX=10} B{DX=10}")
    s.record("combat.damage_amount", {"op": "damage_amount", "faces": [],
                                      "args": {"name": "B", "amount": 2, "kind": "cut", "attacker": ""}})
    assert s.combat.state.get("B").hp == 10 - 3  # 2 cut x1.5 = 3 injury, no roll needed
    assert replay(s.active).to_dict() == s.state.to_dict()
