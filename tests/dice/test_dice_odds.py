"""Exact distributions checked against brute-force enumeration (itertools.product) and rule facts."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from gamekernel.dice import DiceError, Distribution, Limits, distribution, parse
from gamekernel.dice.nodes import Chain, Dice, Group, Neg, Num

SMALL = Limits(explode_depth=2)


# ----- an independent, naive enumerator (Fractions and dicts, no packing, no DP)


def _physical(sides, mods, depth):
    """(probability, face) of one physical die after rerolls, enumerated path by path."""
    limit = 0 if mods.reroll is None else (1 if mods.reroll_once else depth)

    def rec(tries):
        for face in range(1, sides + 1):
            p = Fraction(1, sides)
            if mods.reroll is not None and mods.reroll[0] <= face <= mods.reroll[1] and tries < limit:
                for q, final in rec(tries + 1):
                    yield p * q, final
            else:
                yield p, face

    yield from rec(0)


def _chains(sides, mods, depth):
    """(probability, total) of one die with its explosion chain."""

    def clamp(face):
        if mods.low is not None:
            face = max(face, mods.low)
        if mods.high is not None:
            face = min(face, mods.high)
        return face

    def rec(extra):
        for p, face in _physical(sides, mods, depth):
            value = clamp(face)
            if mods.explode is not None and mods.explode[0] <= face <= mods.explode[1] and extra < depth:
                for q, rest in rec(extra + 1):
                    yield p * q, value + rest
            else:
                yield p, value

    merged = {}
    for p, v in rec(0):
        merged[v] = merged.get(v, 0) + p
    return merged


def _dice(node: Dice, depth):
    if node.mods is None:
        per_die = {f: Fraction(1, node.sides) for f in range(1, node.sides + 1)}
        mods = None
    else:
        mods = node.mods
        per_die = _chains(node.sides, mods, depth)
    out = {}
    for combo in itertools.product(per_die.items(), repeat=node.count):
        p = Fraction(1)
        values = []
        for value, q in combo:
            p *= q
            values.append(value)
        if mods is not None and mods.keep is not None:
            highest, keep = mods.kept_count(node.count)
            values = sorted(values, reverse=highest)[:keep]
        total = sum(values)
        out[total] = out.get(total, 0) + p
    return out


def _combine(a, b, op):
    out = {}
    for x, p in a.items():
        for y, q in b.items():
            v = op(x, y)
            out[v] = out.get(v, 0) + p * q
    return out


OPS = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
       "x": lambda x, y: x * y, "/": lambda x, y: x // y}


def brute(node, depth):
    kind = type(node)
    if kind is Num:
        return {node.value: Fraction(1)}
    if kind is Dice:
        return _dice(node, depth)
    if kind is Neg:
        return {-v: p for v, p in brute(node.operand, depth).items()}
    if kind is Group:
        return brute(node.inner, depth)
    if kind is Chain:
        acc = brute(node.first, depth)
        for op, operand, _ in node.rest:
            acc = _combine(acc, brute(operand, depth), OPS[op])
        return acc
    raise TypeError(node)


def brute_probabilities(text, limits=SMALL):
    expr = parse(text, limits)
    return {v: p for v, p in brute(expr.ast, limits.explode_depth).items() if p}


@pytest.mark.parametrize(
    "text",
    [
        "3d6", "2d4+1d6", "1d6-1d4", "d%", "2d3*2", "1d6*1d4", "1d6/2", "(1d4-2)*3", "-1d6+1d4",
        "1d7/1d3", "3d-1x2", "1d4x1d4+1",
        "4d6kh3", "4d6kl1", "4d6dh1", "4d6dl1", "3d4k2", "5d3kh2", "3d5kl2", "4d4kh0", "2d6kh5",
        "2d6r1", "1d6r<3", "2d6ro<3", "1d4ro4", "2d6mi2", "2d6ma4", "2d6mi2ma5", "1d6mi5ma3",
        "1d6!", "2d4!", "2d4!>3", "1d6r1!", "3d4!kh2", "2d4!mi2kl1", "1d3!<=1", "1d6ro>4!kh1",
    ],
)
def test_distribution_matches_brute_force(text):
    exact = distribution(text, SMALL)
    assert exact.probabilities() == brute_probabilities(text)
    assert sum(exact.counts.values()) == exact.denominator


def test_gurps_sr_02_three_dice_at_or_under_ten_is_half():
    """GURPS-SR-02 (3d against a target, success iff total <= target): P(3d6 <= 10) = 108/216."""
    d = distribution("3d6")
    assert d.p_le(10) == Fraction(108, 216)
    assert distribution("3d6<=10").p_success == Fraction(1, 2)
    assert d.counts == {3: 1, 4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 25, 10: 27,
                        11: 27, 12: 25, 13: 21, 14: 15, 15: 10, 16: 6, 17: 3, 18: 1}
    assert d.denominator == 216


def test_four_d6_keep_three_mean():
    d = distribution("4d6kh3")
    assert d.mean == Fraction(15869, 1296)
    assert round(float(d.mean), 4) == 12.2446
    assert d.denominator == 1296 and d.min == 3 and d.max == 18


@pytest.mark.parametrize(
    ("text", "p"),
    [
        ("3d6<=12", Fraction(160, 216)),
        ("3d6 <= 12", Fraction(160, 216)),
        ("1d20>=15", Fraction(6, 20)),
        ("1d20>15", Fraction(5, 20)),
        ("1d20<5", Fraction(4, 20)),
        ("2d6=7", Fraction(6, 36)),
        ("2d6==7", Fraction(6, 36)),
        ("1d6>=1d6", Fraction(21, 36)),
        ("1d20+5>=1d20", Fraction(59, 80)),
    ],
)
def test_comparison_probability_is_exact(text, p):
    assert distribution(text).p_success == p


def test_comparison_probability_against_brute_force():
    d = distribution("2d4+1 > 1d6", SMALL)
    left, right = brute_probabilities("2d4+1"), brute_probabilities("1d6")
    expected = sum(p * q for x, p in left.items() for y, q in right.items() if x > y)
    assert d.p_success == expected


def test_tail_probabilities():
    d = distribution("2d6")
    assert d.p_eq(7) == Fraction(1, 6)
    assert d.p_lt(3) == Fraction(1, 36) and d.p_gt(11) == Fraction(1, 36)
    assert d.p_ge(2) == 1 and d.p_le(12) == 1 and d.p_le(1) == 0 and d.p_ge(13) == 0
    assert d.p_eq(100) == 0
    assert d.variance == Fraction(35, 6)
    assert d.stdev == pytest.approx((35 / 6) ** 0.5, rel=1e-12)
    assert d.p_success is None and d.comparison is None


def test_large_pools_are_exact():
    d = distribution("100d6")
    assert d.min == 100 and d.max == 600 and len(d.counts) == 501
    assert d.denominator == 6**100 and d.mean == 350 and d.variance == Fraction(100 * 35, 12)
    assert d.counts[100] == 1 and d.counts[101] == 100
    d = distribution("20d20")
    assert d.denominator == 20**20 and d.mean == 210


def test_keep_highest_of_many_dice_matches_a_small_enumeration_by_symmetry():
    # 10d6kh3 is too big for brute force at 6^10; check it against a combinatorial count:
    # P(all three kept dice are 6) = P(at least three sixes among ten)
    d = distribution("10d6kh3")
    from math import comb

    at_least_three = sum(comb(10, k) * 5 ** (10 - k) for k in range(3, 11))
    assert d.counts[18] == at_least_three
    assert d.denominator == 6**10
    d = distribution("20d20kh5")
    assert d.max == 100 and d.min == 5 and d.counts[5] == 1


def test_explosion_truncation_is_reported():
    d = distribution("1d6!", Limits(explode_depth=2))
    assert d.truncated_mass == Fraction(1, 6**3)
    assert d.explode_depth == 2 and d.max == 18
    two = distribution("2d6!", Limits(explode_depth=2))
    assert two.truncated_mass == 1 - (1 - Fraction(1, 216)) ** 2
    assert distribution("3d6").truncated_mass == 0


def test_reroll_until_is_bounded_like_the_roller():
    d = distribution("1d6r1", Limits(explode_depth=3))
    assert d.p_eq(1) == Fraction(1, 6**4)
    assert d.p_eq(2) == (1 - Fraction(1, 6**4)) / 5


def test_division_by_a_possible_zero_is_an_error():
    with pytest.raises(DiceError, match=r"^division by zero at column 4$"):
        distribution("1d6/(1d6-1d6)")


def test_too_large_distributions_are_refused_with_a_clear_error():
    with pytest.raises(DiceError, match=r"^the exact distribution at column 1 is too large to compute"):
        distribution("10000d1000")
    with pytest.raises(DiceError, match="too large"):
        distribution("1d1000*1d1000*1d1000*1d1000")


def test_distribution_of_a_parsed_expression_and_label():
    d = distribution(parse("3d6+1 sneak"))
    assert d.label == "sneak" and d.text == "3d6+1" and d.min == 4


def test_distribution_text_and_html():
    d = distribution("3d6<=12 stealth <i>")
    text = str(d)
    assert "P(success) = 20/27 = 74.07%" in text
    assert "stealth" in text
    html = d._repr_html_()
    assert "P(success) = 20/27 = 74.07%" in html
    assert "&lt;i&gt;" in html and "<i>" not in html
    assert html.count("<tr") == 17  # header + 16 outcomes
    assert 'class="gk gk-odds"' in html and "gk-bars" in html
    assert html.count("background:var(--jp-brand-color1") == 10  # outcomes 3..12 highlighted as successes
    assert d._repr_html_() == html
    assert "http" not in html and "<script" not in html


def test_big_support_is_trimmed_and_grouped():
    d = distribution("100d6")
    html = d._repr_html_()
    assert html.count("<tr") <= 42
    assert "are not listed" in html and "rows group" in html
    assert "are not listed" in str(d)


def test_distribution_equality_and_repr():
    assert distribution("2d6") == distribution("1d6+1d6")
    assert repr(distribution("2d6")) == "Distribution('2d6', 11 outcomes 2..12, mean=7.0000)"
    assert isinstance(distribution("1"), Distribution)
    with pytest.raises(AttributeError):
        distribution("2d6").mean = 3  # type: ignore[misc]
