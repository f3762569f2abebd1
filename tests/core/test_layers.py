"""The layers, enforced by reading every module's imports with `ast` (issue 10, DESIGN "Layers").

Every `import` and `from ... import` statement counts, wherever it is written: at module level,
inside a function (a "lazy" import) or under `if TYPE_CHECKING:`, because a lazy import is still a
dependency and was how the systems -> render import circles hid.

The rules:
1. The rules (gamekernel/systems/, gamekernel/dice/, gamekernel/cards.py) import nothing of the
   layers above them (render/, magics/, widgets/, actions/, session) nor IPython, ipywidgets or
   anywidget: they stay usable from a plain script, and their results are drawn by renderers the
   render layer registers with gamekernel.display.
2. The render layer only draws: from the rules it may import classes (CamelCase names: the result
   and data types it draws and registers renderers for) and constants (UPPER_CASE names), never a
   function, because a function of the rules is a rule (`classify`, `readied_count`,
   `defenses_allowed` ...); an outcome the drawing needs is carried by the result, computed in
   systems/ when the result is made. Importing a whole rules module (`import gamekernel.systems.x`)
   is refused for the same reason. The only functions allowed are the few data lookups listed in
   DATA_LOOKUPS: they read a bundled vocabulary (a skill's or trait's Japanese name, the starter
   card catalog) and decide nothing.
3. Only gamekernel/display.py reaches the render layer from the core (once, in `load_renderers`):
   events.py, state.py, i18n and the rest of the core import no render module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "gamekernel"
RULES = [*sorted((ROOT / "systems").rglob("*.py")), *sorted((ROOT / "dice").rglob("*.py")), ROOT / "cards.py"]
RENDER = sorted((ROOT / "render").rglob("*.py"))
CORE = [ROOT / name for name in ("events.py", "state.py", "errors.py", "util.py", "display.py")] + sorted(
    (ROOT / "i18n").rglob("*.py"))
RULE_PACKAGES = ("gamekernel.systems", "gamekernel.dice", "gamekernel.cards")
FORBIDDEN_IN_RULES = ("gamekernel.render", "gamekernel.magics", "gamekernel.widgets", "gamekernel.actions",
                      "gamekernel.session", "IPython", "ipywidgets", "anywidget")
DATA_LOOKUPS = {
    "gamekernel.systems.gurps.skills": {"japanese_name"},
    "gamekernel.systems.gurps.traits": {"maybe_trait"},
    "gamekernel.systems.gammaworld.catalog": {"starter_catalog"},
}


def _name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, source: str | None = None) -> list[tuple[int, str, tuple[str, ...]]]:
    """(line, module, imported names) for every import statement of the file, nested ones included;
    relative imports are resolved against the file's package."""
    text = path.read_text(encoding="utf-8") if source is None else source
    tree = ast.parse(text, filename=str(path))
    package = _name(path) if path.name == "__init__.py" else _name(path).rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            found.append((node.lineno, module, tuple(alias.name for alias in node.names)))
    return found


def _under(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _is_class_or_constant(name: str) -> bool:
    """Classes are CamelCase and constants UPPER_CASE; functions (and private helpers) are snake_case."""
    return name[:1].isupper()


@pytest.mark.parametrize("path", RULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_import_no_upper_layer(path: Path) -> None:
    bad = [f"{path.name}:{line} imports {module}" for line, module, _ in imports(path)
           if _under(module, FORBIDDEN_IN_RULES)]
    assert not bad, bad


@pytest.mark.parametrize("path", RENDER, ids=lambda p: str(p.relative_to(ROOT)))
def test_render_imports_no_rule_function(path: Path) -> None:
    bad = []
    for line, module, names in imports(path):
        if not _under(module, RULE_PACKAGES):
            continue
        if not names:
            bad.append(f"{path.name}:{line} imports the module {module}")
            continue
        allowed = DATA_LOOKUPS.get(module, set())
        bad += [f"{path.name}:{line} imports {module}.{name}" for name in names
                if not _is_class_or_constant(name) and name not in allowed]
    assert not bad, bad


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_core_reaches_render_only_through_display(path: Path) -> None:
    reaching = [(line, module) for line, module, _ in imports(path) if _under(module, ("gamekernel.render",))]
    if path.name == "display.py":
        assert [module for _, module in reaching] == ["gamekernel.render"]  # the one lazy import
    else:
        assert not reaching, reaching


def test_the_walker_sees_nested_and_relative_imports() -> None:
    """The checks above cannot pass by not seeing an import: lazy, relative and TYPE_CHECKING ones count."""
    probe = ROOT / "systems" / "gurps" / "probe.py"
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import IPython\n"
              "class R:\n    def _repr_html_(self):\n        from gamekernel.render.gurps import success_html\n"
              "def f():\n    from .odds import check_odds\n    from .. import mtg\n")
    found = {(module, names) for _, module, names in imports(probe, source)}
    assert found == {("typing", ("TYPE_CHECKING",)), ("IPython", ()), ("gamekernel.render.gurps", ("success_html",)),
                     ("gamekernel.systems.gurps.odds", ("check_odds",)), ("gamekernel.systems", ("mtg",))}
    assert sorted(m for _, m, _ in imports(probe, source) if _under(m, FORBIDDEN_IN_RULES)) == [
        "IPython", "gamekernel.render.gurps"]


@pytest.mark.parametrize(("name", "ok"), [("SuccessRoll", True), ("FIRE_KINDS", True), ("DiceAdds", True),
                                          ("classify", False), ("readied_count", False), ("_lines", False)])
def test_class_or_constant_names(name: str, ok: bool) -> None:
    assert _is_class_or_constant(name) is ok


def test_every_render_module_that_registers_is_loaded_by_register_all() -> None:
    """A renderer the core never imports would silently fall back to the default text."""
    from gamekernel.render import MODULES

    registering = {p.stem for p in RENDER if "@renders(" in p.read_text(encoding="utf-8")
                   or "@summarizes(" in p.read_text(encoding="utf-8")}
    assert registering <= set(MODULES), registering - set(MODULES)
