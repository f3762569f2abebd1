"""The facts of the table dashboard: every character of the session by game, read from the parts
of the state with no rule computed here beyond what the parts already expose."""

from __future__ import annotations

from typing import Any


def _gurps_rows(session) -> list[dict[str, Any]]:
    fight = session.combat_state
    running = fight is not None and not fight.over
    in_fight = {c.name: c for c in fight.combatants} if running else {}
    rows = []
    for name, ch in sorted(session.gurps.characters.items()):
        c = in_fight.pop(name, None)
        if c is not None:
            rows.append({"name": name, "hp": c.hp, "hp_max": c.hp_max, "fp": c.fp, "fp_max": c.fp_max,
                         "state": list(c.badges(fight.round)), "in_fight": True})
        else:
            rows.append({"name": name, "hp": ch.current_hp, "hp_max": ch.hp, "fp": ch.current_fp, "fp_max": ch.fp,
                         "state": list(ch.conditions), "in_fight": False})
    for name, c in in_fight.items():  # NPCs of the fight
        rows.append({"name": name, "hp": c.hp, "hp_max": c.hp_max, "fp": c.fp, "fp_max": c.fp_max,
                     "state": list(c.badges(fight.round)), "in_fight": True})
    return rows


def _gamma_rows(session) -> list[dict[str, Any]]:
    gw = session.gw
    rows = []
    for name in sorted(gw.characters):
        view = session.gw_hand(name)
        cards = [{"uid": card.uid, "name": view.catalog.card(card.card_id).name, "tapped": card.tapped,
                  "overcharged": card.overcharged} for card in view.cards]
        rows.append({"name": name, "cards": cards, "flux": view.flux_pending})
    return rows


def _mtg_rows(session) -> list[dict[str, Any]]:
    part = session._mtg
    rows = []
    for actor in sorted(part.decks):
        view = session.mtg_library_view(actor)
        rows.append({"name": actor, "library": view.count, "known_top": [view.shown_name(n) for n in view.known_top],
                     "boost_used": view.boost_used})
    return rows


def table_facts(session) -> dict[str, Any]:
    """Plain data (JSON-ready): `gurps`, `gamma` and `mtg` rows, the fight (`round`, `turn`, `pending`),
    the Gamma World encounter flag and the MtG scene number."""
    fight = session.combat_state
    running = fight is not None and not fight.over
    return {
        "gurps": _gurps_rows(session),
        "gamma": _gamma_rows(session),
        "mtg": _mtg_rows(session),
        "fight": {"round": fight.round, "turn": fight.current.name,
                  "pending": fight.pending.target if fight.pending else ""} if running else None,
        "encounter": bool(session.gw.encounter),
        "scene": session._mtg.scene,
    }
