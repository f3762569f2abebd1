"""The views of the table, as plain data: the GM's (everything) and a player's (the public table plus
what they own). Drawn from the projection (gamekernel/remote/projection.py), never from the GM's state
directly, except for what belongs to the player: the asks addressed to them.

Hidden from players: the HP and FP of fighters nobody is seated at (shown as a condition word, the
badges kept), the cards in other players' hands (a count, and the names of the cards they have used),
the order of every library (only the cards revealed by a check), and a check's target and margin when
the GM discloses outcomes only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamekernel.remote.projection import Audience, PublicTable, owned


def condition(hp: int, hp_max: int) -> str:
    """A fighter's HP as a word a player may see: unhurt, hurt, badly hurt, down (no numbers)."""
    if hp >= hp_max:
        return "unhurt"
    if hp <= 0:
        return "down"
    return "hurt" if hp * 3 > hp_max else "badly_hurt"


def _hidden_gurps(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"name": row["name"], "condition": condition(row["hp"], row["hp_max"]), "state": list(row["state"]),
            "in_fight": row["in_fight"], "hidden": True}


def _hidden_hand(row: Mapping[str, Any]) -> dict[str, Any]:
    used = [c for c in row["cards"] if c["tapped"] or c["overcharged"]]
    return {"name": row["name"], "count": len(row["cards"]), "used": used, "flux": row["flux"], "hidden": True}


def _hidden_library(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"name": row["name"], "library": row["library"], "boost_used": row["boost_used"], "hidden": True}


def _story(events, outcome_only: bool) -> list[dict[str, str]]:
    from gamekernel.render.story import tell

    return [{"kind": b.kind, "text": b.text} for b in tell(events, outcome_only=outcome_only).blocks]


def _fight(shadow: Any, facts: Mapping[str, Any], mine: set[str]) -> dict[str, Any] | None:
    fight = facts["fight"]
    if fight is None:
        return None
    out = dict(fight)
    out["order"] = [c.name for c in shadow.combat_state.combatants]
    out["my_turn"] = fight["turn"] in mine
    target, offered = shadow.combat_offered()
    out["defend"] = {"who": target, "options": [[k, v] for k, v in offered]} if target in mine else None
    return out


def _public_facts(table: PublicTable, outcome_only: bool) -> dict[str, Any]:
    """What every player's view starts from: the public table's facts and story (drawn once an event)."""
    from gamekernel.table.view import table_facts

    shadow = table.shadow()
    return {"facts": table_facts(shadow), "shadow": shadow, "story": _story(shadow.log, outcome_only)}


def player_view(session: Any, audience: Audience, table: PublicTable) -> dict[str, Any]:
    """What one player (or a spectator, who owns nothing) may see."""
    seats = session.state["seats"]
    mine = owned(seats.seats, audience.user)
    seated = {c for chars in seats.seats.values() for c in chars}
    common = table.shared(lambda t: _public_facts(t, seats.disclose == "outcome"))
    facts, shadow = common["facts"], common["shadow"]
    hidden = set(seats.hidden) - seated
    view = {
        "audience": audience.kind,
        "user": audience.user,
        "mine": sorted(mine),
        "seats": {u: list(c) for u, c in sorted(seats.seats.items())},
        "gurps": [dict(r) if r["name"] in seated else _hidden_gurps(r) for r in facts["gurps"]],
        "gamma": [dict(r) if r["name"] in mine else _hidden_hand(r) for r in facts["gamma"]],
        "mtg": [dict(r) if r["name"] in mine else _hidden_library(r) for r in facts["mtg"]],
        "fight": _fight(shadow, facts, mine),
        "encounter": facts["encounter"],
        "scene": facts["scene"],
        "story": common["story"],
        "asks": [{"id": i, "character": a["character"], "spec": a["spec"]}
                 for i, a in sorted(seats.asks.items()) if a["user"] == audience.user],
        "disclose": seats.disclose,
    }
    return _without(view, hidden) if hidden else view


def _without(view: dict[str, Any], hidden: set[str]) -> dict[str, Any]:
    """The view with the hidden fighters left out: their rows, their place in the fight, the story
    lines that name them (a hidden fighter's turn shows as nobody's)."""
    view["gurps"] = [r for r in view["gurps"] if r["name"] not in hidden]
    fight = view["fight"]
    if fight is not None:
        fight["order"] = [n for n in fight["order"] if n not in hidden]
        if fight["turn"] in hidden:
            fight["turn"] = "?"
        if fight.get("pending") in hidden:
            fight["pending"] = ""
    view["story"] = [b for b in view["story"] if not any(name in b["text"] for name in hidden)]
    return view


def gm_view(session: Any) -> dict[str, Any]:
    """The GM's panel: every fact, who sits where, the open asks and the players' latest actions."""
    from gamekernel.table.view import table_facts

    seats = session.state["seats"]
    acted = [e for e in session.log if e.by is not None][-20:]
    return {
        "audience": "gm",
        "facts": table_facts(session, gm=True),  # the authority: the truth, the secrets marked
        "seats": {u: list(c) for u, c in sorted(seats.seats.items())},
        "asks": [{"id": i, **a} for i, a in sorted(seats.asks.items())],
        "revealed": list(seats.revealed),
        "disclose": seats.disclose,
        "recent": [{"seq": e.seq, "by": e.by, "kind": e.kind, "secret": e.secret, "summary": e.summary()}
                   for e in acted],
    }
