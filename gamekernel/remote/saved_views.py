"""A saved notebook's widget views whose models are not saved with it: marked removed, so that the GM
reopening their own (trusted) notebook sees each widget's saved picture alone.

JupyterLab and Notebook 7 try to draw every widget view of a trusted notebook: a view whose model
is neither in the new kernel nor in the notebook's saved widget state shows "Error displaying widget:
model not found" (with a kernel) or "Loading widget..." for ever (without one), above the picture the
record below it saved (gamekernel/widgets/record.py). ipywidgets' own mark for a view that was
removed is an empty `model_id` (its renderer then hides the output): the GM's server writes that
mark on save, on gamekernel's views only (a view whose next output is a gamekernel record), and only
where the model is not saved in the notebook (with "Save Widget State Automatically" on, the view
still draws from the saved state). The notebook open in the browser keeps its live views; the file
on disk reads the same in every viewer. A pre-save hook of the GM's Jupyter server (server.py)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"
RECORD = 'class="gk-widget-record"'


def _html(output: Any) -> str:
    html = (output.get("data") or {}).get("text/html", "")
    return "".join(html) if isinstance(html, list) else str(html)


def unsaved_views_marked_removed(notebook: Any) -> int:
    """Mark gamekernel's views whose model is not in the saved widget state; how many were marked."""
    widgets = (notebook.get("metadata") or {}).get("widgets") or {}
    saved = set((widgets.get(STATE) or {}).get("state") or {})
    marked = 0
    for cell in notebook.get("cells") or ():
        outputs = cell.get("outputs") or []
        for output, following in pairwise(outputs):
            view = (output.get("data") or {}).get(VIEW)
            if not isinstance(view, dict) or not view.get("model_id") or view["model_id"] in saved:
                continue
            if RECORD in _html(following):
                view["model_id"] = ""
                marked += 1
    return marked


def pre_save_hook(model: dict[str, Any], **kwargs: Any) -> None:
    """jupyter_server's pre-save hook: a notebook's content is changed in place before it is written."""
    if model.get("type") == "notebook" and isinstance(model.get("content"), dict):
        unsaved_views_marked_removed(model["content"])
