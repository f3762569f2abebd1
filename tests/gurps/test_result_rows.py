"""A combat result prints only the tracker rows it changed; the whole roster is `%combat status`.

- A damage on someone outside the running fight prints no tracker; on a fighter, that fighter's row.
- `%next` prints the turn line, the fighter whose turn begins and every row changed since the
  previous turn began, and a one-line hint naming how many rows were left out (none when none were).
- Text and HTML show the same rows with the same hint; `%combat start` and `%combat status` show all.
"""

from __future__ import annotations

import re

from gamekernel import Session
from gamekernel.i18n import t


def _fight() -> Session:
    s = Session(seed=3)
    s.gurps.char_new("Aiko", st=11, dx=13, iq=12, ht=11)
    s.gurps.char_new("Guard", st=11, iq=10, dr=1)
    s.combat.npc("Orc", "ST=12 DX=11 HT=12 HP=18 weapon=Club:11:sw cr")
    s.combat.start("Aiko Orc*2")
    return s


def _text_rows(result) -> list[str]:
    """The fighters of the tracker lines of a result's text ("▶ Aiko: HP ..." or "  Orc1: HP ...")."""
    return re.findall(r"^[▶ ] (\S+): HP ", str(result), re.M)


def _html_rows(result) -> list[str]:
    return re.findall(r'<tr class="gk-combatant[^"]*" data-name="([^"]+)"', result._repr_html_())


def _hint(count: int) -> str:
    return t("limits.others_unchanged", count=count)


def _rows(result) -> list[str]:
    """The rows a result shows, checked to be the same in text and HTML."""
    text, html = _text_rows(result), _html_rows(result)
    assert text == html, (text, html)
    return text


def test_a_damage_outside_the_fight_prints_no_tracker():
    s = _fight()
    result = s.gurps.damage("1d+2 cut", target="Guard")
    assert "Guard takes" in str(result)  # the damage itself is all there
    assert _rows(result) == []
    assert t("combat.tracker.title", round=1) not in str(result)
    assert "gk-tracker" not in result._repr_html_()
    assert _hint(3) not in str(result)


def test_a_damage_on_a_fighter_prints_only_his_row_and_says_the_rest_are_unchanged():
    s = _fight()
    result = s.gurps.damage("1d+2 cut", target="Orc2")
    assert _rows(result) == ["Orc2"]
    assert re.search(r"^  Orc2: HP 12/18 · ", str(result), re.M)  # the injury shows on the row
    assert _hint(2) in str(result) and _hint(2) in result._repr_html_()


def test_next_prints_the_turn_row_and_the_rows_changed_since_the_previous_turn():
    """Aiko's turn: Orc2 is hurt; at Orc1's turn, Orc1 (whose turn it is) and Orc2 (hurt in the
    turn that ended) show, Aiko (unchanged since her turn began) does not."""
    s = _fight()
    s.gurps.damage("1d+2 cut", target="Orc2")
    result = s.combat.next()
    assert t("combat.turn", name="Orc1", round=1) in str(result)
    assert _rows(result) == ["Orc1", "Orc2"]
    assert re.search(r"^▶ Orc1: HP 18/18 · FP 12/12 · Do Nothing · Dodge 8, Parry 8$", str(result), re.M)
    assert _hint(1) in str(result) and _hint(1) in result._repr_html_()


def test_next_compares_with_the_turn_that_began_not_with_the_step_before():
    """Two steps in Orc1's turn change Aiko's and Orc1's rows; at Orc2's turn both show (with Orc2,
    whose turn it is), Orc3 does not."""
    s = _fight()
    s.combat.end()
    s.combat.start("Aiko Orc*3")
    s.combat.next()
    s.gurps.damage("1d cut", target="Aiko")
    s.gurps.damage("1d cut", target="Orc1")
    result = s.combat.next()
    assert _rows(result) == ["Aiko", "Orc1", "Orc2"]
    assert _hint(1) in str(result)


def test_next_with_nothing_changed_prints_the_active_fighter_alone():
    s = _fight()
    result = s.combat.next()
    assert _rows(result) == ["Orc1"]
    assert _hint(2) in str(result)


def test_no_hint_when_every_row_is_shown():
    s = Session(seed=3)
    s.combat.npc("Orc", "ST=12 DX=11 HT=12 HP=18")
    s.combat.start("Orc*2")
    s.gurps.damage("1d cut", target="Orc2")
    result = s.combat.next()  # Orc2's turn, and Orc2 was hurt: but Orc1's row is unchanged
    assert _rows(result) == ["Orc2"]
    s.gurps.damage("1d cut", target="Orc1")
    result = s.combat.next()  # Orc1's turn, Orc1 hurt, Orc2's shock ended: both rows
    assert _rows(result) == ["Orc1", "Orc2"]
    assert "unchanged" not in str(result) and "gk-others" not in result._repr_html_()


def test_start_and_status_show_the_whole_roster():
    s = _fight()
    assert _rows(s.combat.status()) == ["Aiko", "Orc1", "Orc2"]
    s.combat.end()
    assert _rows(s.combat.start("Aiko Orc*2")) == ["Aiko", "Orc1", "Orc2"]


def test_a_step_that_changes_no_row_prints_no_tracker():
    """A new NPC template during the fight changes nobody in it."""
    s = _fight()
    result = s.combat.npc("Goblin", "ST=9 DX=12")
    assert _rows(result) == [] and "gk-tracker" not in result._repr_html_()


def test_a_fighter_who_joins_shows_his_row_and_the_next_turn_shows_it_again():
    s = _fight()
    s.combat.npc("Goblin", "ST=9 DX=12")
    assert _rows(s.combat.add("Goblin")) == ["Goblin"]
    assert "Goblin" in _rows(s.combat.next())  # new to the fight since the previous turn began


def test_undo_and_replay_show_the_same_rows_as_the_fight_played_straight():
    """The turn's start is kept by the reducer, so an undone step is not counted as a change."""
    straight = _fight()
    straight.gurps.damage("1d+2 cut", target="Orc2")
    undone = _fight()
    undone.gurps.damage("1d+2 cut", target="Orc2")
    undone.gurps.damage("1d cut", target="Aiko")
    undone.undo()
    assert _rows(undone.combat.next()) == _rows(straight.combat.next()) == ["Orc1", "Orc2"]


def test_a_steps_rows_sit_in_its_own_box_without_a_second_title():
    """The changed rows need no box and title of their own (the round is the turn line's); the whole
    roster of `%combat status` keeps its titled box."""
    s = _fight()
    title = t("combat.tracker.title", round=1)
    result = s.combat.next()
    html = result._repr_html_()
    assert title not in str(result) and title not in html
    assert html.count('<div class="gk ') == 1 and 'class="gk-tracker gk-tracker-rows"' in html
    status = s.combat.status()
    assert title in str(status) and 'class="gk gk-tracker"' in status._repr_html_()
