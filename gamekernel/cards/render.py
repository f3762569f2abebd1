"""Text and HTML for the generic card table: zones with counts and what a viewer may see.

A face-down card is shown as "face down" unless the viewer knows it (never leak a hidden name)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from gamekernel.cards import CardTable
from gamekernel.display import renders
from gamekernel.display.html import esc, panel, table
from gamekernel.i18n import t

if TYPE_CHECKING:
    from gamekernel.cards import CardInstance


def visible_name(card: CardInstance, viewer: str | None, name_of: Callable[[str], str] | None = None) -> str:
    """The card's name if `viewer` may see it (None = the GM, who sees everything), else "face down"."""
    if viewer is not None and not card.known_by(viewer):
        return t("cards.face_down")
    name = name_of(card.def_id) if name_of else card.def_id
    return f"{name} ({t('cards.tapped')})" if card.tapped else name


def zone_rows(
    cards: CardTable, viewer: str | None = None, name_of: Callable[[str], str] | None = None, *, show: int = 5
) -> list[tuple[str, str, str]]:
    rows = []
    for zone in cards.zones:
        shown = [visible_name(card, viewer, name_of) for card in cards.peek(zone, show)]
        more = cards.count(zone) - len(shown)
        listing = ", ".join(shown) + (f" … +{more}" if more > 0 else "") if shown else t("cards.empty")
        rows.append((zone, str(cards.count(zone)), listing))
    return rows


def table_text(cards: CardTable, viewer: str | None = None, name_of: Callable[[str], str] | None = None) -> str:
    lines = [t("cards.table.title")]
    lines += [f"  {zone}: {count} · {listing}" for zone, count, listing in zone_rows(cards, viewer, name_of)]
    return "\n".join(lines)


@renders(CardTable)
def table_html(cards: CardTable, viewer: str | None = None, name_of: Callable[[str], str] | None = None) -> str:
    headers = [t("cards.col.zone"), t("cards.col.count"), t("cards.col.top", viewer=viewer or "GM")]
    body = table(headers, zone_rows(cards, viewer, name_of), cls="gk-table gk-card-table")
    return panel("card-table", body, title_html=esc(t("cards.table.title")))
