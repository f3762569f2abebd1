"""The layers, enforced by reading every module's imports with `ast` (DESIGN "Layers").

The package-level layers are also import-linter contracts (pyproject.toml, run by `make test`); this
file checks what a contract cannot say: which *names* the render layer may take from the rules.

Every `import` and `from ... import` statement counts, wherever it is written: at module level,
inside a function (a "lazy" import) or under `if TYPE_CHECKING:`, because a lazy import is still a
dependency and was how the systems -> render import circles hid. `from package import name` counts
as importing the module `package.name` too (`from gamekernel import session` imports the session).

The rules:
1. The rules (each rule set's rules/, gamekernel/dice/ and gamekernel/cards/, but for their
   own renderers and session operations) import nothing of the layers above them (renderers,
   magics, widgets, session operations, the session) nor IPython, ipywidgets or anywidget:
   they stay usable from a plain script, and their results are drawn by renderers the render
   layer registers with gamekernel.display.
2. The render layer only draws (DESIGN "Display"): from the rules it may import classes (CamelCase
   names: the result and data types it draws and registers renderers for) and constants
   (UPPER_CASE names), never a function, because a function of the rules is a rule (`classify`,
   `readied_count`, `defenses_allowed` ...); thresholds, verdicts and states such as reeling or
   the defenses a maneuver allows are computed in the rules when the result is made and read as
   fields. Importing a whole rules module (`import gamekernel.gurps.rules.x`,
   `from gamekernel.gurps.rules import checks`, `from gamekernel import cards`) is refused for
   the same reason. The only functions allowed are the few data lookups listed in DATA_LOOKUPS,
   each from the one module named there: they read a bundled vocabulary (a skill's or trait's
   Japanese name, the starter card catalog, a card's name in the current language) and decide nothing.
3. The core imports no render module, not even lazily: the package root registers the render layer
   with gamekernel/display (`on_first_display`), which runs it once, on the first display.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "gamekernel"
RULE_SETS = ("gurps", "gammaworld", "mtg")
ADAPTERS_OF_SHARED = {ROOT / "dice" / "render.py", ROOT / "cards" / "render.py", ROOT / "cards" / "actions.py"}
RULES = [p for p in [*(q for r in RULE_SETS for q in sorted((ROOT / r / "rules").rglob("*.py"))),
                     *sorted((ROOT / "dice").rglob("*.py")), *sorted((ROOT / "cards").rglob("*.py"))]
         if p not in ADAPTERS_OF_SHARED]
RENDER = sorted({*(ROOT / "render").rglob("*.py"), *ROOT.glob("*/render.py"), *ROOT.glob("*/*_render.py"),
                 *ROOT.glob("teaching/render_*.py")})
CORE = [ROOT / name for name in ("events.py", "state.py", "errors.py", "util.py", "display/__init__.py",
                                 "display/html.py", "display/numbers.py")] + sorted((ROOT / "i18n").rglob("*.py"))
RULE_PACKAGES = ("gamekernel.dice", "gamekernel.cards", *(f"gamekernel.{r}.rules" for r in RULE_SETS))
ADAPTER_MODULES = ("gamekernel.dice.render", "gamekernel.cards.render", "gamekernel.cards.actions")
FORBIDDEN_IN_RULES = ("gamekernel.render", "gamekernel.magics", "gamekernel.widgets", "gamekernel.actions",
                      "gamekernel.session", "gamekernel.magic_base", "gamekernel.teaching",
                      "gamekernel.table", *ADAPTER_MODULES,
                      *(f"gamekernel.{r}.{layer}" for r in RULE_SETS for layer in (
                          "actions", "combat_actions", "render", "combat_render", "magics", "combat_magics",
                          "widgets")),
                      "IPython", "ipywidgets", "anywidget")
DATA_LOOKUPS = {
    "gamekernel.gurps.rules.skills": {"japanese_name"},
    "gamekernel.gurps.rules.traits": {"shown_trait_name"},
    "gamekernel.gammaworld.rules.catalog": {"starter_catalog"},
    "gamekernel.mtg.rules.facts": {"display_name"},
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
    return any(module == p or module.startswith(p + ".") for p in prefixes) and not any(
        module == a or module.startswith(a + ".") for a in ADAPTER_MODULES if a not in prefixes)


def _reaches(module: str, names: tuple[str, ...], prefixes: tuple[str, ...]) -> bool:
    """The statement imports a module under `prefixes`: the module itself, or one of its names taken
    as a submodule (`from gamekernel import render`)."""
    return _under(module, prefixes) or any(_under(f"{module}.{name}", prefixes) for name in names)


def _is_class_or_constant(name: str) -> bool:
    """Classes are CamelCase and constants UPPER_CASE; functions (and private helpers) are snake_case."""
    return name[:1].isupper()


def rules_breaking_layers(path: Path, source: str | None = None) -> list[str]:
    return [f"{path.name}:{line} imports {module}{' ' + ', '.join(names) if names else ''}"
            for line, module, names in imports(path, source) if _reaches(module, names, FORBIDDEN_IN_RULES)]


def render_rule_imports(path: Path, source: str | None = None) -> list[str]:
    bad = []
    for line, module, names in imports(path, source):
        if not _under(module, RULE_PACKAGES):
            bad += [f"{path.name}:{line} imports the module {module}.{name}" for name in names
                    if _under(f"{module}.{name}", RULE_PACKAGES)]
            continue
        if not names:
            bad.append(f"{path.name}:{line} imports the module {module}")
            continue
        allowed = DATA_LOOKUPS.get(module, set())
        bad += [f"{path.name}:{line} imports {module}.{name}" for name in names
                if not _is_class_or_constant(name) and name not in allowed]
    return bad


@pytest.mark.parametrize("path", RULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_import_no_upper_layer(path: Path) -> None:
    bad = rules_breaking_layers(path)
    assert not bad, bad


@pytest.mark.parametrize("path", RENDER, ids=lambda p: str(p.relative_to(ROOT)))
def test_render_imports_no_rule_function(path: Path) -> None:
    bad = render_rule_imports(path)
    assert not bad, bad


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(ROOT)))
def test_core_reaches_no_render_module(path: Path) -> None:
    reaching = [(line, module) for line, module, names in imports(path)
                if _reaches(module, names, ("gamekernel.render",))]
    assert not reaching, reaching  # the render layer is registered from above (gamekernel/__init__.py)


def test_the_checks_walk_real_files() -> None:
    """The parametrized tests above would pass vacuously on an empty or mistyped folder."""
    rule_names = {_name(p) for p in RULES}
    assert {"gamekernel.cards", "gamekernel.cards.plan", "gamekernel.dice.parser", "gamekernel.gurps.rules.combat",
            "gamekernel.gurps.rules.combat.state", "gamekernel.mtg.rules"} <= rule_names
    assert len(RENDER) >= 5 and all(p.exists() for p in CORE)


def test_the_walker_sees_nested_and_relative_imports() -> None:
    """The checks above cannot pass by not seeing an import: lazy, relative and TYPE_CHECKING ones count."""
    probe = ROOT / "gurps" / "rules" / "probe.py"
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import IPython\n"
              "class R:\n    def _repr_html_(self):\n        from gamekernel.gurps.render import success_html\n"
              "def f():\n    from .odds import check_odds\n    from .. import mtg\n")
    found = {(module, names) for _, module, names in imports(probe, source)}
    assert found == {("typing", ("TYPE_CHECKING",)), ("IPython", ()), ("gamekernel.gurps.render", ("success_html",)),
                     ("gamekernel.gurps.rules.odds", ("check_odds",)), ("gamekernel.gurps", ("mtg",))}
    assert [m.split(":")[1] for m in rules_breaking_layers(probe, source)] == [
        "3 imports IPython", "6 imports gamekernel.gurps.render success_html"]


@pytest.mark.parametrize("line", ["from gamekernel import session", "from gamekernel import render",
                                  "import ipywidgets.widgets", "from IPython.display import HTML",
                                  "from gamekernel.gurps.actions import GurpsActions",
                                  "from gamekernel import magics", "import anywidget",
                                  "from gamekernel.gurps import render", "from gamekernel.dice.render import percent",
                                  "from gamekernel.mtg.widgets.library import LibraryWidget"])
def test_a_rule_module_importing_an_upper_layer_is_caught(line: str) -> None:
    probe = ROOT / "cards" / "probe.py"
    assert rules_breaking_layers(probe, line), line


@pytest.mark.parametrize(("line", "caught"), [
    ("from gamekernel.gurps.rules.checks import SuccessRoll", False),
    ("from gamekernel.gurps.rules.attacks import FIRE_KINDS", False),
    ("from gamekernel.gurps.rules.skills import japanese_name", False),
    ("from gamekernel.gurps.rules.checks import japanese_name", True),  # a lookup only from its own module
    ("from gamekernel.gurps.rules.checks import success_roll", True),
    ("from gamekernel.gurps.rules.combat import defenses_allowed", True),  # through the facade too
    ("from gamekernel.cards.plan import plan_draw", True),
    ("from gamekernel.cards import CardTable", False),
    ("from gamekernel import cards", True),
    ("from gamekernel.gurps.rules import checks", True),
    ("import gamekernel.dice", True),
    ("from ..gurps.rules.fright import fright_check", True),
    ("from gamekernel.i18n import t", False),
])
def test_render_rule_import_cases(line: str, caught: bool) -> None:
    probe = ROOT / "render" / "probe.py"
    assert bool(render_rule_imports(probe, line)) is caught


@pytest.mark.parametrize(("name", "ok"), [("SuccessRoll", True), ("FIRE_KINDS", True), ("DiceAdds", True),
                                          ("classify", False), ("readied_count", False), ("_lines", False)])
def test_class_or_constant_names(name: str, ok: bool) -> None:
    assert _is_class_or_constant(name) is ok


def test_every_render_module_that_registers_is_loaded_by_register_all() -> None:
    """A renderer the core never imports would silently fall back to the default text."""
    import sys

    from gamekernel.render import register_all

    register_all()
    registering = {_name(p) for p in RENDER if "@renders(" in p.read_text(encoding="utf-8")
                   or "@summarizes(" in p.read_text(encoding="utf-8")}
    assert len(registering) >= 8
    assert registering <= set(sys.modules), registering - set(sys.modules)
