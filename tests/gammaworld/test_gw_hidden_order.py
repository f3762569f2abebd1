"""GW-ALPHA-10: what lies hidden in a deck does not follow from the public seed and the public events.

The GM deck's order (and every deck's, shuffled at setup, an added card, a reshuffle, a rest) is drawn
from the session's secret stream, keyed from the seed and the system's entropy. A player who knows
the seed and sees every public step replays them on a table of his own; before, his GM deck lay in
the GM's order, so the card a *secret* Alpha Flux drew was his next card every time (300 of 300
seeds). Now he guesses no better than a shuffle would: 300 seeds, a handful of lucky guesses.
"""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.gammaworld.rules.state import GM_DECK
from gamekernel.session import replay

pytestmark = pytest.mark.usefixtures("secret_entropy_from_the_system")  # as at a real table

SEEDS = 300


def public_steps(seed: int) -> Session:
    """The table's public steps: Rin drawn from the GM deck, an encounter begun."""
    s = Session(seed=seed)
    s.gw.character("Rin", level=1, new=True)
    s.gw.draw("Rin")
    s.gw.encounter_start()
    return s


def secret_flux(s: Session) -> str:
    """The GM rolls secret d20s for Rin to a natural 1 and resolves its flux: the card it drew."""
    for _ in range(500):
        s.roll("1d20", actor="Rin", secret=True)
        if s.log[-1].kind == "gw.flux_pending":
            break
    s.gw.flux("Rin")
    assert s.log[-1].kind == "gw.flux" and s.log[-1].secret
    return s.gw.state.table.card(s.gw.state.readied("Rin")[0]).def_id


def guess(seed: int) -> str:
    """The attacker's guess: his own table, the same seed and public steps, a flux of his own."""
    mine = public_steps(seed)
    mine.gw.flux("Rin", force=True)
    return mine.gw.state.table.card(mine.gw.state.readied("Rin")[0]).def_id


def test_gw_alpha_10_the_card_a_secret_flux_draws_is_not_predicted_from_the_seed():
    hits = 0
    for seed in range(SEEDS):
        s = public_steps(seed)
        drawn = secret_flux(s)
        hits += guess(seed) == drawn
    assert hits < SEEDS // 4, f"{hits} of {SEEDS} secret draws predicted from the public seed"


def test_gw_alpha_10_the_gm_deck_order_is_not_the_public_streams():
    orders = [[c.def_id for c in public_steps(7).gw.state.table.in_zone(GM_DECK)] for _ in range(2)]
    assert orders[0] != orders[1]  # the same seed and steps, two tables: two orders


def test_gw_alpha_10_the_gms_log_still_replays_the_hidden_order():
    s = public_steps(11)
    secret_flux(s)
    again = replay(s.active)
    assert again.to_dict() == s.state.to_dict()
