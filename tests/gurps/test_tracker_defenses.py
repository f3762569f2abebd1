"""The tracker shows each defense as the next defense roll uses it: stunned −4 (GURPS-INJ-08,
GURPS-CMB-43), lying down −3 / kneeling −2 (GURPS-CMB-11 posture table), so the number on the
tracker is the target %defend rolls against."""

from gamekernel.gurps.combat_render import tracker_html, tracker_rows
from gamekernel.gurps.rules.combat import (
    Tape,
    attack,
    copy_with,
    defend,
    next_turn,
    quick_combatant,
    set_status,
    start_combat,
)

AIKO = quick_combatant("Aiko", {"ST": 11, "DX": 13, "HT": 11, "weapon": "Broadsword:14:sw+1 cut"}, pc=True)
ORC = quick_combatant("Orc", {"ST": 12, "DX": 11, "HT": 12, "HP": 18, "weapon": "Club:12:sw cr"})


def fight():
    return start_combat([AIKO, ORC], Tape(faces=[]))  # Aiko first (Speed 6 vs 5.75)


def defenses(state, name):
    row = next(r for r in tracker_rows(state) if r["name"] == name)
    return {d["kind"]: (d["base"], d["value"]) for d in row["defense_values"]}


def test_gurps_inj_08_stunned_minus_4_on_the_tracker():
    state = set_status(fight(), "Orc", stunned=True)
    assert defenses(state, "Orc") == {"dodge": (8, 4), "parry": (9, 5)}  # Speed 5.75 -> Dodge 8; Club 12 -> 9
    assert "Dodge 8→4" in tracker_html(state) and "Parry 9→5" in tracker_html(state)


def test_gurps_cmb_11_lying_down_minus_3_and_with_stun_minus_7():
    state = set_status(fight(), "Orc", posture="lying_down")
    assert defenses(state, "Orc") == {"dodge": (8, 5), "parry": (9, 6)}
    state = set_status(state, "Orc", stunned=True)
    assert defenses(state, "Orc") == {"dodge": (8, 1), "parry": (9, 2)}
    reeling = state.put(copy_with(state.get("Orc"), hp=5))  # reeling (HP < 1/3): Dodge 8 -> 4
    assert defenses(reeling, "Orc")["dodge"] == (4, -3)
    assert "Dodge 4→−3" in tracker_html(reeling)  # a defense is rolled even below 3 (GURPS-SR-05)
    state = set_status(fight(), "Orc", posture="kneeling")
    assert defenses(state, "Orc")["dodge"] == (8, 6)


def test_unmodified_defenses_show_the_base_alone():
    state = fight()
    assert defenses(state, "Aiko") == {"dodge": (9, 9), "parry": (10, 10)}
    assert "Dodge 9<" in tracker_html(state) and "→" not in tracker_html(state)


def test_gurps_cmb_43_tracker_value_is_the_defend_roll_target():
    """Aiko hits the stunned, prone Orc; the tracker's Dodge is the offered value and the roll's target."""
    state = set_status(fight(), "Orc", stunned=True, posture="lying_down")
    shown = defenses(state, "Orc")
    state, report = attack(state, "Aiko", "Orc", "Broadsword", Tape(faces=[3, 3, 3]))  # 9 hits, no crit
    assert dict(report.offered) == {k: v for k, (_, v) in shown.items()}
    assert {k: v for k, (_, v) in defenses(state, "Orc").items()} == dict(report.offered)  # pending attack
    _, result = defend(state, "Orc", "dodge", Tape(faces=[6, 6, 6, 1, 1, 1]))
    assert result.roll.target == shown["dodge"][1]


def test_gurps_cmb_43_shield_db_is_in_the_usual_value_and_stun_comes_off_it():
    """A ready shield's DB always counts against a front attack, so it is part of the usual number."""
    knight = quick_combatant("Knight", {"DX": 13, "HT": 11, "weapon": "Broadsword:14:sw+1 cut", "shield": 12,
                                        "db": 2}, pc=True)
    state = start_combat([knight, ORC], Tape(faces=[]))
    assert defenses(state, "Knight") == {"dodge": (11, 11), "parry": (12, 12), "block": (11, 11)}  # Shield 12: 9 + DB 2
    state = set_status(state, "Knight", stunned=True)
    assert defenses(state, "Knight") == {"dodge": (11, 7), "parry": (12, 8), "block": (11, 7)}
    state = set_status(state, "Knight", stunned=False)
    state, _ = next_turn(state, Tape(faces=[]))  # the Orc's turn
    state, report = attack(state, "Orc", "Knight", "Club", Tape(faces=[3, 3, 3]))
    assert ("block", 11) in report.offered
    _, result = defend(state, "Knight", "block", Tape(faces=[6, 6, 6, 1, 1, 1]))
    assert result.roll.target == defenses(state, "Knight")["block"][1] == 11


def test_a_row_read_from_its_combatant_is_the_row_read_by_name():
    """The tracker reads each row from its Combatant (a look-up by name per row made a refresh
    quadratic); with an attack pending on the Orc, both give the same numbers."""
    state, _report = attack(fight(), "Aiko", "Orc", "Broadsword", Tape(faces=[3, 3, 3]))
    assert state.pending is not None and state.pending.target == "Orc"
    for c in state.combatants:
        assert state.readout(c) == state.readout(c.name) == state.readout(c.name.upper())
    assert state.readout("Orc").defense_values != state.readout("Aiko").defense_values
