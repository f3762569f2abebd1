"""The tools in tools/ still fit the project: each one starts (`--help`), and every project path it
names (in code, `ROOT / "gamekernel" / ...`, or in its docstring) exists, so a tool never writes into
a folder that moved away (as `build_gurps_skill_facts.py` once wrote into a removed folder)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
TOOLS = sorted((PROJECT / "tools").glob("*.py"))
TOP = ("gamekernel", "tests", "tools", "widgets", "example_notebooks", "benchmarks")
IN_TEXT = re.compile(r"\b((?:{})/[\w./-]*\w)".format("|".join(TOP)))


def _chain(node: ast.AST) -> list[str] | None:
    """The string parts of a `x / "a" / "b"` chain, left to right (None when it is no such chain)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        left = _chain(node.left) or []
        right = node.right
        if isinstance(right, ast.Constant) and isinstance(right.value, str):
            return [*left, right.value]
        return left or None
    return None


def project_paths(source: str) -> set[str]:
    """The project paths a tool names: `/` chains of strings starting at a top folder, and
    top-folder paths written in its strings and docstring."""
    found: set[str] = set()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        parts = _chain(node)
        if parts and parts[0].split("/")[0] in TOP:
            found.add("/".join(parts))
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.update(IN_TEXT.findall(node.value))
    # a chain's own left parts (`ROOT / "gamekernel"`) are walked too: keep the whole paths only
    return {path for path in found if not any(other.startswith(path + "/") for other in found)}


def missing(source: str) -> list[str]:
    """Paths named that exist neither as a file or folder nor (a file the tool writes) as a folder
    to write into."""
    out = []
    for path in sorted(project_paths(source)):
        target = PROJECT / path
        if not target.exists() and not (target.suffix and target.parent.is_dir()):
            out.append(path)
    return out


@pytest.mark.parametrize("tool", TOOLS, ids=lambda p: p.name)
def test_every_path_a_tool_names_exists(tool):
    assert missing(tool.read_text(encoding="utf-8")) == []


def test_a_path_into_a_removed_folder_is_found():
    stale = 'OUT = ROOT / "gamekernel" / "systems" / "gurps" / "data" / "basic_skills.json"\n'
    fresh = 'OUT = ROOT / "gamekernel" / "gurps" / "data" / "basic_skills.json"\n'
    assert missing(stale) == ["gamekernel/systems/gurps/data/basic_skills.json"]
    assert missing(fresh) == []
    docstring = '"""Build gamekernel/systems/mtg/data/facts.json."""\n'
    assert missing(docstring) == ["gamekernel/systems/mtg/data/facts.json"]


@pytest.mark.parametrize("tool", TOOLS, ids=lambda p: p.name)
def test_every_tool_starts(tool):
    done = subprocess.run([sys.executable, str(tool), "--help"], capture_output=True, text=True, timeout=120,
                          cwd=PROJECT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout
