"""GURPS magics (%char, %contest, %react, %damage, %fright, %cr, %sheet) and the GURPS forms of
%check and %odds, which the core magics dispatch here."""

from gamekernel.errors import UsageError

MAGICS: list = []


def gurps_check_line(session, line: str):
    raise UsageError("GURPS checks are not available yet")


def gurps_odds_line(session, line: str):
    raise UsageError("GURPS odds are not available yet")
