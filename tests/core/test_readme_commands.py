"""Every command line of the README's quick start runs without an error in a fresh session, in README
order (a newcomer types exactly these), and a fight of an undefined template says how to define it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_command_lines() -> list[str]:
    """The `%` lines of the README's python blocks, comments dropped, in order."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    return [re.sub(r"\s+#.*$", "", line) for block in blocks for line in block.splitlines()
            if line.startswith("%")]


def test_the_readme_quotes_a_first_fight_and_a_first_draw():
    lines = readme_command_lines()
    assert "%combat start Aiko Bren Goblin*3" in lines and "%draw alpha @Rin" in lines
    assert lines.index("%combat npc Goblin ST=9 DX=12 HT=11") < lines.index("%combat start Aiko Bren Goblin*3")


def test_every_readme_command_runs_without_an_error_in_readme_order(ip, tmp_path, monkeypatch):
    from gamekernel.display.results import ErrorResult

    monkeypatch.chdir(tmp_path)  # `%log export session.md` writes here
    failed = []
    for line in readme_command_lines():
        name, _, args = line[1:].partition(" ")
        if name == "load_ext":
            name = "reload_ext"  # the fixture loaded it: a fresh table, as in a new kernel
        result = ip.run_line_magic(name, args)
        if isinstance(result, ErrorResult):
            failed.append(f"{line}: {result}")
    assert failed == []


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
