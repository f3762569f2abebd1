"""Copy the widgets' front-end files (``widgets/``) into ``gamekernel/static/``.

hatchling's force-include breaks editable installs (anywidget resolves ``_esm`` paths when the
class is created), so a build hook writes the files into the package for wheel and editable alike.
"""

import shutil
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CopyWidgetAssets(BuildHookInterface):
    def initialize(self, version, build_data):
        root = Path(self.root)
        source, target = root / "widgets", root / "gamekernel" / "static"
        target.mkdir(exist_ok=True)
        for path in sorted(source.rglob("*")):  # widgets/gurps/sheet.js -> static/gurps/sheet.js
            if path.suffix in {".js", ".css"}:
                copy = target / path.relative_to(source)
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, copy)
        build_data.setdefault("artifacts", []).append("gamekernel/static/**")
