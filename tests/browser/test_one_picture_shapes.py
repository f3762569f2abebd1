"""One picture in every front end's output DOM: a drawn view hides its widget's saved picture by a rule
keyed on the widget's own picture id (widgets/common.js `withPicture`), never on a host's classes.

Static pages reproduce how three front ends lay out a widget cell's two outputs (the view, then the
record with the saved picture): JupyterLab's and Notebook 7's output areas (`.jp-OutputArea-child`
siblings), and VS Code's notebook webview (each output a sibling `div.output` in one document, no
JupyterLab class at all). Each page holds two widget cells with the records the example notebook
saved: one whose view draws (rendered by the real front-end module's `withPicture` with a stand-in
model) and one whose view cannot ("model not found"). Exactly the undrawn cell's picture must show;
when the drawn view is removed, its picture shows again.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]

# {view} is the drawn view's mount point (or the host's error text), {record} the saved record's html
JUPYTERLAB_CELL = """<div class="jp-Cell jp-CodeCell"><div class="jp-Cell-outputWrapper"><div class="jp-OutputArea">
  <div class="jp-OutputArea-child"><div class="jp-OutputPrompt jp-OutputArea-prompt"></div>
    <div class="lm-Widget jp-OutputArea-output"
         data-mime-type="application/vnd.jupyter.widget-view+json">{view}</div></div>
  <div class="jp-OutputArea-child"><div class="jp-OutputPrompt jp-OutputArea-prompt"></div>
    <div class="lm-Widget jp-RenderedHTMLCommon jp-RenderedHTML jp-OutputArea-output"
         data-mime-type="text/html">{record}</div>
  </div></div></div></div>"""
SHAPES = {
    "jupyterlab": ('<main class="jp-LabShell"><div class="jp-NotebookPanel"><div class="jp-Notebook">{cells}'
                   "</div></div></main>", JUPYTERLAB_CELL),
    "notebook7": ('<div id="main"><div class="jp-NotebookPanel jp-Notebook-ExecutionIndicator">'
                  '<div class="jp-WindowedPanel-outer"><div class="jp-Notebook jp-mod-scrollPastEnd">{cells}'
                  "</div></div></div></div>", JUPYTERLAB_CELL),
    "vscode": ('<div id="container">{cells}</div>',
               """<div class="cell_container"><div class="output_container">
  <div class="output" style="position: absolute; top: 0px">
    <div class="cell-output-ipywidget-background">{view}</div></div>
  <div class="output" style="position: relative"><div class="output_html">{record}</div></div>
</div></div>"""),
}
NOT_FOUND = "Error displaying widget: model not found"


def saved_records(name: str = "02-gurps-characters-and-checks.ipynb") -> list[tuple[str, str]]:
    """(picture id, record html) of each widget the example saved."""
    notebook = json.loads((ROOT / "example_notebooks" / name).read_text(encoding="utf-8"))
    found = []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", ()):
            html = "".join(output.get("data", {}).get("text/html", ""))
            match = re.search(r'class="gk-widget-record" data-gk-picture="([a-z0-9-]+)"', html)
            if match:
                found.append((match.group(1), html))
    return found


@pytest.fixture
def chromium(lab):
    """The browser of the session's JupyterLab (one Playwright per process: tests/browser/conftest.py)."""
    return lab.browser


VISIBLE_PICTURES = """() => [...document.querySelectorAll('.gk-widget-snapshot')]
    .filter(n => n.getClientRects().length > 0).map(n => n.closest('.gk-widget-record').dataset.gkPicture)"""
DRAW = """async ([id, mount]) => {
    const model = { get: (name) => (name === 'picture' ? id : ''), on: () => {} };
    const widget = withPicture({ render: ({ el }) => { el.append(Object.assign(document.createElement('div'),
        { className: 'gk-widget gk-sheet', textContent: 'live view' })); } });
    const el = document.getElementById(mount);
    window.gkCleanup = await widget.render({ model, el });
}"""


def test_the_example_saves_a_picture_id_on_every_record():
    records = saved_records()
    assert len(records) >= 1 and all(re.fullmatch(r"gk-\d+-[0-9a-f]{12}", picture) for picture, _ in records)
    assert len({picture for picture, _ in records}) == len(records)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_drawn_view_hides_its_own_saved_picture_in_every_front_end_s_dom(chromium, tmp_path, shape):
    (drawn, drawn_html), *_ = saved_records()
    other, other_html = "gk-9-0123456789ab", drawn_html.replace(drawn, "gk-9-0123456789ab")
    page_template, cell = SHAPES[shape]
    cells = (cell.format(view='<div id="mount"></div>', record=drawn_html)
             + cell.format(view=f"<div>{NOT_FOUND}</div>", record=other_html))
    assert shape != "vscode" or "class=\"jp-" not in cells  # VS Code: not one of JupyterLab's classes
    path = tmp_path / f"{shape}.html"
    path.write_text(f"<!doctype html><html><head><meta charset='utf-8'></head><body>"
                    f"{page_template.format(cells=cells)}</body></html>", encoding="utf-8")
    page = chromium.new_page()
    page.goto(path.as_uri())
    page.add_script_tag(content=(ROOT / "widgets" / "common.js").read_text(encoding="utf-8"))
    assert page.evaluate(VISIBLE_PICTURES) == [drawn, other]  # nothing drawn yet: both pictures show
    page.evaluate(DRAW, [drawn, "mount"])
    assert page.get_by_text("live view").is_visible()
    assert page.evaluate(VISIBLE_PICTURES) == [other]  # one picture per cell: the view, or the saved one
    page.evaluate("window.gkCleanup()")  # the view is removed (its output re-displayed, the kernel gone)
    assert page.evaluate(VISIBLE_PICTURES) == [drawn, other]
    page.close()


def test_a_view_with_no_picture_id_hides_nothing(chromium, tmp_path):
    """A widget of an older gamekernel (no id) or a hostile id: no rule, both pictures stay."""
    (drawn, drawn_html), *_ = saved_records()
    page_template, cell = SHAPES["vscode"]
    path = tmp_path / "page.html"
    path.write_text("<!doctype html><body>" + page_template.format(
        cells=cell.format(view='<div id="mount"></div>', record=drawn_html)) + "</body>", encoding="utf-8")
    page = chromium.new_page()
    page.goto(path.as_uri())
    page.add_script_tag(content=(ROOT / "widgets" / "common.js").read_text(encoding="utf-8"))
    for bad in ("", '"] , * { display: none } [x="'):
        page.evaluate(DRAW, [bad, "mount"])
        assert page.evaluate(VISIBLE_PICTURES) == [drawn]
    page.close()
