"""Shared helpers: a rigged RNG for exact d20 faces, a ready-made alpha state."""

from __future__ import annotations

import random

from gamekernel.gammaworld.rules import AlphaState, apply_step, play, starter_catalog


class Rigged(random.Random):
    """randint returns the queued faces first (the overcharge d20), then behaves normally."""

    def __init__(self, faces=(), seed: int = 0):
        super().__init__(seed)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        if self.faces:
            face = self.faces.pop(0)
            assert a <= face <= b
            return face
        return super().randint(a, b)


class Table:
    """An AlphaState plus its step log, as the session keeps them."""

    def __init__(self, seed: int = 1):
        self.state = AlphaState()
        self.catalog = starter_catalog()
        self.rng = random.Random(seed)
        self.steps = []
        self.do(play.plan_setup(self.state, self.catalog, self.rng))

    def do(self, step):
        apply_step(self.state, step)
        self.steps.append(step)
        return step

    def name(self, uid: str) -> str:
        return self.catalog.card(self.state.table.cards[uid].def_id, "en").name

    def readied_names(self, who: str) -> list[str]:
        return [self.name(uid) for uid in self.state.readied(who)]
