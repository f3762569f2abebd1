"""Dice notation -> AST -> roll, and exact distributions. No IPython imports here.

    >>> import random
    >>> from gamekernel.dice import roll, distribution
    >>> roll("3d+2 cutting", random.Random(7)).total    # GURPS: 3d = 3d6
    >>> distribution("3d6<=12").p_success               # Fraction(20, 27)
"""

from gamekernel.dice.errors import DiceError
from gamekernel.dice.limits import Limits
from gamekernel.dice.odds import Distribution, distribution
from gamekernel.dice.parser import Expression, parse
from gamekernel.dice.result import DieRoll, RollResult, roll

__all__ = [
    "DiceError",
    "DieRoll",
    "Distribution",
    "Expression",
    "Limits",
    "RollResult",
    "distribution",
    "parse",
    "roll",
]
