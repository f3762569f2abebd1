"""The examples as a zero-install site, in a real Chromium: built from the registries only
(`python -m gamekernel lite build`), served on 127.0.0.1 by the small static server, every example
run in the browser's Python (Pyodide). Each code cell shows the same outputs as saved on a desktop
(text and html), one click per widget kind answers, and no request leaves the site.

The build's inputs (jupyterlite-core, the npm client, Chromium) may be missing on a developer's
machine: the test skips then, unless GAMEKERNEL_REQUIRE_LITE is set, so a run that means to check
the site cannot pass by skipping; `.ci/run` runs it after `make test`.
The inputs are cached (GAMEKERNEL_LITE_CACHE, `make test-lite`: the venv folder).
Timings go to test-artifacts/lite-smoke.json.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "example_notebooks").glob("*.ipynb"))
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--disable-dev-shm-usage"]
ARTIFACTS = ROOT / "test-artifacts"
DEMO_ENTROPY = f"{0x36:032x}"  # as example_notebooks/conftest.py sets it for nbval
TIMINGS: dict[str, dict[str, float]] = {}

KERNEL_IDLE = """() => { const w = window.jupyterapp?.shell.currentWidget;
    return !!w?.sessionContext?.session?.kernel && w.sessionContext.kernelDisplayStatus === 'idle'; }"""
ALL_RAN = """() => { const w = window.jupyterapp.shell.currentWidget;
    const cells = [...w.content.model.cells].filter(c => c.type === 'code');
    return w.sessionContext.kernelDisplayStatus === 'idle' && cells.every(c => c.executionCount !== null); }"""

# One click per widget kind, in the example that shows it: what to click, and what must differ after
# (read before and after by the same expression).
CLICKS = {
    "02-gurps-characters-and-checks.ipynb": [
        ("sheet", ".gk-sheet .gk-skill .gk-skill-name", "document.querySelectorAll('.gk-widget-action').length")],
    "03-gurps-combat.ipynb": [  # its fight has ended by the last cell: a new one, in a cell added after them
        ("tracker", ".gk-tracker-widget .gk-next",
         "document.querySelector('.gk-tracker-widget .gk-combatant.gk-active')?.dataset.name")],
    "04-gamma-world-alpha-mutations.ipynb": [  # a tap, or its refusal in one line: either answers
        ("hand", ".gk-hand-widget .gk-card:not(.gk-card-tapped)",
         "[...document.querySelectorAll('.gk-hand-widget')].map(n => n.innerText).join('|')")],
    "05-mtg-action-checks.ipynb": [
        ("library", ".gk-library .gk-lib-check", "document.querySelector('.gk-library .gk-lib-target')?.textContent")],
    "07-teaching-the-rules.ipynb": [
        ("explorer", ".gk-explore .gk-x-control input[type=checkbox]",
         "document.querySelector('.gk-explore .gk-x-summary')?.textContent"),
        ("quiz", ".gk-quiz .gk-q button.gk-q-choice:not([disabled])",  # a question the notebook left open
         "document.querySelectorAll('.gk-quiz .gk-q-right, .gk-quiz .gk-q-wrong').length")],
}


ADDED_CELL = {"03-gurps-combat.ipynb": "%combat npc Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp\n"
                                         "%combat start Kai{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,pc=1} "
                                         "Goblin*2\n%combat tracker"}
RUN_ADDED = """(source) => { const w = window.jupyterapp.shell.currentWidget; const at = w.content.model.cells.length;
    w.content.model.sharedModel.insertCell(at, {cell_type: 'code', source}); w.content.activeCellIndex = at;
    return window.jupyterapp.commands.execute('notebook:run-cell').then(() => true); }"""


PYC_USED = """import importlib.util, gamekernel.magics, IPython.core.interactiveshell as shell
for module in (gamekernel.magics, shell):
    with open(module.__cached__, "rb") as cached:
        head = cached.read(8)
    assert head[:4] == importlib.util.MAGIC_NUMBER and head[4:8] == bytes([1, 0, 0, 0]), (module, head)
"""


def _missing_inputs() -> str | None:
    if importlib.util.find_spec("jupyterlite_core") is None:
        return "jupyterlite-core is not installed (pip install -e '.[lite]')"
    if shutil.which("npm") is None:
        return "npm is not installed (the Pyodide core comes from the npm package)"
    if not Path(CHROMIUM).exists():
        return "Chromium is not installed (apt-get install -y chromium)"
    return None


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    missing = _missing_inputs()
    if missing:
        if os.environ.get("GAMEKERNEL_REQUIRE_LITE"):
            pytest.fail(f"the site's smoke test is required here (GAMEKERNEL_REQUIRE_LITE) but {missing}")
        pytest.skip(missing)
    output = tmp_path_factory.mktemp("lite") / "site"
    cache = Path(os.environ.get("GAMEKERNEL_LITE_CACHE", ROOT / ".lite-cache"))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "gamekernel", "lite", "build", *map(str, EXAMPLES),
                           "--output", str(output), "--cache", str(cache)],
                          cwd=ROOT, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]
    TIMINGS["build"] = {"seconds": round(time.monotonic() - started, 1)}
    return output


@pytest.fixture(scope="module")
def served(site):
    from gamekernel.tools.lite_serve import serve

    server = serve(site)
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "lite-smoke.json").write_text(json.dumps(TIMINGS, indent=1) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def browser(served):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _outputs(cell: dict) -> list[tuple[str, ...]]:
    """A code cell's outputs as compared: kind, then text and html (or stream name and text, error)."""
    shown: list[tuple[str, ...]] = []
    for output in cell.get("outputs", ()):
        kind = output["output_type"]
        if kind == "stream":
            shown.append((kind, output["name"], "".join(output["text"])))
        elif kind == "error":
            shown.append((kind, output["ename"], output["evalue"]))
        else:
            data = output.get("data", {})
            shown.append((kind, "".join(data.get("text/plain", "")), "".join(data.get("text/html", "")),
                          "widget" if "application/vnd.jupyter.widget-view+json" in data else ""))
    return shown


