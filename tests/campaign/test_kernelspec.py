"""`python -m gamekernel install-kernel`: installed into a temporary prefix and started for real."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import nbformat
from nbclient import NotebookClient


def _install(prefix, *extra):
    return subprocess.run(
        [sys.executable, "-m", "gamekernel", "install-kernel", "--prefix", str(prefix), *extra],
        capture_output=True, text=True, check=True,
    )


def test_install_kernel_writes_a_spec_that_loads_the_extension(tmp_path):
    out = _install(tmp_path, "--name", "gk-test")
    assert "Installed kernelspec 'gk-test' (Game (gamekernel))" in out.stdout
    spec = json.loads((tmp_path / "share" / "jupyter" / "kernels" / "gk-test" / "kernel.json").read_text())
    assert spec["display_name"] == "Game (gamekernel)"
    assert "--IPKernelApp.extensions=['gamekernel']" in spec["argv"]


def test_installed_kernel_starts_with_gamekernel_and_a_campaign(tmp_path, monkeypatch):
    campaign = tmp_path / "crypt"
    _install(tmp_path / "prefix", "--name", "gk-test", "--campaign", str(campaign))
    listing = subprocess.run(
        [sys.executable, "-m", "jupyter", "kernelspec", "list", "--json"], capture_output=True, text=True,
        check=True, env={**os.environ, "JUPYTER_PATH": str(tmp_path / "prefix" / "share" / "jupyter")},
    )
    assert "gk-test" in json.loads(listing.stdout)["kernelspecs"]
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "prefix" / "share" / "jupyter"))
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("%note started without %load_ext"),
        nbformat.v4.new_code_cell("%campaign status"),
    ])
    NotebookClient(notebook, timeout=120, kernel_name="gk-test").execute()
    outputs = [cell.outputs[0]["data"]["text/plain"] for cell in notebook.cells]
    assert outputs[0] == "Note: started without %load_ext"
    assert outputs[1].startswith("Campaign crypt: 1 session,")
    assert (campaign / "campaign.json").exists()


def test_unknown_command_is_a_clear_error():
    result = subprocess.run([sys.executable, "-m", "gamekernel", "frobnicate"], capture_output=True, text=True)
    assert result.returncode == 2 and "unknown command 'frobnicate'" in result.stderr
