"""Safety limits for parsing, rolling and exact distributions (each breach is a DiceError)."""

from __future__ import annotations


class Limits:
    """How much work one expression may ask for (immutable, compares by value).

    The defaults keep every refusal fast (well under 10 ms): the length is checked before
    parsing, dice are counted while parsing (before anything is rolled), nesting is capped
    inside the parser, and explosions and rerolls stop after `explode_depth` extra dice.

    A hand-written frozen class rather than a dataclass: `dataclasses` (and `inspect`) would
    triple the import time of the dice engine.
    """

    __slots__ = ("explode_depth", "max_depth", "max_dice", "max_length", "max_sides")
    max_dice: int
    max_length: int
    max_depth: int
    max_sides: int
    explode_depth: int
    _FIELDS = ("max_dice", "max_length", "max_depth", "max_sides", "explode_depth")

    def __init__(
        self,
        max_dice: int = 10_000,
        max_length: int = 1_000,
        max_depth: int = 50,
        max_sides: int = 1_000_000,
        explode_depth: int = 20,
    ):
        for name, value in zip(self._FIELDS, (max_dice, max_length, max_depth, max_sides, explode_depth),
                               strict=True):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"Limits.{name} must be a whole number >= 0, got {value!r}")
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Limits is immutable; use .replace(...)")

    def __delattr__(self, name: str) -> None:
        """Deleting a limit is refused like setting one (an AttributeError, not a TypeError)."""
        raise AttributeError("Limits is immutable; use .replace(...)")

    def _values(self) -> tuple[int, ...]:
        return tuple(getattr(self, name) for name in self._FIELDS)

    def replace(self, **changes: int) -> Limits:
        """A copy with some limits changed."""
        values = dict(zip(self._FIELDS, self._values(), strict=True))
        values.update(changes)
        return Limits(**values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Limits) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._FIELDS)
        return f"Limits({fields})"

    def __reduce__(self) -> tuple[type[Limits], tuple[int, ...]]:
        return (Limits, self._values())


DEFAULT_LIMITS = Limits()
