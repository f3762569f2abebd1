"""GURPS's odds explorers (`%explore check`, `%explore contest`, declared in the rule set's `RuleSet`): every
figure exact, as Fractions, from the rules' own odds (gurps/rules/odds.py); the explorer widget only shows
the tables and sends the controls back.

- `check_curve`: success, critical success, critical failure over effective skill (GURPS-SR-02..08).
- `contest_grid`: Quick Contest win/lose/tie over both skills (SR-10) and the expected rounds of a
  Regular Contest (SR-12: a round decides only when exactly one side succeeds; rounds are geometric).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gamekernel.display.html import sign
from gamekernel.display.numbers import percent
from gamekernel.errors import UsageError
from gamekernel.gurps.render import display_name
from gamekernel.gurps.rules.checks import CheckOdds, check_odds
from gamekernel.gurps.rules.odds import ContestOdds, quick_contest_odds
from gamekernel.i18n import t
from gamekernel.lessons import Table, bounded, cell, fraction_text

if TYPE_CHECKING:
    from gamekernel.args import Args
    from gamekernel.rulesets import Core

SKILLS = tuple(range(3, 19))  # effective skills where 3d6 outcomes still change
# usual situations for a success roll: (i18n key, modifier); seed examples and GURPS-CMB-33
SITUATIONS = (("explore.situation.dark", -5), ("explore.situation.primitive", 10),
              ("explore.situation.footing", -2), ("explore.situation.distraction", -3))


@dataclass(frozen=True)
class CurvePoint:
    skill: int
    success: Fraction
    critical_success: Fraction
    critical_failure: Fraction


def check_curve(skills: Sequence[int] = SKILLS) -> tuple[CurvePoint, ...]:
    """Success and criticals at each effective skill."""
    points = []
    for skill in skills:
        odds = check_odds(skill)
        points.append(CurvePoint(skill, odds.success, odds.critical_success, odds.critical_failure))
    return tuple(points)


@dataclass(frozen=True)
class ContestCell:
    a: int
    b: int
    a_wins: Fraction
    b_wins: Fraction
    tie: Fraction
    regular_rounds: Fraction | None  # expected rounds of a Regular Contest (None: it never ends)


def expected_regular_rounds(a: int, b: int) -> Fraction | None:
    """SR-12: each round ends the contest with p = pA(1-pB) + pB(1-pA); the mean of a geometric is 1/p."""
    pa, pb = check_odds(a).success, check_odds(b).success
    decided = pa * (1 - pb) + pb * (1 - pa)
    return None if decided == 0 else 1 / decided


def contest_grid(a: int, b: int, spread: int = 3) -> tuple[tuple[ContestCell, ...], ...]:
    """Rows: A's skill a-spread..a+spread; columns: B's skill likewise (skills kept within 3..18)."""
    rows = []
    for skill_a in _around(a, spread):
        row = []
        for skill_b in _around(b, spread):
            odds = quick_contest_odds(skill_a, skill_b)
            row.append(ContestCell(skill_a, skill_b, odds.a_wins, odds.b_wins, odds.tie,
                                   expected_regular_rounds(skill_a, skill_b)))
        rows.append(tuple(row))
    return tuple(rows)


def _around(centre: int, spread: int) -> range:
    low = min(max(3, centre - spread), 18 - 2 * spread)
    return range(low, low + 2 * spread + 1)


# -- drawn: table specs and summaries -------------------------------------------------------------

def check_tables(points: Sequence[CurvePoint], effective: int) -> list[Table]:
    shown = min(max(effective, points[0].skill), points[-1].skill)
    rows = [{"head": str(p.skill), "mark": p.skill == shown,
             "cells": [cell(p.success, mark=p.skill == shown), cell(p.critical_success), cell(p.critical_failure)]}
            for p in points]
    return [{"id": "curve", "title": t("explore.check.curve"),
             "columns": [t("explore.check.skill"), t("explore.check.success"), t("explore.check.crit_success"),
                         t("explore.check.crit_failure")], "rows": rows}]


def check_summary(label: str, base: int, effective: int, odds: CheckOdds) -> str:
    """"Lockpicking 13 -3 = effective 10: ..." with the skill named as the current language names it."""
    return t("explore.check.summary", label=display_name(label) or base, base=base, change=sign(effective - base),
             effective=effective, p=percent(odds.success), fraction=fraction_text(odds.success))


def contest_tables(grid: tuple[tuple[ContestCell, ...], ...], a: int, b: int) -> list[Table]:
    columns = [t("explore.contest.corner")] + [str(c.b) for c in grid[0]]
    quick = [{"head": str(row[0].a), "mark": row[0].a == a,
              "cells": [cell(c.a_wins, mark=(c.a, c.b) == (a, b),
                             title=t("explore.contest.hover", a=fraction_text(c.a_wins), b=fraction_text(c.b_wins),
                                     tie=fraction_text(c.tie))) for c in row]} for row in grid]
    regular = [{"head": str(row[0].a), "mark": row[0].a == a,
                "cells": [cell(None if c.regular_rounds is None else 1 / c.regular_rounds, mark=(c.a, c.b) == (a, b),
                               text="∞" if c.regular_rounds is None else f"{float(c.regular_rounds):.2f}",
                               title=fraction_text(c.regular_rounds)) for c in row]} for row in grid]
    return [{"id": "quick", "title": t("explore.contest.quick"), "columns": columns, "rows": quick},
            {"id": "regular", "title": t("explore.contest.regular"), "columns": columns, "rows": regular}]


def contest_summary(odds: ContestOdds, rounds: Fraction | None) -> str:
    return t("explore.contest.summary", a=odds.a, b=odds.b, win=percent(odds.a_wins), lose=percent(odds.b_wins),
             tie=percent(odds.tie), rounds="∞" if rounds is None else f"{float(rounds):.2f}")


# -- the explorers ----------------------------------------------------------------------------------

class CheckExplorer:
    """`%explore check`: a skill's success and criticals, with a modifier slider and usual situations."""

    mode = "check"

    def __init__(self, label: str, base: int):
        self.label, self.base, self.modifier = label, base, 0
        self.toggles = {key: False for key, _ in SITUATIONS}

    @property
    def effective(self) -> int:
        return self.base + self.modifier + sum(v for k, v in SITUATIONS if self.toggles[k])

    def controls(self) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = [{"name": "modifier", "kind": "range", "min": -10, "max": 10,
                                        "value": self.modifier, "label": t("explore.modifier")}]
        items += [{"name": key, "kind": "toggle", "value": self.toggles[key], "label": t(key, value=value)}
                  for key, value in SITUATIONS]
        return items

    def set(self, name: str, value: Any) -> None:
        if name == "modifier":
            self.modifier = bounded(value, -10, 10, name)
        elif name in self.toggles:
            self.toggles[name] = bool(value)
        else:
            raise UsageError(t("explore.err.control", name=name))

    def tables(self) -> list[Table]:
        return check_tables(check_curve(), self.effective)

    def summary(self) -> str:
        return check_summary(self.label, self.base, self.effective, check_odds(self.effective))


