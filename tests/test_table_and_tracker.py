"""The tracker and the table dashboard: the tracker plays a whole exchange from its intents (results drawn by the
combat renderer with the dice, the defence and weapon chosen, damage, the HT roll at HP <= 0),
fighters join and leave a running fight keeping initiative (GURPS-CMB-02, CMB-05), and the table
dashboard shows every character of the session from one session call."""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.errors import GameKernelError, RuleError
from gamekernel.gurps.widgets.tracker import Tracker
from gamekernel.table.widget import TableDashboard

DECKLIST = "Deck\n4 Forest\n3 Elvish Mystic\n2 Runeclaw Bear\n2 Ornithopter\n2 Serra Angel\n3 Plains\n"


def _fight(seed: int = 4) -> Session:
    s = Session(seed=seed)
    s.combat.npc("Goblin", "ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp")
    s.combat.start("Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,weapon=Knife:13:thr-1 imp,pc=1} Goblin*2")
    return s


def test_tracker_plays_an_exchange_with_the_chosen_weapon_and_defence() -> None:
    s = _fight()
    w = Tracker(s)
    assert w.rows["Aiko"]["weapons"] == ["Broadsword", "Knife"]
    w._on_custom_message(w, {"action": "attack", "attacker": "Aiko", "target": "Goblin1", "weapon": "Knife"}, [])
    assert w.error == "" and s.log[-1].data["args"]["weapon"] == "Knife"
    assert w.offered["name"] == "Goblin1"
    kinds = [k for k, _, _, _ in w.offered["options"]]  # a Parry once per weapon, named (GURPS-CMB-46)
    assert kinds == [k for k, _ in s.combat.offered()[1]] and "parry" in kinds
    assert ["parry", 8, "Parry 8 (Spear)", "Spear"] in w.offered["options"]
    assert "gk-die" in w.result_html and "gk-gurps-check" in w.result_html  # the roll, drawn with its dice
    w._on_custom_message(w, {"action": "defend", "name": "Goblin1", "kind": "dodge"}, [])
    assert s.log[-1].kind == "combat.defend" and s.log[-1].data["args"]["kind"] == "dodge"
    assert w.offered == {"name": "", "options": [], "refused": []}
    assert w.result_html.count("gk-combat-") == 2  # the attack and its defence: one exchange
    w._on_custom_message(w, {"action": "next"}, [])
    assert w.result_html.count("gk-combat-") == 2 and "Goblin1" in w.last  # the turn's line shows below
    w._on_custom_message(w, {"action": "attack", "attacker": "Goblin1", "target": "Aiko", "weapon": "Spear"}, [])
    assert w.result_html.count("gk-combat-") == 1  # a new attack starts a new exchange


def test_tracker_damage_box_and_the_ht_roll_to_stay_conscious() -> None:
    s = _fight()
    w = Tracker(s)
    w._on_custom_message(w, {"action": "damage", "name": "Aiko", "spec": "2d+10 cr"}, [])
    assert w.error == "" and s.log[-1].kind == "combat.damage"
    assert w.rows["Aiko"]["hp"] == s.combat.state.get("Aiko").hp <= 0
    assert "gk-gurps-damage" in w.result_html
    assert w.due == {"name": "Aiko", "checks": ["consciousness"], "after": []}  # GURPS-INJ-02: HT first
    events = len(s.log)
    w._on_custom_message(w, {"action": "maneuver", "name": "Aiko", "maneuver": "attack"}, [])
    assert len(s.log) == events + 1 and s.log[-1].kind == "combat.maneuver"
    assert w.result_html.count("gk-gurps-check") >= 1 and s.log[-1].data["faces"]  # the HT roll, with dice
    assert w.due["checks"] == []
    w._on_custom_message(w, {"action": "damage", "name": "Aiko", "spec": "  "}, [])
    assert w.error and len(s.log) == events + 1  # refused: nothing recorded


