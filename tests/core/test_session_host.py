"""The session's surface: a small core (gamekernel/session.py) that names no rule set, the table's
own operations built on it by inheritance (gamekernel/actions/), and one handle per rule set (and per
feature across rule sets) that reaches the session only through `self.table`'s public members and is
made once per session.
"""

from __future__ import annotations

import ast
import inspect
import textwrap

import pytest

from gamekernel.actions.campaign import CampaignActions
from gamekernel.actions.core import CoreActions
from gamekernel.session import SessionCore
from gamekernel.table_session import Session


def parsed(cls: type) -> ast.ClassDef:
    return ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0]


def self_uses(tree: ast.ClassDef) -> tuple[set[str], set[str]]:
    """(every self.X the class's methods use, those they assign)."""
    used, assigned = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            used.add(node.attr)
            if isinstance(node.ctx, ast.Store | ast.Del):
                assigned.add(node.attr)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr", "setattr") and len(node.args) >= 2
              and isinstance(node.args[0], ast.Name) and node.args[0].id == "self"
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
            used.add(node.args[1].value)
            if node.func.id == "setattr":
                assigned.add(node.args[1].value)
    return used, assigned


def class_body_names(tree: ast.ClassDef) -> set[str]:
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_the_public_session_is_the_core_and_its_own_operations_no_mixin() -> None:
    """One line of inheritance, each class built on the one before (mypy checks each against it):
    no mixin, no Protocol of what a mixin may borrow."""
    assert Session.__mro__[:4] == (Session, CampaignActions, CoreActions, SessionCore)
    assert [len(cls.__bases__) for cls in Session.__mro__[:4]] == [1, 1, 1, 1]


@pytest.mark.parametrize("cls", [CoreActions, CampaignActions], ids=lambda c: c.__name__)
def test_the_tables_own_operations_use_only_what_they_inherit(cls: type) -> None:
    used, assigned = self_uses(parsed(cls))
    known = {n for k in cls.__mro__ for n in vars(k)} | set(vars(SessionCore(seed=1))) | assigned
    assert sorted(used - known) == []


def test_the_walker_sees_every_kind_of_use() -> None:
    """The checks cannot pass by missing a use: reads, writes, getattr names and nested functions count."""
    source = ("class M:\n    x = 1\n    def f(self):\n        self.rng.random()\n        self._mine = 1\n"
              "        self.log = []\n        getattr(self, '_cache', None)\n"
              "        def inner():\n            return self.character('A')\n        return self.x\n")
    tree = ast.parse(source).body[0]
    assert self_uses(tree) == ({"rng", "_mine", "log", "_cache", "character", "x"}, {"_mine", "log"})
    assert class_body_names(tree) == {"x", "f"}


# ---- the handles: each rule set's (and each cross-rule-set feature's) operations on one session

def _handles() -> list[type]:
    from gamekernel.rulesets import handle_classes

    session = Session(seed=1)
    return [*handle_classes().values(), type(session.cards), type(session.seats), type(session.teaching)]


HANDLES = _handles()


def table_uses(tree: ast.ClassDef) -> set[str]:
    """Every `self.table.X` the handle's methods use."""
    return {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute) and node.value.attr == "table"
            and isinstance(node.value.value, ast.Name) and node.value.value.id == "self"}


@pytest.mark.parametrize("cls", HANDLES, ids=lambda c: c.__name__)
def test_a_handle_reaches_the_session_only_through_its_members(cls: type) -> None:
    """A handle uses `self.table.X` only for what the public Session has (the core's members and the
    other handles), and `self.Y` only for its own members: no hidden dependency on a mixin's inside."""
    session = Session(seed=1)
    unknown = sorted(x for x in table_uses(parsed(cls)) if not hasattr(session, x))
    assert not unknown, f"{cls.__name__} uses self.table.{unknown}"
    used, assigned = self_uses(parsed(cls))
    own = class_body_names(parsed(cls)) | assigned | {n for k in cls.__mro__ for n in vars(k)}
    own |= {n for k in cls.__mro__ for n in vars(k).get("__annotations__", {})}  # RuleSetHandle's `table: Core`
    assert sorted(used - own) == [], cls.__name__


def test_every_handle_is_made_once_per_session_and_acts_on_it() -> None:
    first, second = Session(seed=1), Session(seed=1)
    for cls in HANDLES:
        mine = getattr(first, cls.name)
        assert isinstance(mine, cls) and mine is getattr(first, cls.name) and mine.table is first
        assert getattr(second, cls.name) is not mine


def test_the_core_names_no_rule_set() -> None:
    """session.py (the core) imports no rule set, even for the type checker, and no core member is
    a rule set's: the rule sets are found through their declarations (`session.rules`)."""
    import gamekernel.session as core

    tree = ast.parse(inspect.getsource(core))
    imported = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not [m for m in imported if m.split(".")[:2] in (["gamekernel", "gurps"], ["gamekernel", "gammaworld"],
                                                               ["gamekernel", "mtg"])]
    names = {n for n in dir(core.SessionCore) if not n.startswith("_")}
    assert not names & {cls.name for cls in HANDLES}
    assert not [n for n in names if n.split("_")[0] in ("gurps", "gw", "mtg", "combat", "card", "table", "quiz")]


def test_a_plug_in_handle_is_reached_by_name_and_a_missing_one_is_an_attribute_error() -> None:
    session = Session(seed=1)
    assert session.rules["gurps"] is session.gurps and "gurps" in session.rules
    with pytest.raises(AttributeError, match="gurp"):
        session.gurp  # noqa: B018  (a misspelt handle is an error at run time too)
    with pytest.raises(KeyError):
        session.rules["nope"]