class ContestExplorer:
    """`%explore contest`: a Quick Contest's and a Regular Contest's figures over both skills."""

    mode = "contest"

    def __init__(self, a: int, b: int):
        self.a, self.b = a, b

    def controls(self) -> list[dict[str, Any]]:
        return [{"name": "a", "kind": "range", "min": 3, "max": 18, "value": self.a, "label": t("explore.skill_a")},
                {"name": "b", "kind": "range", "min": 3, "max": 18, "value": self.b, "label": t("explore.skill_b")}]

    def set(self, name: str, value: Any) -> None:
        if name not in ("a", "b"):
            raise UsageError(t("explore.err.control", name=name))
        setattr(self, name, bounded(value, 3, 18, name))

    def tables(self) -> list[Table]:
        return contest_tables(contest_grid(self.a, self.b), self.a, self.b)

    def summary(self) -> str:
        return contest_summary(quick_contest_odds(self.a, self.b), expected_regular_rounds(self.a, self.b))


def open_check(session: Core, args: Args) -> CheckExplorer:
    """`%explore check Lockpicking @Aiko`: the skill's level on the actor's sheet (or a plain number)."""
    from gamekernel.gurps.actions import Gurps
    from gamekernel.gurps.rules.checks import parse_check_spec

    spec = parse_check_spec(args.spec, offset=args.column("spec") - 1)
    return CheckExplorer(args.spec, Gurps.of(session).check_target(spec, args.actor))


def open_contest(session: Core, args: Args) -> ContestExplorer:
    """`%explore contest 14 vs 12` (or `Stealth vs Perception @Aiko`): both sides' levels, within 3..18."""
    from gamekernel.gurps.actions import Gurps
    from gamekernel.gurps.rules.checks import parse_side, split_vs

    sides = split_vs(args.sides)
    if len(sides) != 2:
        raise UsageError(t("explore.err.usage"))
    a = Gurps.of(session).check_target(parse_side(sides[0]), args.actor)
    b = Gurps.of(session).check_target(parse_side(sides[1]), None)
    return ContestExplorer(min(max(a, 3), 18), min(max(b, 3), 18))
