"""Every `args.NAME` a magic reads is declared by that magic's `@command` (gamekernel/syntax.py).

`Args` answers any attribute name to a type checker (its `__getattr__` is typed `Any`), so a typo
such as `args.fooo` would only show at run time, in the one form of the command that reaches it.
This test reads each magic's source with `ast`: the `args.NAME` of the magic itself, of the module
functions it hands `args` to (`_kind_and_difficulty(args)`), and of the rule sets' handlers a shared
command dispatches to (`handler_for("check", ...).run(session, args)`), each held to the names its
command declares: its words, every subcommand's words, its options, and what every `Args` has.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gamekernel.magics import _magics_classes
from gamekernel.rulesets import rule_sets
from gamekernel.syntax import Args, Rest, Sub, Syntax, Word, command

OWN = frozenset({"values", "options", "sub", "actor", "columns", "column"})


def declared(syntax: Syntax) -> frozenset[str]:
    """What `args.NAME` may be for this command, in any of its forms."""
    words = [*syntax.args, *(word for sub in syntax.subs for word in sub.args)]
    return OWN | {word.name for word in words} | {option.attr for option in syntax.options}


def _handlers(shared: str, hook: str) -> list[Callable]:
    """The functions a shared command line may reach: `run`/`odds` of each rule set's handler."""
    found = []
    for ruleset in rule_sets():
        make = getattr(ruleset, shared)
        if make is not None and getattr(make(), hook) is not None:
            found.append(getattr(make(), hook))
    return found


def _dispatched(call: ast.Call) -> list[Callable]:
    """`handler_for("check", ...).run(...)` (or `x = handler_for(...).odds; x(...)` in one step)."""
    func = call.func
    if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call)
            and getattr(func.value.func, "id", None) == "handler_for"
            and isinstance(func.value.args[0], ast.Constant)):
        return _handlers(func.value.args[0].value, func.attr)
    return []


def _args_param(fn: Callable) -> str | None:
    """The parameter that receives the parsed line (annotated `Args`, or named `args`)."""
    for name, parameter in inspect.signature(fn).parameters.items():
        if parameter.annotation in (Args, "Args") or name == "args":
            return name
    return None


def reads(fn: Callable, seen: set[Any] | None = None) -> Iterator[tuple[str, str]]:
    """(function, NAME) for each `args.NAME` read by `fn` and by what it passes `args` to."""
    seen = set() if seen is None else seen
    fn = inspect.unwrap(fn)
    if fn in seen:
        return
    seen.add(fn)
    param = _args_param(fn)
    if param is None:
        return
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    module = inspect.getmodule(fn)
    handed_to: list[Callable] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == param:
            yield fn.__qualname__, node.attr
        elif isinstance(node, ast.Call) and any(getattr(a, "id", None) == param for a in node.args):
            target = getattr(module, getattr(node.func, "id", ""), None)
            handed_to += [target] if callable(target) else _dispatched(node)
    for target in handed_to:
        yield from reads(target, seen)


def magics() -> list[tuple[Syntax, Callable]]:
    """Every magic method declared with `@command`, with its declaration."""
    found = []
    for cls in _magics_classes():
        for value in vars(cls).values():
            syntax = getattr(value, "syntax", None)
            if isinstance(syntax, Syntax):
                found.append((syntax, value))
    return found


def undeclared(syntax: Syntax, fn: Callable) -> list[str]:
    allowed = declared(syntax)
    return sorted({f"%{syntax.name}: {where} reads args.{name}" for where, name in reads(fn) if name not in allowed})


def test_the_walk_reaches_every_magic_and_the_shared_handlers():
    found = {syntax.name for syntax, _ in magics()}
    assert {"roll", "check", "rest", "odds", "combat", "draw", "library", "char", "campaign"} <= found
    check = next(fn for syntax, fn in magics() if syntax.name == "check")
    readers = {where for where, _ in reads(check)}
    assert {"gurps_check", "mtg_check", "_kind_and_difficulty"} <= readers


@pytest.mark.parametrize(("syntax", "fn"), magics(), ids=lambda x: getattr(x, "name", ""))
def test_every_args_name_a_magic_reads_is_declared(syntax: Syntax, fn: Callable):
    assert not undeclared(syntax, fn)


def _helper(args: Args) -> str:
    return args.colour  # a name the probe command does not declare


@command("probe_args", Word("name", "who"), subs=(Sub("add", Rest("what", "what to add")),))
def _probe(self, args: Args):
    return args.name, args.what, args.actor, args.fooo, _helper(args)


def test_a_typo_and_a_helper_reading_an_undeclared_name_are_caught():
    from gamekernel.syntax import COMMANDS

    try:
        assert undeclared(_probe.syntax, _probe) == [
            "%probe_args: _helper reads args.colour", "%probe_args: _probe reads args.fooo"]
    finally:
        COMMANDS.pop("probe_args", None)
