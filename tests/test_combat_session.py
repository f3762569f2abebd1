"""GURPS combat through the session and the magics: events, replay, undo (a property test, GURPS-CMB)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gamekernel import Session
from gamekernel.errors import GameKernelError
from gamekernel.session import replay

AIKO = "Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,shield=12,db=2,pc=1}"
BREN = "Bren{ST=13,DX=12,HT=12,weapon=Axe:13:sw+2 cut,pc=1}"


def fight(seed=5):
    s = Session(seed=seed)
    s.combat.npc("Goblin", "ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp")
    s.combat.start(f"{AIKO} {BREN} Goblin*2")
    return s


def test_gurps_cmb_02_start_orders_and_logs():
    s = fight()
    assert [c.name for c in s.combat.state.combatants] == ["Aiko", "Bren", "Goblin1", "Goblin2"]
    assert s.log[-1].kind == "combat.start"


def test_gurps_cmb_25_attack_defend_damage_events_replay_exactly():
    s = fight()
    s.combat.attack("Aiko", "Goblin1", "Broadsword")
    if s.combat.state.pending:
        s.combat.defend("Goblin1", "none")
    s.combat.next()
    s.combat.damage("Goblin2", "3d cut", attacker="Bren")
    assert replay(s.active).to_dict() == s.state.to_dict()


def test_undo_restores_prior_state():
    s = fight()
    before = s.state.to_dict()
    s.combat.damage("Goblin1", "2d cut")
    assert s.state.to_dict() != before
    s.undo()
    assert s.state.to_dict() == before


def test_bad_input_changes_nothing():
    s = fight()
    before, count = s.state.to_dict(), len(s.log)
    for call in (lambda: s.combat.attack("Aiko", "Gobln1", "Broadsword"),
                 lambda: s.combat.maneuver("Bren", "attack"),
                 lambda: s.combat.defend("Goblin1", "parry"),
                 lambda: s.combat.posture("Aiko", "flying")):
        try:
            call()
        except GameKernelError:
            pass
        else:  # pragma: no cover - each of these must be refused
            raise AssertionError("expected a refusal")
    assert s.state.to_dict() == before and len(s.log) == count


def test_gurps_fat_10_rest_and_inj_19_first_aid_after_fight():
    s = fight()
    s.combat.damage("Bren", "1d cut")
    while s.combat.state.current.name != "Bren":
        s.combat.next()
    s.combat.maneuver("Bren", "concentrate")  # a spell takes Concentrate (GURPS-MAG-05)
    s.combat.cast("Bren", "Light", 3, 14)
    s.combat.end()
    bren = s.state["gurps_combat"].roster["Bren"]
    s.combat.rest("Bren", "30min")
    assert s.state["gurps_combat"].roster["Bren"].fp == min(bren.fp_max, bren.fp + 3)
    s.combat.first_aid("Bren", 8, skill=12)
    assert replay(s.active).to_dict() == s.state.to_dict()


def test_gurps_haz_06_fall_hazard_event():
    s = fight()
    s.combat.end()
    result = s.combat.hazard("fall", "Bren", metres=3)
    assert "8 m/s" in str(result)


OPS = st.lists(st.tuples(st.sampled_from(["attack", "defend", "next", "damage", "maneuver", "posture", "undo"]),
                         st.integers(0, 10_000)), min_size=1, max_size=25)


@settings(max_examples=40, deadline=None)
@given(OPS)
def test_property_random_combat_events_replay_and_undo(ops):
    """Random sequences of combat events replayed from the log give the same state; undo of any event
    restores the state before it."""
    s = fight(seed=11)
    base = len(s.active)
    for name, pick in ops:
        r = random.Random(pick)
        state = s.combat.state
        names = [c.name for c in state.combatants]
        before = s.state.to_dict()
        count = len(s.active)
        try:
            if name == "attack":
                a = state.current
                s.combat.attack(a.name, r.choice([n for n in names if n != a.name]), a.weapons[0].name)
            elif name == "defend" and state.pending:
                s.combat.defend(state.pending.target, r.choice(["dodge", "parry", "block", "none", ""]))
            elif name == "next":
                s.combat.next()
            elif name == "damage":
                s.combat.damage(r.choice(names), r.choice(["1d cut", "3d imp", "2d+2 cr", "6d pi"]))
            elif name == "maneuver":
                s.combat.maneuver(state.current.name, r.choice(["all_out_attack", "all_out_defense", "move",
                                                                 "feint", "aim", "concentrate"]),
                                  option=r.choice(["determined", "double", "dodge", "parry"]),
                                  target=r.choice(names))
            elif name == "posture":
                s.combat.posture(state.current.name, r.choice(["kneeling", "crouching", "lying_down", "standing"]))
            elif name == "undo" and len(s.active) > base:
                s.undo()
                continue
        except GameKernelError:
            assert s.state.to_dict() == before and len(s.active) == count
            continue
        if len(s.active) > count:
            after = s.state.to_dict()
            assert replay(s.active).to_dict() == after
            s.undo()
            assert s.state.to_dict() == before
            s.redo()
            assert s.state.to_dict() == after


def test_magics_full_round(ip):
    ip.run_line_magic("combat", "npc Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp")
    started = ip.run_line_magic("combat", f"start {AIKO} Goblin*2")
    assert "Aiko" in str(started)
    result = ip.run_line_magic("attack", "Aiko -> Goblin1 Broadsword")
    assert "Broadsword" in str(result) and "<div" in result._repr_html_()
    from gamekernel.magics import current_session

    s = current_session()
    if s.combat.state.pending:
        ip.run_line_magic("defend", "Goblin1 dodge")
    ip.run_line_magic("next", "")
    ip.run_line_magic("maneuver", "Goblin1 aod dodge")
    ip.run_line_magic("hit", "Goblin2 2d cut")
    err = ip.run_line_magic("attack", "Aiko Goblin1")
    assert "usage" in str(err)
    ip.run_line_magic("combat", "end")
    rest = ip.run_line_magic("rest", "Aiko 30min")
    assert "rests 30 min" in str(rest)
    aid = ip.run_line_magic("firstaid", "Goblin2 TL3 skill=12")
    assert "First Aid" in str(aid)
    fall = ip.run_line_magic("hazard", "fall 6m @Aiko")
    assert "15 m/s" in str(fall)
    cast = ip.run_line_magic("cast", "Light 1 skill=12 @Aiko")
    assert "Light" in str(cast)


def test_combat_part_snapshot_roundtrip_with_pending_attack():
    import json

    from gamekernel.gurps.combat_part import CombatPart

    s = fight()
    s.combat.attack("Aiko", "Goblin1", "Broadsword")
    data = json.loads(json.dumps(s.state["gurps_combat"].to_dict()))
    assert CombatPart.from_dict(data).to_dict() == data


def test_gurps_inj_05_06_damage_on_a_fighter_goes_through_the_fight_like_hit():
    """`session.damage` on a combatant = `combat_damage` (shock GURPS-INJ-05, major wound INJ-06/07,
    thresholds, badges): same dice, same state, a combat.damage event."""
    a, b = fight(9), fight(9)
    via_damage = a.gurps.damage("3d+4 cut", target="Goblin1")
    via_hit = b.combat.damage("Goblin1", "3d+4 cut")
    assert a.log[-1].kind == "combat.damage" and a.log[-1].data["args"] == b.log[-1].data["args"]
    assert a.state.to_dict() == b.state.to_dict() and str(via_damage) == str(via_hit)
    goblin = a.combat.state.get("Goblin1")
    injury = via_damage.report.injury
    assert goblin.hp == 9 - injury.injury and injury.shock == min(4, injury.injury)
    assert injury.major_wound == (2 * injury.injury > 9) and (injury.knockdown is not None) == injury.major_wound
    assert any(b.startswith("shock") for b in goblin.badges(a.combat.state.round))
    assert replay(a.active).to_dict() == a.state.to_dict()


def test_gurps_dmg_damage_magic_routes_to_the_fight_with_dr_and_attacker(ip):
    from gamekernel.gurps.results import CombatResult
    from gamekernel.magics import current_session

    ip.run_line_magic("combat", "npc Goblin ST=9 DX=12 HT=11 DR=2 weapon=Spear:11:thr+2 imp")
    ip.run_line_magic("combat", f"start {BREN} Goblin*2")
    s = current_session()
    result = ip.run_line_magic("damage", "sw+2 cut @Goblin1 --by=Bren --dr=0")
    assert isinstance(result, CombatResult) and result.kind == "damage"
    event = s.log[-1]
    assert event.kind == "combat.damage" and event.data["args"]["attacker"] == "Bren"
    roll = result.report.damage
    assert roll.dr == 0 and roll.spec.dice == 2 and roll.spec.adds == 1  # ST 13 swing 2d-1, +2
    assert s.combat.state.get("Goblin1").hp == 9 - result.report.injury.injury
    outside = ip.run_line_magic("damage", "1d cut @Nobody")  # not fighting: a plain damage roll
    assert s.log[-1].kind == "gurps.damage" and outside.injury >= 0


def test_gurps_dmg_damage_to_a_fighting_character_is_not_counted_twice():
    s = Session(seed=3)
    s.gurps.char_new("Bren", st=13, dx=12, ht=12)
    s.combat.start("Bren Goblin{ST=9,DX=12,HT=11}")
    s.gurps.damage("2d cut", target="Bren")
    assert s.gurps.character("Bren").hp_lost == 0  # the fight holds HP until it ends
    lost = 13 - s.combat.state.get("Bren").hp
    s.combat.end()
    assert s.gurps.character("Bren").hp_lost == lost


def test_gurps_cmb_01_next_event_names_whose_turn_begins():
    """GURPS-CMB-01: the log line of `combat.next` names the fighter whose turn starts (and whose ended)."""
    s = fight()
    assert s.combat.state.current.name == "Aiko"
    s.combat.next()
    event = s.log[-1]
    assert event.kind == "combat.next"
    assert s.combat.state.current.name == "Bren"
    assert event.summary().startswith("next turn: Bren")
    assert "Aiko" in event.summary()  # whose turn ended
    assert replay(s.active).to_dict() == s.state.to_dict()


def test_gurps_cmb_01_combat_status_has_no_blank_first_line():
    """`%combat status` shows the tracker only: no empty line before it, in text or HTML."""
    s = fight()
    result = s.combat.status()
    text = str(result)
    assert text.splitlines()[0].strip(), repr(text[:40])
    assert not text.startswith("\n")
    assert '<div class="gk-line"></div>' not in result._repr_html_()
