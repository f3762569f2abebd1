"""The core magics through a real IPython shell: results, errors, options and help."""

from __future__ import annotations

import io
from contextlib import redirect_stdout

from gamekernel import i18n
from gamekernel.magics import current_session
from gamekernel.render.log import ErrorResult, LogView, NoteResult, UndoResult


def test_note_and_log(ip):
    note = ip.run_line_magic("note", "The party enters the crypt")
    assert isinstance(note, NoteResult) and repr(note) == "Note: The party enters the crypt"
    view = ip.run_line_magic("log", "")
    assert isinstance(view, LogView)
    assert "note: The party enters the crypt" in repr(view)
    assert len(ip.run_line_magic("log", "1").events) == 1


def test_errors_are_one_line_and_change_nothing(ip):
    before = len(current_session().log)
    for magic, line, message in [
        ("seed", "seven", "error: %seed needs a whole number, got 'seven'"),
        ("log", "many", "error: %log takes a number of events or 'export', got 'many'"),
        ("undo", "-2", "error: %undo needs a count of at least 1, got -2"),
        ("note", "", "error: a note needs some text: %note The party enters the crypt"),
        ("note", "hi --loud", "error: unknown option --loud at column 4 (known: --gm)"),
    ]:
        result = ip.run_line_magic(magic, line)
        assert isinstance(result, ErrorResult), (magic, line)
        assert repr(result) == message
        assert "\n" not in repr(result)
    assert len(current_session().log) == before


def test_undo_and_redo_magics_summarise(ip):
    ip.run_line_magic("note", "oops")
    undone = ip.run_line_magic("undo", "")
    assert isinstance(undone, UndoResult) and repr(undone) == "Undid 1: note: oops"
    assert repr(ip.run_line_magic("redo", "")) == "Redid 1: note: oops"
    assert repr(ip.run_line_magic("redo", "")) == "Nothing to redo."


def test_config_options_reach_the_session(ip):
    ip.run_line_magic("config", "GameKernel.max_dice = 50")
    assert current_session().max_dice == 50
    ip.run_line_magic("config", "GameKernel.seed = 99")
    assert current_session().state["core"].seed == 99
    ip.run_line_magic("config", "GameKernel.language = 'ja'")
    assert i18n.get_language() == "ja"
    assert repr(ip.run_line_magic("note", "メモ")) == "メモ: メモ"
    out = io.StringIO()
    with redirect_stdout(out):
        ip.run_line_magic("config", "GameKernel")
    assert "max_dice" in out.getvalue() and "log_path" in out.getvalue()


def test_log_path_config_writes_every_event(ip, tmp_path):
    path = tmp_path / "log.jsonl"
    ip.run_line_magic("config", f"GameKernel.log_path = {str(path)!r}")
    ip.run_line_magic("note", "hello")
    assert path.read_text().count("\n") == len(current_session().log)


def test_help_is_available_for_every_core_magic(ip):
    for name in ["roll", "odds", "seed", "log", "note", "undo", "redo", "check", "rest"]:
        doc = ip.find_line_magic(name).__doc__
        assert doc and "::" in doc, name  # magic_arguments usage block


def test_log_export_magic(ip, tmp_path):
    ip.run_line_magic("note", "a secret plan --gm")
    path = tmp_path / "players.md"
    result = ip.run_line_magic("log", f"export {path} --players")
    assert "Wrote" in repr(result)
    assert "secret plan" not in path.read_text()


def test_unload_removes_the_magics(ip):
    ip.run_line_magic("unload_ext", "gamekernel")
    assert ip.find_line_magic("roll") is None
    ip.run_line_magic("load_ext", "gamekernel")
    assert ip.find_line_magic("roll") is not None
