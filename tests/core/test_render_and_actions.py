"""Renderers and session operations do not import each other in a circle (DESIGN "Display").

A result type both need lives with the rules or in a results module (gamekernel/results.py for the
table's own results, gamekernel/<set>/results.py, gamekernel/gammaworld/rules/results.py), so
operations -> results <- renderers. Read with `ast`, lazy imports inside functions included:
no renderer imports an operations module, and an operations module imports a renderer only where
listed below, each for a reason of its own.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "gamekernel"

# operations module -> renderer module: why the operation needs the renderer
OPERATIONS_USING_RENDERERS = {
    # `log_write` writes the log or the players' story to a file: drawing it is the operation.
    ("gamekernel.actions.core", "gamekernel.render.log"),
    ("gamekernel.actions.core", "gamekernel.render.story"),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_renderer(module: str) -> bool:
    last = module.rsplit(".", 1)[-1]
    return (module.startswith("gamekernel.render") or last == "render" or last.endswith("_render")
            or last.startswith("render_"))


def is_operations(module: str) -> bool:
    last = module.rsplit(".", 1)[-1]
    return module.startswith("gamekernel.actions") or last in ("actions", "combat_actions")


def imported(path: Path, source: str | None = None) -> set[str]:
    """Every gamekernel module the file imports (`from a import b` counts `a`, and `a.b` when that
    is a module)."""
    text = path.read_text(encoding="utf-8") if source is None else source
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            found |= {base} | {f"{base}.{alias.name}" for alias in node.names}
    return {m for m in found if m.startswith("gamekernel") and _is_module(m)}


def _is_module(name: str) -> bool:
    """`gamekernel.gurps.render`, not the name `gamekernel.gurps.render.success_html`."""
    path = ROOT.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def crossings(path: Path, source: str | None = None) -> list[tuple[str, str]]:
    """(importer, imported) for each renderer -> operations or operations -> renderer import."""
    me = module_name(path)
    if is_renderer(me):
        return [(me, other) for other in sorted(imported(path, source)) if is_operations(other)]
    if is_operations(me):
        return [(me, other) for other in sorted(imported(path, source)) if is_renderer(other)]
    return []


def test_renderers_and_operations_meet_only_in_result_modules():
    found = {pair for path in sorted(ROOT.rglob("*.py")) for pair in crossings(path)}
    assert found - OPERATIONS_USING_RENDERERS == set()
    assert found >= OPERATIONS_USING_RENDERERS  # an entry no longer needed is taken off the list


def test_the_walk_sees_lazy_and_relative_imports_both_ways():
    render = ROOT / "gurps" / "render.py"
    assert crossings(render, "def f():\n    from .actions import CharacterList\n") == [
        ("gamekernel.gurps.render", "gamekernel.gurps.actions")]
    actions = ROOT / "mtg" / "actions.py"
    assert crossings(actions, "def f():\n    from gamekernel.mtg import render\n") == [
        ("gamekernel.mtg.actions", "gamekernel.mtg.render")]
    assert crossings(render, "from gamekernel.gurps.results import CharacterList\n") == []
