"""The inputs of a zero-install site, each from a package registry through its ordinary client, pinned.

- Pyodide: the npm `pyodide` package at the version jupyterlite-pyodide-kernel pins (`npm pack`). It
  is the core only: its `pyodide-lock.json` names wheels it does not ship.
- micropip, IPython, jedi and their dependencies: pure wheels from PyPI at the versions Pyodide's lock
  names (`pip download`). Pyodide's own builds of them differ byte for byte, so each lock entry's
  `sha256` (Pyodide checks it on load) and `file_name` are rewritten to the downloaded wheel.
- gamekernel and what it needs beyond Pyodide's lock (ipywidgets, anywidget, ...): pure wheels at the
  versions pinned below, added to the lock with their dependencies, so `loadPyodide` preloads
  gamekernel and a notebook runs unchanged (`%load_ext gamekernel` needs no `%pip install`).

Nothing here names a registry: the clients use whatever this machine configures for them.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

#: the Pyodide that jupyterlite-pyodide-kernel 0.8.6 pins (its PYODIDE_VERSION)
PYODIDE_VERSION = "314.0.6"

#: what the browser kernel needs from Pyodide's lock, as pure wheels at the lock's versions
FROM_LOCK = ("micropip", "ipython", "asttokens", "decorator", "executing", "matplotlib-inline", "prompt-toolkit",
             "pure-eval", "pygments", "six", "stack-data", "traitlets", "wcwidth", "jedi", "parso",
             "typing-extensions")

#: gamekernel's runtime needs that Pyodide's lock lacks: pinned pure wheels and their lock dependencies
#: (widgetsnbextension is the kernel's own shim, installed by piplite)
EXTRA: dict[str, tuple[str, tuple[str, ...]]] = {
    "comm": ("0.2.3", ()),
    "jupyterlab-widgets": ("3.0.17", ()),
    "ipywidgets": ("8.1.9", ("comm", "ipython", "traitlets", "jupyterlab-widgets")),
    "psygnal": ("0.16.1", ("typing-extensions",)),
    "anywidget": ("0.11.0", ("ipywidgets", "psygnal", "typing-extensions")),
}
#: gamekernel's own lock entry depends on these (pyproject.toml's dependencies)
GAMEKERNEL_DEPENDS = ("ipython", "ipywidgets", "anywidget", "traitlets")

#: the browser kernel's own wheels, shipped inside jupyterlite-pyodide-kernel (its labextension's
#: static/pypi): name -> (lock dependencies, import name). Put in the lock and preloaded, they are
#: fetched beside Pyodide's core instead of one after another by micropip once Pyodide runs.
KERNEL_WHEELS: dict[str, tuple[tuple[str, ...], str]] = {
    "piplite": (("micropip",), "piplite"),
    "pyodide-kernel": (("comm", "ipython"), "pyodide_kernel"),
    "ipykernel": (("pyodide-kernel",), "ipykernel"),
}
KERNEL_PYPI = "/data/share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi/"


class LiteInputError(RuntimeError):
    """A build input could not be had (a client failed, a file is missing or not what was pinned)."""


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _run(command: list[str], *, cwd: Path | None = None) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["no output"]
        raise LiteInputError(f"{Path(command[0]).name} {' '.join(command[1:3])} failed: {last[0]}")


def fetch_pyodide(cache: Path, target: Path, *, npm: str = "npm") -> None:
    """Unpack the npm `pyodide` package into `target` (the site's static/pyodide), the tarball cached."""
    tarball = cache / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.exists():
        cache.mkdir(parents=True, exist_ok=True)
        if shutil.which(npm) is None:
            raise LiteInputError(f"{npm} not found: the Pyodide core comes from the npm package pyodide")
        _run([npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--silent", "--pack-destination", str(cache)])
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    with tarfile.open(tarball) as archive:
        for member in archive.getmembers():
            name = member.name.removeprefix("package/")
            if not member.isfile() or name.endswith(".map") or "/" in name:
                continue  # the package's files are all at its top; source maps are not shipped
            member.name = name
            archive.extract(member, target, filter="data")
    if not (target / "pyodide.mjs").exists() or not (target / "pyodide-lock.json").exists():
        raise LiteInputError(f"{tarball.name}: no pyodide.mjs or pyodide-lock.json in the package")


def pinned_wheels(lock: Mapping[str, Any]) -> dict[str, str]:
    """Every wheel the site carries, name -> version: the lock's versions for FROM_LOCK, then EXTRA."""
    packages = lock["packages"]
    missing = [name for name in FROM_LOCK if name not in packages]
    if missing:
        raise LiteInputError(f"pyodide-lock.json names no {', '.join(missing)}")
    pins = {name: str(packages[name]["version"]) for name in FROM_LOCK}
    pins.update({name: version for name, (version, _) in EXTRA.items()})
    return pins


def _normal(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def wheel_for(folder: Path, name: str, version: str) -> Path:
    """The pure wheel of `name` at `version` in `folder` (wheel names spell `-` as `_`)."""
    for path in sorted(folder.glob("*.whl")):
        parts = path.name.split("-")
        if (len(parts) >= 5 and _normal(parts[0]) == _normal(name) and parts[1] == version
                and path.name.endswith("-none-any.whl")):
            return path
    raise LiteInputError(f"no pure wheel of {name}=={version} in the download folder (Pyodide loads no other)")


def download_wheels(pins: Mapping[str, str], folder: Path) -> dict[str, Path]:
    """`pip download` each pin as a pure wheel (cached in `folder`), name -> file."""
    folder.mkdir(parents=True, exist_ok=True)
    wanted = []
    for name, version in pins.items():
        try:
            wheel_for(folder, name, version)
        except LiteInputError:
            wanted.append(f"{name}=={version}")
    if wanted:
        _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
              "--platform", "any", "--python-version", "3.14", "--dest", str(folder), *wanted])
    return {name: wheel_for(folder, name, version) for name, version in pins.items()}


def gamekernel_wheel(source: Path | None, folder: Path, version: str) -> Path:
    """gamekernel's wheel: built from its source tree (the widgets' assets go in by its build hook),
    or, installed from a wheel, the same version's wheel from PyPI."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("gamekernel-*.whl"):
        old.unlink()
    if source is None:
        _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
              "--dest", str(folder), f"gamekernel=={version}"])
    else:
        _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(folder), str(source)])
    built = sorted(folder.glob("gamekernel-*-none-any.whl"))
    if not built:
        raise LiteInputError("no pure gamekernel wheel was built or downloaded")
    return built[-1]


def kernel_wheels(kernel_extension: Path, folder: Path) -> dict[str, Path]:
    """The browser kernel's own wheels (KERNEL_WHEELS), taken out of the jupyterlite-pyodide-kernel
    wheel into `folder`, name -> file; refused if that wheel does not carry one of them."""
    import zipfile

    folder.mkdir(parents=True, exist_ok=True)
    found: dict[str, Path] = {}
    with zipfile.ZipFile(kernel_extension) as archive:
        for member in archive.namelist():
            file_name = member.rsplit("/", 1)[-1]
            name = _normal(file_name.split("-")[0])
            if KERNEL_PYPI in member and file_name.endswith(".whl") and name in KERNEL_WHEELS:
                (folder / file_name).write_bytes(archive.read(member))
                found[name] = folder / file_name
    missing = [name for name in KERNEL_WHEELS if name not in found]
    if missing:
        raise LiteInputError(f"{kernel_extension.name} carries no {', '.join(missing)} wheel")
    return found


def _entry(name: str, wheel: Path, depends: Iterable[str], imports: Iterable[str]) -> dict[str, Any]:
    return {"name": name, "version": wheel.name.split("-")[1], "file_name": wheel.name, "install_dir": "site",
            "sha256": sha256(wheel), "package_type": "package", "imports": list(imports),
            "depends": list(depends), "unvendored_tests": False}


def rewrite_lock(lock: dict[str, Any], wheels: Mapping[str, Path], gamekernel: Path,
                 kernel: Mapping[str, Path] | None = None) -> dict[str, Any]:
    """The lock with each carried wheel's own `file_name` and `sha256`, the extras, gamekernel and the
    browser kernel's own wheels added.

    A lock entry keeps Pyodide's `depends` and `imports`; an extra's depend on what is not in the lock
    is refused here, so a missing dependency fails the build, not a learner's first cell."""
    packages = dict(lock["packages"])
    for name, wheel in wheels.items():
        if name in EXTRA:
            depends = EXTRA[name][1]
            packages[name] = _entry(name, wheel, depends, [name.replace("-", "_")])
        else:
            entry = dict(packages[name])
            entry.update(file_name=wheel.name, sha256=sha256(wheel), unvendored_tests=False)
            packages[name] = entry
    packages["gamekernel"] = _entry("gamekernel", gamekernel, GAMEKERNEL_DEPENDS, ["gamekernel"])
    for name, wheel in (kernel or {}).items():
        depends, module = KERNEL_WHEELS[name]
        packages[name] = _entry(name, wheel, depends, [module])
    for name in (*EXTRA, *(kernel or {}), "gamekernel"):
        unknown = [d for d in packages[name]["depends"] if d not in packages]
        if unknown:
            raise LiteInputError(f"lock entry {name} depends on {', '.join(unknown)}, which the lock lacks")
    return {**lock, "packages": packages}


def stock_pyodide(target: Path, wheels: Mapping[str, Path], gamekernel: Path,
                  kernel: Mapping[str, Path] | None = None,
                  prepare: Callable[[list[Path]], object] | None = None) -> None:
    """Copy the wheels beside the Pyodide core (its indexURL), let `prepare` change the copies in place
    (the build adds their bytecode: gamekernel.tools.lite_bytecode) and write the lock of the copies."""
    lock_path = target / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))

    def copied(wheel: Path) -> Path:
        shutil.copy2(wheel, target / wheel.name)
        return target / wheel.name

    wheels = {name: copied(wheel) for name, wheel in wheels.items()}
    gamekernel = copied(gamekernel)
    kernel = {name: copied(wheel) for name, wheel in (kernel or {}).items()}
    if prepare is not None:
        prepare([*wheels.values(), gamekernel, *kernel.values()])
    lock_path.write_text(json.dumps(rewrite_lock(lock, wheels, gamekernel, kernel), indent=1, sort_keys=True) + "\n",
                         encoding="utf-8")