def test_join_keeps_the_turn_and_places_by_speed_then_leave_and_undo() -> None:
    s = _fight()
    assert [c.name for c in s.combat.state.combatants] == ["Aiko", "Goblin1", "Goblin2"]
    w = Tracker(s)
    w._on_custom_message(w, {"action": "join", "spec": "Orc{ST=12,DX=14,HT=12,weapon=Axe:12:sw+2 cut}"}, [])
    fight = s.combat.state
    assert [c.name for c in fight.combatants] == ["Orc", "Aiko", "Goblin1", "Goblin2"]  # Speed 6.5 first
    assert fight.current.name == "Aiko" and fight.get("Orc").maneuver == "do_nothing"
    assert w.order == ["Orc", "Aiko", "Goblin1", "Goblin2"]
    s.combat.join("Goblin")  # a template: Speed 5.75 and DX 12 tie the goblins, so he comes after them
    assert [c.name for c in s.combat.state.combatants][-1] == "Goblin"
    w._on_custom_message(w, {"action": "leave", "name": "Aiko"}, [])  # the leaver's turn passes on
    assert s.combat.state.current.name == "Goblin1" and "Aiko" not in w.order
    s.undo()
    assert s.combat.state.current.name == "Aiko" and len(s.combat.state.combatants) == 5
    replayed = Session.replay(s.log) if hasattr(Session, "replay") else None
    if replayed is not None:
        assert [c.name for c in replayed.combat.state.combatants] == [c.name for c in s.combat.state.combatants]


def test_leave_refuses_the_defender_of_a_pending_attack_and_the_last_fighter() -> None:
    s = _fight()
    s.combat.attack("Aiko", "Goblin1", "Broadsword")
    events = len(s.log)
    with pytest.raises(RuleError):
        s.combat.leave("Goblin1")
    assert len(s.log) == events
    s2 = Session(seed=1)
    s2.combat.start("A{DX=10} B{DX=10}")
    s2.combat.leave("B")
    with pytest.raises(RuleError):
        s2.combat.leave("A")
    with pytest.raises(GameKernelError):
        s2.combat.join("A{DX=11}")  # same name as a fighter


def _table() -> Session:
    s = _fight(6)
    s.gw.deck_new("Rin")
    for card in ("Gravity Knot", "Thought Needle", "Heavy Knuckle", "Ember Thought"):
        s.gw.deck_add("Rin", card, 2)
    s.gw.character("Rin", level=4)
    s.gw.draw("Rin")
    s.mtg.library_load("Mira", "forest-friends.txt", text=DECKLIST)
    return s


def test_table_view_has_every_character_and_whose_turn() -> None:
    s = _table()
    view = s.seats.view()
    assert [r["name"] for r in view["gurps"]] == ["Aiko", "Goblin1", "Goblin2"]
    assert view["gurps"][0]["hp"] == 11 and view["gurps"][0]["in_fight"]
    assert view["gamma"][0]["name"] == "Rin" and len(view["gamma"][0]["cards"]) == 2
    assert view["mtg"] == [{"name": "Mira", "library": 16, "known_top": [], "known_bottom": 0, "boost_used": False}]
    assert view["fight"] == {"round": 1, "turn": "Aiko", "pending": ""} and view["scene"] == 1


def test_dashboard_clicks_are_session_calls_and_snapshot_reads_without_a_kernel() -> None:
    s = _table()
    w = TableDashboard(s)
    uid = w.view["gamma"][0]["cards"][0]["uid"]
    w._on_custom_message(w, {"action": "tap", "name": "Rin", "uid": uid}, [])
    assert s.log[-1].kind == "gw.tap" and w.view["gamma"][0]["cards"][0]["tapped"]
    w._on_custom_message(w, {"action": "next"}, [])
    assert s.log[-1].kind == "combat.next" and w.view["fight"]["turn"] == "Goblin1"
    w._on_custom_message(w, {"action": "check", "name": "Mira", "kind": "green", "difficulty": "2"}, [])
    assert s.log[-1].kind == "mtg.check" and s.log[-1].data["actor"] == "Mira"
    events = len(s.log)
    w._on_custom_message(w, {"action": "check", "name": "Mira", "kind": "green", "difficulty": "two"}, [])
    assert "difficulty" in w.error and len(s.log) == events
    w._on_custom_message(w, {"action": "scene"}, [])
    assert s.log[-1].kind == "mtg.scene"
    w._on_custom_message(w, {"action": "encounter_start"}, [])
    assert s.gw.state.encounter
    w._on_custom_message(w, {"action": "nonsense"}, [])
    assert "nonsense" in w.error
    text = repr(w)
    assert text == repr(w) and "Goblin1's turn" in text and "Rin" in text and "Mira" in text
    html = w._record_bundle()["text/html"]  # the saved picture, in the record below the view
    assert "gk-table-dashboard" in html and "<th>HP</th>" in html and "tapped" in html
    w.close()


