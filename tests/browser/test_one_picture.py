"""One picture per widget cell in every viewer, in a real Chromium, on the example notebooks as
they are saved in git (without widget state): 04 has two `%hand Rin` widgets, 07 explorers and
quizzes. A picture is a live view or a visible "state after event N" caption (every saved snapshot
has one; counting captions by their words also works where a sanitizer stripped every class).

Viewers: nbconvert's page sanitized and not, from the notebook as saved and executed again with its
widget state (offline: the view draws nothing); a GitHub-like sanitizer (its allow-list: no
`class`, `style`, `id`, `hidden` or `<style>`, and no widget JavaScript); JupyterLab live, then
reopened trusted by its GM with a kernel and without one; JupyterLab and Notebook 7 opened
untrusted from disk. Voila (04 and 07) is in test_voila.py. The viewers without a server are
checked on every example with a widget (02-05, 07), the others on 04 and 07."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "example_notebooks"
NOTEBOOKS = ("04-gamma-world-alpha-mutations.ipynb", "07-teaching-the-rules.ipynb")
# every example with a widget, for the viewers without a server (the pages are cheap to make)
STATIC = ("02-gurps-characters-and-checks.ipynb", "03-gurps-combat.ipynb", *NOTEBOOKS, "05-mtg-action-checks.ipynb")
_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

# A view our front end drew: a lumino widget of an output, not rendered html, holding our elements.
LIVE = '.jp-OutputArea-output > .lm-Widget:not(.jp-RenderedHTMLCommon):is([class*="gk-"], :has([class*="gk-"]))'
# Per cell of the page: its visible captions plus its live views.
PICTURES = """(pattern) => [...document.querySelectorAll('.jp-Cell')].map(cell => {
    const outputs = cell.querySelector('.jp-OutputArea');
    if (!outputs) return 0;
    const captions = (outputs.innerText.match(new RegExp(pattern, 'g')) || []).length;
    const live = [...outputs.querySelectorAll(LIVE)].filter(n => n.getClientRects().length > 0).length;
    return captions + live;
})""".replace("LIVE", json.dumps(LIVE))
_SAME = f"({PICTURES})(pattern).filter(n => n > 0).join(',') === expected"

# html-pipeline's sanitization allow-list, which GitHub's Markdown uses (github/markup#245):
# no class, style, id or hidden; elements off the list are dropped, their text kept.
GITHUB_TAGS = frozenset((
    "h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "br", "b", "i", "strong", "em", "a", "pre", "code", "img", "tt",
    "div", "ins", "del", "sup", "sub", "p", "ol", "ul", "table", "thead", "tbody", "tfoot", "blockquote", "dl", "dt",
    "dd", "kbd", "q", "samp", "var", "hr", "ruby", "rt", "rp", "li", "tr", "td", "th", "s", "strike", "summary",
    "details", "caption", "figure", "figcaption", "abbr", "bdo", "cite", "dfn", "mark", "small", "span", "time", "wbr"))
GITHUB_ATTRIBUTES = {"a": ["href"], "img": ["src", "longdesc"], "*": [
    "abbr", "align", "alt", "aria-hidden", "aria-label", "border", "colspan", "dir", "height", "lang",
    "open", "role", "rowspan", "scope", "summary", "title", "width"]}


def caption_pattern() -> str:
    """The caption in every catalog's words, as a JavaScript regular expression."""
    templates = [json.loads((ROOT / "gamekernel" / "i18n" / lang / "core.json").read_text(encoding="utf-8"))
                 ["core.widget.after_event"] for lang in ("en", "ja")]
    return "|".join(re.sub(r"[.*+?^${}()|[\]\\]", r"\\\g<0>", t).replace(r"\{event\}", r"\d+") for t in templates)


def widget_cells(notebook) -> list[int]:
    """How many widget views each cell that has any saved, in order: what every viewer must show."""
    counts = [sum(_WIDGET_VIEW in o.get("data", {}) for o in cell.get("outputs", ())) for cell in notebook["cells"]]
    return [n for n in counts if n]


def _expected(notebook) -> str:
    return ",".join(map(str, widget_cells(notebook)))


def wait_for_one_picture_each(page, notebook, *, timeout_ms: int = 90_000) -> list[int]:
    """Wait until the page shows exactly the notebook's widget pictures, one per widget view; on a
    timeout the assertion names what each cell showed."""
    expected, pattern = _expected(notebook), caption_pattern()
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with contextlib.suppress(PlaywrightTimeout):  # the assertion below reports the counts instead
        page.wait_for_function(f"({{pattern, expected}}) => {_SAME}", arg={"pattern": pattern, "expected": expected},
                               timeout=timeout_ms)
    counts = page.evaluate(PICTURES, pattern)
    assert [n for n in counts if n] == widget_cells(notebook), (expected, counts)
    return counts


