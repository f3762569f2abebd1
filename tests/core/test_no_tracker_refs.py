"""No text of the project cites a tracker issue number: a reader outside the tracker cannot resolve
"issue N", so code, tests and docs say the rule id (RULES.md) or the behaviour in words instead."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FOLDERS = ("gamekernel", "tests", "benchmarks", "tools", "widgets")
TOP_DOCS = ("README.md", "CONTRIBUTING.md")
TEXT_SUFFIXES = {".py", ".js", ".css", ".json", ".md", ".toml", ".txt", ".html", ".cfg", ".ini"}
TRACKER_REF = re.compile(r"\bissues? #?\d+\b", re.IGNORECASE)


def tracker_refs(text: str) -> list[tuple[int, str]]:
    """The (line number, line) pairs of `text` that cite a tracker issue number."""
    return [(number, line) for number, line in enumerate(text.splitlines(), 1) if TRACKER_REF.search(line)]


def project_texts() -> list[Path]:
    """Every text file under the scanned folders, plus the top-level docs (caches skipped)."""
    files = [REPO / name for name in TOP_DOCS if (REPO / name).is_file()]
    for folder in FOLDERS:
        files += [p for p in sorted((REPO / folder).rglob("*"))
                  if p.is_file() and p.suffix in TEXT_SUFFIXES and "__pycache__" not in p.parts]
    return files


# The samples are built by concatenation so that this file itself never matches.
CITING = ["see iss" + "ue 15", "Iss" + "ue 11 item 5: x", "(iss" + "ue 16)", "iss" + "ues 11, 12", "ISS" + "UE #7"]
NOT_CITING = ["the issues found", "tiss" + "ue 5", "issue-tracker", "Issue(\"error\", ...)", "iss" + "ues 2nd"]


@pytest.mark.parametrize("text", CITING)
def test_a_citation_is_found(text):
    assert tracker_refs(text) == [(1, text)]


@pytest.mark.parametrize("text", NOT_CITING)
def test_a_word_that_is_not_a_citation_is_left_alone(text):
    assert tracker_refs(text) == []


def test_the_scan_covers_the_code_the_tests_and_the_docs():
    names = {p.relative_to(REPO).as_posix() for p in project_texts()}
    assert {"README.md", "CONTRIBUTING.md", "gamekernel/session.py", "tests/conftest.py"} <= names
    assert any(n.startswith("benchmarks/") for n in names) and any(n.startswith("tools/") for n in names)


def test_no_file_cites_a_tracker_issue_number():
    found = [f"{path.relative_to(REPO).as_posix()}:{number}: {line.strip()}"
             for path in project_texts()
             for number, line in tracker_refs(path.read_text(encoding="utf-8", errors="replace"))]
    assert not found, "tracker issue numbers cited (say the rule id or the behaviour):\n" + "\n".join(found)
