"""Prepared scenes (`%%scene Crypt`): the GM's notes as text, each `[mark]` a button that rolls for the
character picked or as the mark says, recorded exactly as the magic with that line (GURPS-SR-02..08
checks through `%check`, dice through `%roll`): the parity test holds a button to the magic (same
event, same log line, same dice drawn). A bad mark is one line naming it and its line, and no scene
is shown; the saved picture shows the notes and each button's last result."""

from __future__ import annotations

import pytest

from gamekernel.errors import UsageError
from gamekernel.magics import current_session
from gamekernel.render.log import log_text
from gamekernel.scenes.notes import MOST_MARK, Mark, read_notes
from gamekernel.scenes.render import scene_text
from gamekernel.scenes.run import mark_line
from gamekernel.scenes.widget import SceneWidget

NOTES = """The crypt door is old and bound in iron.
[Lockpicking-5] to open it, [3d6] rats pour out.

Aiko listens at the door: [Per-2 @Aiko]
Anyone: [Per] · [HT+1] · [2d+1 cut]
"""


def _table(ip) -> None:
    for line in ("new Aiko dx=12 iq=12 ht=11", "skill Lockpicking 4 @Aiko", "new Bren dx=11 iq=10 ht=12"):
        ip.run_line_magic("char", line)


def _click(widget: SceneWidget, mark: int, actor: str = "") -> None:
    widget._on_custom_message(widget, {"action": "roll", "mark": mark, "actor": actor}, [])


def test_notes_are_read_into_text_and_marks_each_the_magic_it_is():
    notes = read_notes("Crypt", NOTES)
    marks = notes.marks
    assert [(m.text, m.kind, m.line) for m in marks] == [
        ("Lockpicking-5", "check", 2), ("3d6", "roll", 2), ("Per-2 @Aiko", "check", 4), ("Per", "check", 5),
        ("HT+1", "check", 5), ("2d+1 cut", "roll", 5)]
    assert notes.lines[0] == ("The crypt door is old and bound in iron.",) and notes.lines[2] == ()
    assert mark_line(marks[0], "Bren") == "Lockpicking-5 @Bren"
    assert mark_line(marks[2], "Bren") == "Per-2 @Aiko"  # the mark names whom it is for
    assert mark_line(marks[3], "Sir Henryk") == 'Per @"Sir Henryk"'
    assert read_notes("", "［Per］").marks == (Mark(1, 1, "Per", "check"),)  # full-width brackets


@pytest.mark.parametrize(("body", "message"), [
    ("ok\nx [Lockpicking-] y", "error: line 2, mark [Lockpicking-]: expected a number after '-' at column 12"),
    ("a [] b", "error: line 1: an empty mark []: write the roll inside, e.g. [Per] or [3d6]"),
    ("a [Per b", "error: line 1: a bracket without its pair near 'a [Per b': a mark is [Per], [3d6] or "
                 "[Lockpicking-5]"),
    ("[3d6+]", "error: line 1, mark [3d6+]: expected a number after '+' at column 4"),
    ("[green @Mira]", "error: line 1, mark [green @Mira]: cannot read the check 'green'"),  # MtG's own reader
    ("[Per --nope]", "error: line 1, mark [Per --nope]: unknown option --nope at column 5"),
    ("[" + "x" * (MOST_MARK + 1) + "]", "error: line 1: a mark holds at most 200 characters"),
])
def test_a_bad_mark_is_one_line_naming_it_and_its_line_and_nothing_is_shown(ip, body, message):
    s = current_session()
    mark = len(s.log)
    result = ip.run_cell_magic("scene", "Bad", body)
    text = repr(result)
    assert text.startswith("error: ") and "\n" not in text and len(s.log) == mark
    if message is not None:
        assert text.startswith(message)


