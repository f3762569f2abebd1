"""Every name a benchmark imports from gamekernel exists: the benchmarks import inside their functions
(so `make bench` starts light), which no test runs, and a renamed function broke `bench_remote`
unseen until a whole `make bench`. Read from the source (nothing is timed or run)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _imports() -> list[tuple[str, str, str]]:
    found = []
    for path in sorted(BENCHMARKS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gamekernel"):
                found += [(path.name, str(node.module), alias.name) for alias in node.names]
    return found


IMPORTS = _imports()


def test_the_benchmarks_import_from_gamekernel():
    assert len(IMPORTS) > 20  # the scan reads the benchmarks' lazy imports


@pytest.mark.parametrize(("where", "module", "name"), IMPORTS, ids=[f"{w}:{m}.{n}" for w, m, n in IMPORTS])
def test_a_benchmark_s_import_names_what_exists(where, module, name):
    imported = importlib.import_module(module)
    if not hasattr(imported, name):
        importlib.import_module(f"{module}.{name}")  # a submodule (`from gamekernel.tools import lite`)
