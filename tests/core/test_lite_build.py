"""The zero-install site's build, without the registries: the lock rewrite, the pins, the staged
notebooks, the site's settings, the command line and the preview server's types
(gamekernel/tools/lite*.py; the whole build in a browser is tests/lite)."""

from __future__ import annotations

import hashlib
import json
import urllib.request
import zipfile
from pathlib import Path

import pytest

from gamekernel.tools import lite, lite_inputs
from gamekernel.tools.lite_inputs import EXTRA, FROM_LOCK, LiteInputError


def wheel(folder: Path, name: str, version: str, tag: str = "py3-none-any") -> Path:
    path = folder / f"{name.replace('-', '_')}-{version}-{tag}.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{name}.txt", f"{name} {version} {tag}")
    return path


def lock() -> dict:
    entry = {"install_dir": "site", "package_type": "package", "unvendored_tests": True, "depends": [],
             "sha256": "0" * 64}
    packages = {name: {**entry, "name": name, "version": "1.0", "file_name": f"{name}-1.0-py3-none-any.whl",
                       "imports": [name]} for name in FROM_LOCK}
    packages["ipython"]["depends"] = ["traitlets"]
    return {"info": {"python": "3.14.2"}, "packages": packages}


def test_the_lock_names_each_carried_wheel_with_its_own_sha256_and_adds_gamekernel(tmp_path):
    pins = lite_inputs.pinned_wheels(lock())
    assert pins["ipython"] == "1.0" and pins["anywidget"] == EXTRA["anywidget"][0]
    wheels = {name: wheel(tmp_path, name, version) for name, version in pins.items()}
    ours = wheel(tmp_path, "gamekernel", "0.1.0")
    new = lite_inputs.rewrite_lock(lock(), wheels, ours)["packages"]
    for name, path in wheels.items():
        assert new[name]["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest(), name
        assert new[name]["file_name"] == path.name
    assert new["ipython"]["depends"] == ["traitlets"]  # Pyodide's own dependencies are kept
    assert new["gamekernel"]["depends"] == ["ipython", "ipywidgets", "anywidget", "traitlets"]
    assert new["gamekernel"]["sha256"] == hashlib.sha256(ours.read_bytes()).hexdigest()
    assert new["anywidget"]["depends"] == ["ipywidgets", "psygnal", "typing-extensions"]


def test_the_kernel_s_own_wheels_come_out_of_its_extension_into_the_lock(tmp_path):
    """piplite, pyodide-kernel and the ipykernel shim ship inside jupyterlite-pyodide-kernel's wheel;
    in the lock (with what they import) they load beside Pyodide, not by micropip after it."""
    inner = {name: wheel(tmp_path, name, version) for name, version in
             (("piplite", "0.8.6"), ("pyodide-kernel", "0.8.6"), ("ipykernel", "6.9.2"),
              ("widgetsnbextension", "4.0.999"))}
    extension = tmp_path / "jupyterlite_pyodide_kernel-0.8.6-py3-none-any.whl"
    with zipfile.ZipFile(extension, "w") as archive:
        for path in inner.values():
            archive.write(path, "jupyterlite_pyodide_kernel-0.8.6.data/data/share/jupyter/labextensions/"
                                f"@jupyterlite/pyodide-kernel-extension/static/pypi/{path.name}")
        archive.write(inner["piplite"], "jupyterlite_pyodide_kernel/tests/fixtures/piplite-0.0.1-py3-none-any.whl")
    kernel = lite_inputs.kernel_wheels(extension, tmp_path / "out")
    assert sorted(kernel) == ["ipykernel", "piplite", "pyodide-kernel"]
    assert kernel["piplite"].read_bytes() == inner["piplite"].read_bytes()
    pins = lite_inputs.pinned_wheels(lock())
    wheels = {name: wheel(tmp_path, name, version) for name, version in pins.items()}
    new = lite_inputs.rewrite_lock(lock(), wheels, wheel(tmp_path, "gamekernel", "0.1.0"), kernel)["packages"]
    assert new["pyodide-kernel"]["depends"] == ["comm", "ipython"]
    assert new["pyodide-kernel"]["imports"] == ["pyodide_kernel"]
    assert new["ipykernel"]["depends"] == ["pyodide-kernel"] and new["piplite"]["depends"] == ["micropip"]
    assert new["piplite"]["sha256"] == hashlib.sha256(kernel["piplite"].read_bytes()).hexdigest()
    bare = tmp_path / "bare.whl"
    with zipfile.ZipFile(bare, "w") as archive:
        archive.writestr("x.txt", "")
    with pytest.raises(LiteInputError, match=r"bare\.whl carries no piplite, pyodide-kernel, ipykernel wheel"):
        lite_inputs.kernel_wheels(bare, tmp_path / "out2")


def test_a_lock_without_a_needed_package_or_an_extra_s_dependency_is_refused(tmp_path):
    broken = lock()
    del broken["packages"]["jedi"]
    with pytest.raises(LiteInputError, match=r"pyodide-lock\.json names no jedi"):
        lite_inputs.pinned_wheels(broken)
    pins = lite_inputs.pinned_wheels(lock())
    wheels = {name: wheel(tmp_path, name, version) for name, version in pins.items()}
    no_typing = lock()
    del no_typing["packages"]["typing-extensions"]
    del wheels["typing-extensions"]
    with pytest.raises(LiteInputError, match="psygnal depends on typing-extensions, which the lock lacks"):
        lite_inputs.rewrite_lock(no_typing, wheels, wheel(tmp_path, "gamekernel", "0.1.0"))


def test_only_a_pure_wheel_of_the_pinned_version_is_taken(tmp_path):
    wheel(tmp_path, "psygnal", "0.16.1", "cp311-cp311-manylinux_2_17_x86_64")
    wheel(tmp_path, "psygnal", "0.16.0")
    with pytest.raises(LiteInputError, match=r"no pure wheel of psygnal==0\.16\.1"):
        lite_inputs.wheel_for(tmp_path, "psygnal", "0.16.1")
    pure = wheel(tmp_path, "psygnal", "0.16.1")
    assert lite_inputs.wheel_for(tmp_path, "psygnal", "0.16.1") == pure
    spelled = wheel(tmp_path, "typing-extensions", "1")  # typing_extensions-1-py3-none-any.whl
    assert lite_inputs.wheel_for(tmp_path, "typing-extensions", "1") == spelled


def test_the_staged_notebooks_carry_language_info_and_their_files_come_along(tmp_path):
    lesson = tmp_path / "lesson"
    lesson.mkdir()
    bare = {"cells": [], "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    (lesson / "a.ipynb").write_text(json.dumps(bare), encoding="utf-8")
    (lesson / "b.ipynb").write_text(json.dumps({**bare, "metadata": {"language_info": {"name": "python",
                                                                                        "version": "3.11"}}}))
    (lesson / "mira.txt").write_text("Deck\n4 Forest\n", encoding="utf-8")
    (lesson / "conftest.py").write_text("x = 1\n")
    (lesson / ".secret").write_text("x")
    stage = tmp_path / "stage"
    assert lite.stage_contents([lesson / "a.ipynb", lesson / "b.ipynb"], stage) == ["a.ipynb", "b.ipynb"]
    assert sorted(p.name for p in stage.iterdir()) == ["a.ipynb", "b.ipynb", "mira.txt"]
    a = json.loads((stage / "a.ipynb").read_text(encoding="utf-8"))["metadata"]
    assert a["language_info"]["name"] == "python" and a["kernelspec"] == {"name": "python3"}
    b = json.loads((stage / "b.ipynb").read_text(encoding="utf-8"))["metadata"]
    assert b["language_info"]["version"] == "3.11"  # what the notebook said is kept


@pytest.mark.parametrize(("files", "error"), [
    (["lesson.txt"], "not a notebook file"),
    (["missing.ipynb"], "not a notebook file"),
    (["broken.ipynb"], "not a readable notebook"),
    (["one/x.ipynb", "two/x.ipynb"], "a second notebook named x.ipynb"),
])
def test_a_bad_notebook_argument_is_refused_in_one_line(tmp_path, files, error):
    for name, text in (("lesson.txt", "x"), ("broken.ipynb", "{"), ("one/x.ipynb", "{}"), ("two/x.ipynb", "{}")):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    with pytest.raises(LiteInputError, match=error):
        lite.stage_contents([tmp_path / f for f in files], tmp_path / "stage")


def test_the_site_asks_no_other_host_and_preloads_gamekernel():
    kernel = lite.site_config()["jupyter-config-data"]["litePluginSettings"][lite.KERNEL_PLUGIN]
    assert kernel["disablePyPIFallback"] is True
    # gamekernel, and every step the kernel's worker would otherwise take one after another once Pyodide
    # runs (pyodide-kernel 0.8.6 worker: initPackageManager, initKernel skip what is named here)
    assert kernel["loadPyodideOptions"]["packages"] == ["gamekernel", "micropip", "piplite", "ipykernel", "comm",
                                                        "pyodide-kernel", "jedi", "ipython"]
    assert "pyodideUrl" not in kernel  # set by the build from the local core, never a CDN


@pytest.mark.parametrize(("argv", "code", "words"), [
    ([], 2, "usage: python -m gamekernel lite build"),
    (["publish"], 2, "error: unknown lite command 'publish'"),
    (["build", "a.ipynb"], 1, "error: name at least one notebook and --output SITE"),
    (["build", "a.ipynb", "--output"], 1, "error: --output needs a folder"),
    (["build", "a.ipynb", "--out", "s"], 1, "error: unknown option '--out'"),
    (["serve", "nowhere"], 1, "error: nowhere: not a built site (no jupyter-lite.json)"),
])
def test_the_command_line_refuses_in_one_line(capsys, argv, code, words):
    assert lite.main(argv) == code
    captured = capsys.readouterr()
    text = (captured.err or captured.out).strip()
    assert text.startswith(words) and "Traceback" not in text


def test_the_preview_server_sends_the_types_pyodide_needs(tmp_path):
    from gamekernel.tools.lite_serve import serve

    for name in ("pyodide.mjs", "pyodide.asm.wasm", "pyodide-lock.json", "index.html"):
        (tmp_path / name).write_bytes(b"x")
    server = serve(tmp_path)
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        types = {name: urllib.request.urlopen(f"{base}/{name}").headers["Content-Type"]
                 for name in ("pyodide.mjs", "pyodide.asm.wasm", "pyodide-lock.json", "index.html")}
    finally:
        server.shutdown()
    assert types == {"pyodide.mjs": "text/javascript", "pyodide.asm.wasm": "application/wasm",
                     "pyodide-lock.json": "application/json", "index.html": "text/html"}


def test_the_build_re_dates_nothing_beside_the_site(tmp_path, monkeypatch):
    """jupyterlite-core stamps every file under its output folder's *parent* with SOURCE_DATE_EPOCH;
    built straight into `--output` beside a user's files (a checkout, /tmp) it re-dated them all. The
    stand-in below does what jupyterlite-core's `copy_one` does; the user's file keeps its time."""
    import os
    import subprocess

    neighbour = tmp_path / "notes.txt"
    neighbour.write_text("mine", encoding="utf-8")
    os.utime(neighbour, (1_900_000_000, 1_900_000_000))
    notebook = tmp_path / "lesson.ipynb"
    notebook.write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    os.utime(notebook, (1_900_000_000, 1_900_000_000))

    def fake_pyodide(npm: Path, folder: Path) -> None:
        folder.mkdir(parents=True)
        (folder / "pyodide-lock.json").write_text(json.dumps(lock()), encoding="utf-8")

    def fake_lite_build(command, **kwargs):
        out = Path(command[command.index("--output-dir") + 1])
        for path in out.parent.rglob("*"):  # as jupyterlite_core/addons/base.py maybe_timestamp(dest.parent)
            os.utime(path, (lite.SOURCE_DATE_EPOCH, lite.SOURCE_DATE_EPOCH))
        (out / "static" / "pyodide").mkdir(parents=True)
        (out / "static" / "pyodide" / "pyodide.mjs").write_text("//", encoding="utf-8")
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(lite_inputs, "fetch_pyodide", fake_pyodide)
    monkeypatch.setattr(lite_inputs, "download_wheels", lambda pins, folder: {"jupyterlite-pyodide-kernel": None})
    monkeypatch.setattr(lite_inputs, "kernel_wheels", lambda extension, folder: {})
    monkeypatch.setattr(lite_inputs, "stock_pyodide", lambda *args, **kwargs: None)
    monkeypatch.setattr(lite_inputs, "gamekernel_wheel", lambda *args: None)
    monkeypatch.setattr(lite.subprocess, "run", fake_lite_build)
    lite.build([notebook], tmp_path / "site", tmp_path / "cache", source=None)
    assert (tmp_path / "site" / "static" / "pyodide" / "pyodide.mjs").is_file()
    assert neighbour.stat().st_mtime == 1_900_000_000
    assert notebook.stat().st_mtime == 1_900_000_000