def _read(name: str):
    import nbformat

    return nbformat.read(EXAMPLES / name, as_version=4)


def _executed_with_state(name: str, folder: Path):
    """The example run again by nbclient, which saves its widget state (the view then draws nothing offline)."""
    import nbclient

    notebook = _read(name)
    for item in ("brannoc.gcs", "mira.txt", "mira-ja.txt"):
        shutil.copy(EXAMPLES / item, folder / item)
    seed = os.environ.pop("GAMEKERNEL_SEED", None)
    try:
        nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3", store_widget_state=True,
                                resources={"metadata": {"path": str(folder)}}).execute()
    finally:
        if seed is not None:
            os.environ["GAMEKERNEL_SEED"] = seed
    assert notebook.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    return notebook


@pytest.fixture(scope="module")
def with_state(tmp_path_factory):
    folder = tmp_path_factory.mktemp("with-state")
    return {name: _executed_with_state(name, folder) for name in STATIC}


def github_like(notebook):
    """What a GitHub-like viewer keeps: no widget view (it runs no widget JavaScript), each html output
    cleaned by the allow-list above, `<style>` and `<script>` removed with their text."""
    import bleach

    notebook = json.loads(json.dumps(notebook))
    for cell in notebook["cells"]:
        for output in cell.get("outputs", ()):
            data = output.get("data", {})
            data.pop(_WIDGET_VIEW, None)
            if "text/html" in data:
                html = "".join(data["text/html"])
                html = re.sub(r"<(style|script)\b.*?</\1>", "", html, flags=re.S | re.I)
                data["text/html"] = bleach.clean(html, tags=GITHUB_TAGS, attributes=GITHUB_ATTRIBUTES, strip=True)
    notebook["metadata"].pop("widgets", None)
    return notebook


def _static_page(lab, notebook, path: Path, *, sanitize: bool):
    import nbformat
    from nbconvert import HTMLExporter

    page_html, _ = HTMLExporter(sanitize_html=sanitize).from_notebook_node(nbformat.from_dict(notebook))
    path.write_text(page_html, encoding="utf-8")
    page = lab.browser.new_page(viewport={"width": 1280, "height": 900})
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
    page.goto(path.as_uri())
    return page


@pytest.mark.parametrize("sanitize", [True, False], ids=["sanitized", "unsanitized"])
@pytest.mark.parametrize("name", STATIC)
def test_nbconvert_page_of_the_example_as_saved_shows_one_picture_per_widget_cell(lab, tmp_path, name, sanitize):
    notebook = _read(name)
    assert "widgets" not in notebook.metadata  # as saved in git: nbconvert shows each view's text/html
    page = _static_page(lab, notebook, tmp_path / "page.html", sanitize=sanitize)
    wait_for_one_picture_each(page, notebook, timeout_ms=5_000)
    lab.screenshot(page, f"one-picture-nbconvert-{'sanitized' if sanitize else 'plain'}-{name[:2]}.png")
    page.close()


@pytest.mark.parametrize("sanitize", [True, False], ids=["sanitized", "unsanitized"])
@pytest.mark.parametrize("name", STATIC)
def test_nbconvert_page_with_widget_state_shows_one_picture_per_widget_cell(lab, tmp_path, with_state, name, sanitize):
    notebook = with_state[name]
    page = _static_page(lab, notebook, tmp_path / "page.html", sanitize=sanitize)
    wait_for_one_picture_each(page, notebook, timeout_ms=5_000)
    page.close()


@pytest.mark.parametrize("name", STATIC)
def test_a_github_like_sanitizer_shows_one_picture_per_widget_cell(lab, tmp_path, name):
    notebook = _read(name)
    cleaned = github_like(notebook)
    assert "class=" not in "".join("".join(o.get("data", {}).get("text/html", ""))
                                   for c in cleaned["cells"] for o in c.get("outputs", ()))
    page = _static_page(lab, cleaned, tmp_path / "page.html", sanitize=False)
    wait_for_one_picture_each(page, notebook, timeout_ms=5_000)
    lab.screenshot(page, f"one-picture-github-like-{name[:2]}.png")
    page.close()


def _copy_into(lab, name: str, as_name: str) -> None:
    shutil.copy(EXAMPLES / name, lab.root / as_name)  # unsigned: it opens untrusted
    for item in ("brannoc.gcs", "mira.txt", "mira-ja.txt"):
        shutil.copy(EXAMPLES / item, lab.root / item)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_untrusted_example_in_jupyterlab_and_notebook_7_shows_one_picture_per_widget_cell(lab, name):
    as_name = f"untrusted-{name}"
    _copy_into(lab, name, as_name)
    notebook = _read(name)
    for url, stem in ((f"{lab.base}/lab/tree/{as_name}?token={lab.token}&reset", "lab"),
                      (f"{lab.base}/notebooks/{as_name}?token={lab.token}", "nb7")):
        page = lab.browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url)
        page.locator(".jp-Cell").first.wait_for(timeout=60_000)
        wait_for_one_picture_each(page, notebook)
        lab.screenshot(page, f"one-picture-untrusted-{stem}-{name[:2]}.png")
        page.close()
    _shut_down_kernels(lab)


