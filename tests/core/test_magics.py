"""The core magics through a real IPython shell: results, errors, options and help."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stdout

from gamekernel import i18n
from gamekernel.display.results import ErrorResult
from gamekernel.magics import current_session
from gamekernel.results import LogView, NoteResult, UndoResult


def test_note_and_log(ip):
    note = ip.run_line_magic("note", "The party enters the crypt")
    assert isinstance(note, NoteResult) and repr(note) == "Note: The party enters the crypt"
    view = ip.run_line_magic("log", "")
    assert isinstance(view, LogView)
    assert re.search(r"\bnote +The party enters the crypt", repr(view))  # the kind word once
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
        assert doc and doc.startswith(f"::\n\n  %{name} "), name  # the usage block from the declaration


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


# --- IPython's own magics are left alone -------------------------------------------------------


def _magic_tables(ip) -> dict[str, dict[str, object]]:
    return {kind: dict(table) for kind, table in ip.magics_manager.magics.items()}


def test_ipython_load_and_save_stay_ipythons(ip):
    for name in ("load", "save"):
        assert type(ip.find_line_magic(name).__self__).__name__ == "CodeMagics", name
    ip.run_line_magic("unload_ext", "gamekernel")
    for name in ("load", "save"):
        assert type(ip.find_line_magic(name).__self__).__name__ == "CodeMagics", name


def test_unload_leaves_every_magic_as_before_loading(ip):
    ip.run_line_magic("unload_ext", "gamekernel")
    before = _magic_tables(ip)
    assert {"load", "save", "run", "time"} <= set(before["line"]) and "timeit" in before["cell"]
    ip.run_line_magic("load_ext", "gamekernel")
    assert set(_magic_tables(ip)["line"]) > set(before["line"])
    ip.run_line_magic("unload_ext", "gamekernel")
    assert _magic_tables(ip) == before
    ip.run_line_magic("load_ext", "gamekernel")  # the fixture unloads it again


def test_unload_puts_back_a_magic_gamekernel_had_to_replace(ip):
    """A magic of the same name registered before loading (here a user's %roll) comes back on unload."""
    ip.run_line_magic("unload_ext", "gamekernel")

    def users_roll(line):
        return "mine"

    ip.register_magic_function(users_roll, "line", "roll")
    try:
        ip.run_line_magic("load_ext", "gamekernel")
        assert ip.run_line_magic("roll", "1d1").total == 1
        ip.run_line_magic("unload_ext", "gamekernel")
        assert ip.run_line_magic("roll", "1d1") == "mine"
    finally:
        ip.magics_manager.magics["line"].pop("roll", None)
    ip.run_line_magic("load_ext", "gamekernel")


def test_no_gamekernel_magic_shadows_an_ipython_magic(ip):
    """Checked against a fresh shell's magics and the Jupyter kernel's own (ipykernel's KernelMagics)."""
    from ipykernel.zmqshell import KernelMagics

    from gamekernel.magics import _magics_classes

    ip.run_line_magic("unload_ext", "gamekernel")
    ipython_names = {kind: set(table) | set(KernelMagics.magics.get(kind, {}))
                     for kind, table in ip.magics_manager.magics.items()}
    assert {"load", "save", "run", "edit", "autosave"} <= ipython_names["line"]
    ip.run_line_magic("load_ext", "gamekernel")
    for kind in ("line", "cell"):
        ours = {name for class_ in _magics_classes() for name in class_.magics.get(kind, {})}
        assert not ours & ipython_names[kind], (kind, ours & ipython_names[kind])
    assert "gamekernel" in ip.magics_manager.magics["line"] and "gk" in ip.magics_manager.magics["line"]


def test_campaign_save_and_load_replace_the_old_magics(ip, tmp_path):
    assert repr(ip.run_line_magic("campaign", "save")) == "error: no campaign is open: %campaign open FOLDER"
    ip.run_line_magic("campaign", f"open {tmp_path / 'crypt'}")
    assert "snapshot after event" in repr(ip.run_line_magic("campaign", "save"))
    assert "Campaign crypt" in repr(ip.run_line_magic("campaign", "load"))


# --- %gamekernel / %gk ------------------------------------------------------------------------------


def test_gamekernel_overview_lists_every_command_by_rule_set(ip):
    from gamekernel.magics import _magics_classes

    overview = ip.run_line_magic("gamekernel", "")
    text = repr(overview)
    assert text == repr(ip.run_line_magic("gk", ""))
    for title in ("Core", "GURPS", "GURPS combat", "Gamma World", "MtG action checks", "Campaign"):
        assert f"\n{title}\n" in text, title
    names = {name for class_ in _magics_classes() for name in class_.magics["line"]} - {"gk"}
    for name in names:
        assert f"%{name}?" in text, name  # every command, with its help pointer
    assert "%check SPEC... [@Name] [--secret]" in text
    assert "%campaign open FOLDER... | status | save | load | close" in text
    html = overview._repr_html_()
    assert "<script" not in html and "%check SPEC... [@Name] [--secret]" in html
    i18n.set_language("ja")
    japanese = repr(ip.run_line_magic("gk", ""))
    assert "gamekernel のコマンド" in japanese and "\nガンマワールド\n" in japanese and "%check?" in japanese


def test_overview_has_a_summary_for_every_command_and_fits_the_page(ip):
    """No raw message key (cmd.summary.explain ...) and no line running off the page, in English and
    Japanese; the HTML lets a long usage wrap."""
    from gamekernel.render.commands import WIDTH

    for language in ("en", "ja"):
        i18n.set_language(language)
        overview = ip.run_line_magic("gk", "")
        text = repr(overview)
        assert "cmd.summary." not in text and "cmd.summary." not in overview._repr_html_(), language
        assert max(len(line) for line in text.splitlines()) <= WIDTH, language
        assert "overflow-wrap:anywhere" in overview._repr_html_()
    i18n.set_language("en")
    text = repr(ip.run_line_magic("gk", ""))
    assert "  %quiz gurps|mtg|alpha [N]\n      a quiz drawn from the rules, wrong answers explained  %quiz?" in text


def test_overview_html_escapes_usage():
    from gamekernel.render.commands import CommandOverview, CommandRow

    html = CommandOverview((("core", (CommandRow("roll", "%roll <b>"),)),))._repr_html_()
    assert "&lt;b&gt;" in html and "<b>" not in html


# --- the user's own words are kept as typed (no $var expansion) -----------------------------------


def test_note_keeps_dollar_and_braces_as_typed(ip):
    ip.user_ns["gold"] = 5
    assert repr(ip.run_line_magic("note", "cost $gold {gold}")) == "Note: cost $gold {gold}"
    # the line as IPython passes it from a cell (run_line_magic expands unless the magic opts out)
    ip.run_cell("%note paid $gold")
    assert current_session().log[-1].data["text"] == "paid $gold"


# --- one declaration: parser, usage, help -----------------------------------------------------------


def test_help_comes_from_the_declaration(ip):
    doc = ip.find_line_magic("log").__doc__
    assert doc.startswith(
        "::\n\n  %log export FILE | [N] [--gm] [--players] [--session] [--odds] [--date=YYYY-MM-DD]\n")
    assert "--players" in doc and "FILE.md or FILE.html" in doc


def test_usage_errors_name_the_column(ip):
    for magic, line, message in [
        ("undo", "2 3", "error: unexpected '3' at column 3 (usage: %undo [N])"),
        ("seed", "", "error: N is missing (usage: %seed N)"),
        ("log", "--gm=yes", "error: --gm takes no value (column 1)"),
        ("check", 'Per "unclosed', "error: unclosed quote at column 5"),
        ("roll", "3d6 @A @B", "error: more than one @actor in the line (at columns 5 and 8)"),
    ]:
        assert repr(ip.run_line_magic(magic, line)) == message, (magic, line)
    i18n.set_language("ja")
    assert repr(ip.run_line_magic("undo", "2 3")) == "エラー: 3 文字目の '3' は余分です（使い方: %undo [N]）"


def test_every_magic_is_declared_once(ip):
    """One mechanism for all magics: each registered magic carries its Syntax (parser, usage, help)."""
    from gamekernel.magics import _magics_classes
    from gamekernel.syntax import COMMANDS

    for class_ in _magics_classes():
        for name, method_name in class_.magics["line"].items():
            syntax = getattr(getattr(class_, method_name), "syntax", None)
            assert syntax is not None and COMMANDS[name] is syntax, name


def test_rest_picks_its_rule_set_by_the_words(ip):
    """%rest with a duration is GURPS rest (and gets GURPS's usage error when it is incomplete);
    without one it is Gamma World's extended rest."""
    before = len(current_session().log)
    assert repr(ip.run_line_magic("rest", "30min")) == "error: usage: %rest Bren 30min"
    assert repr(ip.run_line_magic("rest", "Bren 30min --no-draw")) == (
        "error: unknown option --no-draw at column 12 (known: none)")  # a Gamma World flag
    assert len(current_session().log) == before
    gamma = repr(ip.run_line_magic("rest", "@Rin"))
    assert gamma.startswith("error: ") and "Rin" in gamma and "%rest Bren 30min" not in gamma
