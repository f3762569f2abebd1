"""No import circle in gamekernel, lazy imports included (DESIGN "Layout": a registry is filled from
above, never pulled from below). grimp (installed with import-linter) reads every import statement,
at module level or inside a function; a circle of any size is a strongly connected component of that
graph with more than one module (or a module importing itself).

Imports written under `if TYPE_CHECKING:` count too (grimp's default): a name for the type checker
is a dependency a reader follows all the same, so the adapters and the rule sets' handles name the
table's core by a Protocol below them (gamekernel.rulesets.Core), never the Session above them."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

import pytest

grimp = pytest.importorskip("grimp")


def strongly_connected(modules: Iterable[str], imported_by: Callable[[str], Iterable[str]]) -> list[list[str]]:
    """Tarjan's components of the import graph, each in no particular order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in imported_by(module):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == module:
                    break
            found.append(component)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for module in sorted(modules):
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(limit)
    return found


def circles(graph: object) -> list[list[str]]:
    modules = graph.modules  # type: ignore[attr-defined]
    imported_by = graph.find_modules_directly_imported_by  # type: ignore[attr-defined]
    return [sorted(c) for c in strongly_connected(modules, imported_by)
            if len(c) > 1 or c[0] in imported_by(c[0])]


def test_gamekernel_has_no_import_circle() -> None:
    graph = grimp.build_graph("gamekernel", cache_dir=None)
    assert len(graph.modules) > 150  # the whole package was read
    assert circles(graph) == []


def test_the_finder_finds_a_circle_and_a_lazy_one() -> None:
    """The check above would pass on a finder that finds nothing."""
    edges = {"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"], "e": ["e"], "f": []}
    found = [sorted(c) for c in strongly_connected(edges, lambda m: edges[m]) if len(c) > 1 or c[0] in edges[c[0]]]
    assert sorted(found) == [["a", "b", "c"], ["e"]]
    graph = grimp.ImportGraph()
    for name in ("pkg", "pkg.low", "pkg.high"):
        graph.add_module(name)
    graph.add_import(importer="pkg.high", imported="pkg.low")
    graph.add_import(importer="pkg.low", imported="pkg.high")  # as a function-level import is recorded
    assert circles(graph) == [["pkg.high", "pkg.low"]]
