"""Exact distributions of dice expressions: integer counts, Fractions only when asked.

`distribution("4d6kh3")` walks the same AST the roller uses, so the distribution describes
exactly what `roll` does under the same Limits: explosions stop after `explode_depth` extra
dice per die, rerolls after `explode_depth` rerolls. `truncated_mass` is the chance that some
die reached the explosion cap - the only outcomes where unlimited explosion would differ.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property, lru_cache
from math import isqrt

from gamekernel.dice import exact
from gamekernel.dice.errors import limit_error
from gamekernel.dice.limits import DEFAULT_LIMITS, Limits
from gamekernel.dice.nodes import Chain, Dice, Group, Mods, Neg, Num
from gamekernel.dice.parser import Expression, parse
from gamekernel.display import Displayable

_OPS = {
    "<=": lambda d, t: d <= t,
    ">=": lambda d, t: d >= t,
    "<": lambda d, t: d < t,
    ">": lambda d, t: d > t,
    "=": lambda d, t: d == t,
}


class Distribution(Displayable):
    """The exact distribution of an expression's total (and, for a comparison, P(success))."""

    __slots__ = ("__dict__",)
    _lo: int
    _weights: tuple[int, ...]
    text: str
    label: str
    comparison: tuple[str, int | str] | None
    _success: tuple[int | None, int | None]  # (ways, denominator) of the comparison, or (None, None)
    _truncated: Fraction | None
    explode_depth: int

    def __init__(
        self,
        lo: int,
        weights: tuple[int, ...],
        *,
        text: str = "",
        label: str = "",
        comparison: tuple[str, int | str] | None = None,
        success_ways: int | None = None,
        success_denominator: int | None = None,
        truncated_mass: Fraction | None = None,
        explode_depth: int = DEFAULT_LIMITS.explode_depth,
    ):
        lo, weights = exact.trim((lo, tuple(weights)))
        set_ = self.__dict__.update
        set_(
            _lo=lo,
            _weights=weights,
            text=text,
            label=label,
            comparison=comparison,
            _success=(success_ways, success_denominator),
            _truncated=truncated_mass,
            explode_depth=explode_depth,
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Distribution is immutable")

    def __delattr__(self, name: str) -> None:
        """Deleting a field is refused like setting one: it would leave a half-built distribution."""
        raise AttributeError("Distribution is immutable")

    @property
    def truncated_mass(self) -> Fraction:
        """P(some die reached the explosion cap): where unlimited explosion would differ."""
        return Fraction(0) if self._truncated is None else self._truncated

    # ----- the counts
    @cached_property
    def counts(self) -> dict[int, int]:
        """outcome -> number of ways (exact ints; zero-count outcomes left out)."""
        lo = self._lo
        return {lo + i: c for i, c in enumerate(self._weights) if c}

    @cached_property
    def denominator(self) -> int:
        return sum(self._weights)

    @property
    def min(self) -> int:
        return self._lo

    @property
    def max(self) -> int:
        return self._lo + len(self._weights) - 1

    def probabilities(self) -> dict[int, Fraction]:
        """outcome -> exact probability (built on request: Fractions are slow for big supports)."""
        d = self.denominator
        return {v: Fraction(c, d) for v, c in self.counts.items()}

    # ----- moments
    @cached_property
    def mean(self) -> Fraction:
        lo = self._lo
        return Fraction(sum((lo + i) * c for i, c in enumerate(self._weights)), self.denominator)

    @cached_property
    def variance(self) -> Fraction:
        lo = self._lo
        second = Fraction(sum((lo + i) ** 2 * c for i, c in enumerate(self._weights)), self.denominator)
        return second - self.mean**2

    @cached_property
    def stdev(self) -> float:
        v = self.variance
        # exact enough for huge numerators: integer square root before the float division
        scale = 1 << 64
        return isqrt(v.numerator * scale * scale // v.denominator) / scale if v else 0.0

    # ----- point and tail probabilities
    @cached_property
    def _cumulative(self) -> list[int]:
        running, out = 0, []
        for c in self._weights:
            running += c
            out.append(running)
        return out

    def _ways_le(self, k: int) -> int:
        if k < self._lo:
            return 0
        index = k - self._lo
        cumulative = self._cumulative
        return cumulative[min(index, len(cumulative) - 1)]

    def ways_eq(self, k: int) -> int:
        index = k - self._lo
        return self._weights[index] if 0 <= index < len(self._weights) else 0

    def p_eq(self, k: int) -> Fraction:
        return Fraction(self.ways_eq(k), self.denominator)

    def p_le(self, k: int) -> Fraction:
        return Fraction(self._ways_le(k), self.denominator)

    def p_lt(self, k: int) -> Fraction:
        return Fraction(self._ways_le(k - 1), self.denominator)

    def p_ge(self, k: int) -> Fraction:
        return Fraction(self.denominator - self._ways_le(k - 1), self.denominator)

    def p_gt(self, k: int) -> Fraction:
        return Fraction(self.denominator - self._ways_le(k), self.denominator)

    @property
    def p_success(self) -> Fraction | None:
        """Exact P(comparison holds), or None when the expression has no comparison."""
        ways, denominator = self._success
        return None if ways is None else Fraction(ways, denominator)

    def successful(self, outcome: int) -> bool | None:
        """Is this total a success (None without a comparison or against dice)?"""
        if self.comparison is None or not isinstance(self.comparison[1], int):
            return None
        op, target = self.comparison
        return _OPS[op](outcome, target)

    # ----- display
    def __repr__(self) -> str:
        extra = f", p_success={self.p_success}" if self.comparison else ""
        return (
            f"Distribution({self.text!r}, {len(self.counts)} outcomes {self.min}..{self.max}, "
            f"mean={float(self.mean):.4f}{extra})"
        )

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, Distribution)
            and (self._lo, self._weights, self.comparison, self._success)
            == (other._lo, other._weights, other.comparison, other._success)
        )

    def __hash__(self) -> int:
        return hash((self._lo, self._weights, self.comparison))


