"""The project-wide error base: every user mistake raises a subclass of GameKernelError.

Magics catch GameKernelError and show its one-line message; anything else is a bug and keeps
its traceback.
"""


class GameKernelError(Exception):
    """A user-facing error: one line saying what was wrong and where."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class UsageError(GameKernelError):
    """A command was called with the wrong arguments."""


class RuleError(GameKernelError):
    """The rules forbid the action (e.g. a success roll below effective skill 3)."""


class DataError(GameKernelError):
    """A data file (character, deck, log, decklist) is invalid; the message names file, line, field."""


class NotFoundError(GameKernelError):
    """A named thing (character, skill, card, deck) does not exist; the message suggests close matches."""


class StorageError(GameKernelError):
    """A file could not be written (disk full, read-only folder): nothing was changed, in memory or on disk."""
