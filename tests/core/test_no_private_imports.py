"""No module of the package takes another module's private names (CONTRIBUTING "Names").

A leading underscore says "used only in this module": a name another module needs is shared and
named so (public), or it moves to the one module that uses it. Read with `ast`, so lazy imports
inside functions count too. Two shapes are refused: `from gamekernel.x import _name` (relative
`from .x import _name` as well) and `module._name` where `module` was imported from gamekernel.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "gamekernel"


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_name(path: Path, root: Path) -> str:
    """`gamekernel.gurps.rules.combat` for .../gurps/rules/combat/__init__.py."""
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _source_of(node: ast.ImportFrom, path: Path, root: Path) -> str:
    """The absolute module a `from ... import` reads, relative levels resolved."""
    if not node.level:
        return node.module or ""
    package = _module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imported_modules(tree: ast.AST, path: Path, root: Path) -> dict[str, str]:
    """Local name -> gamekernel module or name it was bound to by an import."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == root.name:
                    bound[alias.asname or alias.name.split(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom):
            source = _source_of(node, path, root)
            if source.split(".")[0] == root.name:
                for alias in node.names:
                    bound[alias.asname or alias.name] = f"{source}.{alias.name}"
    return bound


def private_uses(path: Path, root: Path = ROOT) -> list[str]:
    """Every private name `path` takes from another gamekernel module, as `file:line: what`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(root.parent)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _source_of(node, path, root)
            if source.split(".")[0] == root.name:
                found += [f"{where}:{node.lineno}: from {source} import {a.name}"
                          for a in node.names if _is_private(a.name)]
    modules = _imported_modules(tree, path, root)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in modules and _is_private(node.attr)):
            found.append(f"{where}:{node.lineno}: {modules[node.value.id]}.{node.attr}")
    return found


def test_no_module_imports_another_modules_private_names():
    found = [use for path in sorted(ROOT.rglob("*.py")) for use in private_uses(path)]
    assert not found, "private names taken across modules:\n" + "\n".join(found)


def test_the_check_sees_absolute_relative_lazy_and_attribute_uses(tmp_path):
    """The walk itself: each refused shape is found, public names and foreign packages are not."""
    root = tmp_path / "gamekernel"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "sub" / "__init__.py").write_text("")
    user = root / "sub" / "user.py"
    user.write_text(
        "from gamekernel.dice.parser import _Parser, Parser\n"
        "from .sibling import _helper\n"
        "from os.path import _joinrealpath\n"
        "import gamekernel.magic_base as base\n"
        "def f():\n"
        "    from gamekernel.events import _HIDDEN\n"
        "    return base._kernel_magics, base.current_session, __name__\n"
    )
    assert private_uses(user, root) == [
        "gamekernel/sub/user.py:1: from gamekernel.dice.parser import _Parser",
        "gamekernel/sub/user.py:2: from gamekernel.sub.sibling import _helper",
        "gamekernel/sub/user.py:6: from gamekernel.events import _HIDDEN",
        "gamekernel/sub/user.py:7: gamekernel.magic_base._kernel_magics",
    ]