def _code_cells(notebook: dict) -> list[tuple[str, list]]:
    return [("".join(c["source"]), _outputs(c)) for c in notebook["cells"] if c["cell_type"] == "code"]


def test_the_site_serves_pyodide_s_files_with_the_types_browsers_require(served):
    import urllib.request

    for path, kind in (("static/pyodide/pyodide.mjs", "text/javascript"),
                       ("static/pyodide/pyodide.asm.wasm", "application/wasm")):
        with urllib.request.urlopen(f"{served}/{path}") as response:
            assert response.headers["Content-Type"] == kind, path


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name[:2] for p in EXAMPLES])
def test_every_example_runs_in_the_browser_as_on_the_desktop(browser, served, path):
    off_site: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # a cold browser each time

    def route(request_route):
        url = request_route.request.url
        if url.startswith((served + "/", "data:", "blob:")):
            request_route.continue_()
        else:
            off_site.append(url)
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.set_default_timeout(240_000)
    started = time.monotonic()
    page.goto(f"{served}/lab/index.html?path={path.name}")
    page.wait_for_function(KERNEL_IDLE)
    opened = time.monotonic() - started
    page.evaluate("""(code) => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel
        .requestExecute({code, silent: true, store_history: false}).done.then(() => true)""",
                  f"import os; os.environ['GAMEKERNEL_SECRET_ENTROPY'] = '{DEMO_ENTROPY}'")
    # the site's wheels carry the browser Python's bytecode (gamekernel.tools.lite_bytecode): an
    # unchecked-hash pyc (PEP 552 flags 1), not one the browser compiled (flags 0) nor none
    status = page.evaluate("""(code) => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel
        .requestExecute({code, silent: true, store_history: false}).done.then(r => r.content.status)""", PYC_USED)
    assert status == "ok", "the site's modules were not loaded from the bytecode it carries"
    page.evaluate("window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    started = time.monotonic()
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(ALL_RAN)
    ran = time.monotonic() - started
    notebook = page.evaluate("window.jupyterapp.shell.currentWidget.content.model.toJSON()")
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert notebook["metadata"]["language_info"]["name"] == "python"
    got, want = _code_cells(notebook), _code_cells(saved)
    assert len(got) == len(want)
    pairs = enumerate(zip(got, want, strict=True))
    differ = [(i, source[:60], mine, theirs) for i, ((source, mine), (_, theirs)) in pairs if mine != theirs]
    assert not differ, differ[:3]

    timing = {"open_s": round(opened, 1), "run_all_s": round(ran, 1), "cells": len(got)}
    if path.name in ADDED_CELL:
        page.evaluate(RUN_ADDED, ADDED_CELL[path.name])
    for kind, selector, reading in CLICKS.get(path.name, ()):
        before = page.evaluate(f"() => {reading}")
        page.locator(selector).first.scroll_into_view_if_needed(timeout=60_000)
        clicked = time.monotonic()
        page.locator(selector).first.click(timeout=30_000)
        page.wait_for_function(f"(before) => ({reading}) !== before", arg=before, timeout=30_000)
        timing[f"click_{kind}_s"] = round(time.monotonic() - clicked, 2)
    TIMINGS[path.name] = timing
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"lite-{path.name[:2]}.png"))
    context.close()
    assert off_site == []


def test_the_bytecode_is_the_browser_python_s_and_a_rebuild_writes_the_same_bytes(site, tmp_path):
    """Every module of a wheel gains one unchecked-hash pyc beside it; compiled again from the same
    wheel, the bytes are the same (a site rebuilt from the same pins is the same site)."""
    import shutil
    import zipfile

    from gamekernel.tools.lite_bytecode import precompile

    pyodide = site / "static" / "pyodide"
    source = next(pyodide.glob("decorator-*.whl"))
    with zipfile.ZipFile(source) as wheel:
        names = wheel.namelist()
    modules = [n for n in names if n.endswith(".py") and ".dist-info/" not in n]
    pycs = [n for n in names if n.endswith(".pyc")]
    assert modules and len(pycs) == len(modules)  # the site's copy: one pyc per module
    plain = tmp_path / "plain"
    plain.mkdir()
    with zipfile.ZipFile(source) as wheel, zipfile.ZipFile(plain / source.name, "w") as copy:
        for info in wheel.infolist():
            if not info.filename.endswith(".pyc"):
                copy.writestr(info, wheel.read(info))
    twice = tmp_path / "twice"
    twice.mkdir()
    shutil.copy2(plain / source.name, twice / source.name)
    assert precompile(pyodide, [plain / source.name]) == {source.name: len(modules)}
    assert precompile(pyodide, [twice / source.name]) == {source.name: len(modules)}
    assert (plain / source.name).read_bytes() == (twice / source.name).read_bytes()
    assert precompile(pyodide, [plain / source.name]) == {source.name: 0}  # compiled once only
