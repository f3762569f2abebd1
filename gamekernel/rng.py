"""The session's random number generator, able to put back the draws of a refused command.

A refused command must consume no dice (so seeded replays agree). Copying the generator's state
before every command costs more than most commands (625 words); this generator copies it only when a
command actually draws, the first time it does.
"""

from __future__ import annotations

import random

Mark = tuple[bool, "tuple | None"]


class TransactionalRandom(random.Random):
    """`random.Random` with `begin()` / `rollback()` / `end()` around one command (nestable)."""

    _armed = False  # inside a command that has not drawn yet: the next draw saves the state first
    _saved: tuple | None = None  # the state before the command's first draw

    def begin(self) -> Mark:
        """Start a command; returns what `end` needs to restore the enclosing command's bookkeeping."""
        mark = (self._armed, self._saved)
        self._armed, self._saved = True, None
        return mark

    def rollback(self) -> None:
        """Put back every draw since `begin` (nothing to do when there was none)."""
        if self._saved is not None:
            super().setstate(self._saved)

    def end(self, mark: Mark) -> None:
        outer_armed, outer_saved = mark
        if outer_saved is not None:
            self._armed, self._saved = False, outer_saved
        elif outer_armed and self._saved is not None:  # the outer command had not drawn: same state
            self._armed, self._saved = False, self._saved
        else:
            self._armed, self._saved = outer_armed, None

    def _before_draw(self) -> None:
        self._armed = False
        self._saved = super().getstate()

    def getrandbits(self, k: int) -> int:
        if self._armed:
            self._before_draw()
        return super().getrandbits(k)

    def random(self) -> float:
        if self._armed:
            self._before_draw()
        return super().random()
