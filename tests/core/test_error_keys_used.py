"""Every refusal text in the catalogs is one the code can say: each `*.err.*` key of every language file
is named in the code, as a literal or under an f-string family (`core.err.os.{errno}`); a key nothing
names is a message no user will ever read, or a stale copy of one that changed (as a Gamma World deck
refusal once claimed cards were in play when none could be)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import gamekernel

ROOT = Path(gamekernel.__file__).parent
FAMILY = re.compile(r"""f["']([a-z_]+(?:\.[a-z0-9_]+)*\.err\.(?:[a-z0-9_]+\.)*)\{""")


def _code() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in ROOT.rglob("*.py"))


def test_every_error_key_is_named_by_the_code():
    code = _code()
    families = tuple(FAMILY.findall(code))
    assert families  # the f-string families are found, so the test can see them
    unused = []
    for catalog in sorted(ROOT.rglob("i18n/*/*.json")):
        for key in json.loads(catalog.read_text(encoding="utf-8")):
            if ".err." in key and f'"{key}"' not in code and not key.startswith(families):
                unused.append(f"{catalog.relative_to(ROOT)}: {key}")
    assert unused == []
