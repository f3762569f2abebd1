"""The site's wheels carry bytecode compiled by the site's own Pyodide, so a learner's browser does not
compile every module of IPython and gamekernel on first import.

PyPI's pure wheels hold sources only; in the browser each import compiles them (the first
`%load_ext gamekernel` + `%roll` on a cold site spent about 1 s of its 1.5 s compiling). Pyodide's own
builds ship compiled wheels for this reason, which is why theirs differ from PyPI's byte for byte.
The bytecode must be the browser's Python's (3.14 here, while this machine's may be another), so the
build runs the site's Pyodide under Node (npm brings Node; the Pyodide core is the one it fetched) and
adds, beside each source, an *unchecked-hash* pyc (PEP 552): Python loads it without comparing the
source's time stamp, which an unpacked wheel does not keep. The sources stay, so tracebacks still show
lines. PYTHONHASHSEED is fixed, so a rebuild writes the same bytes (set constants are ordered by hash).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

from gamekernel.tools.lite_inputs import LiteInputError

#: runs in the site's Pyodide: every wheel of /wheels gains its modules' pycs (wheels that already
#: carry a __pycache__ are left as they are); prints one line per wheel, "name count"
COMPILE_PY = r"""
import importlib.util, os, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

SITE = "/lib/python%d.%d/site-packages/" % sys.version_info[:2]

def pyc_name(name):
    head, tail = os.path.split(name)
    return (head + "/" if head else "") + "__pycache__/" + tail[:-3] + "." + sys.implementation.cache_tag + ".pyc"

def compiled(path):
    with zipfile.ZipFile(path) as source:
        infos = source.infolist()
        if any("/__pycache__/" in "/" + info.filename for info in infos):
            return 0
        bodies = {info.filename: source.read(info) for info in infos}
    members, count = [], 0
    for info in infos:
        members.append((info, bodies[info.filename]))
        name = info.filename
        if not name.endswith(".py") or ".dist-info/" in name or ".data/" in name:
            continue
        try:
            code = compile(bodies[name], SITE + name, "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            continue  # a file the package never imports (a Python 2 example, say)
        pyc = _code_to_hash_pyc(code, importlib.util.source_hash(bodies[name]), checked=False)
        entry = zipfile.ZipInfo(pyc_name(name), date_time=info.date_time)
        entry.compress_type = zipfile.ZIP_DEFLATED
        entry.external_attr = 0o644 << 16
        members.append((entry, bytes(pyc)))
        count += 1
    with zipfile.ZipFile(path + ".part", "w") as target:
        for info, body in members:
            target.writestr(info, body)
    os.replace(path + ".part", path)
    return count

for wheel in sorted(os.listdir("/wheels")):
    if wheel.endswith(".whl"):
        print(wheel, compiled("/wheels/" + wheel))
"""

COMPILE_JS = """
import { loadPyodide } from "./pyodide.mjs";
const [folder, script] = process.argv.slice(2);
const pyodide = await loadPyodide({ indexURL: new URL(".", import.meta.url).pathname,
                                    env: { PYTHONHASHSEED: "0" }, stdout: (line) => console.log(line) });
pyodide.FS.mkdir("/wheels");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: folder }, "/wheels");
pyodide.runPython((await import("node:fs")).readFileSync(script, "utf8"));
"""


def precompile(pyodide: Path, wheels: Iterable[Path], *, node: str = "node") -> dict[str, int]:
    """Add the browser Python's bytecode to each wheel (in place), file name -> modules compiled.

    `pyodide` is the site's unpacked Pyodide core (its pyodide.mjs); the wheels must all sit in one
    folder. A failure is one line naming what failed: the site would otherwise load sources only."""
    paths = sorted(Path(p).resolve() for p in wheels)
    if not paths:
        return {}
    folders = {p.parent for p in paths}
    if len(folders) != 1:
        raise LiteInputError("the wheels to compile must sit in one folder")
    if shutil.which(node) is None:
        raise LiteInputError(f"{node} not found: the site's bytecode is compiled by its Pyodide under Node")
    runner = pyodide / "gamekernel-compile.mjs"  # beside pyodide.mjs, whose import it resolves
    with tempfile.TemporaryDirectory() as temp:
        script = Path(temp) / "compile.py"
        script.write_text(COMPILE_PY, encoding="utf-8")
        runner.write_text(COMPILE_JS, encoding="utf-8")
        try:
            done = subprocess.run([node, str(runner), str(folders.pop()), str(script)], capture_output=True,
                                  text=True, check=False, timeout=600)
        finally:
            runner.unlink()
    counts: dict[str, int] = {}
    for line in done.stdout.splitlines():
        name, _, count = line.rpartition(" ")
        if name.endswith(".whl") and count.isdigit():
            counts[name] = int(count)
    wanted = {p.name for p in paths}
    if done.returncode != 0 or not wanted <= set(counts):
        last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["no output"]
        raise LiteInputError(f"compiling the site's bytecode failed: {last[0][:300]}")
    return {name: counts[name] for name in sorted(wanted)}
