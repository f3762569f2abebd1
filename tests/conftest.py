"""Shared fixtures: a real in-process IPython shell with gamekernel loaded fresh for each test."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _english_and_no_env_seed(monkeypatch):
    from gamekernel import i18n

    monkeypatch.delenv("GAMEKERNEL_SEED", raising=False)
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture
def ip():
    """The global test IPython shell, with a fresh gamekernel session (seeded 1)."""
    from IPython.testing import globalipapp

    shell = globalipapp.start_ipython() or globalipapp.get_ipython()
    if "gamekernel" in shell.extension_manager.loaded:
        shell.run_line_magic("unload_ext", "gamekernel")
    shell.run_line_magic("load_ext", "gamekernel")
    shell.run_line_magic("seed", "1")
    yield shell
    shell.run_line_magic("unload_ext", "gamekernel")
    shell.config.pop("GameKernel", None)
