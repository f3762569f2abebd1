"""The GM's server drops gamekernel's unsaved widget views' widget data on save (gamekernel/remote/saved_views.py),
so a reopened trusted notebook shows each widget's saved picture alone (no "model not found")."""

from __future__ import annotations

import copy

from gamekernel.remote.saved_views import VIEW, pre_save_hook, unsaved_views_dropped

RECORD_HTML = '<div class="gk-widget-record" data-gk-picture="gk-1-0123456789ab"><div class="gk-widget-snapshot">x'


def view(model_id: str) -> dict:
    return {"output_type": "display_data", "metadata": {},
            "data": {VIEW: {"model_id": model_id, "version_major": 2, "version_minor": 0},
                     "text/plain": "<SheetWidget Aiko>", "text/html": ""}}


def record(html: str = RECORD_HTML) -> dict:
    return {"output_type": "display_data", "metadata": {}, "data": {"text/plain": "", "text/html": [html]}}


def notebook(*cells: list[dict], state: dict | None = None) -> dict:
    metadata = {"widgets": {"application/vnd.jupyter.widget-state+json": {"state": state, "version_major": 2}}} \
        if state is not None else {}
    return {"cells": [{"cell_type": "code", "source": "", "metadata": {}, "outputs": outputs} for outputs in cells],
            "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def ids(nb: dict) -> list[str]:
    """Each view's model id, "" where its widget data was dropped (its text and empty html stay)."""
    return [o["data"][VIEW]["model_id"] if VIEW in o["data"] else "" for c in nb["cells"] for o in c["outputs"]
            if o["data"].get("text/plain", "").startswith("<")]


def test_a_gamekernel_view_without_saved_state_keeps_only_its_text_and_empty_html():
    nb = notebook([view("a"), record()], [view("b"), record(), view("c"), record()])
    assert unsaved_views_dropped(nb) == 3
    assert ids(nb) == ["", "", ""]
    assert nb["cells"][0]["outputs"][0]["data"] == {"text/plain": "<SheetWidget Aiko>", "text/html": ""}
    assert unsaved_views_dropped(nb) == 0  # once: a second save changes nothing


def test_a_view_whose_model_is_saved_with_the_notebook_is_kept():
    """With "Save Widget State Automatically" on, the view draws from the saved state."""
    nb = notebook([view("a"), record()], [view("b"), record()], state={"a": {"model_name": "AnyModel"}})
    assert unsaved_views_dropped(nb) == 1
    assert ids(nb) == ["a", ""]


def test_another_library_s_widget_and_a_view_with_nothing_after_it_are_left_alone():
    slider = notebook([view("s"), record("<b>not ours</b>")], [view("t")], [record(), view("u")])
    before = copy.deepcopy(slider)
    assert unsaved_views_dropped(slider) == 0
    assert slider == before


def test_the_hook_changes_notebooks_only():
    nb = notebook([view("a"), record()])
    pre_save_hook(model={"type": "file", "content": nb}, path="x.txt")
    assert ids(nb) == ["a"]
    pre_save_hook(model={"type": "notebook", "content": nb}, path="x.ipynb", contents_manager=None)
    assert ids(nb) == [""]
