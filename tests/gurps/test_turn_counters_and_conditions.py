"""Turn counters and the GM's own conditions in a fight: Aim building up turn after turn and lost for
another maneuver (GURPS-CMB-12, 13, 36), Evaluate +1 a turn up to +3 on the next melee attack or feint
at the studied foe and lost likewise (Basic Set B364, [std]: GURPS Lite's maneuvers, GURPS-CMB-04, have
no Evaluate), and conditions a GM names with a countdown in seconds, one a turn (GURPS-CMB-01), that
runs down at the end of the fighter's turns and ends with a line; each step an event (undo works), in
the log, the story, the tracker's row and its saved picture, in both languages."""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.errors import NotFoundError, UsageError
from gamekernel.gurps.rules.combat import (
    AttackOptions,
    Tape,
    add_condition,
    attack,
    choose_maneuver,
    fresh_for_fight,
    lift_condition,
    next_turn,
    parse_condition,
    quick_combatant,
    start_combat,
    tick_conditions,
)
from gamekernel.gurps.rules.combat.conditions import MOST_CONDITIONS, MOST_NAME, MOST_SECONDS
from gamekernel.gurps.widgets.tracker import Tracker
from gamekernel.i18n import set_language
from gamekernel.render.story import players_story, story_markdown


def _faces(total: int) -> list[int]:
    a = min(6, total - 2)
    b = min(6, total - a - 1)
    return [a, b, total - a - b]


def _fight(*extra_weapons: str):
    """Bren (faster) and two goblins; Bren acts first."""
    bren = quick_combatant("Bren", {"dx": 13, "ht": 12, "speed": 7, "weapon": ["Axe:13:sw+2 cut",
                                                                                  "Bow:12:1d+1 imp:ranged:acc=2",
                                                                                  *extra_weapons]}, pc=True)
    goblins = [quick_combatant(n, {"st": 9, "dx": 12, "ht": 11, "weapon": "Spear:11:thr+2 imp"})
               for n in ("Goblin", "Hob")]
    return start_combat([bren, *goblins], Tape(faces=[]))


def _round(state):
    """Pass everyone else's turns: back to Bren."""
    for _ in range(3):
        state, report = next_turn(state, Tape(faces=[]))
        if state.current.name == "Bren":
            return state, report
    raise AssertionError("Bren never came back")


def _mods(report) -> dict[str, int]:
    return {label: value for value, label in report.attack.roll.modifiers}


# ---------------------------------------------------------------- Aim (CMB-12, 13, 36)


def test_gurps_cmb_13_aim_builds_up_each_turn_and_shows_on_the_row():
    state = _fight()
    for seconds in (1, 2, 3):
        state, rep = choose_maneuver(state, "Bren", "aim", Tape(), target="goblin")  # any case: the fighter's name
        assert state.get("Bren").aim_turns == seconds and rep.built_up == seconds
        assert f"aim {seconds} s → Goblin" in state.get("Bren").badges()
        state, _ = _round(state)
    state, rep = attack(state, "Bren", "Goblin", "Bow", Tape(faces=_faces(10)), AttackOptions(range_m=2))
    assert _mods(rep) == {"Aim (Acc)": 2, "aimed 3+ s": 2}
    assert state.get("Bren").aim_turns == 0  # spent by the attack


def test_gurps_cmb_12_aim_left_for_another_maneuver_is_lost_with_a_line():
    state = _fight()
    state, _ = choose_maneuver(state, "Bren", "aim", Tape(), target="Goblin")
    state, _ = _round(state)
    state, _ = choose_maneuver(state, "Bren", "move", Tape())
    state, report = next_turn(state, Tape(faces=[]))
    assert report.lost == ("aim",) and state.get("Bren").aim_turns == 0


# ---------------------------------------------------------------- Evaluate (B364 [std])


@pytest.mark.parametrize(("turns", "bonus"), [(1, 1), (2, 2), (3, 3), (4, 3)])
def test_evaluate_adds_one_a_turn_up_to_three_on_the_melee_attack(turns, bonus):
    state = _fight()
    for _ in range(turns):
        state, rep = choose_maneuver(state, "Bren", "evaluate", Tape(), target="Goblin")
        state, _ = _round(state)
    assert rep.built_up == bonus and f"evaluate +{bonus} → Goblin" in state.get("Bren").badges()
    state, rep = attack(state, "Bren", "Goblin", "Axe", Tape(faces=_faces(10)))
    assert _mods(rep) == {"Evaluate": bonus} and rep.attack.roll.target == 13 + bonus
    assert state.get("Bren").evaluate_turns == 0  # spent


