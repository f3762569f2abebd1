"""Gamma World 4e Alpha Mutation decks (RULES.md GW-ALPHA): card facts, deck building, play steps, odds."""

from gamekernel.gammaworld.rules.catalog import Catalog, starter_catalog
from gamekernel.gammaworld.rules.decks import DeckCheck, readied_count, validate_deck
from gamekernel.gammaworld.rules.odds import p_card_in_draws, p_flux, p_overcharge
from gamekernel.gammaworld.rules.results import AlphaResult, HandView, describe, hand_view
from gamekernel.gammaworld.rules.schema import AlphaCard, Overcharge, Power, load_cards
from gamekernel.gammaworld.rules.state import AlphaState, GWCharacter, GWConfig, Step, apply_step

__all__ = [
    "AlphaCard",
    "AlphaResult",
    "AlphaState",
    "Catalog",
    "DeckCheck",
    "GWCharacter",
    "GWConfig",
    "HandView",
    "Overcharge",
    "Power",
    "Step",
    "apply_step",
    "describe",
    "hand_view",
    "load_cards",
    "p_card_in_draws",
    "p_flux",
    "p_overcharge",
    "readied_count",
    "starter_catalog",
    "validate_deck",
]
