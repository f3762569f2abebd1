"""A kernel in a browser tab (Pyodide, JupyterLite): what gamekernel does differently there, proven here
by setting `gamekernel.util.IN_BROWSER` (the real tab is tests/lite's smoke test)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from gamekernel import util
from gamekernel.magics.browser import quiet_empty_results, restore_empty_results

ROOT = Path(__file__).resolve().parents[2]


class LiteLikeHook:
    """jupyterlite-pyodide-kernel's LiteDisplayHook as it is: it publishes whatever data it has, none too."""

    def __init__(self) -> None:
        self.data: dict = {}
        self.published: list[dict] = []
        self.publish_execution_result = lambda count, data, metadata: self.published.append(data)

    def finish_displayhook(self) -> None:
        self.publish_execution_result(1, self.data, {})
        self.data = {}


class Shell:
    def __init__(self) -> None:
        self.displayhook = LiteLikeHook()


def test_the_browser_hook_publishes_no_empty_result_but_every_result_with_data(monkeypatch):
    monkeypatch.setattr(util, "IN_BROWSER", True)
    shell = Shell()
    assert quiet_empty_results(shell) is True
    assert quiet_empty_results(shell) is False  # once: a second %load_ext does not wrap it twice
    shell.displayhook.finish_displayhook()  # a magic's result, which displayed itself: no data
    assert shell.displayhook.published == []
    shell.displayhook.data = {"text/plain": "3"}  # `1 + 2`
    shell.displayhook.finish_displayhook()
    assert shell.displayhook.published == [{"text/plain": "3"}]
    restore_empty_results(shell)
    shell.displayhook.finish_displayhook()
    assert shell.displayhook.published == [{"text/plain": "3"}, {}]  # the hook as it was


def test_a_desktop_kernel_s_hook_is_left_alone(monkeypatch):
    monkeypatch.setattr(util, "IN_BROWSER", False)
    shell = Shell()
    assert quiet_empty_results(shell) is False
    shell.displayhook.finish_displayhook()
    assert shell.displayhook.published == [{}]


def test_load_ext_in_a_browser_tab_quiets_the_shell_s_hook_and_unload_restores_it(ip, monkeypatch):
    monkeypatch.setattr(util, "IN_BROWSER", True)
    ip.run_line_magic("unload_ext", "gamekernel")
    ip.run_line_magic("load_ext", "gamekernel")
    assert "finish_displayhook" in vars(ip.displayhook)
    ip.run_line_magic("unload_ext", "gamekernel")
    assert "finish_displayhook" not in vars(ip.displayhook)
    ip.run_line_magic("load_ext", "gamekernel")  # the fixture unloads it again


def _shown(ip, cell: str) -> list[str]:
    from IPython.utils.capture import capture_output

    with capture_output() as captured:
        outcome = ip.run_cell(cell)
    assert outcome.error_in_exec is None, outcome.error_in_exec  # a one-line error, never a traceback
    assert "Traceback" not in captured.stdout + captured.stderr
    return [o.data.get("text/plain", "") for o in captured.outputs]


def test_table_serve_in_a_browser_tab_answers_in_one_line(ip, monkeypatch):
    monkeypatch.setattr(util, "IN_BROWSER", True)
    monkeypatch.setitem(sys.modules, "jupyter_core.paths", None)  # as in Pyodide: importing it would fail
    (line,) = _shown(ip, "%table serve")
    assert line.startswith("error: %table serve needs a Jupyter server for the players to connect to;")
    assert "\n" not in line.strip() and "Traceback" not in line


def test_table_serve_without_jupyter_core_answers_in_one_line(ip, monkeypatch):
    monkeypatch.setattr(util, "IN_BROWSER", False)
    monkeypatch.setitem(sys.modules, "jupyter_core.paths", None)
    (line,) = _shown(ip, "%table serve")
    assert line.startswith("error: %table serve needs a Jupyter server (jupyter_core is not installed here)")


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "example_notebooks").glob("*.ipynb")))
def test_every_example_carries_language_info(name):
    """Without it JupyterLite opens the notebook on a "Select Kernel" dialog."""
    metadata = json.loads((ROOT / "example_notebooks" / name).read_text(encoding="utf-8"))["metadata"]
    assert metadata["language_info"]["name"] == "python"
