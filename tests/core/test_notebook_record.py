"""A notebook executed by nbclient keeps what happened (the notebook is the session log): every magic line's output,
each widget action's line under the widget, the widget's snapshot updated in place with its caption,
and, converted by nbconvert with the widget state saved, the snapshot in the page offline."""

from __future__ import annotations

import re

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

CELLS = [
    "%load_ext gamekernel\n%seed 4",
    "%combat npc Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp\n"
    "%combat start Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,pc=1} Goblin*2",
    "w = %combat tracker\nw",
    # two clicks on "next turn", through the widget's message handler as the front end sends them
    "w._on_custom_message(w, {'action': 'next'}, [])\nw._on_custom_message(w, {'action': 'next'}, [])\n"
    "print('EVENT', w.session.log[-1].seq, w.session.combat.state.current.name)",
    "%roll 1d6 later",  # after the last click: not in the tracker's snapshot
]


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """The notebook above, executed by nbclient with the widget state saved (as nbconvert --execute)."""
    folder = tmp_path_factory.mktemp("record")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in CELLS])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    client = nbclient.NotebookClient(notebook, timeout=180, kernel_name="python3", store_widget_state=True,
                                     resources={"metadata": {"path": str(folder)}})
    client.execute()
    path = folder / "record.ipynb"
    nbformat.write(notebook, path)
    return nbformat.read(path, as_version=4)  # what was saved


def _texts(cell) -> list[str]:
    return [o.get("data", {}).get("text/plain", o.get("text", "")) for o in cell.outputs]


def test_both_magic_lines_of_a_cell_are_saved(executed):
    texts = _texts(executed.cells[1])
    assert len(texts) == 2 and "Goblin" in texts[0] and "Aiko" in texts[1]


def test_the_tracker_cell_holds_its_final_snapshot_and_each_action_line(executed):
    event, active = _texts(executed.cells[3])[0].split()[1:3]
    widget, record = executed.cells[2].outputs
    assert "application/vnd.jupyter.widget-view+json" in widget.data
    assert widget.data["text/html"] == ""  # the view's fallback is empty: the one picture is in the record
    assert record.data["text/html"].count('class="gk-widget-snapshot"') == 1
    assert f"state after event {event}<" in record.data["text/html"]  # after the last click, not the later %roll
    assert active == "Goblin2" and "second 1" in widget.data["text/plain"].lower()
    lines = record.data["text/plain"].splitlines()
    assert len(lines) == 2  # one line per click, without another tracker table
    assert "Goblin1" in lines[0] and "Goblin2" in lines[1]  # in order
    assert record.data["text/html"].count('class="gk-widget-action"') == 2


def test_nbconvert_page_shows_the_snapshot_offline_with_widget_state_saved(executed):
    from nbconvert import HTMLExporter

    assert executed.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    page, _ = HTMLExporter().from_notebook_node(executed)
    event = _texts(executed.cells[3])[0].split()[1]
    # the widget view needs its libraries online; the record's picture is in the page, shown by
    # nothing but plain html (no `hidden`, no `<style>` that a sanitizer would strip or print)
    assert 'type="application/vnd.jupyter.widget-view+json"' in page
    record = page[page.index('<div class="gk-widget-record" data-gk-picture="gk-'):]
    assert re.match(r'<div class="gk-widget-record" data-gk-picture="gk-\d+-[0-9a-f]{12}">'
                    r'<div class="gk-widget-snapshot">', record)
    assert f"state after event {event}<" in page and page.count('class="gk-widget-snapshot"') == 1
    assert "<style>.jp-OutputArea-child" not in page


def test_the_record_markup_reads_the_same_through_nbconvert_sanitizer():
    """The record's own markup (wrapper, picture, caption, action lines) uses only tags nbconvert's
    `--sanitize-html` keeps: nothing of it is printed as escaped text there (a `<style>` or a `<small>` was)."""
    from nbconvert.filters.strings import clean_html

    from gamekernel.widgets.record import ActionRecord

    record = ActionRecord()
    record.add("Aiko attacks")
    html = record.bundle("<b>sheet</b>", 3)["text/html"]
    cleaned = clean_html(html)
    assert "&lt;" not in cleaned, cleaned
    assert "state after event 3" in cleaned and "Aiko attacks" in cleaned and "<style" not in html
