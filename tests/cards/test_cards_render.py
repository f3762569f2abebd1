"""Rendering of the generic card table: counts, order, and face-down cards never leak their names."""

from __future__ import annotations

from gamekernel.cards import CardTable, apply, plan_add_zone, plan_create, plan_draw, plan_peek
from gamekernel.cards.render import table_html, table_text


def build() -> CardTable:
    table = CardTable()
    for batch_of in (
        lambda t: plan_add_zone(t, "deck", "deck"),
        lambda t: plan_add_zone(t, "hand", face_up=True),
        lambda t: plan_create(t, "deck", ["<Ace>", "King", "Queen"]),
    ):
        apply(table, batch_of(table))
    apply(table, plan_draw(table, "deck", "hand", 1))
    return table


def test_face_down_cards_are_hidden_from_players_but_not_from_the_gm() -> None:
    table = build()
    assert "King" not in table_text(table, viewer="Mira") and "face down" in table_text(table, viewer="Mira")
    assert "King" in table_text(table)  # the GM sees everything
    apply(table, plan_peek(table, "deck", 1, "Mira"))
    assert "King" in table_text(table, viewer="Mira") and "Queen" not in table_text(table, viewer="Mira")


def test_table_html_escapes_names_and_is_deterministic() -> None:
    html = table_html(build())
    assert "&lt;Ace&gt;" in html and "<Ace>" not in html
    assert html == table_html(build()) == build()._repr_html_()
