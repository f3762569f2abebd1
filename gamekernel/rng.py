"""The session's random number generator, able to put back the draws of a refused command.

A refused command must consume no dice (so seeded replays agree). Copying the generator's state
(625 words, 625 new int objects) before every command that draws cost more than the draw itself; this
generator instead counts the 32-bit words the Mersenne Twister hands out. It keeps one checkpoint of
the full state, refreshed only between commands once a million words have gone by, and puts a refused
command's draws back by restoring the checkpoint and skipping forward to where the command began, in
one C call (`getrandbits(32 * n)` consumes exactly n words).
"""

from __future__ import annotations

import random
from collections.abc import Callable

# A mark: (epoch, words drawn before the command, the cached second Gaussian); an epoch ends at each
# `seed` or `setstate`, which start a new stream.
Mark = tuple[int, int, "float | None"]

_getrandbits, _random = random.Random.getrandbits, random.Random.random  # the Twister's own draws
# the Twister's own `getrandbits`, uncounted: a caller that draws with it adds the words itself, as
# `getrandbits` below counts them (the dice, gamekernel/dice/nodes.py `faces`: a Python call less a die)
raw_bits = _getrandbits
_REFRESH_WORDS = 1 << 20  # between commands, a checkpoint older than this many words is renewed


Seed = int | float | str | bytes | bytearray | None  # what random.Random accepts as a seed


class TransactionalRandom(random.Random):
    """`random.Random` with `begin()` / `rollback(mark)` / `end(mark)` around one command (nestable).

    The stream is exactly `random.Random`'s for the same seed; only `getrandbits` and `random` draw
    from the Twister (every other method goes through them), and each is counted in words.
    """

    def __init__(self, x: Seed = None) -> None:
        self._depth = 0
        self._epoch = 0
        self._words = 0
        self._checkpoints: dict[int, tuple[tuple, int]] = {}
        super().__init__(x)

    # -- the stream starts anew ------------------------------------------------------------
    def seed(self, a: Seed = None, version: int = 2) -> None:  # type: ignore[override]  # as random.Random narrows _random.Random
        super().seed(a, version)
        self._new_epoch()

    def setstate(self, state: tuple) -> None:
        super().setstate(state)
        self._new_epoch()

    def _new_epoch(self) -> None:
        # an open command may still be refused: the earlier epoch's checkpoint stays until it ends
        if not self._depth:
            self._checkpoints = {}
        self._epoch += 1
        self._words = 0
        self._checkpoints[self._epoch] = (random.Random.getstate(self), 0)

    # -- commands ----------------------------------------------------------------------------
    def begin(self) -> Mark:
        """Start a command; the mark says where its draws began."""
        if self._depth == 0:
            checkpoint = self._checkpoints.get(self._epoch)
            if checkpoint is None or self._words - checkpoint[1] > _REFRESH_WORDS:
                self._checkpoints = {self._epoch: (random.Random.getstate(self), self._words)}
        self._depth += 1
        return self._epoch, self._words, self.gauss_next

    def rollback(self, mark: Mark) -> None:
        """Put back every draw since `mark` (nothing to do when there was none)."""
        epoch, words, gauss_next = mark
        if epoch == self._epoch and words == self._words:
            self.gauss_next = gauss_next
            return
        state, at = self._checkpoints[epoch]
        random.Random.setstate(self, state)
        if words > at:
            super().getrandbits(32 * (words - at))
        self.gauss_next = gauss_next
        self._epoch, self._words = epoch, words
        for later in [e for e in self._checkpoints if e > epoch]:
            del self._checkpoints[later]

    def end(self, mark: Mark) -> None:
        """The command is over (kept or put back)."""
        self._depth -= 1
        if self._depth == 0 and len(self._checkpoints) > 1:
            self._checkpoints = {e: c for e, c in self._checkpoints.items() if e == self._epoch}

    # -- the two draws -----------------------------------------------------------------------
    def getrandbits(self, k: int) -> int:
        self._words += (k + 31) >> 5
        return _getrandbits(self, k)  # the C method itself: a shuffle calls this once a card

    def random(self) -> float:
        self._words += 2  # CPython's random() is built from two 32-bit words
        return _random(self)


class LazyDice(random.Random):
    """Draws from the stream `open_stream()` returns, opened at the first draw only: a card step
    that turns out to need no dice (a draw from the top) then neither keys nor logs a secret stream.
    Every draw goes through the stream's own `getrandbits` / `random`, so a shuffle or a sample here
    takes exactly the words the stream's own would (its command can still put them back)."""

    def __init__(self, open_stream: Callable[[], random.Random]) -> None:
        # no `random.Random.__init__`: seeding a Twister of its own is wasted on every card step,
        # as every draw goes to the stream's
        self._open = open_stream
        self._stream: random.Random | None = None
        self.gauss_next = None

    def _dice(self) -> random.Random:
        if self._stream is None:
            self._stream = self._open()
        return self._stream

    def getrandbits(self, k: int, /) -> int:
        return self._dice().getrandbits(k)

    def random(self) -> float:
        return self._dice().random()
