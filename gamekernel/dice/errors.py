"""The one exception of the dice engine: where the notation went wrong and what was expected."""

from __future__ import annotations

from collections.abc import Callable

from gamekernel.errors import GameKernelError


class DiceError(GameKernelError):
    """Bad dice notation or a request beyond the limits.

    `column` is 1-based in the text as the user typed it (full-width characters count as one),
    `expected` says what would have been accepted there, `text` is the input.
    """

    def __init__(self, message: str, *, column: int, expected: str, text: str, kind: str = "limit"):
        super().__init__(message)
        self.column = column
        self.expected = expected
        self.text = text
        self.kind = kind  # "syntax" (the notation is wrong) or "limit" (valid but refused)

    def __reduce__(self) -> tuple[Callable[..., DiceError], tuple[str, int, str, str, str]]:
        return (_rebuild, (self.message, self.column, self.expected, self.text, self.kind))


def _rebuild(message: str, column: int, expected: str, text: str, kind: str) -> DiceError:
    return DiceError(message, column=column, expected=expected, text=text, kind=kind)


def expected_error(
    text: str, column: int, expected_key: str, *, after: str | None = None, found: str | None = None, **fields: object
) -> DiceError:
    """'expected a number after '+' at column 4' and its siblings, in the current language."""
    from gamekernel.i18n import t  # only on the error path: keeps `import gamekernel.dice` light
    expected = t(expected_key, **fields)
    if after is not None:
        message = t("dice.err.expected_after", expected=expected, after=after, column=column)
    elif found is not None:
        message = t("dice.err.expected_found", expected=expected, found=found, column=column)
    else:
        message = t("dice.err.expected_at", expected=expected, column=column)
    return DiceError(message, column=column, expected=expected, text=text, kind="syntax")


def limit_error(text: str, column: int, key: str, expected_key: str, **fields: object) -> DiceError:
    """A refusal that is not a syntax error (too long, too many dice, division by zero ...)."""
    from gamekernel.i18n import t
    return DiceError(
        t(key, column=column, **fields), column=column, expected=t(expected_key, **fields), text=text
    )
