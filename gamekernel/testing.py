"""Test fixtures for a rule set's own tests (a plug-in's as much as the built-ins'), as gamekernel's
own suite builds them: load this module as a pytest plugin (`pytest_plugins = ["gamekernel.testing"]`
in the rule set's conftest.py) and a test receives

- `ip`: the in-process IPython shell with gamekernel loaded fresh (every installed rule set's magics
  registered) and the session seeded 1; the extension is unloaded after the test;
- English messages and no `GAMEKERNEL_SEED` from the environment for every test, and the secret
  stream keyed by fixed entropy, so a seeded test replays its secret draws too (GW-ALPHA-10).

`run(ip, "check", "Athletics @Aiko")` is `ip.run_line_magic`, shorter.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

FIXED_ENTROPY = "5e" * 16  # the secret stream's key in tests (GAMEKERNEL_SECRET_ENTROPY)


@pytest.fixture(autouse=True)
def _english_and_no_env_seed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from gamekernel import i18n

    monkeypatch.delenv("GAMEKERNEL_SEED", raising=False)
    monkeypatch.setenv("GAMEKERNEL_SECRET_ENTROPY", FIXED_ENTROPY)
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture
def ip() -> Iterator[Any]:
    """The global test IPython shell, with a fresh gamekernel session (seeded 1)."""
    from IPython.testing import globalipapp

    shell = globalipapp.start_ipython() or globalipapp.get_ipython()
    if "gamekernel" in shell.extension_manager.loaded:
        shell.run_line_magic("unload_ext", "gamekernel")
    shell.run_line_magic("load_ext", "gamekernel")
    shell.run_line_magic("seed", "1")
    yield shell
    shell.run_line_magic("unload_ext", "gamekernel")
    shell.config.pop("GameKernel", None)  # a `%config GameKernel...` of the test stays with it


def run(ip: Any, magic: str, line: str = "") -> Any:
    """One magic line through the shell, as a notebook cell runs it: its result (or error result)."""
    return ip.run_line_magic(magic, line)
