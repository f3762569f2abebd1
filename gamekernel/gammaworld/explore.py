"""Gamma World's odds explorer (`%explore alpha`, declared in the rule set's `RuleSet`): at least one Alpha
Flux over N d20 rolls (GW-ALPHA-10) and overcharge success by origin bonus (GW-ALPHA-13/14), exact, from
the rules' own odds (gammaworld/rules/odds.py); the explorer widget only shows the tables and sends the
controls back.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gamekernel.display.html import sign
from gamekernel.display.numbers import percent
from gamekernel.errors import UsageError
from gamekernel.gammaworld.rules.odds import p_flux, p_overcharge
from gamekernel.i18n import t
from gamekernel.lessons import Table, bounded, cell

if TYPE_CHECKING:
    from gamekernel.args import Args
    from gamekernel.rulesets import Core


@dataclass(frozen=True)
class AlphaFigures:
    flux: tuple[tuple[int, Fraction], ...]  # (d20 rolls in the encounter, P(at least one flux))
    overcharge: tuple[tuple[int, Fraction], ...]  # (origin bonus, P(overcharge succeeds))


def alpha_figures(rolls: int, bonus: int, success_min: int = 10) -> AlphaFigures:
    """Flux chance for 1..rolls d20 rolls; overcharge success for bonuses around `bonus`."""
    flux = tuple((n, p_flux(n)) for n in range(1, max(1, rolls) + 1))
    low = max(-5, bonus - 4)
    overcharge = tuple((b, p_overcharge(b, success_min)) for b in range(low, low + 10))
    return AlphaFigures(flux, overcharge)


def alpha_tables(figures: AlphaFigures, rolls: int, bonus: int) -> list[Table]:
    flux = [{"head": str(n), "mark": n == rolls, "cells": [cell(p, mark=n == rolls)]} for n, p in figures.flux]
    over = [{"head": sign(b), "mark": b == bonus, "cells": [cell(p, mark=b == bonus)]} for b, p in figures.overcharge]
    return [{"id": "flux", "title": t("explore.alpha.flux"), "columns": [t("explore.alpha.rolls"),
                                                                           t("explore.alpha.at_least_one")],
             "rows": flux},
            {"id": "overcharge", "title": t("explore.alpha.overcharge"),
             "columns": [t("explore.alpha.bonus"), t("explore.alpha.success")], "rows": over}]


class AlphaExplorer:
    """`%explore alpha @Rin`: the flux chance over the encounter's d20 rolls, the overcharge by bonus."""

    mode = "alpha"

    def __init__(self, actor: str, bonus: int, rolls: int = 10):
        self.actor, self.bonus, self.rolls = actor, bonus, rolls

    def controls(self) -> list[dict[str, Any]]:
        return [{"name": "rolls", "kind": "range", "min": 1, "max": 30, "value": self.rolls,
                 "label": t("explore.rolls")},
                {"name": "bonus", "kind": "range", "min": -5, "max": 10, "value": self.bonus,
                 "label": t("explore.bonus")}]

    def set(self, name: str, value: Any) -> None:
        if name == "rolls":
            self.rolls = bounded(value, 1, 30, name)
        elif name == "bonus":
            self.bonus = bounded(value, -5, 10, name)
        else:
            raise UsageError(t("explore.err.control", name=name))

    def tables(self) -> list[Table]:
        return alpha_tables(alpha_figures(self.rolls, self.bonus), self.rolls, self.bonus)

    def summary(self) -> str:
        return t("explore.alpha.summary", actor=self.actor, rolls=self.rolls, flux=percent(p_flux(self.rolls)),
                 bonus=sign(self.bonus), over=percent(p_overcharge(self.bonus)))


def open_alpha(session: Core, args: Args) -> AlphaExplorer:
    """`%explore alpha [@Name]`: the named character's origin bonus (0 with nobody named)."""
    from gamekernel.gammaworld.actions import GammaWorld
    from gamekernel.gammaworld.rules.play import character

    state = GammaWorld.of(session).state
    name = character(state, args.actor).name if args.actor else ""
    return AlphaExplorer(name, state.origin_bonus(name) if name else 0)
