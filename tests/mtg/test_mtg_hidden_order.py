"""MTG-CHK-05, -06, -12: what lies hidden in a library does not follow from the public seed and steps.

A library's order (its shuffle on load and on reset), the order the revealed pair goes to the bottom
in (MTG-CHK-12) and the generic card table's random steps are drawn from the session's secret
stream, keyed from the seed and the system's entropy, as a Gamma World deck's (GW-ALPHA-10). A
player who knows the seed and sees every public step replays them on a table of his own; before,
his library lay in the GM's order, so he knew the two cards every check would reveal (300 of 300
seeds). Now he guesses no better than a shuffle would.
"""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.session import replay

pytestmark = pytest.mark.usefixtures("secret_entropy_from_the_system")  # as at a real table

SEEDS = 300
DECK = """Deck
4 Elvish Mystic
4 Runeclaw Bear
2 Fire // Ice
2 Steam Vents
12 Forest
4 Ornithopter
4 Serra Angel
"""


def public_steps(seed: int) -> Session:
    """The table's public steps: Mira's library loaded (and shuffled)."""
    s = Session(seed=seed)
    s.mtg.library_load("Mira", "mira.txt", text=DECK)
    return s


def library(s: Session) -> list[str]:
    part = s.state["mtg"]
    return [part.table.card(uid).def_id for uid in part.table.order("Mira:library")]


def test_mtg_chk_05_06_the_cards_a_check_reveals_are_not_predicted_from_the_seed():
    """The attacker's guess: the top two cards of his own library, loaded with the same seed."""
    hits = orders = 0
    for seed in range(SEEDS):
        mine, gm = library(public_steps(seed)), public_steps(seed)
        orders += mine == library(gm)
        result = gm.mtg.check("G2")
        hits += (result.first.name, result.second.name) == (mine[0], mine[1])
    # chance: a few seeds in a hundred deal the same two names (10 of 300 measured; 12 of 32 are Forests)
    assert hits < SEEDS // 4, f"{hits} of {SEEDS} revealed pairs predicted from the public seed"
    assert orders < 3, f"{orders} of {SEEDS} library orders predicted from the public seed"


def test_mtg_chk_12_the_pairs_order_on_the_bottom_is_not_predicted_from_the_seed():
    """A stacked library (public: every card in its place), then a check: which of the two revealed
    cards lies last is a coin the players do not see; the attacker's table flips his own."""
    hits = 0
    for seed in range(SEEDS):
        tables = [Session(seed=seed) for _ in range(2)]
        for s in tables:
            s.mtg.library_load("Mira", "mira.txt", text="1 Serra Angel\n1 Elvish Mystic\n1 Forest\n1 Island\n")
            s.mtg.library_stack("Mira", ["Serra Angel", "Elvish Mystic"])
            s.mtg.check("G2")
        hits += library(tables[0])[-1] == library(tables[1])[-1]
    assert hits < SEEDS * 2 // 3, f"{hits} of {SEEDS} bottom orders predicted (chance is half)"


def test_mtg_chk_05_a_reset_reshuffles_out_of_the_players_reach():
    """After a check and a reset (the exiled cards back, a shuffle), two tables with the same seed
    and steps hold two different libraries."""
    tables = [public_steps(7) for _ in range(2)]
    for s in tables:
        s.mtg.check("G2")
        s.mtg.library_reset("Mira")
    assert library(tables[0]) != library(tables[1])


def test_the_card_tables_shuffle_and_random_draw_are_not_predicted_from_the_seed():
    """The generic card table: a shuffled deck of ten, one card drawn from the top, one at random."""
    top = random = 0
    for seed in range(SEEDS):
        drawn = []
        for _ in range(2):
            s = Session(seed=seed)
            s.cards.zone("deck", "deck")
            s.cards.zone("hand", "hand")
            s.cards.create("deck", [f"card {n}" for n in range(10)])
            s.cards.shuffle("deck")
            first = s.cards.draw("deck", "hand").uids
            second = s.cards.draw("deck", "hand", how="random").uids
            drawn.append((s.cards.state.card(first[0]).def_id, s.cards.state.card(second[0]).def_id))
        top += drawn[0][0] == drawn[1][0]
        random += drawn[0][1] == drawn[1][1]
    assert top < SEEDS // 4 and random < SEEDS // 4, (top, random)  # chance: one in ten, one in nine


def test_a_card_step_that_draws_nothing_opens_no_secret_stream():
    """A draw from the top takes no dice: no secret key is logged for it."""
    s = Session(seed=1)
    s.cards.zone("deck", "deck")
    s.cards.zone("hand", "hand")
    s.cards.create("deck", ["A", "B", "C"])
    s.cards.draw("deck", "hand")
    assert "secret.entropy" not in [e.kind for e in s.log]
    s.cards.shuffle("deck")
    assert [e.kind for e in s.log][-2:] == ["secret.entropy", "cards.batch"]


def test_mtg_chk_12_the_gms_log_still_replays_the_hidden_order():
    s = public_steps(11)
    s.mtg.check("G2")
    s.mtg.scene()
    s.mtg.library_reset("Mira")
    s.mtg.check("W1")
    kinds = [e.kind for e in s.log]
    assert kinds[:3] == ["seed", "secret.entropy", "mtg.library"]  # the key first, secret
    assert s.log[1].secret and not s.log[2].secret
    assert replay(s.active).to_dict() == s.state.to_dict()


def test_lazy_dice_draw_the_very_words_of_their_stream():
    """A card step's dice (`LazyDice`) shuffle and sample as the secret stream itself would, so a
    refused step can put them back by the stream's own count; the stream is opened at the first draw."""
    from gamekernel.rng import LazyDice, TransactionalRandom

    opened = []
    mine, theirs = TransactionalRandom(5), TransactionalRandom(5)
    lazy = LazyDice(lambda: opened.append(1) or theirs)
    assert not opened
    a, b = list(range(30)), list(range(30))
    mine.shuffle(a)
    lazy.shuffle(b)
    assert a == b and mine.sample(range(50), 5) == lazy.sample(range(50), 5) and opened == [1]
    assert mine.getstate() == theirs.getstate()
