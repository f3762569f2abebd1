"""Every ```python / ```ipython block of README.md and CONTRIBUTING.md runs when pasted as written into a
fresh IPython shell: the whole block as one cell, and one line per cell (a newcomer does both). Nothing
of a block is changed or dropped before it runs, comments included. A block marked
`<!-- excerpt: PATH -->` quotes the source instead: its lines are found in that file, in order.
A gamekernel magic reads a word starting with `#` as the start of a comment (gamekernel/syntax.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "CONTRIBUTING.md")
_FENCE = re.compile(r"^(?:<!-- excerpt: (\S+) -->\n)?```(?:python|ipython)\n(.*?)^```", re.S | re.M)


def _blocks(excerpts: bool) -> list[tuple[str, int, str]]:
    found = []
    for name in DOCS:
        for number, match in enumerate(_FENCE.finditer((ROOT / name).read_text(encoding="utf-8")), 1):
            if bool(match.group(1)) == excerpts:
                found.append((name if not excerpts else match.group(1), number, match.group(2)))
    return found


def code_blocks() -> list[tuple[str, int, str]]:
    """(file, block number, text) of every python/ipython block of the two documents to paste."""
    return _blocks(excerpts=False)


@pytest.mark.parametrize("path,number,block", _blocks(excerpts=True), ids=lambda v: str(v)[:30])
def test_an_excerpt_quotes_its_file(path, number, block):
    """Compared word by word: an excerpt may wrap its lines otherwise than the source, never differ."""
    source = " ".join((ROOT / path).read_text(encoding="utf-8").split())
    assert " ".join(block.split()) in source, f"excerpt {number} is not in {path}"


@pytest.fixture
def fresh(ip, tmp_path, monkeypatch):
    """A shell without gamekernel loaded, in a folder like the one `make play` opens (example_notebooks/,
    with its decklist), recording every object it shows; the errors a cell raised are in its result."""
    from gamekernel.display.results import ErrorResult

    (tmp_path / "mira.txt").write_bytes((ROOT / "example_notebooks" / "mira.txt").read_bytes())
    monkeypatch.chdir(tmp_path)
    ip.run_line_magic("unload_ext", "gamekernel")
    shown: list[object] = []
    original = ip.display_formatter.format

    def format(obj, *args, **kwargs):
        shown.append(obj)
        return original(obj, *args, **kwargs)

    monkeypatch.setattr(ip.display_formatter, "format", format)

    def run(cell: str) -> list[str]:
        """Run one cell; the problems it showed (an exception, a gamekernel error line)."""
        shown.clear()
        outcome = ip.run_cell(cell, store_history=True)
        problems = [repr(error) for error in (outcome.error_before_exec, outcome.error_in_exec) if error]
        problems += [str(obj) for obj in shown if isinstance(obj, ErrorResult)]
        return problems

    yield run
    if "gamekernel" not in ip.extension_manager.loaded:  # the fixture's teardown unloads it
        ip.run_line_magic("load_ext", "gamekernel")


def test_the_documents_have_blocks_to_paste_and_an_excerpt():
    names = {name for name, _, _ in code_blocks()}
    assert "README.md" in names  # the short tour and the Python equivalent
    assert [path for path, _, _ in _blocks(excerpts=True)] == ["gamekernel/gurps/magics.py"]


def test_a_word_starting_with_hash_begins_a_comment(ip):
    from gamekernel.syntax import COMMANDS

    roll = COMMANDS["roll"]
    assert roll.parse("3d+2 sword   # GURPS notation").expression == "3d+2 sword"
    assert roll.parse("3d+2 sword #1").expression == "3d+2 sword"  # any word that starts with #
    assert roll.parse('3d+2 "#1 sword"').expression == '3d+2 "#1 sword"'  # quoted: a word
    assert roll.parse("3d+2 Aiko#2").expression == "3d+2 Aiko#2"  # inside a word: a word
    assert roll.parse("3d+2  # it's \"unclosed").expression == "3d+2"  # a comment's quotes are its own
    assert COMMANDS["note"].parse("Room #3 is locked").text == "Room #3 is locked"  # a note keeps its words
    result = ip.run_line_magic("roll", "1d6 sword  # the label is sword")
    assert str(result).startswith("sword:"), str(result)


@pytest.mark.parametrize("name,number,block", code_blocks(), ids=lambda v: str(v)[:20])
def test_a_block_pasted_whole_runs(fresh, name, number, block):
    assert fresh(block) == [], f"{name} block {number}"


@pytest.mark.parametrize("name,number,block", code_blocks(), ids=lambda v: str(v)[:20])
def test_a_block_pasted_line_by_line_runs(fresh, name, number, block):
    failed = []
    for line in block.splitlines():
        problems = fresh(line)
        if problems:
            failed.append(f"{line!r}: {problems[0]}")
    assert failed == [], f"{name} block {number}"
