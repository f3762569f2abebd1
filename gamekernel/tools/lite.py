"""`python -m gamekernel lite build NOTEBOOK... --output SITE [--cache DIR]`: a zero-install site.

A static JupyterLite site of the given notebooks in which gamekernel is preloaded in the browser's
Python (Pyodide): a learner opens a link and runs `%roll` with nothing installed and no server. Every
input comes from a package registry, pinned (gamekernel.tools.lite_inputs); the site itself makes no
request off its own host (`disablePyPIFallback`, a local Pyodide, the front ends of the pinned wheels).
Any static host serves it, if it sends `.mjs` as JavaScript and `.wasm` as application/wasm.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from gamekernel.tools import lite_inputs as inputs
from gamekernel.tools.lite_bytecode import precompile
from gamekernel.tools.lite_inputs import LiteInputError

USAGE = ("usage: python -m gamekernel lite build NOTEBOOK.ipynb... --output SITE [--cache DIR]\n"
         "       python -m gamekernel lite serve SITE [--port N]")
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
#: the build tools, exact: jupyterlite-pyodide-kernel 0.8.7 needs a jupyterlite-core PyPI does not have
BUILD_PINS = {"jupyterlite-core": "0.8.6", "jupyterlite-pyodide-kernel": "0.8.6"}
#: front ends the site carries, from these wheels' labextensions (nothing from the build environment)
FRONT_ENDS = ("jupyterlite-pyodide-kernel", "jupyterlab-widgets", "anywidget")
LANGUAGE_INFO = {"name": "python", "file_extension": ".py", "mimetype": "text/x-python"}
SOURCE_DATE_EPOCH = 1767225600  # 2026-01-01: file times in the site do not follow the build's clock


#: loaded with Pyodide itself, all fetched at once: gamekernel, and what the kernel's worker would
#: otherwise install one by one after Pyodide starts (it skips each one named here: micropip, piplite,
#: then ipykernel, comm, pyodide-kernel, jedi, ipython)
PRELOAD = ("gamekernel", "micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython")


def site_config() -> dict[str, Any]:
    """jupyter-lite.json of the site: no PyPI fallback, gamekernel loaded with Pyodide itself (the
    build adds `pyodideUrl`, the local core, since static/pyodide exists). `exposeAppInBrowser` lets
    a test drive the page as JupyterLab's own tests do (`window.jupyterapp`)."""
    kernel = {"disablePyPIFallback": True, "loadPyodideOptions": {"packages": list(PRELOAD)}}
    return {"jupyter-lite-schema-version": 0,
            "jupyter-config-data": {"exposeAppInBrowser": True, "litePluginSettings": {KERNEL_PLUGIN: kernel}}}


def with_language_info(notebook: dict[str, Any]) -> dict[str, Any]:
    """The notebook with `language_info` (without it JupyterLite opens on "Select Kernel")."""
    metadata = dict(notebook.get("metadata", {}))
    metadata["language_info"] = {**LANGUAGE_INFO, **metadata.get("language_info", {})}
    return {**notebook, "metadata": metadata}


def stage_contents(notebooks: list[Path], stage: Path) -> list[str]:
    """Copy the notebooks (with language_info) and the files beside them (not Python files nor other
    notebooks) into `stage`; the names, which must not collide."""
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir(parents=True)
    names: list[str] = []
    for path in notebooks:
        if path.suffix != ".ipynb" or not path.is_file():
            raise LiteInputError(f"{path}: not a notebook file (.ipynb)")
        if (stage / path.name).exists():
            raise LiteInputError(f"{path}: a second notebook named {path.name}")
        try:
            notebook = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise LiteInputError(f"{path}: not a readable notebook ({error})") from error
        (stage / path.name).write_text(json.dumps(with_language_info(notebook), indent=1, ensure_ascii=False) + "\n",
                                       encoding="utf-8")
        names.append(path.name)
        for item in sorted(path.parent.iterdir()):
            if item.is_file() and not item.name.startswith(".") and item.suffix not in {".ipynb", ".py"}:
                shutil.copy2(item, stage / item.name)
    return names


def _front_end_wheels(cache: Path) -> dict[str, Path]:
    pins = {name: inputs.EXTRA[name][0] for name in FRONT_ENDS if name in inputs.EXTRA}
    pins["jupyterlite-pyodide-kernel"] = BUILD_PINS["jupyterlite-pyodide-kernel"]
    return inputs.download_wheels(pins, cache / "wheels")


