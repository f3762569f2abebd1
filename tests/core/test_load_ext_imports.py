"""`%load_ext gamekernel` registers every magic and imports only the magics layer: no rule set's
rules, session operations, results or renderers, no session or event log, no widget library, no
message catalog and no importlib.metadata while no installed distribution declares a rule set.
Each of those is imported on the first command that needs it (the start-up row of `make bench`).
Checked in a fresh Python, where nothing was imported before."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.machinery import PathFinder

from gamekernel import rulesets

SCRIPT = r"""
import json, sys
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
before = set(sys.modules)
shell.run_line_magic("load_ext", "gamekernel")
from gamekernel import i18n
out = {"imported": sorted(set(sys.modules) - before),
       "line_magics": sorted(shell.magics_manager.magics["line"]),
       "catalogs": i18n.catalog.cache_info().currsize}
shell.run_line_magic("seed", "3")
out["roll"] = repr(shell.run_line_magic("roll", "3d+2"))
out["after_roll"] = sorted(set(sys.modules) - before)
print(json.dumps(out))
"""

NOT_AT_LOAD = (
    "gamekernel.session", "gamekernel.events", "gamekernel.actions", "gamekernel.render", "gamekernel.widgets",
    *(f"gamekernel.{name}.{part}" for name in ("gurps", "gammaworld", "mtg")
      for part in ("rules", "actions", "combat_actions", "results", "render", "combat_render", "widgets")),
    "gamekernel.dice", "gamekernel.cards", "gamekernel.remote.server",
    "ipywidgets", "anywidget", "jupyter_server", "importlib.metadata",
)


def _load_in_fresh_python() -> dict:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _under(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def test_load_ext_registers_every_magic_and_imports_only_the_magics_layer():
    out = _load_in_fresh_python()
    assert {"roll", "check", "draw", "combat", "mtg", "campaign", "gk"} <= set(out["line_magics"])
    assert [module for module in out["imported"] if _under(module, NOT_AT_LOAD)] == []
    assert out["catalogs"] == 0
    # the first command imports what it needs and works as ever
    assert out["roll"].startswith("3d+2")
    assert "gamekernel.session" in out["after_roll"] and "gamekernel.dice" in out["after_roll"]


def _distribution(folder, name: str, entry_points: str | None) -> None:
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    if entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")


def test_the_entry_point_glance_finds_a_declared_group_and_only_then(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "meta_path", [PathFinder])
    _distribution(tmp_path, "plain", None)
    _distribution(tmp_path, "tool", "[console_scripts]\ntool = tool:main\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(tmp_path / "missing")])
    assert rulesets._group_may_be_declared(rulesets.ENTRY_POINT_GROUP) is False
    assert rulesets._group_may_be_declared("console_scripts") is True
    assert rulesets.plugin_rule_sets() == []
    _distribution(tmp_path, "Dice_Pack", "[gamekernel.rulesets]\ndice = dice_pack:RULESET\n")
    assert rulesets._group_may_be_declared(rulesets.ENTRY_POINT_GROUP) is True


def test_the_glance_leaves_zips_eggs_and_other_finders_to_importlib_metadata(tmp_path, monkeypatch):
    archive = tmp_path / "bundle.zip"
    archive.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip archive
    monkeypatch.setattr(sys, "meta_path", [PathFinder])
    monkeypatch.setattr(sys, "path", [str(archive)])
    assert rulesets._group_may_be_declared(rulesets.ENTRY_POINT_GROUP) is True
    egg = tmp_path / "old.egg"
    egg.mkdir()
    monkeypatch.setattr(sys, "path", [str(egg)])
    assert rulesets._group_may_be_declared(rulesets.ENTRY_POINT_GROUP) is True

    class Finder:
        @staticmethod
        def find_distributions(context=None):
            return iter(())

    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing")])
    assert rulesets._group_may_be_declared(rulesets.ENTRY_POINT_GROUP) is False
    monkeypatch.setattr(sys, "meta_path", [Finder, PathFinder])
    assert rulesets._group_may_be_declared(rulesets.ENTRY_POINT_GROUP) is True
