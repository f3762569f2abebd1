"""README.md and CONTRIBUTING.md follow the tree: every backticked path they name (`gamekernel/...`,
`widgets/...`, `tests/...`, `benchmarks/...`, `tools/...`, `example_notebooks/...`) exists, and a
name after the path (`gamekernel/session.py:SessionCore`) is in that file. Placeholders stand for any
name: `<set>` and `*` match one path part, `{en,ja}` each of its choices."""

from __future__ import annotations

import glob
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "CONTRIBUTING.md")
PREFIXES = ("gamekernel/", "widgets/", "tests/", "benchmarks/", "tools/", "example_notebooks/")
GENERATED = {"benchmarks/output/"}  # written by `make bench`, not kept in the tree
BACKTICKED = re.compile(r"`([^`\s]+)`")


def doc_paths(text: str) -> list[str]:
    """The backticked tokens of `text` that name a path of the repository."""
    return [token for token in BACKTICKED.findall(text) if token.startswith(PREFIXES)]


def expand(pattern: str) -> list[str]:
    """`pattern` with each `{a,b}` choice spelled out and each `<name>` made a `*` wildcard."""
    pattern = re.sub(r"<[^>/]+>", "*", pattern)
    choice = re.search(r"\{([^{}]+)\}", pattern)
    if choice is None:
        return [pattern]
    return [x for option in choice.group(1).split(",")
            for x in expand(pattern[: choice.start()] + option + pattern[choice.end():])]


def missing(token: str, root: Path = REPO) -> str | None:
    """Why `token` (a path, maybe followed by `:name`) does not resolve under `root`, else None."""
    path, _, member = token.partition(":")
    if path in GENERATED:
        return None
    for pattern in expand(path):
        found = glob.glob(str(root / pattern))
        if not found:
            return f"{pattern} does not exist"
        names = [part for part in member.split(".") if part]
        for name in names:
            if not any(Path(f).is_file() and re.search(rf"\b{re.escape(name)}\b", Path(f).read_text("utf-8"))
                       for f in found):
                return f"{pattern} has no {name!r}"
    return None


def test_the_tokens_that_name_paths_are_picked_out():
    text = "see `gamekernel/x.py:f`, `%roll 3d`, `rules/` and `tests/core/` and `widgets/<group>/*.js`"
    assert doc_paths(text) == ["gamekernel/x.py:f", "tests/core/", "widgets/<group>/*.js"]


def test_placeholders_expand_to_every_choice():
    assert expand("gamekernel/<set>/i18n/{en,ja}/*.json") == [
        "gamekernel/*/i18n/en/*.json", "gamekernel/*/i18n/ja/*.json"]


def test_a_path_or_a_name_that_moved_is_reported(tmp_path):
    (tmp_path / "gamekernel" / "gurps").mkdir(parents=True)
    (tmp_path / "gamekernel" / "gurps" / "render.py").write_text("def reaction_text(): ...\n")
    assert missing("gamekernel/gurps/render.py:reaction_text", tmp_path) is None
    assert missing("gamekernel/<set>/render.py", tmp_path) is None
    assert missing("gamekernel/systems/gurps/render.py", tmp_path) == (
        "gamekernel/systems/gurps/render.py does not exist")
    assert missing("gamekernel/gurps/render.py:reaction_html", tmp_path) == (
        "gamekernel/gurps/render.py has no 'reaction_html'")
    assert missing("gamekernel/{gurps,mtg}/", tmp_path) == "gamekernel/mtg/ does not exist"


@pytest.mark.parametrize("doc", DOCS)
def test_every_path_a_doc_names_exists(doc):
    tokens = doc_paths((REPO / doc).read_text(encoding="utf-8"))
    assert len(tokens) >= 10, "the docs name the code they describe"
    wrong = [f"`{token}`: {why}" for token in tokens if (why := missing(token))]
    assert not wrong, f"{doc} names paths that are not in the tree:\n" + "\n".join(wrong)
