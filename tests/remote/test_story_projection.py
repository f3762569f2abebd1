"""The notebook's side of the players' projection, one test per finding: a hidden fighter in no players'
export or log, an NPC's HP a word in the story, a revealed secret hit told truthfully and alike by the
remote story and the export, secret damage out of `%char` and the sheet, the fight's console marked as
the GM's while it holds a secret, `%table` as the table may see it and `--gm` marked, a hidden "Al"
leaving Alice alone, no invisible control in a story, and outcome disclosure for every roll kind
(GURPS-SR-09: what the players must not know stays the GM's)."""

from __future__ import annotations

import json
import re

import pytest
from IPython.utils.capture import capture_output

from gamekernel import Session
from gamekernel.events import Event
from gamekernel.remote.projection import Audience
from gamekernel.remote.views import names_hidden, scrub_names, view
from gamekernel.render.story import players_story, story_markdown
from gamekernel.table.view import players_facts

KNIFE = "ST=10 DX=14 HT=10 HP=10 weapon=Knife:14:thr-1 imp"
OGRE = "ST=14 DX=10 HT=12 HP=20 weapon=Club:12:sw+2 cr"


def shown(ip, line: str) -> str:
    """Everything a magic line puts in the notebook: its outputs' text and HTML, a widget's state."""
    magic, _, rest = line.partition(" ")
    with capture_output() as captured:
        result = ip.run_line_magic(magic, rest)
    parts = [json.dumps(o.data, ensure_ascii=False) for o in captured.outputs] + [captured.stdout]
    if result is not None:
        parts.append(drawn(result))
        if hasattr(result, "get_state"):
            parts.append(json.dumps(result.get_state(), ensure_ascii=False, default=str))
            result.close()
    return "\n".join(parts)


def drawn(result) -> str:
    """A result as the notebook draws it: its text, its HTML, a widget's whole mimebundle."""
    parts = [repr(result)]
    if hasattr(result, "_repr_html_"):
        parts.append(result._repr_html_() or "")
    if hasattr(result, "_repr_mimebundle_"):
        parts.append(json.dumps(result._repr_mimebundle_(), ensure_ascii=False, default=str))
    return "\n".join(parts)


def run(ip, *lines: str) -> None:
    for line in lines:
        magic, _, rest = line.partition(" ")
        with capture_output():
            ip.run_line_magic(magic, rest)


@pytest.fixture
def ambush(ip):
    """Aiko (alice) and Bren (bob) in a fight with an Ogre and a hidden Assassin."""
    from gamekernel.magics import current_session

    run(ip, "char new Aiko st=11 dx=13", "char new Bren st=11 ht=13", f"combat npc Assassin {KNIFE}",
        f"combat npc Ogre {OGRE}", "table seat alice Aiko", "table seat bob Bren", "table hide Assassin",
        "combat start Aiko Bren Assassin Ogre", "hit Ogre 2d cr")
    return current_session()


def test_a_hidden_fighter_is_in_no_players_export_and_no_players_log(ip, ambush, tmp_path):
    run(ip, f"log export {tmp_path / 'p.md'} --players", f"log export {tmp_path / 'p.html'} --players")
    for name in ("p.md", "p.html"):
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert "Fight: Aiko, Bren, Ogre" in text and "Assassin" not in text, text
    log = shown(ip, "log")
    assert "Assassin" not in log and "fight: Aiko, Bren, Ogre" in log
    gm = shown(ip, "log --gm")
    assert "Assassin" in gm and "GM view" in gm


def test_an_npcs_hp_is_a_word_in_both_stories(ambush, tmp_path):
    s = ambush
    remote = view(s, Audience.player("alice"), s.public_table())["story"]
    export = s.log_write(tmp_path / "p.md", players=True).path.read_text(encoding="utf-8")
    line = next(b["text"] for b in remote if b["text"].startswith("Ogre is struck"))
    assert re.fullmatch(r"Ogre is struck \(2d cr\) — Ogre takes \d+ injury, (hurt|badly hurt|down)", line), line
    assert line in export and "/20" not in export and "/20" not in json.dumps(remote)


def test_a_secret_hit_revealed_by_a_public_step_is_told_truthfully_and_alike():
    s = Session(seed=3)
    s.gurps.char_new("Bren", st=11, ht=13)
    s.seats.seat("bob", "Bren")
    s.combat.npc("Ogre", OGRE)
    s.combat.start("Bren Ogre")
    s.combat.damage("Bren", "2d cr", secret=True)
    hidden = view(s, Audience.player("bob"), s.public_table())["story"]
    assert [b["text"] for b in hidden] == ["Fight: Bren, Ogre"]  # nothing of it yet
    s.combat.damage("Bren", "1d cr")  # a public step on him reveals it
    told = [b["text"] for b in view(s, Audience.player("bob"), s.public_table())["story"]]
    exported = [b.text for b in players_story(s).blocks]
    assert told == exported  # one story for the page and the export
    # the secret step's line, its damage dice (GURPS-DMG-04), its knockdown roll (GURPS-INJ-07), then
    # the public step's
    revealed = next(line for line in told if line.startswith("Revealed: Bren is struck"))
    public = next(line for line in told if line.startswith("Bren is struck"))
    assert told.index(revealed) < told.index(public)
    assert re.fullmatch(r"Revealed: Bren: damage 2d \[\d,\d\]=\d+ cr → injury \d+", told[told.index(revealed) + 1])
    assert told[told.index(revealed) + 2].startswith("Revealed: Bren: knockdown 13 · rolled")
    bren = next(c for c in s.combat.state.combatants if c.name == "Bren")
    assert revealed.startswith("Revealed: Bren is struck (2d cr) — Bren takes ") and "no harm" not in revealed
    assert public.startswith("Bren is struck (1d cr) — ")
    assert f"HP {bren.hp}/{bren.hp_max}" in public or "no harm" in public  # a seated character: his numbers


