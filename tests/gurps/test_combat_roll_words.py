"""Every roll a fight makes is in its log line with its dice and what it was rolled against: the
attack roll and its critical (GURPS-CMB-26, CMB-27), the defense roll (CMB-40), the damage dice, DR
and injury (DMG-04..08), in English and Japanese; an event written before the rolls were kept keeps
its old words; a fighter the GM hides keeps his numbers out of the players' log and story (SR-09)."""

from __future__ import annotations

import contextlib
import re
from collections import Counter

import pytest

from gamekernel import Session, i18n
from gamekernel.display import summarize, summarize_hiding
from gamekernel.errors import RuleError
from gamekernel.gurps.rules.checks import success_roll
from gamekernel.gurps.rules.damage import parse_damage, roll_damage
from gamekernel.render.story import players_story, tell

AXE = "ST=12 DX=11 HT=11 HP=12 weapon=Axe:12:sw+2 cut"


@pytest.fixture
def japanese():
    before = i18n.get_language()
    i18n.set_language("ja")
    yield
    i18n.set_language(before)


def _attack(faces, *, hit_outcome=None, damage=None, skill=12):
    roll = success_roll(skill, [], label="Axe", actor="Orc", dice=faces, kind="attack")
    outcome = {"hit": roll.success if hit_outcome is None else hit_outcome, "injury": None, "roll": roll.to_dict()}
    if damage is not None:
        outcome |= {"injury": damage.injury, "damage": damage.to_dict()}
    return {"op": "attack", "args": {"attacker": "Orc", "target": "Aiko", "weapon": "Axe", "options": {}},
            "faces": list(faces), "outcome": outcome}


def _defend(kind, faces, score, *, label="Dodge", damage=None, weapon=""):
    outcome: dict = {"defended": None, "injury": None}
    if faces:
        roll = success_roll(score, [], label=label, actor="Aiko", dice=faces, defense=True, kind="defense")
        outcome |= {"defended": roll.success, "roll": roll.to_dict()}
    else:
        outcome["defended"] = False
    if damage is not None:
        outcome |= {"injury": damage.injury, "damage": damage.to_dict()}
    args = {"name": "Aiko", "kind": kind, **({"weapon": weapon} if weapon else {})}
    return {"op": "defend", "args": args, "faces": list(faces), "outcome": outcome}


def _cut(faces, *, dr=0):
    return roll_damage(parse_damage("sw+2 cut", st=12), dr=dr, dice=faces, target="Aiko", attacker="Orc")


def test_attack_roll_with_dice_target_and_verdict():  # GURPS-CMB-26
    assert summarize("combat.attack", _attack((2, 1, 3))) == "Orc attacks Aiko: Axe 3d6 [2,1,3]=6 vs 12, hit"
    assert summarize("combat.attack", _attack((4, 4, 5))) == "Orc attacks Aiko: Axe 3d6 [4,4,5]=13 vs 12, miss"
    assert summarize("combat.attack", _attack((4, 4, 4))) == "Orc attacks Aiko: Axe 3d6 [4,4,4]=12 vs 12, hit"


def test_a_critical_hit_says_so_and_its_damage_follows():  # GURPS-CMB-27, DMG-04..08
    line = summarize("combat.attack", _attack((1, 2, 1), damage=_cut((5,))))
    assert line == ("Orc attacks Aiko: Axe 3d6 [1,2,1]=4 vs 12, hit (critical success); "
                    "damage 1d+4 [5]+4=9 cut → injury 13")
    # 5 is critical only at effective 15+ (CMB-27): at 14 a plain hit
    assert summarize("combat.attack", _attack((1, 2, 2), skill=14)).endswith("=5 vs 14, hit")
    assert summarize("combat.attack", _attack((1, 2, 2), skill=15)).endswith("=5 vs 15, hit (critical success)")


def test_a_critical_miss_says_so():  # GURPS-CMB-26 (SR-04: 18 always a critical failure)
    assert summarize("combat.attack", _attack((6, 6, 6))).endswith("[6,6,6]=18 vs 12, miss (critical failure)")


def test_defense_rolls_each_kind_with_damage_dr_and_injury():  # GURPS-CMB-40, DMG-04..08
    line = summarize("combat.defend", _defend("dodge", (4, 2, 4), 9, damage=_cut((5,), dr=2)))
    assert line == "Aiko defends: Dodge 3d6 [4,2,4]=10 vs 9, not defended; damage 1d+4 [5]+4=9 cut, DR 2 → injury 10"
    assert summarize("combat.defend", _defend("parry", (3, 3, 3), 9, label="Parry (Knife)")) == (
        "Aiko defends: Parry (Knife) 3d6 [3,3,3]=9 vs 9, defended")
    assert summarize("combat.defend", _defend("block", (1, 1, 2), 8, label="Block")) == (
        "Aiko defends: Block 3d6 [1,1,2]=4 vs 8, defended (critical success)")
    assert summarize("combat.defend", _defend("none", (), 0, damage=_cut((2,)))) == (
        "Aiko defends: none: not defended; damage 1d+4 [2]+4=6 cut → injury 9")


