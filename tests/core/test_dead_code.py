"""No dead code: every public function, method and class of gamekernel is used.

"Used" means its name is read somewhere other than where it is defined: in gamekernel's own code
(a name, an attribute, or a word in a string, which covers `getattr` and registry lookups), in the
widgets' JavaScript, in the package data (JSON catalogs, pyproject entry points), in an example
notebook, where the GM's public API is shown, or in the test plug-ins (tests/rulesets/plugin/), the
users of the plug-in API. A re-export (`import`, `__all__`) is not a use.

Two exceptions, each with its reason:
- the pure rules (each rule set's rules/, gamekernel/dice/, gamekernel/cards/ but for their
  adapters) are a library whose functions are tested by rule id: a test naming one is a use;
- ALLOWED lists the names a framework calls (overrides of Tornado, JupyterHub, ast hooks) and the
  few probes of the public API that only the test suite reads. Keep it small: a name goes on it
  with its reason, never to silence this test about code nothing calls.

A decorated definition is used by its decorator (a magic, a registered renderer, an operation),
unless the decorator is one of the plain ones (property, staticmethod, ...).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
ROOT = PROJECT / "gamekernel"
RULE_SETS = ("gurps", "gammaworld", "mtg")
ADAPTERS_OF_SHARED = {ROOT / "dice" / "render.py", ROOT / "cards" / "render.py", ROOT / "cards" / "actions.py"}
PLAIN_DECORATORS = {"property", "staticmethod", "classmethod", "cached_property", "setter", "override", "cache"}
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# name -> why it stays although no code of the project calls it
ALLOWED = {
    # framework hooks: Tornado, jupyter_server and JupyterHub call these by name
    "post": "Tornado request handler (remote/hub/authenticator.py)",
    "get_authed_users": "JupyterHub Authenticator hook",
    "add_login_attempt": "NativeAuthenticator hook (lock-out after failed sign-ins)",
    "successful_login": "NativeAuthenticator hook",
    "is_blocked": "NativeAuthenticator hook",
    "data_received": "Tornado stream hook (remote/server.py)",
    "max_message_size": "Tornado websocket setting read by the framework",
    "on_message": "Tornado websocket hook",
    "log_message": "http.server request handler hook (tools/lite_serve.py)",
    "initialize_settings": "jupyter_server ExtensionApp hook",
    "initialize_handlers": "jupyter_server ExtensionApp hook",
    "visit_Module": "ast.NodeVisitor dispatch by node class name (magics/echo.py)",
    "load_ipython_extension": "IPython's %load_ext hook",
    "unload_ipython_extension": "IPython's extension hook",
    "PlayersIdentityProvider": "named by its dotted path in the players' server config",
    "PlayersAuthorizer": "named by its dotted path in the players' server config",
    # public API that only the test suite reads
    "observer_count": "leak probe of a long session (tests/core/test_no_leaks.py)",
    "link_count": "leak probe of the remote table's links",
    "owner_of": "who holds a seat, read by the remote table's canaries",
    "owns_event": "a RuleSet's answer about its own declaration (tests/rulesets/test_declarations.py)",
}


def _module_files() -> list[Path]:
    return sorted(ROOT.rglob("*.py"))


def _is_rules(path: Path) -> bool:
    if path in ADAPTERS_OF_SHARED:
        return False
    parts = path.relative_to(ROOT).parts
    return parts[0] in ("dice", "cards") or (parts[0] in RULE_SETS and len(parts) > 1 and parts[1] == "rules")


def _decorator_names(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> list[str]:
    names = []
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        names.append(target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", ""))
    return names


def definitions(tree: ast.AST) -> list[tuple[str, int]]:
    """The public, undecorated (or plainly decorated) functions, methods and classes of a module."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name.startswith("_"):
                continue
            if all(name in PLAIN_DECORATORS for name in _decorator_names(node)):
                found.append((node.name, node.lineno))
    return found


def python_uses(tree: ast.AST) -> set[str]:
    """Every name a module reads: names, attributes and the words of its strings (not docstrings,
    which name what they explain, nor `__all__`, a re-export)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            skip |= {id(n) for n in ast.walk(node.value)}
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
    used: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            used.add(node.id)
        elif isinstance(node, ast.Attribute):
            used.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            used.update(WORD.findall(node.value))
    return used


def text_uses(paths: list[Path]) -> set[str]:
    used: set[str] = set()
    for path in paths:
        used.update(WORD.findall(path.read_text(encoding="utf-8", errors="replace")))
    return used


def dead_code() -> list[str]:
    """`path:line name` of every public definition nothing uses (the rules: nothing but tests)."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in _module_files()}
    uses = {path: python_uses(tree) for path, tree in trees.items()}
    js = [p for p in (PROJECT / "widgets").rglob("*") if p.suffix in (".js", ".ts", ".mjs")
          and "node_modules" not in p.parts]
    plugins = sorted((PROJECT / "tests" / "rulesets" / "plugin").rglob("*.py"))  # the plug-in API's users
    outside = text_uses([*js, *ROOT.rglob("*.json"), PROJECT / "pyproject.toml", *plugins,
                         *sorted((PROJECT / "example_notebooks").glob("*.ipynb"))])
    tests = set().union(*(python_uses(ast.parse(p.read_text(encoding="utf-8")))
                          for p in sorted((PROJECT / "tests").rglob("*.py"))))
    dead = []
    for path, tree in trees.items():
        for name, line in definitions(tree):
            if name in ALLOWED or name in outside or (_is_rules(path) and name in tests):
                continue
            if any(name in used for used in uses.values()):  # a definition is no Name: its own module counts
                continue
            dead.append(f"{path.relative_to(PROJECT)}:{line} {name}")
    return dead


def test_no_dead_code():
    assert dead_code() == []


def test_allowed_names_are_still_defined():
    """An allowed name that is gone leaves a hole in the list: take it off."""
    defined = {name for path in _module_files() for name, _ in definitions(ast.parse(path.read_text("utf-8")))}
    assert sorted(set(ALLOWED) - defined) == []


def test_a_public_function_nobody_calls_is_found(tmp_path, monkeypatch):
    """The check itself: a new public function nothing calls is reported, a called one is not."""
    package = tmp_path / "gamekernel"
    (package / "table").mkdir(parents=True)
    (tmp_path / "widgets").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "example_notebooks").mkdir()
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (package / "table" / "a.py").write_text("def called():\n    pass\n\n\ndef forgotten():\n    pass\n",
                                            encoding="utf-8")
    (package / "table" / "b.py").write_text("from gamekernel.table.a import called\n\ncalled()\n", encoding="utf-8")
    (tmp_path / "tests" / "test_a.py").write_text("from gamekernel.table.a import forgotten\n", encoding="utf-8")
    this = sys.modules[__name__]
    monkeypatch.setattr(this, "PROJECT", tmp_path)
    monkeypatch.setattr(this, "ROOT", package)
    monkeypatch.setattr(this, "ADAPTERS_OF_SHARED", set())
    assert dead_code() == ["gamekernel/table/a.py:5 forgotten"]  # a test naming it does not keep it
