"""The Session's declared surface: the session operations (each rule set's `actions.py`, and the
core's) use the session only through `SessionHost` (gamekernel/host.py).

- Session has every member the Protocol declares, methods with the same parameters.
- Read with `ast`, every `self.X` a mixin uses (read, written, or named in getattr/hasattr/setattr)
  is defined in that mixin (its class body, or an attribute only it assigns) or declared by the
  Protocol; and the Protocol declares nothing that no mixin needs, so it stays exact.
"""

from __future__ import annotations

import ast
import inspect
import textwrap

import pytest

from gamekernel import host
from gamekernel.host import HostBase, SessionHost
from gamekernel.table_session import Session

MIXINS = [cls for cls in Session.__mro__[1:]
          if cls.__module__.startswith("gamekernel.") and cls.__name__.endswith("Actions")]
SESSION_OWN = set(vars(Session(seed=1))) | set(vars(Session))


def is_property(node: ast.stmt) -> bool:
    return isinstance(node, ast.FunctionDef) and any(
        isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list)


def declared() -> tuple[set[str], set[str]]:
    """(attributes, methods) the Protocol's body declares (`typing` adds members of its own to the class);
    a read-only property is an attribute."""
    body = parsed(SessionHost).body
    attributes = {n.target.id for n in body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    attributes |= {n.name for n in body if isinstance(n, ast.FunctionDef) and is_property(n)}
    methods = {n.name for n in body if isinstance(n, ast.FunctionDef) and not is_property(n)}
    return attributes, methods


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


def parsed(cls: type) -> ast.ClassDef:
    return ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0]


def needed_from_host(tree: ast.ClassDef) -> set[str]:
    """What the mixin uses of `self` that it does not define: its own state is what only it assigns."""
    used, assigned = self_uses(tree)
    own = class_body_names(tree) | (assigned - SESSION_OWN)
    return used - own


def test_the_mixins_are_the_sessions_bases() -> None:
    """The rule sets' operations are handles (`session.gurps`), not mixins: what is left mixed in is the core's."""
    assert {cls.__name__ for cls in MIXINS} == {"CoreActions", "CampaignActions"}


def test_session_has_every_declared_member() -> None:
    attributes, methods = declared()
    session = Session(seed=1)
    assert attributes and methods
    assert [name for name in sorted(attributes) if not hasattr(session, name)] == []
    assert [name for name in sorted(methods) if not callable(getattr(Session, name, None))] == []
    assert isinstance(session, SessionHost)


@pytest.mark.parametrize("name", sorted(declared()[1]))
def test_declared_methods_have_the_sessions_parameters(name: str) -> None:
    def shape(fn) -> list[tuple[str, object, bool]]:
        return [(p.name, p.kind, p.default is inspect.Parameter.empty)
                for p in inspect.signature(fn).parameters.values()]

    assert shape(getattr(SessionHost, name)) == shape(getattr(Session, name))


@pytest.mark.parametrize("cls", MIXINS, ids=lambda c: c.__name__)
def test_a_mixin_uses_only_its_own_members_and_the_declared_host(cls: type) -> None:
    attributes, methods = declared()
    undeclared = needed_from_host(parsed(cls)) - attributes - methods
    assert not undeclared, f"{cls.__name__} uses self.{', self.'.join(sorted(undeclared))}: declare it in SessionHost"


@pytest.mark.parametrize("cls", MIXINS, ids=lambda c: c.__name__)
def test_each_mixin_is_written_against_the_host(cls: type) -> None:
    bases = [ast.unparse(b) for b in parsed(cls).bases]
    assert bases == ["HostBase"]


def test_the_protocol_declares_exactly_what_the_mixins_need() -> None:
    attributes, methods = declared()
    needed = set().union(*(needed_from_host(parsed(cls)) for cls in MIXINS))
    assert attributes | methods == needed


def test_the_host_base_costs_nothing_at_run_time() -> None:
    assert HostBase is object
    assert host.SessionHost not in Session.__mro__ and type(Session) is type


def test_the_walker_sees_every_kind_of_use() -> None:
    """The checks cannot pass by missing a use: reads, writes, getattr names and nested functions count."""
    source = ("class M:\n    x = 1\n    def f(self):\n        self.rng.random()\n        self._mine = 1\n"
              "        self.log = []\n        getattr(self, '_cache', None)\n"
              "        def inner():\n            return self.character('A')\n        return self.x\n")
    tree = ast.parse(source).body[0]
    assert self_uses(tree) == ({"rng", "_mine", "log", "_cache", "character", "x"}, {"_mine", "log"})
    assert needed_from_host(tree) == {"rng", "log", "_cache", "character"}