# ----- evaluation


class _Walker:
    """Computes the distribution of each node; collects the explosion miss probability."""

    def __init__(self, depth: int):
        self.depth = depth
        self.survive = None  # P(no die reached the explosion cap), once a die can explode

    def dist(self, node) -> exact.Dist:
        kind = type(node)
        if kind is Dice:
            return self.dice(node)
        if kind is Num:
            return exact.constant(node.value)
        if kind is Neg:
            return exact.negate(self.dist(node.operand))
        if kind is Group:
            return self.dist(node.inner)
        if kind is Chain:
            total = self.dist(node.first)
            for op, operand, col in node.rest:
                right = self.dist(operand)
                try:
                    total = _apply(op, total, right, col)
                except exact.TooLarge as error:
                    error.column = col
                    raise
            return total
        raise TypeError(f"unknown node {node!r}")

    def dice(self, node: Dice) -> exact.Dist:
        count, sides, mods = node.count, node.sides, node.mods
        try:
            if mods is None:
                return exact.plain_dice(count, sides)
            if mods.explode is not None:
                hit, total = exact.explode_miss(sides, mods.reroll, mods.reroll_once, mods.explode, self.depth)
                survive = (1 - Fraction(hit, total) ** (self.depth + 1)) ** count
                self.survive = survive if self.survive is None else self.survive * survive
            return _modified(count, sides, mods, self.depth)
        except exact.TooLarge as error:
            error.column = node.col
            raise


def _apply(op: str, left: exact.Dist, right: exact.Dist, col: int) -> exact.Dist:
    if op == "+":
        return exact.convolve(left, right)
    if op == "-":
        return exact.convolve(left, exact.negate(right))
    if op == "/":
        lo, counts = right
        if -lo < len(counts) and lo <= 0 and counts[-lo]:
            raise _ZeroDivisor(col)
        return exact.combine(left, right, lambda a, b: a // b)
    return exact.combine(left, right, lambda a, b: a * b)


class _ZeroDivisor(Exception):
    def __init__(self, column: int):
        super().__init__(column)
        self.column = column


@lru_cache(maxsize=512)
def _modified(count: int, sides: int, mods: Mods, depth: int) -> exact.Dist:
    if mods.only_keep():
        die = (1, (1,) * sides)
    else:
        die = exact.single_modified(
            sides, mods.reroll, mods.reroll_once, mods.explode, mods.low, mods.high, depth
        )
    if mods.keep is None:
        return exact.power(die, count)
    highest, keep = mods.kept_count(count)
    if highest:
        return exact.keep_highest(die, count, keep)
    return exact.keep_lowest(die, count, keep)


def distribution(expr: str | Expression, limits: Limits = DEFAULT_LIMITS) -> Distribution:
    """The exact distribution of dice notation; comparisons also give `p_success`."""
    expression = expr if isinstance(expr, Expression) else parse(expr, limits)
    if expression.dice_count > limits.max_dice:
        raise limit_error(
            expression.source, 1, "dice.err.too_many_dice", "dice.exp.fewer_dice",
            count=expression.dice_count, limit=limits.max_dice,
        )
    walker = _Walker(limits.explode_depth)
    try:
        lo, weights = walker.dist(expression.ast)
        comparison = None
        ways = denominator = None
        if expression.comparison is not None:
            op, node = expression.comparison
            rhs = walker.dist(node)
            test = _OPS[op]
            if len(rhs[1]) == 1:  # a fixed target
                target = rhs[0]
                comparison = (op, target)
                ways = sum(c for i, c in enumerate(weights) if test(lo + i, target))
                denominator = sum(weights)
            else:  # against dice: P(left - right op 0)
                comparison = (op, expression.text.split(f" {op} ", 1)[1])
                dlo, dweights = exact.convolve((lo, weights), exact.negate(rhs))
                ways = sum(c for i, c in enumerate(dweights) if test(dlo + i, 0))
                denominator = sum(dweights)
    except _ZeroDivisor as error:
        raise limit_error(expression.source, error.column, "dice.err.divide_zero", "dice.exp.nonzero") from None
    except exact.TooLarge as error:
        raise limit_error(
            expression.source, getattr(error, "column", 1), "dice.err.too_large", "dice.exp.smaller",
            size=error.size,
        ) from None
    return Distribution(
        lo,
        weights,
        text=expression.text,
        label=expression.label,
        comparison=comparison,
        success_ways=ways,
        success_denominator=denominator,
        truncated_mass=None if walker.survive is None else 1 - walker.survive,
        explode_depth=limits.explode_depth,
    )


