"""What the players may not see, as small functions of names and events: a fighter's HP as a word
(`condition`), whether an event is public (`visible`), the fighters the GM hides (`%table hide`) and
the text without them (`scrub`). Below the rule sets and the players' views (gamekernel/remote/views.py),
the story and the dashboard, which all read them (a GURPS fight asks whether it shows a hidden
fighter); it imports none of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from gamekernel.events import Event
from gamekernel.i18n import t
from gamekernel.text import match_key

if TYPE_CHECKING:  # the table's core it reads
    from gamekernel.rulesets import Core


def condition(hp: int, hp_max: int) -> str:
    """A fighter's HP as a word a player may see: unhurt, hurt, badly hurt, down (no numbers)."""
    if hp >= hp_max:
        return "unhurt"
    if hp <= 0:
        return "down"
    return "hurt" if hp * 3 > hp_max else "badly_hurt"


def visible(event: Event, revealed: Iterable[int]) -> bool:
    """Public, revealed, or caused by a revealed event (the flux of a revealed secret natural 1)."""
    shown = set(revealed)
    return not event.secret or event.seq in shown or event.data.get("cause") in shown


def hidden_keys(session: Core) -> frozenset[str]:
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
    """Whether a text still names a hidden fighter: one of his keys in the text's key, not inside an
    ASCII word (`ＡＳＳＡＳＳＩＮ` is Assassin, a Japanese name is found inside Japanese text; hiding
    Al leaves Alice alone)."""
    key = match_key.__wrapped__(text)  # a line of text, not a name: kept out of the names' cache
    return any(re.search(rf"(?<![a-z0-9_]){re.escape(h)}(?![a-z0-9_])", key) for h in hidden)


def hidden_names(session: Core) -> tuple[str, ...]:
    """The names the GM hides from the players as he spelled them (a seated character never among
    them), longest first: what `scrub_names` takes out of a text."""
    seats = session.state["seats"]
    hidden = hidden_keys(session)
    return tuple(sorted({n.strip() for n in seats.hidden if n.strip() and match_key(n) in hidden}, key=len,
                        reverse=True))


@lru_cache(maxsize=64)  # the same few hidden names, for every story line of every view
def _compiled(names: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for every hidden fighter's name and its numbered copies, any case, not inside
    an ASCII word (a Japanese name is found inside Japanese text)."""
    either = "|".join(re.escape(n) for n in names)
    return re.compile(rf"(?<![A-Za-z0-9_])(?:{either})(?: \d+)?(?![A-Za-z0-9_])", re.IGNORECASE)


def scrub(session: Core, text: str, *, heading: bool = False) -> str:
    """`text` as a player may read it (`scrub_names` with the names the GM hides now)."""
    names = hidden_names(session) if session.state["seats"].hidden else ()
    return scrub_names(text, names, heading=heading) if names else text


def scrub_names(text: str, names: tuple[str, ...], *, heading: bool = False) -> str:
    """`text` without the hidden `names`: each hidden fighter is "someone" in a line (the defender
    learns that someone attacked), absent from a heading's list of names ("Fight: Aiko, Bren");
    "" when a hidden name would still be read in it after that (the text is left out whole)."""
    if not names:
        return text
    pattern = _compiled(names)
    if heading:
        text = re.sub(r"(?:\s*,)+\s*", ", ", pattern.sub("", text))  # a run of separators as one
        text = re.sub(r"[\s,]+$", "", re.sub(r":\s*,\s*", ": ", text))  # none after the colon, none at the end
    else:
        text = pattern.sub(t("remote.someone"), text)
    return "" if names_hidden(text, frozenset(match_key(n) for n in names)) else text


def turn_shown(shadow: Any, hidden: frozenset[str]) -> tuple[int, str]:
    """(round, whose turn) as the players may see it: the fighter acting, or while a hidden one acts
    the visible fighter whose turn came last (and the round it came in); (round, "") when no visible
    fighter has had a turn yet (the page then shows the fight without a turn)."""
    fight = shadow.combat.state
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
