"""Every command line of the README's quick start runs without an error in a fresh session, in README
order (a newcomer types exactly these) in a folder like the one `make play` opens (example_notebooks/,
with its decklist mira.txt), the rule-set table's MtG lines run as written, and a fight of an undefined
template says how to define it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
EXAMPLES = README.parent / "example_notebooks"


def readme_command_lines() -> list[str]:
    """The `%` lines of the README's python blocks, comments dropped, in order."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    return [re.sub(r"\s+#.*$", "", line) for block in blocks for line in block.splitlines()
            if line.startswith("%")]


def test_the_readme_quotes_a_first_fight_a_first_draw_and_a_first_mtg_check():
    lines = readme_command_lines()
    assert "%combat start Aiko Bren Goblin*3" in lines and "%draw alpha @Rin" in lines
    assert lines.index("%combat npc Goblin ST=9 DX=12 HT=11") < lines.index("%combat start Aiko Bren Goblin*3")
    assert lines.index("%library load Mira mira.txt") < lines.index("%check green 2 @Mira")


def _where_make_play_opens(tmp_path: Path, monkeypatch) -> None:
    """A working folder holding what example_notebooks/ ships beside the notebooks (the decklist), so
    the tour's writes (`%log export session.md`) stay out of the checkout."""
    (tmp_path / "mira.txt").write_bytes((EXAMPLES / "mira.txt").read_bytes())
    monkeypatch.chdir(tmp_path)


def _run(ip, line: str):
    name, _, args = line[1:].partition(" ")
    if name == "load_ext":
        name = "reload_ext"  # the fixture loaded it: a fresh table, as in a new kernel
    return ip.run_line_magic(name, args)


def test_every_readme_command_runs_without_an_error_in_readme_order(ip, tmp_path, monkeypatch):
    from gamekernel.display.results import ErrorResult

    _where_make_play_opens(tmp_path, monkeypatch)
    failed = []
    for line in readme_command_lines():
        result = _run(ip, line)
        if isinstance(result, ErrorResult):
            failed.append(f"{line}: {result}")
    assert failed == []
    from gamekernel.magics import current_session

    assert current_session().log[-1].kind == "mtg.check"  # MTG-CHK-01: the tour ends on a first MtG check


def table_row_commands(prefix: str) -> list[str]:
    """The `%` code spans of the README's rule-set table row that starts with `prefix`."""
    row = next(line for line in README.read_text(encoding="utf-8").splitlines() if line.startswith(prefix))
    return [span for span in re.findall(r"`([^`]+)`", row) if span.startswith("%")]


def test_the_rule_set_tables_library_load_and_check_lines_run_as_written(ip, tmp_path, monkeypatch):
    """MTG-CHK-01: `%library load Mira mira.txt` then `%check green 2 @Mira`, typed from the table."""
    from gamekernel.display.results import ErrorResult
    from gamekernel.magics import current_session

    commands = table_row_commands("| MtG-card action checks")
    load = next(c for c in commands if c.startswith("%library load"))
    check = next(c for c in commands if c.startswith("%check green"))
    assert (load, check) == ("%library load Mira mira.txt", "%check green 2 @Mira")
    _where_make_play_opens(tmp_path, monkeypatch)
    for line in (load, check):
        result = _run(ip, line)
        assert not isinstance(result, ErrorResult), f"{line}: {result}"
    event = current_session().log[-1]
    assert event.kind == "mtg.check" and event.data["result"]["difficulty"] == 2


def test_the_readme_table_row_defines_the_goblin_before_the_fight():
    row = next(line for line in README.read_text(encoding="utf-8").splitlines() if line.startswith("| GURPS combat"))
    assert row.index("%combat npc Goblin") < row.index("%combat start Aiko Bren Goblin*3")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_fight_of_an_undefined_template_says_how_to_define_it(ip, language):
    from gamekernel import i18n
    from gamekernel.display.results import ErrorResult
    from gamekernel.magics import current_session

    ip.run_line_magic("char", "new Aiko st=11 dx=13")
    ip.run_line_magic("char", "new Bren st=12 dx=11")
    before = len(current_session().log)
    i18n.set_language(language)
    result = ip.run_line_magic("combat", "start Aiko Bren Goblin*3")
    assert isinstance(result, ErrorResult)
    text = str(result)
    assert "%combat npc Goblin ST=" in text and "\n" not in text.strip()
    assert len(current_session().log) == before  # state unchanged


def test_explaining_a_plain_roll_says_what_it_is_without_contradicting_itself(ip):
    from gamekernel.display.results import ErrorResult

    ip.run_line_magic("roll", "4d6kh3")
    result = ip.run_line_magic("explain", "2")
    assert isinstance(result, ErrorResult)
    text = str(result)
    assert "plain dice roll" in text and "only rolls" not in text
