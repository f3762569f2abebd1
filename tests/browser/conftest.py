"""Real-browser tests: JupyterLab driven by Debian's Chromium through Playwright.

Never `playwright install` (it downloads a browser); Playwright drives /usr/bin/chromium. Without
Chromium the tests skip locally, but fail in CI (GAMEKERNEL_REQUIRE_BROWSER=1), so CI can never
pass by skipping them.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
    "--disable-dev-shm-usage",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _require_browser() -> None:
    if not Path(CHROMIUM).exists():
        if os.environ.get("GAMEKERNEL_REQUIRE_BROWSER"):
            pytest.fail("Chromium is required here (GAMEKERNEL_REQUIRE_BROWSER=1) but is not installed")
        pytest.skip("Chromium is not installed (apt-get install -y chromium)")


def wait_until_serving(url: str, server: subprocess.Popen, log: Path, name: str) -> None:
    """Wait (up to 60 s) until `url` answers at all (an HTTP error is an answer); the server's log
    tail in the error if it exits or never answers."""
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError(f"{name} did not start: {log.read_text()[-2000:]}") from None
            time.sleep(0.3)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Lab:
    """A running JupyterLab server plus helpers to open notebooks and run code in them."""

    def __init__(self, root: Path, base: str, token: str, browser):
        self.root, self.base, self.token, self.browser = root, base, token, browser

    def open(self, name: str, cells: list[str], *, timeout_ms: int = 90_000):
        """Write a notebook of `cells`, open it in a new page, run all cells; returns the page."""
        notebook = {
            "cells": [
                {"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {},
                 "outputs": [], "source": source}
                for i, source in enumerate(cells)
            ],
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5,
        }
        (self.root / name).write_text(json.dumps(notebook), encoding="utf-8")
        page = self.browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(timeout_ms)
        page.goto(f"{self.base}/lab/tree/{name}?token={self.token}&reset")
        page.wait_for_function(
            """() => { const w = window.jupyterapp?.shell.currentWidget;
                return w?.sessionContext?.session?.kernel && w.sessionContext.kernelDisplayStatus === 'idle'; }""",
            timeout=timeout_ms,
        )
        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        return page

    def run(self, page, code: str, expect: str, *, timeout_ms: int = 30_000) -> str:
        """Append a cell with `code`, run it, wait until an output contains `expect`; returns that text."""
        page.evaluate(
            """async (code) => {
                const panel = window.jupyterapp.shell.currentWidget;
                const notebook = panel.content;
                notebook.activeCellIndex = notebook.widgets.length - 1;
                await window.jupyterapp.commands.execute('notebook:insert-cell-below');
                notebook.activeCell.model.sharedModel.setSource(code);
                await window.jupyterapp.commands.execute('notebook:run-cell');
            }""",
            code,
        )
        output = page.locator(".jp-OutputArea-output").filter(has_text=expect).last
        output.wait_for(timeout=timeout_ms)
        return output.inner_text()

    def screenshot(self, page, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / name
        page.screenshot(path=str(path), full_page=True)
        return path

    def themed_screenshots(self, page, selector: str, stem: str) -> list[Path]:
        """`selector`'s first match in JupyterLab Dark, then Light (artifacts a person looks at: both
        themes must read); ends in Light."""
        ARTIFACTS.mkdir(exist_ok=True)
        paths = []
        for theme, suffix in (("JupyterLab Dark", "dark"), ("JupyterLab Light", "light")):
            page.evaluate(f"window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{theme}'}})")
            page.wait_for_function("(name) => document.body.dataset.jpThemeName === name", arg=theme)
            page.wait_for_function(  # the theme's stylesheet applied, not only announced
                "(dark) => (getComputedStyle(document.body).getPropertyValue('--jp-layout-color1').trim()"
                " === '#fff' || getComputedStyle(document.body).getPropertyValue('--jp-layout-color1').trim()"
                " === 'white') !== dark", arg=suffix == "dark")
            page.wait_for_function("() => !document.querySelector('#jupyterlab-splash')")  # the switch's overlay
            path = ARTIFACTS / f"{stem}-{suffix}.png"
            page.locator(selector).first.screenshot(path=str(path))
            paths.append(path)
        return paths

    def close_page(self, page) -> None:
        try:
            page.evaluate("window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
        finally:
            page.close()


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    _require_browser()
    from playwright.sync_api import sync_playwright

    tmp = tmp_path_factory.mktemp("lab")
    root = tmp / "root"
    root.mkdir()
    settings = tmp / "settings"
    notification = settings / "@jupyterlab" / "apputils-extension"
    notification.mkdir(parents=True)
    (notification / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}'
    )
    tracker = settings / "@jupyterlab" / "notebook-extension"  # every cell in the page, not only those in view
    tracker.mkdir(parents=True)
    (tracker / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}')
    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(settings), JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"),
        IPYTHONDIR=str(tmp / "ipython"),
    )
    env.pop("GAMEKERNEL_SEED", None)
    port, token = _free_port(), secrets.token_hex(16)
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         "--ServerApp.port_retries=0", "--allow-root", f"--IdentityProvider.token={token}",
         f"--ServerApp.root_dir={root}", "--LabApp.news_url=None",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
         "--LabApp.expose_app_in_browser=True"],
        env=env, stdout=subprocess.DEVNULL, stderr=open(tmp / "server.log", "w"),  # noqa: SIM115
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(f"{base}/api/status?token={token}", server, tmp / "server.log", "JupyterLab")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            try:
                yield Lab(root, base, token, browser)
            finally:
                browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
