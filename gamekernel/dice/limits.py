"""Safety limits for parsing, rolling and exact distributions (each breach is a DiceError)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """How much work one expression may ask for.

    The defaults keep every refusal fast (well under 10 ms): the length is checked before
    parsing, dice are counted while parsing (before anything is rolled), nesting is capped
    inside the parser, and explosions and rerolls stop after `explode_depth` extra dice.
    """

    max_dice: int = 10_000
    max_length: int = 1_000
    max_depth: int = 50
    max_sides: int = 1_000_000
    explode_depth: int = 20


DEFAULT_LIMITS = Limits()
