"""Results of MtG session operations that the magics and the renderers both name: facts only, drawn by
gamekernel/mtg/render.py (so operations -> results <- renderers, and neither imports the other)."""

from __future__ import annotations

from dataclasses import dataclass

from gamekernel.display import Displayable


@dataclass(frozen=True, repr=False)
class DataLoaded(Displayable):
    """`%library data FILE` (card data for the facts index): how many cards it holds and where from."""

    count: int
    source: str