def build(notebooks: list[Path], output: Path, cache: Path, *, source: Path | None) -> None:
    """Build the site into `output` (replaced); inputs are cached in `cache` between builds."""
    cache = cache.resolve()
    lite_dir = cache / "lite-dir"
    stage_contents(notebooks, cache / "contents")
    if lite_dir.exists():
        shutil.rmtree(lite_dir)
    pyodide = lite_dir / "static" / "pyodide"
    inputs.fetch_pyodide(cache / "npm", pyodide)
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    wheels = inputs.download_wheels(inputs.pinned_wheels(lock), cache / "wheels")
    front_ends = _front_end_wheels(cache)
    kernel = inputs.kernel_wheels(front_ends["jupyterlite-pyodide-kernel"], cache / "kernel-wheels")
    from gamekernel import __version__

    inputs.stock_pyodide(pyodide, wheels, inputs.gamekernel_wheel(source, cache / "gamekernel", __version__), kernel,
                         prepare=lambda copies: precompile(pyodide, copies))
    (lite_dir / "jupyter-lite.json").write_text(json.dumps(site_config(), indent=1) + "\n", encoding="utf-8")
    # jupyterlite-core stamps every file under the output's *parent* with SOURCE_DATE_EPOCH (base.py
    # `copy_one` → `maybe_timestamp(dest.parent)`): built beside the user's files it would re-date them
    # all (a checkout, /tmp). So it builds into a folder of its own in the cache, moved into place after.
    staging = cache / "site-build"
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    built = staging / "site"
    command = [sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(lite_dir),
               "--output-dir", str(built), "--contents", str(cache / "contents"), "--no-sourcemaps",
               "--ignore-sys-prefix", "--apps", "lab", "--apps", "notebooks",
               "--source-date-epoch", str(SOURCE_DATE_EPOCH)]
    for wheel in front_ends.values():
        command += ["--LiteBuildConfig.federated_extensions", str(wheel)]
    done = subprocess.run(command, cwd=lite_dir, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})
    if done.returncode != 0:
        (cache / "build.log").write_text(done.stdout + done.stderr, encoding="utf-8")
        raise LiteInputError(f"jupyter lite build failed (its output: {cache / 'build.log'})")
    if not (built / "static" / "pyodide" / "pyodide.mjs").exists():
        raise LiteInputError("jupyter lite build wrote no static/pyodide: the kernel would fetch Pyodide elsewhere")
    output = output.resolve()
    if output.exists():
        shutil.rmtree(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(built), str(output))


def _parse(argv: list[str]) -> tuple[list[Path], Path, Path]:
    notebooks: list[Path] = []
    output: Path | None = None
    cache = Path(".lite-cache")
    items = iter(argv)
    for item in items:
        if item in {"--output", "--cache"}:
            value = next(items, None)
            if value is None:
                raise LiteInputError(f"{item} needs a folder")
            if item == "--output":
                output = Path(value)
            else:
                cache = Path(value)
        elif item.startswith("-"):
            raise LiteInputError(f"unknown option {item!r}")
        else:
            notebooks.append(Path(item))
    if not notebooks or output is None:
        raise LiteInputError("name at least one notebook and --output SITE")
    return notebooks, output, cache


def _serve(site: Path, port: int) -> int:
    if not (site / "jupyter-lite.json").is_file():
        print(f"error: {site}: not a built site (no jupyter-lite.json)", file=sys.stderr)
        return 1
    from gamekernel.tools.lite_serve import serve

    server = serve(site, port)
    print(f"serving {site} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()
    return 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] in {"-h", "--help"}:
        print(USAGE)
        return 0 if argv else 2
    if argv[0] == "serve" and len(argv) in {2, 4} and (len(argv) == 2 or argv[2] == "--port"):
        return _serve(Path(argv[1]), int(argv[3]) if len(argv) == 4 and argv[3].isdigit() else 8000)
    if argv[0] != "build":
        print(f"error: unknown lite command {argv[0]!r}\n{USAGE}", file=sys.stderr)
        return 2
    source: Path | None = Path(__file__).resolve().parents[2]
    if source is not None and not (source / "pyproject.toml").is_file():
        source = None  # installed from a wheel: the site takes the same version's wheel
    try:
        notebooks, output, cache = _parse(argv[1:])
        build(notebooks, output, cache, source=source)
    except LiteInputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"site written to {output} ({len(notebooks)} notebooks); serve it with any static host")
    return 0
