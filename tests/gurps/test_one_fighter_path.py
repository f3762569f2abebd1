"""One way into a fight: `%combat add`, `session.combat.add`, the tracker's Join and the table's
`combat_join` place a newcomer with one rule (GURPS-CMB-02, CMB-03, CMB-05) and read his spec with
one parser (`Name`, `"Two Words"`, `Name*3`, `Name{K=V,...}`, quick stats after the name)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamekernel import Session
from gamekernel.gurps.combat_specs import parse_fighter, split_specs
from gamekernel.gurps.rules.combat import Tape, join_fight, quick_combatant, start_combat
from gamekernel.gurps.widgets.tracker import Tracker
from gamekernel.magics import current_session


def _names(fight) -> list[str]:
    return [c.name for c in fight.combatants]


# ---------------------------------------------------------------- the one place rule (pure)


def test_gurps_cmb_03_same_side_npcs_tied_on_speed_keep_the_gm_order_a_newcomer_last() -> None:
    # GURPS-CMB-03: Speed 6 all three, same side, no PC: the GM's order; he came late, so he goes last
    # (the two old functions put him first and second).
    fight = start_combat([quick_combatant("A", {"dx": 10, "ht": 14}), quick_combatant("B", {"dx": 14, "ht": 10})],
                         Tape(random.Random(1)))
    joined = join_fight(fight, quick_combatant("N", {"dx": 12, "ht": 12}))
    assert _names(joined) == ["A", "B", "N"]


def test_gurps_cmb_03_with_a_pc_among_them_higher_dx_goes_first_and_ties_come_after() -> None:
    # GURPS-CMB-03: a PC tied on Speed: higher DX first; equal DX: after those already there (CMB-02: the
    # order set at the start never changes).
    fight = start_combat([quick_combatant("P", {"dx": 14, "ht": 10, "pc": True}),
                          quick_combatant("Q", {"dx": 12, "ht": 12, "pc": True}),
                          quick_combatant("S", {"dx": 10, "ht": 10})], Tape(random.Random(1)))
    assert _names(join_fight(fight, quick_combatant("N", {"dx": 13, "ht": 11}))) == ["P", "N", "Q", "S"]
    assert _names(join_fight(fight, quick_combatant("N", {"dx": 12, "ht": 12}))) == ["P", "Q", "N", "S"]
    assert _names(join_fight(fight, quick_combatant("N", {"dx": 14, "ht": 14}))) == ["N", "P", "Q", "S"]
    assert _names(join_fight(fight, quick_combatant("N", {"dx": 8, "ht": 8}))) == ["P", "Q", "S", "N"]


FIGHTER = st.fixed_dictionaries({"dx": st.integers(9, 13), "ht": st.integers(9, 13), "pc": st.booleans(),
                                 "side": st.sampled_from(["foes", "pcs"])})


@settings(max_examples=150, deadline=None)
@given(st.lists(FIGHTER, min_size=1, max_size=6), FIGHTER, st.integers(0, 10**6))
def test_gurps_cmb_02_joining_never_reorders_and_same_side_npcs_join_as_if_listed_last(
        stats: list[dict], new: dict, seed: int) -> None:
    # GURPS-CMB-02: the order holds for the whole fight; Basic Speed never rises down the order.
    people = [quick_combatant(f"F{i}", s) for i, s in enumerate(stats)]
    fight = start_combat(people, Tape(random.Random(seed)))
    newcomer = quick_combatant("New", new)
    joined = join_fight(fight, newcomer)
    assert [n for n in _names(joined) if n != "New"] == _names(fight)
    speeds = [c.basic_speed for c in joined.combatants]
    assert speeds == sorted(speeds, reverse=True)
    assert [e.name for e in joined.initiative] == _names(joined)
    if not any(c.pc for c in (*people, newcomer)) and len({c.side for c in (*people, newcomer)}) == 1:
        # GURPS-CMB-03: the GM's order: as if he had been named last at the start (no roll among NPCs)
        assert _names(joined) == _names(start_combat([*people, newcomer], Tape(random.Random(seed))))


# ---------------------------------------------------------------- every path, the same state


def _spec(name: str, s: dict) -> str:
    return f"{name}{{DX={s['dx']},HT={s['ht']},pc={int(s['pc'])},side={s['side']}}}"


def _fresh_kernel(ip, seed: int) -> Session:
    ip.run_line_magic("unload_ext", "gamekernel")
    ip.run_line_magic("load_ext", "gamekernel")
    ip.run_line_magic("seed", str(seed))
    return current_session()


def _widget_session(seed: int) -> Session:
    s = Session(seed=1)
    s.reseed(seed)
    return s


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(FIGHTER, min_size=1, max_size=5), FIGHTER, st.integers(0, 10**6), st.booleans())
def test_gurps_cmb_02_magic_tracker_and_table_joins_give_the_same_fight(
        ip, stats: list[dict], new: dict, seed: int, stats_after_name: bool) -> None:
    # GURPS-CMB-02, 03, 05: the same newcomer by `%combat add`, the tracker's Join, `combat_join` (the
    # table's call) and `combat_add`: the same order, the same fighters, the same turn, the same log kinds.
    roster = " ".join(_spec(f"F{i}", s) for i, s in enumerate(stats))
    spec = _spec("New", new)
    magic = _fresh_kernel(ip, seed)
    ip.run_line_magic("combat", f"start {roster}")
    ip.run_line_magic("next", "")
    line = spec.replace("{", " ").replace("}", "").replace(",", " ") if stats_after_name else spec
    ip.run_line_magic("combat", f"add {line}")
    sessions = []
    for path in ("tracker", "table", "add"):
        s = _widget_session(seed)
        s.combat.start(roster)
        s.combat.next()
        if path == "tracker":
            tracker = Tracker(s)
            tracker._on_custom_message(tracker, {"action": "join", "spec": spec}, [])
            assert tracker.error == ""
        elif path == "table":
            s.combat.join(spec)
        else:
            s.combat.add(spec)
        sessions.append(s)
    assert "New" in _names(magic.combat.state)
    for s in sessions:
        assert s.combat.state.to_dict() == magic.combat.state.to_dict()
        assert [e.kind for e in s.log][-3:] == [e.kind for e in magic.log][-3:]


# ---------------------------------------------------------------- one fighter-spec parser


def test_combat_add_reads_braces_as_quick_stats_not_as_part_of_the_name(ip) -> None:
    ip.run_line_magic("combat", "start Orc{ST=12,DX=11,HT=11}")
    ip.run_line_magic("combat", "add Bob{DX=12,HT=12}")
    fight = current_session().combat.state
    assert _names(fight) == ["Bob", "Orc"]  # Speed 6 before 5.5
    bob = fight.get("Bob")
    assert (bob.dx, bob.ht, bob.basic_speed) == (12, 12, 6.0)


def test_combat_add_with_braces_holding_spaces_and_stats_after_them(ip) -> None:
    ip.run_line_magic("combat", "start Orc{ST=12,DX=11,HT=11}")
    ip.run_line_magic("combat", "add Bob{DX=12, HT=12} ST=14 weapon=Axe:12:sw+2 cut")
    bob = current_session().combat.state.get("Bob")
    assert (bob.st, bob.dx, bob.ht, [w.name for w in bob.weapons]) == (14, 12, 12, ["Axe"])


def test_combat_npc_reads_braces_as_the_templates_stats(ip) -> None:
    ip.run_line_magic("combat", "npc Orc{ST=16}")
    assert current_session().state["gurps_combat"].templates == {"Orc": {"st": 16}}
    ip.run_line_magic("combat", "start Orc")
    assert current_session().combat.state.get("Orc").st == 16


def test_combat_npc_refuses_a_count_and_changes_nothing(ip) -> None:
    events = len(current_session().log)
    result = ip.run_line_magic("combat", "npc Orc*3{ST=16}")
    assert "count" in str(result) and len(current_session().log) == events
    assert current_session().state["gurps_combat"].templates == {}


def test_combat_add_of_a_template_with_a_count_outside_and_inside_a_fight(ip) -> None:
    ip.run_line_magic("combat", "npc Goblin ST=9 DX=12 HT=11")
    ip.run_line_magic("combat", "add Goblin*2")
    assert sorted(current_session().state["gurps_combat"].roster) == ["Goblin1", "Goblin2"]
    ip.run_line_magic("combat", "start Goblin1 Orc{ST=12,DX=11,HT=11}")
    ip.run_line_magic("combat", "add Kobold*2{DX=10}")
    assert _names(current_session().combat.state) == ["Goblin1", "Orc", "Kobold1", "Kobold2"]


def test_combat_add_of_an_unknown_name_without_stats_is_an_error_not_a_dummy(ip) -> None:
    ip.run_line_magic("combat", "start Orc{ST=12,DX=11,HT=11}")
    events = len(current_session().log)
    result = ip.run_line_magic("combat", "add Zed")
    assert "Zed" in str(result) and len(current_session().log) == events
    assert _names(current_session().combat.state) == ["Orc"]


def test_one_parser_reads_every_form() -> None:
    assert split_specs('Aiko "Sir Henryk" Orc{ST=12, DX=11} Goblin*3 \'Old Guard\'{DX=9}') == [
        "Aiko", '"Sir Henryk"', "Orc{ST=12, DX=11}", "Goblin*3", "'Old Guard'{DX=9}"]
    assert parse_fighter('"Sir Henryk"*2{DX=12}') == parse_fighter("Sir Henryk*2", "DX=12")
    spec = parse_fighter("Orc{ST=12,DX=11}", "HT=13 DX=10")
    assert (spec.name, spec.count, spec.stats) == ("Orc", None, {"st": 12, "dx": 10, "ht": 13})
    assert parse_fighter("Orc").stats is None and parse_fighter("Orc{}").stats == {}


# ---------------------------------------------------------------- a character joins as himself


def _bob(ip) -> None:
    for line in ("new Bob st=14 dx=13 ht=12", "skill Broadsword 4 @Bob", "skill Shield 2 @Bob",
                 "weapon Bob Broadsword:Broadsword:sw+1 cut", "set db=2 dr=3 fp_lost=2 @Bob",
                 "trait Combat Reflexes @Bob"):
        ip.run_line_magic("char", line)
    ip.run_line_magic("damage", "2 cr @Bob --dr=0")  # HP 12/14 before the fight
    ip.run_line_magic("combat", "npc Orc ST=12 DX=11 HT=11 weapon=Axe:12:sw+2 cut")


def _as_himself(fighter, sheet) -> None:
    assert (fighter.st, fighter.dx, fighter.ht, fighter.hp_max, fighter.fp_max) == (14, 13, 12, 14, 12)
    assert (fighter.hp, fighter.fp) == (sheet.current_hp, sheet.current_fp) == (12, 10)
    broadsword = next(w for w in fighter.weapons if w.name == "Broadsword")
    assert (broadsword.skill, broadsword.damage) == (sheet.skill_level("Broadsword").level, "sw+1 cut")
    assert (fighter.dr, fighter.shield_db, fighter.shield) == (3, 2, sheet.skill_level("Shield").level)
    assert fighter.combat_reflexes and fighter.pc


def test_combat_add_of_a_character_fights_as_himself_and_his_sheet_keeps_what_he_lost(ip) -> None:
    _bob(ip)
    ip.run_line_magic("combat", "start Orc")
    ip.run_line_magic("combat", "add Bob")
    s = current_session()
    _as_himself(s.combat.state.get("Bob"), s.gurps.character("Bob"))
    ip.run_line_magic("hit", "Bob 4 cr")  # DR 3: 1 injury, HP 11
    ip.run_line_magic("combat", "end")
    assert (s.gurps.character("Bob").current_hp, s.gurps.character("Bob").hp) == (11, 14)


def test_a_character_joins_as_himself_by_the_tracker_and_the_table_too(ip) -> None:
    _bob(ip)
    ip.run_line_magic("combat", "start Orc")
    s = current_session()
    tracker = Tracker(s)
    tracker._on_custom_message(tracker, {"action": "join", "spec": "bob"}, [])  # case ignored: the one lookup
    assert tracker.error == ""
    _as_himself(s.combat.state.get("Bob"), s.gurps.character("Bob"))
    by_tracker = s.combat.state.to_dict()
    s.undo()
    s.combat.join("Bob")
    assert s.combat.state.to_dict() == by_tracker
    s.undo()
    ip.run_line_magic("combat", "add Bob")
    assert s.combat.state.to_dict() == by_tracker


def test_a_stand_in_under_a_characters_name_never_writes_his_sheet(ip) -> None:
    _bob(ip)
    started = ip.run_line_magic("combat", "start Orc Bob{ST=10,DX=10,HT=10}")
    assert "Bob fights as a stand-in with the quick stats given" in str(started)  # said, not silent
    s = current_session()
    assert s.combat.state.get("Bob").hp_max == 10  # the GM asked for a stand-in: he gets one
    ip.run_line_magic("hit", "Bob 5 cr")
    ip.run_line_magic("combat", "end")
    sheet = s.gurps.character("Bob")
    assert (sheet.current_hp, sheet.hp, sheet.current_fp) == (12, 14, 10)
    ip.run_line_magic("combat", "start Orc Bob")  # the next fight: Bob himself again, not the stand-in
    _as_himself(s.combat.state.get("Bob"), sheet)
