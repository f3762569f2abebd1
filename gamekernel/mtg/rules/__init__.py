"""MtG-card TRPG ("Parties of Planeswalkers") rules: card facts, decklists, action checks, odds.

Pure Python: no IPython, no widgets; all randomness through an explicit `random.Random`.
"""

from gamekernel.mtg.rules.check import BoostResult, CheckImpossible, CheckResult, action_check, boost
from gamekernel.mtg.rules.decklists import DeckEntry, Decklist, build_library, parse_decklist, read_decklist
from gamekernel.mtg.rules.facts import CardFacts, FactsIndex, bundled_facts
from gamekernel.mtg.rules.kinds import KINDS, MtgOptions, parse_check_spec, parse_kind
from gamekernel.mtg.rules.loaders import load_card_data
from gamekernel.mtg.rules.odds import OddsTable, check_odds, colour_distribution, odds_table

__all__ = [
    "KINDS",
    "BoostResult",
    "CardFacts",
    "CheckImpossible",
    "CheckResult",
    "DeckEntry",
    "Decklist",
    "FactsIndex",
    "MtgOptions",
    "OddsTable",
    "action_check",
    "boost",
    "build_library",
    "bundled_facts",
    "check_odds",
    "colour_distribution",
    "load_card_data",
    "odds_table",
    "parse_check_spec",
    "parse_decklist",
    "parse_kind",
    "read_decklist",
]
