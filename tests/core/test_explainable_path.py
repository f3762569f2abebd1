"""`@command` over `@explainable` (gamekernel/syntax.py, gamekernel/magic_base.py): a line without
`--explain` runs the magic's own method without reading the session; with it, the result comes back
with its steps (tests/teaching hold what the steps say)."""

from __future__ import annotations

import pytest

import gamekernel.teaching.magics  # noqa: F401  (registers --explain's explainer, as %load_ext does)
from gamekernel import syntax
from gamekernel.magic_base import EXPLAIN, explainable
from gamekernel.syntax import Rest, command


class _NoSession:
    """A magics object whose session must not be read."""

    @property
    def session(self):
        pytest.fail("the session was read for a line without --explain")


class _Teaching:
    def explain_since(self, mark, result):
        return ("explained", mark, result)


class _Session:
    log = ("a", "b")

    def feature(self, kind):  # the session's teaching feature (`session.feature(Teaching)`)
        assert kind.__name__ == "Teaching"
        return _Teaching()


class _WithSession:
    session = _Session()


@pytest.fixture
def probe(monkeypatch):
    monkeypatch.setattr(syntax, "COMMANDS", {})  # the probe is no command of gamekernel's

    def method(self, args):
        return f"rolled {args.what}"

    explained = explainable(method)
    return command("probe", Rest("what", "anything"), options=(EXPLAIN,))(explained), explained


def test_a_line_without_explain_runs_the_method_without_the_session(probe):
    magic, _ = probe
    assert magic(_NoSession(), "3d+2") == "rolled 3d+2"  # _NoSession fails the test if it is read


def test_a_line_with_explain_comes_back_explained(probe):
    magic, _ = probe
    assert magic(_WithSession(), "3d+2 --explain") == ("explained", 2, "rolled 3d+2")