def test_dashboard_escapes_names() -> None:
    s = Session(seed=1)
    s.combat.start("<b>x</b>{DX=10} B{DX=10}")
    html = TableDashboard(s).snapshot_html()
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html


@pytest.mark.parametrize(("seed", "roll", "kind"), [(0, "mortal", "combat.mortal"), (4, "wake", "combat.wake")])
def test_after_the_fight_the_tracker_offers_the_roll_each_fighter_owes(seed: int, roll: str, kind: str) -> None:
    """GURPS-INJ-10 (a mortal wound's HT roll) and INJ-13 (waking up): one button each, a session call."""
    s = Session(seed=seed)
    s.combat.start("A{HT=9,HP=10} B{DX=10}")
    s.combat.damage("A", "3d+12 cr")
    w = Tracker(s)
    assert w.due["after"] == []  # nothing owed while the fight runs
    w._on_custom_message(w, {"action": "end"}, [])
    assert s.log[-1].kind == "combat.end" and w.over
    assert w.due["after"] == [["A", roll]]
    w._on_custom_message(w, {"action": roll, "name": "A"}, [])
    assert w.error == "" and s.log[-1].kind == kind


def test_dashboard_and_tracker_labels_follow_the_language() -> None:
    from gamekernel.i18n import set_language

    s = _table()
    try:
        set_language("ja")
        w, tr = TableDashboard(s), Tracker(s)
        assert w.labels["buttons"]["next"] == "次の手番" and "第1ラウンド・Aikoの手番" in w.texts["header"]
        assert tr.labels["cols"]["defenses"] == "防御" and tr.labels["buttons"]["damage"] == "ダメージを与える"
        assert "シーン1" in repr(w)
    finally:
        set_language("en")
    w._refresh_synced()
    assert w.labels["buttons"]["next"] == "Next turn"


def test_damage_box_takes_basic_damage_rolled_at_the_table() -> None:
    """GURPS-DMG-04..08: typed basic damage goes through DR and the wounding multiplier like rolled damage."""
    s = Session(seed=1)
    s.combat.start("A{DX=10} B{DX=10}")
    w = Tracker(s)
    w._on_custom_message(w, {"action": "damage", "name": "A", "spec": "7 cut"}, [])
    assert w.error == "" and s.log[-1].kind == "combat.damage"  # as `%damage 7 cut @A` (flat damage, no dice)
    assert s.combat.state.get("A").hp == 10 - 10  # 7 cut x1.5 = 10 injury
    assert "7 cut rolled at the table" in w.result_html
    s.undo()
    assert s.combat.state.get("A").hp == 10
    s.redo()
    assert s.combat.state.get("A").hp == 0
    s.combat.damage("B", "0 cr")
    assert s.combat.state.get("B").hp == 10
    events = len(s.log)
    for bad in ("7 zap", "abc"):
        w._on_custom_message(w, {"action": "damage", "name": "B", "spec": bad}, [])
        assert w.error and len(s.log) == events
    s.combat.damage("B", "10000 cr")
    assert s.combat.state.get("B").dead or s.combat.state.get("B").destroyed


def test_the_dashboard_never_shows_a_secret_roll_live_or_in_its_saved_state() -> None:
    s = Session(seed=3)
    s.roll("2d6")
    w = TableDashboard(s)
    public = w.last
    assert public
    s.roll("3d6+1", secret=True)
    shown = s.log[-1].summary()  # what the dashboard used to show: "3d6+1 = 11 · rolled ..."
    assert "3d6+1" in shown
    for text in (w.last, str(w.get_state())):
        assert shown not in text and "3d6+1" not in text
    assert w.last == public  # the last thing the players may see
    s.undo()  # an undo of the secret roll names it: not shown either
    assert w.last == public
    s.note("the door opens")
    assert "the door opens" in w.last
