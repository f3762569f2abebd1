"""Rendering of results to text/plain and self-contained, escaped, deterministic text/html.

Each module registers its renderers (result type -> text/plain, text/html) and event summaries
with gamekernel.display when imported; `register_all` imports them all, and the core calls it once,
on the first display (importing one render module, e.g. for a widget, loads only that one).
"""

from __future__ import annotations

import importlib

MODULES = ("campaign", "cards", "combat", "dice", "explain", "explore", "gammaworld", "gurps", "log", "mtg",
           "quiz", "summaries")


def register_all() -> None:
    for name in MODULES:
        importlib.import_module(f"gamekernel.render.{name}")
