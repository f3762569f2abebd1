"""A character's file: our JSON (written atomically) or a GCS `.gcs` file, read by extension.

Apart from characters.py so that the sheet's rules do not import the GCS import, which builds on them
(GURPS-CH-01..29 for the sheet; gamekernel/gurps/rules/gcs for the GCS format).
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

from gamekernel import limits
from gamekernel.errors import DataError, NotFoundError
from gamekernel.gurps.rules.characters import Character
from gamekernel.gurps.rules.gcs import load_gcs
from gamekernel.i18n import t
from gamekernel.util import atomic_write_text


def save_character(path: str | os.PathLike[str], character: Character) -> Path:
    """Write the character as JSON atomically (temp file in the same folder + rename); the file's
    permissions follow the umask, as every other file the kernel writes."""
    target = Path(path)
    atomic_write_text(target, json.dumps(character.to_dict(), ensure_ascii=False, indent=2) + "\n")
    return target


def load_character(path: str | os.PathLike[str]) -> Character:
    """Read a character file (our JSON, or a GCS .gcs file by extension)."""
    source = Path(path)
    if source.suffix.lower() == ".gcs":
        return load_gcs(source)
    try:
        data = limits.load_json(limits.read_text(source), source.name)
        limits.check_entries(data, source.name)
    except FileNotFoundError as error:
        raise NotFoundError(t("gurps.err.file.missing", source=source)) from error
    except ValueError as error:
        raise DataError(t("gurps.err.file.json", source=source, error=error)) from error
    return replace(Character.from_dict(data, where=str(source)), source=str(source))
