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

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from gamekernel.i18n import t
from gamekernel.remote.projection import Audience, PublicTable, owned
from gamekernel.text import match_key

if TYPE_CHECKING:  # the session it reads and calls: for the type checker only
    from gamekernel.session import Session


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
    """What every player's view starts from: the public table's facts and story (drawn once an event),
    and the story as players read it (`told`: hidden fighters taken out, the same for every player)."""
    from gamekernel.table.view import table_facts

    shadow = table.shadow()
    story = _story(shadow.log, outcome_only)
    return {"facts": table_facts(shadow), "shadow": shadow, "story": story, "told": scrub_story(table.session, story)}


def player_view(session: Session, audience: Audience, table: PublicTable) -> dict[str, Any]:
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
        "fight": _fight(shadow, facts, mine),
        "encounter": facts["encounter"],
        "scene": facts["scene"],
        "story": common["told"],
        "asks": [{"id": a["n"], "character": a["character"], "spec": a["spec"]}  # the player's own count
                 for _, a in sorted(seats.asks.items()) if a["user"] == audience.user],
        "disclose": seats.disclose,
    }
    return _without(view, hidden, shadow) if hidden else view


def shared_facts(session: Session, table: PublicTable) -> dict[str, Any]:
    """The public facts, shadow session and story every player's view of this moment starts from
    (drawn once a version of the public table; the intents' replies read the same)."""
    outcome_only = session.state["seats"].disclose == "outcome"
    return table.shared(lambda t: _public_facts(t, outcome_only))


def hidden_keys(session: Session) -> frozenset[str]:
    """The match keys of the fighters the GM hides from the players, a seated character never among
    them (a player always sees their own)."""
    seats = session.state["seats"]
    seated = {match_key(c) for chars in seats.seats.values() for c in chars}
    return frozenset(match_key(h) for h in seats.hidden) - seated


def is_hidden(name: str, hidden: frozenset[str]) -> bool:
    """Whether `name` is hidden: the hidden name itself, or one of its numbered copies (`Goblin 2`
    of a hidden `Goblin`), compared by their keys."""
    key = match_key(name)
    if key in hidden:
        return True
    base, _, number = key.rpartition(" ")
    return number.isdigit() and base in hidden


def names_hidden(text: str, hidden: frozenset[str]) -> bool:
    """Whether a text holds a hidden fighter's name anywhere (compared by keys: `assassin` is
    Assassin; inside another word too: deny by default, a line too many is left out)."""
    key = match_key.__wrapped__(text)  # a line of text, not a name: kept out of the names' cache
    return any(h in key for h in hidden)


def _pattern(session: Session) -> re.Pattern[str] | None:
    """One pattern for every hidden fighter's name and its numbered copies, any case, not inside
    an ASCII word (a Japanese name is found inside Japanese text)."""
    seats = session.state["seats"]
    hidden = hidden_keys(session)
    names = sorted({n.strip() for n in seats.hidden if n.strip() and match_key(n) in hidden}, key=len, reverse=True)
    return _compiled(tuple(names)) if names else None


@lru_cache(maxsize=64)  # the same few hidden names, for every story line of every view
def _compiled(names: tuple[str, ...]) -> re.Pattern[str]:
    either = "|".join(re.escape(n) for n in names)
    return re.compile(rf"(?<![A-Za-z0-9_])(?:{either})(?: \d+)?(?![A-Za-z0-9_])", re.IGNORECASE)


def scrub(session: Session, text: str, *, heading: bool = False) -> str:
    """`text` as a player may read it: each hidden fighter is "someone" in a line (the defender
    learns that someone attacked), absent from a heading's list of names ("Fight: Aiko, Bren");
    "" when a hidden name would still be read in it after that (the text is left out whole)."""
    hidden = hidden_keys(session)
    pattern = _pattern(session) if hidden else None
    return text if pattern is None else _scrubbed(text, hidden, pattern, heading)


def scrub_story(session: Session, story: list[dict[str, str]]) -> list[dict[str, str]]:
    """The story as players read it (`scrub` on every block, the blocks left empty left out); the
    story itself while nobody is hidden."""
    hidden = hidden_keys(session)
    pattern = _pattern(session) if hidden else None
    if pattern is None:
        return story
    told = [{"kind": b["kind"], "text": _scrubbed(b["text"], hidden, pattern, b["kind"] == "heading")} for b in story]
    return [b for b in told if b["text"]]


def _scrubbed(text: str, hidden: frozenset[str], pattern: re.Pattern[str], heading: bool) -> str:
    if heading:
        text = re.sub(r"(?:\s*,)+\s*", ", ", pattern.sub("", text))  # a run of separators as one
        text = re.sub(r"[\s,]+$", "", re.sub(r":\s*,\s*", ": ", text))  # none after the colon, none at the end
    else:
        text = pattern.sub(t("remote.someone"), text)
    return "" if names_hidden(text, hidden) else text


def _turn_shown(shadow: Any, hidden: frozenset[str]) -> tuple[int, str]:
    """(round, whose turn) as the players may see it: the fighter acting, or while a hidden one acts
    the visible fighter whose turn came last (and the round it came in); (round, "") when no visible
    fighter has had a turn yet (the page then shows the fight without a turn)."""
    fight = shadow.combat_state
    names = [c.name for c in fight.combatants]
    index, round_ = fight.active, fight.round
    for _ in range(len(names)):
        if not is_hidden(names[index], hidden):
            return round_, names[index]
        if index == 0:
            if round_ <= 1:
                break
            round_ -= 1
        index = (index - 1) % len(names)
    return fight.round, ""


def _without(view: dict[str, Any], hidden: frozenset[str], shadow: Any) -> dict[str, Any]:
    """The view with the hidden fighters left out: their rows, their place in the fight, their turn
    (the turn as it last stood among the fighters shown); the story is scrubbed once for all
    (`_public_facts`)."""
    for game in ("gurps", "gamma", "mtg"):  # anyone the GM may hide: a fighter, a mutant, a library's owner
        view[game] = [r for r in view[game] if not is_hidden(r["name"], hidden)]
    fight = view["fight"]
    if fight is not None:
        fight["order"] = [n for n in fight["order"] if not is_hidden(n, hidden)]
        if is_hidden(fight["turn"], hidden):
            fight["round"], fight["turn"] = _turn_shown(shadow, hidden)
        if fight.get("pending") and is_hidden(fight["pending"], hidden):
            fight["pending"] = ""
    return view


def gm_view(session: Session) -> dict[str, Any]:
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