def test_damage_steps_say_their_dice_the_minimum_and_dr():  # GURPS-DMG-04, DMG-05, DMG-08
    roll = roll_damage(parse_damage("1d-3 cr"), dr=0, dice=(1,), target="Aiko")
    data = {"op": "damage", "args": {"name": "Aiko", "spec": "1d-3 cr", "attacker": ""},
            "faces": [1], "outcome": {"injury": roll.injury, "damage": roll.to_dict()}}
    assert summarize("combat.damage", data) == "Aiko takes 1d-3 cr: [1]-3=-2→0 → injury 0"
    roll = roll_damage(parse_damage("2d(2) imp"), dr=4, dice=(6, 5), target="Aiko")
    data["args"]["spec"], data["outcome"] = "2d(2) imp", {"injury": roll.injury, "damage": roll.to_dict()}
    assert summarize("combat.damage", data) == "Aiko takes 2d(2) imp: [6,5]=11, DR 4→2 → injury 18"


def test_the_rolls_in_japanese(japanese):  # GURPS-CMB-26, CMB-27, CMB-40, DMG-04..08
    assert summarize("combat.attack", _attack((1, 2, 1), damage=_cut((5,)))) == (
        "OrcがAikoを攻撃：Axe 3d6 [1,2,1]=4 対 12、命中 (クリティカル)；ダメージ 1d+4 [5]+4=9 cut → 負傷 13"
        .replace("；", "; "))
    assert summarize("combat.defend", _defend("dodge", (4, 2, 4), 9, damage=_cut((5,), dr=2))) == (
        "Aikoの防御：よけ 3d6 [4,2,4]=10 対 9、防御失敗; ダメージ 1d+4 [5]+4=9 cut、防護点2 → 負傷 10")


def test_an_event_written_before_the_rolls_were_kept_keeps_its_words():
    old = {"op": "attack", "args": {"attacker": "Orc", "target": "Aiko", "weapon": "Axe", "options": {}},
           "faces": [2, 1, 3], "outcome": {"hit": True, "injury": None}}
    assert summarize("combat.attack", old) == "Orc attacks Aiko: hit"
    old = {"op": "defend", "args": {"name": "Aiko", "kind": "dodge"}, "faces": [4, 2, 4, 5],
           "outcome": {"defended": False, "injury": 13}}
    assert summarize("combat.defend", old) == "Aiko defends: Dodge: not defended, injury 13"


def _groups(line: str) -> Counter:
    return Counter(int(f) for group in re.findall(r"\[([\d,]+)\]", line) for f in group.split(","))


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_every_die_a_fight_step_rolled_is_in_its_line(seed):  # GURPS-CMB-26, 40, DMG-04, INJ-02, INJ-07
    s = Session(seed=seed)
    s.gurps.char_new("Aiko", st=11, dx=13)
    s.combat.npc("Orc", AXE)
    s.combat.start("Aiko Orc")
    for _ in range(10):
        fight = s.combat.state
        if fight.over:
            break
        who = fight.combatants[fight.active]
        other = next(c for c in fight.combatants if c.name != who.name)
        with contextlib.suppress(RuleError):  # stunned, down: no attack this turn
            s.combat.maneuver(who.name, "attack")
            s.combat.attack(who.name, other.name)
            if s.combat.state.pending is not None:
                s.combat.defend(other.name)
        s.combat.next()
    steps = [e for e in s.log if e.kind.startswith("combat.") and e.data["faces"]]
    assert any(e.data["op"] == "defend" and "damage" in e.data["outcome"] for e in steps)
    for e in steps:
        assert _groups(e.summary()) == Counter(e.data["faces"]), (e.summary(), e.data["faces"])


def test_a_hidden_fighter_keeps_his_numbers_out_of_the_players_log_and_story():  # GURPS-SR-09
    s = Session(seed=4)
    s.gurps.char_new("Aiko", st=11, dx=13)
    s.seats.seat("alice", "Aiko")
    s.combat.npc("Orc", AXE)
    s.seats.hide("Orc")
    s.combat.start("Orc Aiko")
    if s.combat.state.current.name != "Orc":
        s.combat.next()
    s.combat.maneuver("Orc", "attack")
    s.combat.attack("Orc", "Aiko")
    attack = s.log[-1]
    if s.combat.state.pending is not None:
        s.combat.defend("Aiko", "dodge")
    gm = summarize("combat.attack", attack.data)
    assert "vs 12" in gm  # the GM's line: the Orc's Axe 12
    players = str(s.log_view())
    assert "vs 12" not in players and "Orc" not in players and "someone attacks Aiko" in players, players
    assert summarize_hiding("combat.attack", attack.data, lambda n: n == "Orc") == (
        "Orc attacks Aiko: " + ("hit" if attack.data["outcome"]["hit"] else "miss"))
    told = "\n".join(b.text for b in players_story(s).blocks)
    assert "vs 12" not in told and "Orc" not in told and "someone attacks Aiko" in told, told
    assert "vs 12" in "\n".join(b.text for b in tell(s.log).blocks)  # the GM's story keeps them
