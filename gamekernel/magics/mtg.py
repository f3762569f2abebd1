"""MtG action-check magics (%library, %boost, %scene) and the MtG forms of %check and %odds check,
which the core magics dispatch here."""

from gamekernel.errors import UsageError

MAGICS: list = []


def looks_like_mtg_check(text: str) -> bool:
    return False


def mtg_check_line(session, line: str):
    raise UsageError("MtG checks are not available yet")


def mtg_odds_line(session, line: str):
    raise UsageError("MtG odds are not available yet")
