"""Gamma World magics (%deck, %draw, %hand, %tap, %untap, %overcharge, %flux, %encounter) and the
Gamma World form of %rest (extended rest), which the core magics dispatch here."""

from gamekernel.errors import UsageError

MAGICS: list = []


def gw_rest_line(session, line: str):
    raise UsageError("Gamma World rest is not available yet")
