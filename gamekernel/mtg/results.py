"""Results of MtG session operations that the magics and the renderers both name: facts only, drawn by
gamekernel/mtg/render.py (so operations -> results <- renderers, and neither imports the other)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from gamekernel.display import Displayable
from gamekernel.mtg.rules.decklists import Composition
from gamekernel.mtg.rules.facts import display_name
from gamekernel.mtg.rules.kinds import MtgOptions


@dataclass(frozen=True, repr=False)
class DataLoaded(Displayable):
    """`%library data FILE` (card data for the facts index): how many cards it holds and where from."""

    count: int
    source: str


@dataclass(frozen=True, repr=False)  # text and html: the render registry
class LibraryLoaded(Displayable):
    actor: str
    source: str
    fmt: str
    main: int
    sideboard: int
    name: str | None = None
    composition: Composition | None = None
    detected: bool = True  # False when `--format` chose the format
    commander: tuple[str, ...] = ()  # the command zone's cards (not in the library)
    warnings: tuple[str, ...] = ()  # translated lines from reading the file (a legacy encoding)


@dataclass(frozen=True, repr=False)  # text and html: the render registry
class OddsResult(Displayable):
    actor: str | None
    kind: str
    difficulty: int
    odds: Fraction | None  # None: MTG-CHK-04, too few cards left for any check
    size: int = 0  # the library's cards
    known: int = 0  # known top cards a check would exile first
    known_unordered: int = 0  # cards known to lie in groups of unknown order (a check's pair at the bottom)


@dataclass(frozen=True, repr=False)  # text and html: the render registry
class LibraryView(Displayable):
    """A read-only picture of one character's library for text, HTML and the widget."""

    actor: str
    count: int
    known_top: tuple[str, ...]
    exile: tuple[str, ...]
    scene: int
    boost_used: bool
    last_check: Mapping[str, Any] | None
    last_boost: Mapping[str, Any] | None
    distribution: Mapping[str, int]
    deck: Mapping[str, Any]
    ja_names: Mapping[str, str] = field(default_factory=dict)  # English card name -> Japanese name
    # cards the table knows lie at the bottom in unknown order (a check's pair, MTG-CHK-12): a count only,
    # never which card is where (the pair's order came from the secret stream)
    known_bottom: int = 0

    def shown_name(self, name: str) -> str:
        """A card name as printed in the current language (the Japanese one when known)."""
        return display_name(name, self.ja_names.get(name))


class SceneStarted(Displayable):
    def __init__(self, scene: int):
        self.scene = scene


@dataclass(frozen=True, repr=False)  # text and html: the render registry
class MtgConfigShown(Displayable):
    """The MtG options after `mtg_config(...)`, and which ones it changed."""

    options: MtgOptions
    changes: Mapping[str, Any]
