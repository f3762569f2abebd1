"""The views of the table, as plain data: the GM's (everything) and a player's (the public table plus
what they own). Drawn from the projection (gamekernel/remote/projection.py), never from the GM's state
directly, except for what belongs to the player: the asks addressed to them.

Hidden from players: the HP and FP of fighters nobody is seated at (shown as a condition word, the
badges kept), the cards in other players' hands (a count, and the names of the cards they have used),
the order of every library (only the cards revealed by a check), and a check's target and margin when
the GM discloses outcomes only. A fighter the GM hides (`%table hide`) is absent: no row, no place in
the order, no story line, and no turn of his announced (the fight shows the turn as it last stood
among the fighters the players see, so nothing, not even a "?", says that someone else acts).
"""

from __future__ import annotations

import weakref
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any

from gamekernel.hiding import (  # noqa: F401  (re-exported: what the players' views hide)
    condition,
    hidden_keys,
    hidden_names,
    is_hidden,
    names_hidden,
    scrub,
    scrub_names,
    turn_shown,
)
from gamekernel.remote.projection import GM, Audience, PublicTable, owned
from gamekernel.table.seats import handouts_for
from gamekernel.text import match_key, visible

if TYPE_CHECKING:  # the session it reads and calls: for the type checker only
    from gamekernel.rulesets import Core


def _hidden_gurps(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"name": row["name"], "condition": condition(row["hp"], row["hp_max"]), "state": list(row["state"]),
            "in_fight": row["in_fight"], "hidden": True}


def _hidden_hand(row: Mapping[str, Any]) -> dict[str, Any]:
    used = [c for c in row["cards"] if c["tapped"] or c["overcharged"]]
    return {"name": row["name"], "count": len(row["cards"]), "used": used, "flux": row["flux"], "hidden": True}


def _hidden_library(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"name": row["name"], "library": row["library"], "boost_used": row["boost_used"], "hidden": True}


class _Told:
    """One public table's players' story as plain blocks, kept between its versions (`StoryCache`): an
    event adds its own lines, the story is not told again from the first event (3,000 events: 0.5 s).
    The same telling as `render/story.py:players_story` (the `--players` export), block for block."""

    def __init__(self, key: tuple[Any, ...]) -> None:
        from gamekernel.render.story import StoryCache

        outcome_only, revealed, seated = key
        self.key = key
        self.cache = StoryCache(outcome_only=outcome_only, revealed=revealed, seated=seated)
        self.generation = -1
        self.names: tuple[str, ...] | None = None
        self.count = 0  # the cache's blocks read so far
        self.blocks: list[dict[str, str]] = []

    def story(self, events: Any, names: tuple[str, ...]) -> list[dict[str, str]]:
        raw = self.cache.blocks(events)
        if self.generation != self.cache.generation or self.names != names or self.count > len(raw):
            self.generation, self.names, self.count, self.blocks = self.cache.generation, names, 0, []
        keys = frozenset(match_key(n) for n in names)
        for block in raw[self.count:]:
            if any(is_hidden(who, keys) for who in getattr(block, "rolled_by", ())):
                continue  # a hidden fighter's roll numbers: the line is left out whole (GURPS-SR-09)
            text = scrub_names(visible(block.text), names, heading=block.kind == "heading")
            if text:
                self.blocks.append({"kind": block.kind, "text": text})
        self.count = len(raw)
        return list(self.blocks)  # a new list a version: a page's last story is compared with it


_told: weakref.WeakKeyDictionary[Any, _Told] = weakref.WeakKeyDictionary()


def _story(table: PublicTable) -> list[dict[str, str]]:
    """The players' story of `table`'s session now (kept per session: a disclosure, a reveal or a new
    seat tells it again from the start)."""
    session = table.session
    seats = session.state["seats"]
    key = (seats.disclose == "outcome", tuple(seats.revealed),
           frozenset(c for chars in seats.seats.values() for c in chars))
    told = _told.get(session)
    if told is None or told.key != key:
        told = _told[session] = _Told(key)
    names = hidden_names(session) if seats.hidden else ()
    return told.story(session.log, names)


def _fight(shadow: Any, facts: Mapping[str, Any], mine: set[str]) -> dict[str, Any] | None:
    fight = facts["fight"]
    if fight is None:
        return None
    out = dict(fight)
    out["order"] = [c.name for c in shadow.combat.state.combatants]
    out["my_turn"] = fight["turn"] in mine
    target, offered = shadow.combat.offered()
    out["defend"] = {"who": target, "options": [[k, v] for k, v in offered]} if target in mine else None
    current = shadow.combat.state.current
    out["weapons"] = [w.name for w in current.weapons] if out["my_turn"] else []  # what the page offers
    return out


class _Facts(dict[str, Any]):
    """The shared facts of one version, `facts` drawn on first read: a player's action answered
    with its story lines alone (its reply) draws no table."""

    def __missing__(self, key: str) -> Any:
        if key != "facts":
            raise KeyError(key)
        from gamekernel.table.view import table_facts

        self["facts"] = table_facts(self["shadow"])
        return self["facts"]


