"""A saved notebook's widget views whose models are not saved with it: left out of the file, so that
the GM reopening their own (trusted) notebook sees each widget's saved picture alone.

JupyterLab and Notebook 7 try to draw every widget view of a trusted notebook: a view whose model
is neither in the new kernel nor in the notebook's saved widget state shows "Error displaying widget:
model not found" (with a kernel) or "Loading widget..." for ever (without one), above the picture the
record below it saved (gamekernel/widgets/record.py). ipywidgets' own mark for a removed view (an
empty `model_id`) is not enough: without a kernel its renderer never gets that far. So on save the
GM's server drops the view's widget data from the file, leaving its text and its empty html, as a
viewer without widgets sees it; on gamekernel's views only (a view whose next output is a gamekernel
record), and only where the model is not saved in the notebook (with "Save Widget State
Automatically" on, the view still draws from the saved state). The notebook open in the browser keeps
its live views. A pre-save hook of the GM's Jupyter server (server.py)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"
RECORD = 'class="gk-widget-record"'


def _html(output: Any) -> str:
    html = (output.get("data") or {}).get("text/html", "")
    return "".join(html) if isinstance(html, list) else str(html)


def unsaved_views_dropped(notebook: Any) -> int:
    """Drop the widget data of gamekernel's views whose model is not in the saved widget state; how many."""
    widgets = (notebook.get("metadata") or {}).get("widgets") or {}
    saved = set((widgets.get(STATE) or {}).get("state") or {})
    dropped = 0
    for cell in notebook.get("cells") or ():
        outputs = cell.get("outputs") or []
        for output, following in pairwise(outputs):
            view = (output.get("data") or {}).get(VIEW)
            if not isinstance(view, dict) or not view.get("model_id") or view["model_id"] in saved:
                continue
            if RECORD in _html(following):
                del output["data"][VIEW]
                dropped += 1
    return dropped


def pre_save_hook(model: dict[str, Any], **kwargs: Any) -> None:
    """jupyter_server's pre-save hook: a notebook's content is changed in place before it is written."""
    if model.get("type") == "notebook" and isinstance(model.get("content"), dict):
        unsaved_views_dropped(model["content"])
