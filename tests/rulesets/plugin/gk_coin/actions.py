"""The coin's state and its one operation, `session.rules["coin"].flip(times)` (`session.coin.flip`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gamekernel.display import Displayable
from gamekernel.errors import UsageError
from gamekernel.events import register_event
from gamekernel.i18n import t
from gamekernel.rulesets import RuleSetHandle
from gamekernel.state import register_part


@dataclass
class CoinState:
    heads: int = 0
    tails: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"heads": self.heads, "tails": self.tails}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CoinState:
        return cls(int(data["heads"]), int(data["tails"]))


@dataclass(frozen=True, repr=False)
class FlipResult(Displayable):
    faces: tuple[str, ...]


def _apply_flip(state: Any, data: Mapping[str, Any]) -> None:
    part = state["coin"]
    part.heads += data["faces"].count("heads")
    part.tails += data["faces"].count("tails")


register_part("coin", CoinState)
register_event("coin.flip", apply=_apply_flip)


class Coin(RuleSetHandle):
    """The coin on one table: gamekernel makes it from this rule set's declaration, as
    `session.rules["coin"]` (and `session.coin`); `self.table` is the session's core (`rng`,
    `record`, `state`), typed."""

    name = "coin"

    def flip(self, times: int = 1) -> FlipResult:
        if not 1 <= times <= 100:
            raise UsageError(t("coin.err.times", times=times))
        faces = tuple("heads" if self.table.rng.random() < 0.5 else "tails" for _ in range(times))
        self.table.record("coin.flip", {"faces": list(faces)})
        return FlipResult(faces)

    @property
    def state(self) -> CoinState:
        part: CoinState = self.table.state["coin"]
        return part