def _public_facts(table: PublicTable) -> dict[str, Any]:
    """What every player's view starts from: the public table's facts and the players' story (drawn
    once an event, told on from the last event: `_Told`; the same story `%log export --players` writes)."""
    story = _story(table)
    return _Facts(shadow=table.shadow(), story=story, told=story)


def player_view(session: Core, audience: Audience, table: PublicTable) -> dict[str, Any]:
    """What one player (or a spectator, who owns nothing) may see."""
    seats = session.state["seats"]
    mine = owned(seats.seats, audience.user)
    seated = {c for chars in seats.seats.values() for c in chars}
    common = shared_facts(session, table)
    facts, shadow = common["facts"], common["shadow"]
    hidden = hidden_keys(session)
    view = {
        "audience": audience.kind,
        "user": audience.user,
        "mine": sorted(mine),
        "seats": {u: list(c) for u, c in sorted(seats.seats.items())},
        "gurps": [dict(r) if r["name"] in seated else _hidden_gurps(r) for r in facts["gurps"]],
        "gamma": [dict(r) if r["name"] in mine else _hidden_hand(r) for r in facts["gamma"]],
        "mtg": [dict(r) if r["name"] in mine else _hidden_library(r) for r in facts["mtg"]],
        "boards": {name: _board_for(board, mine) for name, board in facts["boards"].items()},
        "fight": _fight(shadow, facts, mine),
        "encounter": facts["encounter"],
        "scene": facts["scene"],
        "story": common["told"],
        "asks": [{"id": a["n"], "character": a["character"], "spec": a["spec"]}  # the player's own count
                 for _, a in sorted(seats.asks.items()) if a["user"] == audience.user],
        "disclose": seats.disclose,
        "rolls": own_rolls(session, audience.user),
        "handouts": handouts_for(session, audience.user),
        "rollable": {name: _rollable(shadow, name) for name in sorted(mine)},
    }
    return _without(view, hidden, shadow) if hidden else view


def own_rolls(session: Core, user: str | None) -> list[dict[str, str]]:
    """The table rolls made for this player alone, as lines in their words (GM's rolls `--to` them)."""
    from gamekernel.rolltables.actions import own_rolls as rolls_for
    from gamekernel.rolltables.results import TableRoll

    return [{"text": str(TableRoll.from_dict(r["result"]))} for r in rolls_for(session, user)]


ATTRIBUTES = ("ST", "DX", "IQ", "HT", "Per", "Will")  # what a GURPS sheet rolls besides its skills


def _rollable(shadow: Any, name: str) -> list[str]:
    """What the player's own character rolls from its sheet (a GURPS sheet's attributes and skills,
    none for another rule set's): the choices the page offers, each sent as the check's spec."""
    sheet = shadow.gurps.state.characters.get(name)
    return [*ATTRIBUTES, *(skill.name for skill in sheet.skills)] if sheet is not None else []


def _board_for(board: Mapping[str, Any], mine: Collection[str]) -> dict[str, Any]:
    """A rule set's dashboard rows as one player sees them: the private cells of every character
    not theirs left empty (RuleSet.dashboard)."""
    from gamekernel.i18n import t

    private = set(board["private"])
    rows = [list(r) if r[0] in mine else ["" if i in private else c for i, c in enumerate(r)] for r in board["rows"]]
    # the page draws any rule set's rows as given: its title and headings in words, not i18n keys
    return {**board, "title": t(board["title"]), "columns": [t(c) for c in board["columns"]], "rows": rows}


def shared_facts(session: Core, table: PublicTable) -> dict[str, Any]:
    """The public facts, shadow session and story every player's view of this moment starts from
    (drawn once a version of the public table; the intents' replies read the same)."""
    return table.shared(_public_facts)


def _without(view: dict[str, Any], hidden: frozenset[str], shadow: Any) -> dict[str, Any]:
    """The view with the hidden fighters left out: their rows, their place in the fight, their turn
    (the turn as it last stood among the fighters shown); the story is scrubbed once for all
    (`_public_facts`)."""
    for game in ("gurps", "gamma", "mtg"):  # anyone the GM may hide: a fighter, a mutant, a library's owner
        view[game] = [r for r in view[game] if not is_hidden(r["name"], hidden)]
    for board in view["boards"].values():
        board["rows"] = [r for r in board["rows"] if not is_hidden(r[0], hidden)]
    fight = view["fight"]
    if fight is not None:
        fight["order"] = [n for n in fight["order"] if not is_hidden(n, hidden)]
        if is_hidden(fight["turn"], hidden):
            fight["round"], fight["turn"] = turn_shown(shadow, hidden)
        if fight.get("pending") and is_hidden(fight["pending"], hidden):
            fight["pending"] = ""
    return view


def gm_view(session: Core) -> dict[str, Any]:
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


def view(session: Core, audience: Audience, table: PublicTable) -> dict[str, Any]:
    """Everything `audience` may see, as plain JSON-able data."""
    if audience.kind == GM:
        return gm_view(session)
    return player_view(session, audience, table)
