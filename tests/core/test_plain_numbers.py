"""Numbers in plain notation: no `7.312e+15` or `6e-05%` in any odds output."""

import re
from fractions import Fraction

import pytest

from gamekernel import Session
from gamekernel.display.numbers import count, decimal, percent

SCIENTIFIC = re.compile(r"\d[eE][+-]?\d")


@pytest.mark.parametrize(("p", "text"), [
    (Fraction(0), "0%"), (Fraction(1), "100%"), (Fraction(6, 10**7), "< 0.01%"), (Fraction(1, 10**4), "0.01%"),
    (Fraction(1, 3), "33.33%"), (Fraction(9999, 10**4), "99.99%"), (Fraction(10**7 - 6, 10**7), "> 99.99%"),
])
def test_percent_never_rounds_a_possible_outcome_away(p, text):
    assert percent(p) == text


def test_percent_with_one_decimal_and_counts_and_decimals():
    assert (percent(Fraction(1, 3000), 1), percent(Fraction(1, 3), 1)) == ("< 0.1%", "33.3%")
    assert count(7_312_316_880_000_000) == "7,312,316,880,000,000" and count(216) == "216"
    assert (decimal(10.5, 3), decimal(2.9580398915, 3), decimal(12345.0), decimal(3.0)) == (
        "10.5", "2.958", "12,345", "3")


@pytest.mark.parametrize("spec", ["1d6!", "20d6", "3d6"])
def test_odds_tables_print_no_scientific_notation(spec):
    dist = Session(seed=1).odds(spec)
    for output in (repr(dist), dist._repr_html_()):
        output = re.sub(r"#[0-9a-fA-F]{3,8}\b", "", output)  # hex colours such as #9e9e9e are not numbers
        assert not SCIENTIFIC.search(output), output
