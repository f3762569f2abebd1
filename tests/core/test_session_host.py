"""The Session's declared surface. The core's own operations (gamekernel/actions/) use the core only
through `SessionHost` (gamekernel/host.py); each handle (a rule set's `session.gurps`, a feature's
`session.seats`) reaches the session only through `self.table`'s public members, is made once per
session, and the core names no rule set.

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
