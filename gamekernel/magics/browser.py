"""The browser kernel's empty results, kept out of the notebook.

Pyodide's kernel (jupyterlite-pyodide-kernel's display hook) publishes an `execute_result` after every
cell whose last line has a value, even when IPython's formatter gave no data, as ipykernel did until
it checked for data. Every magic returns its result (`r = %roll 3d+2; r.total`), which shows itself
(gamekernel.display), so there each magic cell gained an empty output, saved with the notebook: its
strict nbval on a desktop then fails. Here the hook skips a result without data, as ipykernel's does;
installed only in a browser tab's kernel, and taken away on unload.
"""

from __future__ import annotations

from typing import Any

from gamekernel import util

_MARK = "_gamekernel_quiet_empty"


def quiet_empty_results(shell: Any) -> bool:
    """Make the shell's display hook publish nothing for a result without data; True if installed."""
    hook: Any = getattr(shell, "displayhook", None)
    finish = getattr(hook, "finish_displayhook", None)
    if not util.IN_BROWSER or hook is None or finish is None or getattr(hook, _MARK, False):
        return False

    def finish_displayhook() -> None:
        if getattr(hook, "data", None):
            finish()
            return
        hook.data = {}  # what the upstream hook leaves after publishing

    hook.finish_displayhook = finish_displayhook
    setattr(hook, _MARK, True)
    return True


def restore_empty_results(shell: Any) -> None:
    hook = getattr(shell, "displayhook", None)
    if hook is not None and getattr(hook, _MARK, False):
        del hook.finish_displayhook
        delattr(hook, _MARK)