def test_evaluate_counts_only_against_the_studied_foe_and_only_in_melee():
    state = _fight()
    state, _ = choose_maneuver(state, "Bren", "evaluate", Tape(), target="Goblin")
    state, _ = _round(state)
    other, rep = attack(state, "Bren", "Hob", "Axe", Tape(faces=_faces(10)))
    assert "Evaluate" not in _mods(rep) and other.get("Bren").evaluate_turns == 0
    _, rep = attack(state, "Bren", "Goblin", "Bow", Tape(faces=_faces(10)), AttackOptions(range_m=2))
    assert "Evaluate" not in _mods(rep)


def test_evaluate_on_another_foe_starts_over_and_another_maneuver_loses_it():
    state = _fight()
    state, _ = choose_maneuver(state, "Bren", "evaluate", Tape(), target="Goblin")
    state, _ = _round(state)
    state, rep = choose_maneuver(state, "Bren", "evaluate", Tape(), target="Hob")
    assert rep.built_up == 1 and state.get("Bren").evaluate_target == "Hob"
    state, _ = _round(state)
    state, _ = choose_maneuver(state, "Bren", "ready", Tape())
    state, report = next_turn(state, Tape(faces=[]))
    assert report.lost == ("evaluate",) and state.get("Bren").evaluate_turns == 0


def test_evaluate_counts_for_a_feint_too():
    state = _fight()
    state, _ = choose_maneuver(state, "Bren", "evaluate", Tape(), target="Goblin")
    state, _ = _round(state)
    state, rep = choose_maneuver(state, "Bren", "feint", Tape(faces=[*_faces(8), *_faces(12)]), target="Goblin")
    assert {label: v for v, label in rep.feint.mine.modifiers} == {"Evaluate": 1}
    assert state.get("Bren").evaluate_turns == 0


# ---------------------------------------------------------------- the GM's conditions


@pytest.mark.parametrize(("words", "expected"), [
    (["Blessed", "3s"], ("Blessed", 3)), (["Blessed", "3"], ("Blessed", 3)),
    (["Holy", "shield", "5", "turns"], ("Holy shield", 5)), (["Cursed"], ("Cursed", 0)),
    (["Poison 2", "3"], ("Poison 2", 3)), (["Poison 2"], ("Poison 2", 0)), (["祝福", "2秒"], ("祝福", 2)),
    (["Slow", str(MOST_SECONDS)], ("Slow", MOST_SECONDS)),
])
def test_gurps_cmb_01_a_countdown_is_seconds_one_a_turn(words, expected):
    assert parse_condition(words) == expected


@pytest.mark.parametrize("words", [["Slow", "0"], ["Slow", str(MOST_SECONDS + 1)], ["x" * (MOST_NAME + 1)],
                                   ["\u200b", "3"]])
def test_a_bad_condition_is_one_line(words):
    with pytest.raises(UsageError) as err:
        parse_condition(words)
    assert "\n" not in str(err.value)


def test_gurps_cmb_01_a_countdown_runs_down_at_the_end_of_his_turns():
    state = _fight()
    state = add_condition(state, "Goblin", "Blessed", 2)  # during Bren's turn
    state = add_condition(state, "Goblin", "Cursed")
    state, report = next_turn(state, Tape(faces=[]))  # Bren's ends: Goblin's count stays
    assert state.get("Goblin").gm_conditions == (("Blessed", 2), ("Cursed", 0))
    state, report = next_turn(state, Tape(faces=[]))  # Goblin's first turn ends
    assert state.get("Goblin").gm_conditions == (("Blessed", 1), ("Cursed", 0)) and report.ended_conditions == ()
    state, _ = _round(state)
    state, report = next_turn(state, Tape(faces=[]))  # Bren's ends
    assert state.get("Goblin").gm_conditions == (("Blessed", 1), ("Cursed", 0))
    state, report = next_turn(state, Tape(faces=[]))  # Goblin's second turn ends: Blessed is over
    assert report.ended == "Goblin" and report.ended_conditions == ("Blessed",)
    assert state.get("Goblin").gm_conditions == (("Cursed", 0),)
    state, name = lift_condition(state, "Goblin", "cursed")
    assert name == "Cursed" and state.get("Goblin").gm_conditions == ()
    with pytest.raises(NotFoundError, match="Goblin has no condition 'Cursed'"):
        lift_condition(state, "Goblin", "Cursed")


def test_the_same_name_starts_over_and_the_count_of_conditions_is_bounded():
    state = _fight()
    state = add_condition(state, "Hob", "Blessed", 2)
    state = add_condition(state, "Hob", "BLESSED", 5)
    assert state.get("Hob").gm_conditions == (("BLESSED", 5),)
    for i in range(MOST_CONDITIONS - 1):
        state = add_condition(state, "Hob", f"c{i}")
    with pytest.raises(UsageError, match="lift one first"):
        add_condition(state, "Hob", "one more")


