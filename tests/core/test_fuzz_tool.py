"""The fuzz tool (`tools/fuzz_magics.py`) in CI: a seeded sample of the same code the full run
(>= 100,000 inputs) uses - every registered magic and every widget class's messages, each input
ending in a result or a one-line refusal that changed neither the session nor the table's folder -
and proof that each of its checks catches what it is there to catch."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from gamekernel.display.results import ErrorResult

TOOL = Path(__file__).resolve().parents[2] / "tools" / "fuzz_magics.py"
SAMPLE = 3000


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("fuzz_magics", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_magics"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("fuzz_magics", None)


def test_a_seeded_sample_ends_only_in_results_and_one_line_refusals_that_change_nothing(ip, tmp_path, tool):
    report = tool.fuzz(ip, SAMPLE, seed=7, folder=tmp_path)
    assert report.findings == [], report.summary()
    assert report.inputs == SAMPLE
    assert set(report.per_magic) == set(tool.gamekernel_magics(ip)) and len(report.per_magic) >= 45
    assert report.uncovered_widgets == [] and len(report.per_widget) >= 8
    assert {cls.__name__ for cls in tool.widget_classes()} <= {key.split("/")[0] for key in report.per_widget}
    assert SAMPLE // 4 < report.refusals < SAMPLE  # the inputs reach the error paths, and not only those


def test_the_magics_and_widgets_come_from_the_registries(ip, tool):
    names = tool.gamekernel_magics(ip)
    assert {"roll", "odds", "char", "combat", "next", "deck", "library", "note", "flux", "table"} <= set(names)
    classes = {cls.__name__ for cls in tool.widget_classes()}
    assert {"SheetWidget", "Tracker", "HandWidget", "LibraryWidget", "TableDashboard", "PlayersPanel",
            "QuizWidget", "ExploreWidget"} <= classes


def test_grammar_lines_follow_each_declaration(tool):
    import random

    from gamekernel.syntax import COMMANDS

    chooser = random.Random(3)
    lines = [tool.grammar_line(chooser, COMMANDS["campaign"]) for _ in range(200)]
    assert {line.split(" ")[0] for line in lines if line} >= {"open", "status", "save", "load", "close"}
    rolls = [tool.grammar_line(chooser, COMMANDS["roll"]) for _ in range(200)]
    assert any("--secret" in line for line in rolls) and any("@" in line for line in rolls)


@pytest.mark.parametrize("fault", ["crash", "two lines", "state", "folder"])
def test_each_check_catches_its_fault(ip, tmp_path, tool, fault):
    """A magic that raises, refuses in two lines, or refuses after changing the session or the
    folder is reported as exactly that finding."""
    with tool.sandboxed(tmp_path):
        fuzzer = tool.Fuzzer(ip, tmp_path, 1)
        fuzzer.fresh_table(0)
        session = fuzzer.session()

        def bad(name: str, line: str):
            if fault == "crash":
                raise ValueError("boom")
            if fault == "state":
                session.note("changed")
            if fault == "folder":
                (tmp_path / "stray.txt").write_text("x", encoding="utf-8")
            return ErrorResult("first\nsecond" if fault == "two lines" else "refused")

        fuzzer.call = bad
        before = tool.digest(session, tmp_path)
        fuzzer.magic("roll", before)
    report = fuzzer.report
    found = {"crash": report.crashes, "two lines": report.multi_line, "state": report.changed,
             "folder": report.changed}[fault]
    assert len(found) == 1 and len(report.findings) == 1, report.findings
