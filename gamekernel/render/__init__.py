"""Rendering of results to text/plain and self-contained, escaped, deterministic text/html.

Importing this package registers every renderer (result type -> text/plain, text/html) and every
event summary with gamekernel.display; the core imports it once, on the first display.
"""

from gamekernel.render import cards, combat, dice, gammaworld, gurps, log, mtg, summaries  # noqa: F401
