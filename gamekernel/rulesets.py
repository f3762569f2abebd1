"""Rule sets, each declared once: `RULESET = RuleSet(...)` in its package's `__init__.py`.

Everything that once kept its own list of rule sets reads these declarations instead: the magics
that `%load_ext` registers, the renderers, the message catalogs, the groups of `%gamekernel`, the
rule notes of explain mode, which rule set a `%check` or `%rest` line belongs to, and what of the
state players may see. The three built-in rule sets are listed here; any other installed package
adds one through the `gamekernel.rulesets` entry-point group with the same declaration, so a rule
set is one package plus one entry point.

A declaration is cheap to import: what it names is reached through small functions that import on
call, so `%load_ext` stays light and a static reader can still follow every path.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any

ENTRY_POINT_GROUP = "gamekernel.rulesets"
BUILTIN = ("gamekernel.gurps", "gamekernel.gammaworld", "gamekernel.mtg")


def _nothing() -> tuple[type, ...]:
    return ()


def _no_renderers() -> None:
    return None


@dataclass(frozen=True)
class LineHandler:
    """A rule set's form of a command several rule sets share (`%check`, `%odds check`, `%rest`).

    `claims(words)` says whether a line is this rule set's (`%check green 2` is MtG's); a handler
    with `claims=None` takes every line no other claims (GURPS for `%check`, Gamma World for `%rest`).
    `run(session, args)` carries the command out; `odds(session, args)` answers `%odds check`."""

    run: Callable[..., Any]
    claims: Callable[[Any], bool] | None = None
    odds: Callable[..., Any] | None = None


@dataclass(frozen=True)
class RuleSet:
    """What a rule set brings to gamekernel. `name` is its package's last part and the prefix of its
    event kinds, state parts and Session methods (`gurps.check`, `session.gurps_check`)."""

    name: str
    package: str
    groups: tuple[str, ...]  # its groups of commands in `%gamekernel`, in order (i18n `cmd.group.NAME`)
    operations: Callable[[], tuple[type, ...]] = _nothing  # Session mixins: state parts, event kinds
    magics: Callable[[], tuple[type, ...]] = _nothing  # IPython Magics classes
    renderers: Callable[[], None] = _no_renderers  # imports the modules that register its renderers
    check: Callable[[], LineHandler] | None = None  # its form of `%check` and `%odds check`
    rest: Callable[[], LineHandler] | None = None  # its form of `%rest`
    rule_notes: str | None = "data/explain.json"  # explain mode's rule sentences, inside the package
    public_parts: tuple[str, ...] = ()  # state parts every player may see (the rest are the GM's)
    event_prefixes: tuple[str, ...] = field(default=())  # its event kinds start with one of these

    @property
    def folder(self) -> Path:
        """The package's folder (its `i18n/` and `data/` live there)."""
        spec = import_module(self.package).__file__
        assert spec is not None
        return Path(spec).parent

    def catalogs(self, language: str) -> list[Path]:
        """Its message catalogs in `language` (`i18n/<language>/*.json`), in name order."""
        return sorted((self.folder / "i18n" / language).glob("*.json"))

    def owns_event(self, kind: str) -> bool:
        return any(kind.startswith(prefix) for prefix in self.event_prefixes or (f"{self.name}.",))


@cache
def rule_sets() -> tuple[RuleSet, ...]:
    """Every rule set: the built-in ones, then those other packages declare, by entry-point name."""
    found: list[RuleSet] = [import_module(name).RULESET for name in BUILTIN]
    found += plugin_rule_sets()
    names = [r.name for r in found]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise RuntimeError(f"two rule sets are named {', '.join(map(repr, duplicates))}")
    return tuple(found)


def plugin_rule_sets() -> list[RuleSet]:
    """The rule sets of other installed packages (entry-point group `gamekernel.rulesets`)."""
    if not _group_may_be_declared(ENTRY_POINT_GROUP):
        return []  # importlib.metadata (a third of `%load_ext`) would only confirm there are none
    from importlib.metadata import entry_points

    found = []
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        if point.value.split(":")[0] in BUILTIN:
            continue
        declared = point.load()
        if not isinstance(declared, RuleSet):
            raise TypeError(f"entry point {point.name!r} ({point.value}) is not a gamekernel RuleSet")
        found.append(declared)
    return found


def _group_may_be_declared(group: str) -> bool:
    """Whether any distribution on `sys.path` may declare an entry point of `group`: a glance at the
    `entry_points.txt` of every `*.dist-info` / `*.egg-info` folder, where importlib.metadata reads
    them. Where it reads more than that (a zip or an egg on the path, another finder of
    distributions) the answer is yes, and importlib.metadata decides."""
    if any(hasattr(finder, "find_distributions") and finder is not PathFinder for finder in sys.meta_path):
        return True
    for entry in sys.path:
        folder = entry or "."
        if not isinstance(entry, str) or entry.lower().endswith(".egg") or os.path.isfile(folder):
            return True
        if any(group in _entry_points_text(folder, name) for name in _metadata_folders(folder)):
            return True
    return False


def _metadata_folders(folder: str) -> list[str]:
    try:
        names = os.listdir(folder)
    except OSError:  # not there (python311.zip often is not) or not readable: nothing declared in it
        return []
    return [name for name in names if name.lower().endswith((".dist-info", ".egg-info"))]


def _entry_points_text(folder: str, name: str) -> str:
    try:
        with open(os.path.join(folder, name, "entry_points.txt"), encoding="utf-8", errors="replace") as file:
            return file.read()
    except OSError:  # most distributions declare no entry point
        return ""


def rule_set(name: str) -> RuleSet:
    for declared in rule_sets():
        if declared.name == name:
            return declared
    raise KeyError(name)


def handler_for(command: str, words: Any) -> LineHandler:
    """The rule set's handler of a shared command line: the first that claims it, else the default."""
    handlers = _handlers(command)
    for handler in handlers:
        if handler.claims is not None and handler.claims(words):
            return handler
    defaults = [h for h in handlers if h.claims is None]
    if not defaults:
        raise LookupError(f"no rule set handles %{command}")
    return defaults[0]


@cache
def _handlers(command: str) -> tuple[LineHandler, ...]:
    """Every rule set's handler of `command`, made once (each rule set imports its own on first use)."""
    return tuple(h() for r in rule_sets() if (h := getattr(r, command)) is not None)


def groups() -> tuple[str, ...]:
    """The groups of `%gamekernel`, in order: core first, every rule set's, then campaign."""
    return ("core", *(g for r in rule_sets() for g in r.groups), "campaign")


def operation_classes(sets: Sequence[RuleSet] | None = None) -> tuple[type, ...]:
    return tuple(cls for r in (rule_sets() if sets is None else sets) for cls in r.operations())
