"""Results hold facts; renderers draw them (DESIGN "Display").

A result class of the rules, of a session operation or of a magic gets its text and html from the
render registry (`Displayable` finds the `@renders` function of its type), so a look changes in one
renderer module and the rules never word or mark up their own results. Read with `ast`: outside the
render modules no class defines `_repr_html_`, and no class's `__repr__`/`__str__` words itself
through i18n (`t(...)`). Developer reprs such as `<SuccessRoll ...>` stay allowed.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "gamekernel"
MIXIN = ROOT / "display" / "__init__.py"  # Displayable itself: the html that asks the registry


def _is_render_module(path: Path) -> bool:
    rel = path.relative_to(ROOT)
    return (rel.parts[0] == "render" or path == MIXIN or path.name == "render.py"
            or path.name.endswith("_render.py") or path.name.startswith("render_"))


def _calls_t(fn: ast.AST) -> bool:
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute)
               and (getattr(node.func, "id", None) == "t" or getattr(node.func, "attr", None) == "t")
               for node in ast.walk(fn))


def drawing_methods(source: str, where: str) -> list[str]:
    """`where:Class.method` for each method of a class in `source` that draws its result."""
    found = []
    for cls in ast.walk(ast.parse(source)):
        if not isinstance(cls, ast.ClassDef):
            continue
        for fn in cls.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            if fn.name == "_repr_html_" or (fn.name in ("__repr__", "__str__") and _calls_t(fn)):
                found.append(f"{where}:{cls.name}.{fn.name}")
    return found


def test_no_result_outside_the_renderers_draws_itself():
    found = [hit for path in sorted(ROOT.rglob("*.py")) if not _is_render_module(path)
             for hit in drawing_methods(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not found, "results drawing themselves (register a renderer instead):\n" + "\n".join(found)


def test_the_check_sees_html_and_worded_text_but_not_developer_reprs():
    source = ("class A:\n    def _repr_html_(self):\n        return '<b>'\n"
              "class B:\n    def __repr__(self):\n        return t('x.y')\n"
              "class C:\n    def __str__(self):\n        return i18n.t('x.y')\n"
              "class D:\n    def __repr__(self):\n        return f'<D {self.name}>'\n")
    assert drawing_methods(source, "m.py") == ["m.py:A._repr_html_", "m.py:B.__repr__", "m.py:C.__str__"]
