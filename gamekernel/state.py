"""The table state: one named part per rule set, each built fresh for a replay.

Rule sets register a factory (`register_part("gurps", GurpsState)`); reducers of their event kinds
reach their part as `state["gurps"]`. Parts are plain data that reducers change in place, and
each offers `to_dict()` for snapshots and comparisons.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gamekernel.errors import DataError, GameKernelError
from gamekernel.i18n import t

_PART_FACTORIES: dict[str, Callable[[], Any]] = {}


def register_part(name: str, factory: Callable[[], Any]) -> None:
    """Declare the state part `name`, created by `factory()` for every fresh state."""
    _PART_FACTORIES[name] = factory


@dataclass
class CoreState:
    """What the core events change: the last seed (the RNG itself lives on the session)."""

    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CoreState:
        return cls(data.get("seed"))


register_part("core", CoreState)


def part_names() -> list[str]:
    """The names of every registered part (a snapshot must hold them all)."""
    return sorted(_PART_FACTORIES)


class TableState:
    """All parts of the table's state, keyed by rule set."""

    def __init__(self) -> None:
        self.parts: dict[str, Any] = {name: factory() for name, factory in _PART_FACTORIES.items()}

    def __getitem__(self, name: str) -> Any:
        return self.parts[name]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able picture of the whole state, for snapshots and replay comparisons."""
        return {name: part_picture(part) for name, part in sorted(self.parts.items())}

    def can_snapshot(self) -> bool:
        """Whether every part can be rebuilt from its `to_dict` (has a `from_dict`)."""
        return all(callable(getattr(type(part), "from_dict", None)) for part in self.parts.values())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableState | None:
        """Rebuild a state from a snapshot; None when some part cannot be rebuilt (then replay)."""
        state = cls()
        for name, part in state.parts.items():
            rebuild = getattr(type(part), "from_dict", None)
            if name in data:
                if not callable(rebuild):
                    return None
                state.parts[name] = _rebuilt(name, rebuild, data[name])
        return state


class PartsOnDemand(TableState):
    """A state whose parts are made one by one on first use, by `make(name)`: a view that reads one
    part of a projected table (the hand a Gamma World step shows) pays for that part alone."""

    def __init__(self, make: Callable[[str], Any]) -> None:  # no parts made yet: TableState's are fresh
        self._make = make
        self._made: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        made = self._made
        if name not in made:
            if name not in _PART_FACTORIES:
                raise KeyError(name)
            made[name] = self._make(name)
        return made[name]

    @property
    def parts(self) -> dict[str, Any]:
        """Every part (made now, those not made yet), as TableState holds them."""
        for name in _PART_FACTORIES:
            self[name]
        return self._made

    @parts.setter
    def parts(self, parts: dict[str, Any]) -> None:
        self._made = parts


def rebuilt_part(name: str, picture: Any) -> Any:
    """Part `name` rebuilt from its picture (its type's `from_dict`); a DataError when it cannot be."""
    part = _PART_FACTORIES[name]()
    rebuild = getattr(type(part), "from_dict", None)
    if not callable(rebuild):
        raise DataError(t("core.err.snapshot_part", part=name, error="no from_dict"))
    return _rebuilt(name, rebuild, picture)


def _rebuilt(name: str, rebuild: Callable[[Any], Any], data: Any) -> Any:
    """One part rebuilt from its snapshot picture; a picture it cannot read (a hand edit, a damaged
    file) is a DataError naming the part, so that the caller can replay the log instead."""
    try:
        return rebuild(data)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, GameKernelError) as error:
        raise DataError(t("core.err.snapshot_part", part=name, error=f"{type(error).__name__}: {error}")) from None


def part_picture(part: Any) -> Any:
    """One part's JSON-able picture (its `to_dict`, or the part itself when it is plain data)."""
    to_dict = getattr(part, "to_dict", None)
    return to_dict() if callable(to_dict) else part