def test_a_new_fight_keeps_conditions_without_a_countdown_only():
    assert tick_conditions(quick_combatant("Hob", {}))[1] == ()  # none to run down
    state = add_condition(add_condition(_fight(), "Hob", "Cursed"), "Hob", "Blessed", 3)
    assert fresh_for_fight(state.get("Hob")).gm_conditions == (("Cursed", 0),)


# ---------------------------------------------------------------- on the session: events, log, story, undo


def _session() -> Session:
    s = Session(seed=5)
    s.combat.npc("Goblin", "ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp")
    s.combat.npc("Knight", "ST=12 DX=10 weapon=Broadsword:13:sw+1 cut")
    s.combat.start("Knight Goblin")
    return s


def test_conditions_and_counters_are_events_in_the_log_the_story_and_undo():
    s = _session()
    first = s.combat.state.current.name
    other = "Goblin" if first == "Knight" else "Knight"
    s.combat.condition(other, "Blessed", 1)
    assert s.log[-1].kind == "combat.condition" and s.log[-1].summary() == f"{other}: Blessed for 1 s"
    s.combat.maneuver(first, "evaluate", target=other)
    assert s.log[-1].summary() == f"{first}: Evaluate → {other} (+1)"
    s.combat.next()
    s.combat.next()  # the other's turn ends: Blessed is over
    assert s.log[-1].summary().endswith(f"; {other}: Blessed ends")
    assert s.combat.state.get(other).gm_conditions == ()
    s.combat.next()  # the first fighter's turn ends with Do Nothing: his Evaluate is lost, and said so
    assert s.log[-1].summary().endswith(f"; {first}: Evaluate lost")
    story = story_markdown(players_story(s))
    assert f"{other}: Blessed for 1 s" in story and f"{other}: Blessed ends" in story
    s.undo(2)
    s.undo()
    assert s.combat.state.get(other).gm_conditions == (("Blessed", 1),)
    s.combat.lift(other, "Blessed")
    assert s.log[-1].summary() == f"{other}: Blessed lifted" and s.combat.state.get(other).gm_conditions == ()
    set_language("ja")
    try:
        assert s.log[-1].summary() == f"{other}：Blessedを解除"
    finally:
        set_language("en")


def test_the_magic_reads_the_condition_as_the_tracker_does(ip):
    from gamekernel.magics import current_session

    ip.run_line_magic("combat", "npc Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp")
    ip.run_line_magic("combat", "start Goblin*2")
    s = current_session()
    mark = len(s.log)
    assert repr(ip.run_line_magic("combat", "condition Goblin2 Slow 0")).startswith("error: a countdown of 0 s")
    assert repr(ip.run_line_magic("combat", "lift Goblin2 Slow")).startswith("error: Goblin2 has no condition")
    assert len(s.log) == mark
    ip.run_line_magic("combat", 'condition Goblin2 "Holy shield" 5 turns')
    assert s.combat.state.get("Goblin2").gm_conditions == (("Holy shield", 5),)


def test_the_tracker_adds_and_lifts_conditions_on_its_rows_and_saved_picture():
    s = _session()
    tracker = Tracker(s)
    first = s.combat.state.current.name
    other = "Goblin" if first == "Knight" else "Knight"
    tracker._on_custom_message(tracker, {"action": "condition", "name": other, "text": '"On fire" 3s'}, [])
    tracker._on_custom_message(tracker, {"action": "condition", "name": first, "text": "Cursed"}, [])
    assert not tracker.error
    assert tracker.rows[other]["conditions"] == [["On fire", "On fire (3 s)", "warn"]]
    assert tracker.rows[first]["conditions"] == [["Cursed", "Cursed", "warn"]]
    assert all("On fire" not in text for text, _ in tracker.rows[other]["badges"])
    assert "On fire (3 s)" in tracker.snapshot_html()  # the saved picture shows it
    assert tracker._record.texts[-2:] == [f"{other}: On fire for 3 s", f"{first}: Cursed"]
    mark = len(s.log)
    tracker._on_custom_message(tracker, {"action": "condition", "name": other, "text": "Slow 99999"}, [])
    assert tracker.error.startswith("a countdown of 99999 s") and len(s.log) == mark
    tracker._on_custom_message(tracker, {"action": "lift", "name": other, "condition": "On fire"}, [])
    assert tracker.rows[other]["conditions"] == [] and tracker._record.texts[-1] == f"{other}: On fire lifted"
