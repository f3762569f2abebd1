"""The campaign's words: a count agrees with its noun, a comment line in a log is called a comment
(not a crash), and a folder name's bidi controls never reach the screen."""

from __future__ import annotations

from gamekernel import Session
from gamekernel.events import LogStore


def test_one_session_one_event_one_entry_are_singular(tmp_path):
    session = Session(seed=1)
    status = repr(session.campaign_open(tmp_path / "c"))
    assert "1 session," in status and "1 sessions" not in status
    session.campaign_close()
    fresh = Session()
    fresh.note("the party meets")
    status = fresh.campaign_open(tmp_path / "d")
    assert any(n.startswith("1 event recorded before the campaign was opened is not") for n in status.notices)
    fresh.campaign_close()


def test_a_players_story_of_one_entry_is_singular():
    from gamekernel.results import ExportResult

    shown = repr(ExportResult("story.md", 1, story=True))
    assert "(1 entry)" in shown and "entries" not in shown
    assert "(2 entries)" in repr(ExportResult("story.md", 2, story=True))


def test_a_comment_line_in_a_log_is_called_a_comment(tmp_path):
    path = tmp_path / "log.jsonl"
    session = Session(seed=1, log_path=path)
    session.note("one")
    text = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text(text[0] + "# Aiko arrived late\n" + "".join(text[1:]), encoding="utf-8")
    report = LogStore.load(path)
    assert report.warnings == ["log.jsonl: line 2 is a comment, not an event; it was skipped"]
    assert [e.kind for e in report.events][-1] == "note"


def test_bidi_controls_in_a_folder_name_never_reach_the_screen(tmp_path):
    session = Session(seed=1)
    status = session.campaign_open(tmp_path / "crypt\u202eevil")
    shown = repr(status)
    assert "\u202e" not in shown and "cryptevil" in shown
    session.campaign_close()