HOST_WORDS = ("model not found", "Loading widget")  # what the host draws for a view it cannot draw


def _no_host_words(page) -> None:
    """Nothing of the host's own words for an undrawn view is visible (it hid those outputs)."""
    for words in HOST_WORDS:
        shown = [n for n in page.get_by_text(words).all() if n.is_visible()]
        assert not shown, f"{words!r} shown {len(shown)} times"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_example_run_live_then_reopened_trusted_by_its_gm_shows_the_saved_picture_alone(lab, name):
    """The GM saves the notebook live, then reopens it (trusted: their server signed it), with a kernel
    and without one: each widget's saved picture alone, never "model not found" nor an endless
    "Loading widget..." (the GM's server drops the unsaved views: gamekernel/remote/saved_views.py)."""
    import subprocess
    import sys

    import nbformat

    as_name = f"live-{name}"
    _copy_into(lab, name, as_name)
    notebook = _read(name)
    page = lab.browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(120_000)
    page.goto(f"{lab.base}/lab/tree/{as_name}?token={lab.token}&reset")
    page.wait_for_function("""() => { const w = window.jupyterapp?.shell.currentWidget;
        return w?.sessionContext?.session?.kernel && w.sessionContext.kernelDisplayStatus === 'idle'; }""")
    page.evaluate("window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    live = page.locator(LIVE)
    live.nth(sum(widget_cells(notebook)) - 1).wait_for()  # every view drawn live
    wait_for_one_picture_each(page, notebook)
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget.sessionContext.kernelDisplayStatus === 'idle'")
    page.evaluate("window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty")
    assert page.locator(LIVE).count() == sum(widget_cells(notebook))  # saving leaves the live views drawn
    lab.screenshot(page, f"one-picture-live-{name[:2]}.png")
    lab.close_page(page)  # the kernel is shut down: its widget models are gone

    saved = nbformat.read(lab.root / as_name, as_version=4)
    assert widget_cells(saved) == []  # the GM's server dropped the views' widget data: the pictures remain
    assert "".join(json.dumps(c.get("outputs", [])) for c in saved.cells).count("gk-widget-record") == sum(
        widget_cells(notebook))

    page = lab.browser.new_page(viewport={"width": 1280, "height": 900})  # with a (new) kernel
    page.goto(f"{lab.base}/lab/tree/{as_name}?token={lab.token}&reset")
    page.wait_for_function("""() => { const w = window.jupyterapp?.shell.currentWidget;
        return w?.sessionContext?.session?.kernel && w.sessionContext.kernelDisplayStatus === 'idle'; }""",
                           timeout=120_000)
    wait_for_one_picture_each(page, notebook)
    page.wait_for_timeout(1_500)  # a host's words would have replaced "Loading" by now
    _no_host_words(page)
    lab.screenshot(page, f"one-picture-reopened-{name[:2]}.png")
    page.close()
    _shut_down_kernels(lab)

    # without a kernel: the same file naming a kernel and a language this server lacks, signed as the
    # GM's own (`jupyter trust`, the server's notary), opened with "No Kernel"
    bare = f"nokernel-{name}"
    saved.metadata["kernelspec"] = {"name": "gamekernel-no-such-kernel", "display_name": "none", "language": "none"}
    saved.metadata.pop("language_info", None)  # else JupyterLab starts python3 for it
    nbformat.write(saved, lab.root / bare)
    subprocess.run([sys.executable, "-m", "nbformat.sign", str(lab.root / bare)], check=True, capture_output=True)
    page = lab.browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{lab.base}/lab/tree/{bare}?token={lab.token}&reset")
    page.locator("button.jp-Dialog-button", has_text="No Kernel").click(timeout=60_000)
    wait_for_one_picture_each(page, notebook)
    page.wait_for_timeout(1_500)
    assert page.evaluate("() => !window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel")
    _no_host_words(page)
    lab.screenshot(page, f"one-picture-reopened-nokernel-{name[:2]}.png")
    page.close()


def _shut_down_kernels(lab) -> None:
    """End the kernels the pages above started (the machine's cores are shared)."""
    import urllib.request

    for kernel in json.loads(urllib.request.urlopen(f"{lab.base}/api/kernels?token={lab.token}").read()):
        request = urllib.request.Request(f"{lab.base}/api/kernels/{kernel['id']}?token={lab.token}", method="DELETE")
        urllib.request.urlopen(request).close()
