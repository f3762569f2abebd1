"""render/ only draws (DESIGN: Display; issue 10 item 2): the names it imports from the rules are
result types and word look-ups, never a rule function. Thresholds, verdicts and states such as
reeling or the defenses a maneuver allows are computed in systems/ and read as fields."""

import ast
from pathlib import Path

RENDER = Path(__file__).resolve().parents[2] / "gamekernel" / "render"
RULE_PACKAGES = ("gamekernel.systems", "gamekernel.dice", "gamekernel.cards")
# Functions render may call: names and numbers for display, not rules.
WORD_LOOKUPS = {"japanese_name", "maybe_trait", "percent", "starter_catalog"}


def imported_rule_names() -> list[str]:
    found = []
    for path in sorted(RENDER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(RULE_PACKAGES):
                for alias in node.names:
                    name = alias.name
                    if not name[:1].isupper() and name not in WORD_LOOKUPS:
                        found.append(f"{path.name}: {node.module}.{name}")
            elif isinstance(node, ast.Import):
                found += [f"{path.name}: {a.name}" for a in node.names if a.name.startswith(RULE_PACKAGES)]
    return found


def test_render_imports_no_rule_function():
    assert imported_rule_names() == []


def test_the_check_walks_the_render_modules():
    assert len(list(RENDER.glob("*.py"))) >= 5  # the test would pass vacuously on an empty folder
