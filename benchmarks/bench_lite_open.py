"""A lesson from a link: opening an example on the zero-install site against desktop JupyterLab.

The site (`python -m gamekernel lite build`, inputs cached in the venv as `make lite` caches them)
and a desktop JupyterLab of this venv serve the same example; a cold Chromium context opens it on
each, alternating, until its kernel is idle and a first `%load_ext gamekernel` + `%roll` answers:
what a learner waits for before the first result. The desktop server is already running, as after
`make play`; the site's Pyodide is fetched and compiled in every round (a learner's first visit).
Also reported: the site's size, whole and gzip-compressed, as a static host would send it.

Needs the `lite` extra, npm and Chromium; without them it says what is missing and exits 1.
GAMEKERNEL_BENCH_QUICK=1 runs 1 round instead of 3.
"""

from __future__ import annotations

import gzip
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "example_notebooks" / "01-dice-and-odds.ipynb"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--disable-dev-shm-usage"]
KERNEL_IDLE = """() => { const w = window.jupyterapp?.shell.currentWidget;
    return !!w?.sessionContext?.session?.kernel && w.sessionContext.kernelDisplayStatus === 'idle'; }"""
FIRST_ROLL = """() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel
    .requestExecute({code: '%load_ext gamekernel\\n%roll 3d6', store_history: false}).done
    .then(reply => reply.content.status)"""


def _missing() -> str | None:
    import importlib.util

    if importlib.util.find_spec("jupyterlite_core") is None:
        return "jupyterlite-core is not installed (pip install -e '.[lite]')"
    if shutil.which("npm") is None:
        return "npm is not installed"
    if not Path(CHROMIUM).exists():
        return "Chromium is not installed"
    return None


def _site_bytes(site: Path) -> tuple[int, int]:
    whole = packed = 0
    for path in site.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            whole += len(data)
            packed += len(gzip.compress(data, compresslevel=6))
    return whole, packed


def _desktop(root: Path, port: int, token: str, log: Path) -> subprocess.Popen:
    settings = root / ".settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(root / ".settings")}
    return subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         "--ServerApp.port_retries=0", "--allow-root", f"--IdentityProvider.token={token}",
         f"--ServerApp.root_dir={root}", "--LabApp.news_url=None",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", "--LabApp.expose_app_in_browser=True"],
        stdout=log.open("w"), stderr=subprocess.STDOUT, env=env)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_until_serving(url: str, server: subprocess.Popen, log: Path) -> None:
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError(f"JupyterLab did not start: {log.read_text()[-2000:]}") from None
            time.sleep(0.3)


def _open(browser, url: str) -> float:
    """Seconds from a cold context's first request to the first roll's answer."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(300_000)
    started = time.monotonic()
    page.goto(url)
    page.wait_for_function(KERNEL_IDLE)
    status = page.evaluate(FIRST_ROLL)
    seconds = time.monotonic() - started
    if status != "ok":
        raise RuntimeError(f"the first roll answered {status!r} at {url}")
    context.close()
    return seconds


def main() -> int:
    from playwright.sync_api import sync_playwright

    from benchmarks.report import Target, targets
    from gamekernel.tools import lite
    from gamekernel.tools.lite_serve import serve

    missing = _missing()
    if missing:
        print(f"lite open: not measured, {missing}")
        return 1
    rounds = 1 if os.environ.get("GAMEKERNEL_BENCH_QUICK") else 3
    cache = ROOT / ".venv" / "lite-cache"
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        site = folder / "site"
        lite.build([EXAMPLE], site, cache, source=ROOT)
        whole, packed = _site_bytes(site)
        root = folder / "desktop"
        root.mkdir()
        shutil.copy2(EXAMPLE, root / EXAMPLE.name)
        port, token = _free_port(), secrets.token_hex(16)
        server = _desktop(root, port, token, folder / "lab.log")
        static = serve(site)
        times: dict[str, list[float]] = {"lite": [], "desktop": []}
        try:
            _wait_until_serving(f"http://127.0.0.1:{port}/api/status", server, folder / "lab.log")
            urls = {"lite": f"http://127.0.0.1:{static.server_address[1]}/lab/index.html?path={EXAMPLE.name}",
                    "desktop": f"http://127.0.0.1:{port}/lab/tree/{EXAMPLE.name}?token={token}"}
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                for index in range(rounds):
                    for kind in ("lite", "desktop") if index % 2 == 0 else ("desktop", "lite"):
                        times[kind].append(_open(browser, urls[kind]))
                browser.close()
        finally:
            static.shutdown()
            server.terminate()
            server.wait(timeout=30)
    lite_s, desktop_s = statistics.median(times["lite"]), statistics.median(times["desktop"])
    targets(f"a lesson from a link (median of {rounds} alternated cold opens, {EXAMPLE.name})", [
        Target("open on the site -> first %roll answered", f"{lite_s:.1f} s",
               f"desktop JupyterLab {desktop_s:.1f} s", f"{lite_s / desktop_s:.2f}x", "<= 2x", lite_s / desktop_s <= 2),
        Target("the site's size, gzip-compressed", f"{packed / 1e6:.1f} MB", f"uncompressed {whole / 1e6:.1f} MB",
               f"{packed / whole:.2f}x", "reported", None),
    ])
    print("rounds:", {kind: [round(t, 1) for t in values] for kind, values in times.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
