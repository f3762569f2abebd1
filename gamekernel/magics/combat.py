"""GURPS combat magics (%combat, %next, %attack, %defend, %hazard, %firstaid, %cast) and the GURPS
form of %rest, which the core magics dispatch here."""

import re

from gamekernel.errors import UsageError

MAGICS: list = []

_DURATION = re.compile(r"\b\d+(?:\.\d+)?\s*(?:s|sec|min|m|h|hr|hours?|d|days?)\b", re.IGNORECASE)


def looks_like_gurps_rest(line: str) -> bool:
    """GURPS rest names a duration (`%rest Bren 30min`); Gamma World's extended rest does not."""
    return bool(_DURATION.search(line))


def gurps_rest_line(session, line: str):
    raise UsageError("GURPS rest is not available yet")
