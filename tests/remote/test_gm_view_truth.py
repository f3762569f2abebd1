"""The GM's seat is the authority: its view is the truth, the secrets marked; every other seat and
the notebook's dashboard draw from the public table (GW-ALPHA-10, GURPS-SR-09)."""

from __future__ import annotations

import json

from gamekernel import Session
from gamekernel.remote.projection import GM, SPECTATOR, Audience
from gamekernel.remote.views import view
from gamekernel.table.widget import TableDashboard
from tests.gammaworld.test_gw_secret_flux_resolved import resolve_secretly, secret_natural_1, table


def rin(facts: dict) -> dict:
    return next(row for row in facts["gamma"] if row["name"] == "Rin")


def test_gw_alpha_10_the_gm_seat_shows_the_true_hand_with_the_secret_card_marked() -> None:
    s = table()
    discarded, replacement, _ = resolve_secretly(s)
    gm = rin(view(s, Audience(GM), s.public_table())["facts"])
    assert [(c["name"], c["secret"]) for c in gm["cards"]][1] == (replacement, True)
    assert not gm["cards"][0]["secret"] and discarded not in json.dumps(gm)
    for audience in (Audience.player("alice"), Audience(SPECTATOR)):
        seen = json.dumps(view(s, audience, s.public_table()))
        assert discarded in seen and replacement not in seen and '"secret"' not in seen, audience


def test_gw_alpha_10_the_gm_seat_counts_a_secret_pending_flux() -> None:
    s = table()
    secret_natural_1(s)
    gm = rin(view(s, Audience(GM), s.public_table())["facts"])
    assert (gm["flux"], gm["flux_secret"]) == (1, 1)
    assert rin(view(s, Audience.player("alice"), s.public_table()))["flux"] == 0


def test_gw_alpha_10_after_a_reveal_the_gm_seat_marks_nothing() -> None:
    s = table()
    _, replacement, seq = resolve_secretly(s)
    s.seats.reveal(seq)
    gm = rin(view(s, Audience(GM), s.public_table())["facts"])
    assert [c["secret"] for c in gm["cards"]] == [False, False] and replacement in json.dumps(gm)


def gurps_table() -> Session:
    s = Session(seed=11)
    s.gurps.char_new("Aiko", st=11, dx=13)
    s.gurps.char_new("Bren", st=12, ht=12)
    s.seats.seat("bob", "Bren")
    return s


def dashboard_text(s: Session) -> str:
    board = TableDashboard(s)
    try:
        return json.dumps(board.get_state(), default=str) + json.dumps(board._repr_mimebundle_()[0]) + repr(board)
    finally:
        board.close()


def test_gurps_sr_09_the_dashboard_shows_no_secret_damage_until_revealed(ip) -> None:
    from gamekernel.magics import current_session

    ip.run_line_magic("seed", "11")
    s = current_session()
    s.gurps.char_new("Aiko", st=11, dx=13)
    s.gurps.char_new("Bren", st=12, ht=12)
    ip.run_line_magic("damage", "3d cut @Bren --secret")
    seq = s.log[-1].seq
    hurt = s.gurps.character("Bren").current_hp
    assert hurt < 12
    shown = dashboard_text(s)
    assert "HP 12/12" in shown and f"HP {hurt}/12" not in shown
    assert f'"hp": {hurt}' not in shown
    gm = next(r for r in view(s, Audience(GM), s.public_table())["facts"]["gurps"] if r["name"] == "Bren")
    assert gm["hp"] == hurt  # the GM's seat: the truth
    s.seats.reveal(seq)
    assert f"HP {hurt}/12" in dashboard_text(s)


def test_gurps_sr_09_a_public_hit_after_a_secret_one_reveals_it_and_the_dashboard_shows_the_truth() -> None:
    s = gurps_table()
    s.gurps.damage("3d cut", target="Bren", secret=True)
    seq = s.log[-1].seq
    s.gurps.damage("1d cr", target="Bren")  # it shows his HP: the secret hit goes public first
    assert s.seats.state.revealed == [seq]
    assert f"Bren · HP {s.gurps.character('Bren').current_hp}/12" in dashboard_text(s)


def test_gw_alpha_10_magic_widget_and_dashboard_leave_the_same_gm_seat(ip) -> None:
    from gamekernel.magics import current_session
    from tests.gammaworld.test_gw_secret_flux_resolved import public_views_after

    ip.run_line_magic("seed", "5")
    seats = []
    for how in ("magic", "widget", "dashboard"):
        s = current_session() if how == "magic" else Session(seed=5)
        public_views_after(s, how, ip)
        seats.append(json.dumps(rin(view(s, Audience(GM), s.public_table())["facts"])))
    assert seats[0] == seats[1] == seats[2] and '"secret": true' in seats[0]


def test_gurps_sr_09_a_secret_hit_in_a_fight_leaves_the_dashboard_and_shows_on_the_gm_seat() -> None:
    s = gurps_table()
    s.combat.start(["Aiko", "Bren"])
    s.gurps.damage("3d cut", target="Bren", secret=True)
    hurt = next(c for c in s.combat.state.combatants if c.name == "Bren").hp
    assert hurt < 12
    board = TableDashboard(s)
    try:
        bren = next(r for r in board.view["gurps"] if r["name"] == "Bren")
        assert (bren["hp"], bren["in_fight"]) == (12, True) and "Bren · HP 12/12" in repr(board)
    finally:
        board.close()
    gm = next(r for r in view(s, Audience(GM), s.public_table())["facts"]["gurps"] if r["name"] == "Bren")
    assert gm["hp"] == hurt