def test_gurps_sr_02_a_button_is_the_magic_same_event_line_and_dice(ip):
    """Each mark clicked records what its magic records: run the magic, take it back with the dice put
    back, click the button: the same event data, the same log line, the same dice state after."""
    _table(ip)
    s = current_session()
    scene = ip.run_cell_magic("scene", "Crypt", NOTES)
    for index, actor, magic, line in ((1, "Aiko", "check", "Lockpicking-5 @Aiko"), (2, "", "roll", "3d6"),
                                      (3, "Bren", "check", "Per-2 @Aiko"), (4, "Bren", "check", "Per @Bren"),
                                      (6, "Aiko", "roll", "2d+1 cut @Aiko")):
        dice = s.rng.getstate()
        ip.run_line_magic(magic, line)
        typed = s.log[-1]
        after = s.rng.getstate()
        s.undo()
        s.rng.setstate(dice)
        _click(scene, index, actor)
        assert not scene.error, scene.error
        clicked = s.log[-1]
        assert (clicked.kind, clicked.actor, clicked.data) == (typed.kind, typed.actor, typed.data), line
        assert clicked.summary() == typed.summary() and s.rng.getstate() == after
        # the record's line is %log's, its actor named: "Aiko: 2d+1 cut ...", never an anonymous roll
        assert scene._record.texts[-1] == typed.line() == scene.results[str(index)]
        assert typed.line() in log_text(s.log_view(1))
        if actor or "@" in line:
            assert typed.line().startswith(clicked.actor or "?"), typed.line()


def test_the_picker_rolls_for_the_character_chosen_or_as_written(ip):
    """Two characters, two scenes: a button rolls for whom the picker names, a mark naming someone for
    them; with nobody picked a check is the active character's (as `%check Per` is)."""
    _table(ip)
    s = current_session()
    first = ip.run_cell_magic("scene", "Hall", "[Per]")
    second = ip.run_cell_magic("scene", "Gate", "[Per] [Per @Bren]")
    assert first.characters == ["Aiko", "Bren"]
    _click(first, 1, "Aiko")
    assert s.log[-1].actor == "Aiko"
    _click(second, 1, "Bren")
    assert s.log[-1].actor == "Bren"
    _click(second, 2, "Aiko")
    assert s.log[-1].actor == "Bren"
    _click(first, 1, "")
    assert s.log[-1].actor == s.gurps.state.active  # as written: `%check Per`, the active character's


def test_a_refused_click_is_one_line_and_records_nothing(ip):
    _table(ip)
    s = current_session()
    scene = ip.run_cell_magic("scene", "Crypt", "[Lockpicking-5] [Per]")
    mark = len(s.log)
    for content in ({"mark": 9, "actor": ""}, {"mark": True, "actor": ""}, {"mark": 2, "actor": "Nobody"},
                    {"mark": "1", "actor": ""}):
        scene._on_custom_message(scene, {"action": "roll", **content}, [])
        assert scene.error and "\n" not in scene.error and len(s.log) == mark
    scene._on_custom_message(scene, {"action": "fly"}, [])
    assert scene.error == "the scene has no action 'fly'" and len(s.log) == mark and scene.results == {}


def test_the_saved_picture_shows_the_notes_escaped_and_each_result(ip):
    _table(ip)
    scene = ip.run_cell_magic("scene", "<b>Crypt</b>", "Beware <script>x</script> [Per @Aiko] and [3d6]")
    _click(scene, 1)
    html = scene.snapshot_html()
    assert "<script>" not in html and "&lt;script&gt;" in html and "&lt;b&gt;Crypt&lt;/b&gt;" in html
    assert "[Per @Aiko]" in html and "→ Aiko · Per 12" in html
    assert "(not rolled)" in html  # the 3d6 not yet
    assert scene_text(scene._notes, scene._results).splitlines()[1].startswith(
        "Beware <script>x</script> [Per @Aiko] → Aiko · Per 12")


def test_a_secret_mark_shows_that_a_roll_was_made_not_what(ip):
    _table(ip)
    scene = ip.run_cell_magic("scene", "Crypt", "[Per --secret @Aiko]")
    _click(scene, 1)
    s = current_session()
    assert s.log[-1].secret and s.log[-1].kind == "gurps.check"
    assert scene.results == {"1": "Secret roll for the GM (check); the result is in the log."}
    assert "Per 12" not in scene.snapshot_html() and "Per 12" not in " ".join(scene._record.texts)


def test_no_notes_is_one_line(ip):
    assert repr(ip.run_cell_magic("scene", "Empty", "\n\n")).startswith("error: write the scene's notes")
    with pytest.raises(UsageError):
        read_notes("x", "a ] b")
