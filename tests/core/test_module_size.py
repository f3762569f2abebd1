"""Modules stay small (CONTRIBUTING): no Python module of gamekernel and no widget script or style
over 780 lines. A file that grows past it is split into modules with one job each."""

from __future__ import annotations

from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
CEILING = 780


def sources() -> list[Path]:
    widgets = [p for p in (PROJECT / "widgets").rglob("*") if p.suffix in (".js", ".ts", ".mjs", ".css")
               and "node_modules" not in p.parts]
    return sorted([*(PROJECT / "gamekernel").rglob("*.py"), *widgets])


def too_long(paths: list[Path], ceiling: int = CEILING) -> list[str]:
    """`path: lines` of every file over the ceiling."""
    out = []
    for path in paths:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > ceiling:
            out.append(f"{path.relative_to(PROJECT) if path.is_relative_to(PROJECT) else path}: {lines}")
    return out


def test_the_files_are_found():
    names = {p.relative_to(PROJECT).as_posix() for p in sources()}
    assert {"gamekernel/session.py", "widgets/gurps/tracker.js", "widgets/common.css"} <= names


def test_no_module_over_the_ceiling():
    assert too_long(sources()) == []


@pytest.mark.parametrize(("lines", "over"), [(CEILING, False), (CEILING + 1, True)])
def test_the_ceiling_is_780_lines(tmp_path, lines, over):
    path = tmp_path / "m.py"
    path.write_text("x = 1\n" * lines, encoding="utf-8")
    assert bool(too_long([path])) is over
