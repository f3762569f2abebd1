"""Numbers as a reader expects them: plain notation, never scientific (no `7.312e+15`, no `6e-05%`).

Every renderer that prints a probability, a count of ways or a mean uses these, so static outputs,
widgets and the log read alike.
"""

from __future__ import annotations

from fractions import Fraction


def percent(p: Fraction | float, digits: int = 2) -> str:
    """A probability as a percentage with `digits` decimals that never rounds a possible outcome to
    0% or 100%: `< 0.01%`, `> 99.99%` at the edges."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = float(p) * 100
    smallest = 10.0 ** -digits
    if value < smallest:
        return f"< {smallest:.{digits}f}%"
    if value > 100 - smallest:
        return f"> {100 - smallest:.{digits}f}%"
    return f"{value:,.{digits}f}%"


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
PLAIN_DIGITS = 24  # up to this many digits a count is written out in full, with separators


def count(n: int) -> str:
    """A whole number with thousands separators (`7,312,316,880,000,000`); a count too long to read
    (`10d100r1` has 200-digit counts) as `≈ 1.234 × 10²⁰⁰`, computed from the integer (no float)."""
    digits = str(abs(n))
    if len(digits) <= PLAIN_DIGITS:
        return f"{n:,}"
    sign = "-" if n < 0 else ""
    return f"≈ {sign}{digits[0]}.{digits[1:4]} × 10{str(len(digits) - 1).translate(_SUPERSCRIPT)}"


def decimal(x: float, digits: int = 2) -> str:
    """A measurement (a mean, a spread) in plain notation with at most `digits` decimals."""
    text = f"{x:,.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