def test_secret_damage_stays_out_of_char_and_the_sheet(ip):
    run(ip, "char new Bren st=11 ht=13", "damage 6d cr @Bren --secret")
    for line in ("char Bren", "sheet Bren"):
        text = shown(ip, line)
        assert "HP 11/11" in text or '"value": 11, "max": 11' in text, text
        assert "unconscious" not in text.lower() and "GM view" not in text
    truth = shown(ip, "char Bren --gm")
    assert "GM view" in truth and "HP 11/11" not in truth
    assert "GM view" in shown(ip, "sheet Bren --gm")


def test_the_fights_console_is_marked_the_gms_while_it_holds_a_secret(ip):
    run(ip, "char new Bren st=11 ht=13", f"combat npc Ogre {OGRE}", "combat start Bren Ogre")
    assert "GM view" not in shown(ip, "combat")  # nothing hidden: the table may read it
    run(ip, "damage 2d cr @Bren --secret")
    assert shown(ip, "combat").count("GM view") >= 2  # text and HTML: Bren's true HP is the GM's
    assert "GM view" not in shown(ip, "next")  # a public step on him reveals the hit: the table's again


def test_table_shows_the_players_projection_and_gm_the_truth_marked(ip, ambush):
    players = shown(ip, "table")
    assert "Assassin" not in players and "/20" not in players and "Ogre" in players
    assert players_facts(ambush)["gurps"][-1] == {"name": "Ogre", "condition": "hurt", "state": ["shock_4"],
                                                  "in_fight": True} or "/20" not in players
    gm = shown(ip, "table --gm")
    assert "Assassin" in gm and "/20" in gm and "GM view" in gm


def test_hiding_al_leaves_alice_in_the_story():
    assert not names_hidden("Alice attacks Bren", frozenset({"al"}))
    assert names_hidden("ＡＬ attacks Bren", frozenset({"al"}))
    assert scrub_names("Alice attacks Al", ("Al",)) == "Alice attacks someone"
    s = Session(seed=2)
    s.combat.npc("Al", KNIFE)
    s.combat.npc("Alice", KNIFE)
    s.seats.hide("Al")
    s.combat.start("Alice Al")
    s.combat.damage("Alice", "1d cr")
    text = story_markdown(players_story(s))
    assert "## Fight: Alice" in text and "Alice is struck" in text and "Al " not in text


def test_no_invisible_control_reaches_a_story():
    s = Session(seed=2)
    note = Event(2, "note", {"text": "the door \u202eopens\u200b", "gm_only": False}, None, False, "")
    story = players_story(s, [*s.log, note])
    assert [b.text for b in story.blocks] == ["the door opens"]


def test_outcome_disclosure_tells_every_roll_kind_without_a_number():
    s = Session(seed=4)
    s.gurps.char_new("Aiko", st=11, dx=13, iq=12)
    s.gurps.char_new("Bren", st=12)
    s.gw.character("Rin", level=4, new=True)
    s.gw.draw("Rin")
    s.mtg.library_load("Mira", "m.txt", text="10 Forest\n10 Serra Angel\n")
    s.seats.disclose("outcome")
    s.gurps.check("Per", actor="Aiko")
    s.gurps.react([], actor="Aiko")
    s.gurps.fright(actor="Aiko")
    s.gurps.influence("Fast-Talk", "Bren", actor="Aiko")
    s.gurps.contest("Aiko:DX", "Bren:DX")
    s.gurps.contest("Aiko:DX", "Bren:DX", regular=True)
    s.mtg.check("green", 2, actor="Mira")
    s.roll("1d20+2>=12 hit", actor="Aiko")
    s.gurps.damage("1d cr", target="Bren")
    s.combat.npc("Ogre", OGRE)
    s.combat.start("Aiko Ogre")
    s.combat.damage("Ogre", "3d cr")
    told = [b.text for b in players_story(s).blocks if b.kind == "line"][-11:]
    assert len(told) == 11, told
    assert told[-2].startswith("Ogre is struck (3d cr) — Ogre is "), told[-2]  # how he is, not the injury
    assert told[-1] == "Ogre tries knockdown — succeeded"  # a roll made inside the step, after it (GURPS-INJ-07)
    for line in told:
        assert not re.search(r"\d", re.sub(r"\(\d+d[^)]*\)", "", line)), line  # no target, roll, margin, odds
    assert "Aiko: GURPS reaction — " in told[1] and told[4].startswith("GURPS contest — ")
