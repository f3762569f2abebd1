"""Sides of a fight: the party, its foes, the neutral, or sides the GM names, and whom a fighter
attacks by default. [GURPS-CMB-02, CMB-03, CMB-14]

Why a module of its own: the initiative tie rules (CMB-02/03) read whether a PC is among the tied and
whether NPCs share a side; the tracker and `%attack` read who is hostile to whom. The stored word for
the party stays "pcs" (every fighter of older logs that was a PC has it), so an old campaign keeps
its meaning; "party" and the other words a GM types are read into it here.
"""

from __future__ import annotations

from collections.abc import Iterable

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.text import match_key

PARTY = "pcs"  # the player characters' side (the stored word of older logs)
FOES = "foes"
NEUTRAL = "neutral"
SIDES = (PARTY, FOES, NEUTRAL)
_WORDS = {"pcs": PARTY, "pc": PARTY, "party": PARTY, "players": PARTY, "味方": PARTY, "パーティ": PARTY,
          "foes": FOES, "foe": FOES, "enemies": FOES, "enemy": FOES, "npc": FOES, "npcs": FOES, "敵": FOES,
          "neutral": NEUTRAL, "中立": NEUTRAL}


def side_key(text: str) -> str:
    """The side `text` names: party/pcs, foes/enemies/npc, neutral (either language), else the GM's
    own side name as typed (trimmed, at most 40 characters); an empty one is refused."""
    word = str(text).strip()
    if not word or len(word) > 40:
        raise UsageError(t("combat.err.side", side=word[:40]))
    return _WORDS.get(match_key(word), word)


def is_party(side: str) -> bool:
    """Whether `side` is the player characters' (their tie on Speed goes by DX, GURPS-CMB-03)."""
    return side == PARTY


def hostile(a: str, b: str) -> bool:
    """Whether fighters of sides `a` and `b` are enemies: different sides, neither of them neutral."""
    return a != b and NEUTRAL not in (a, b)


def default_target(attacker: tuple[str, str], others: Iterable[tuple[str, str, bool]]) -> str:
    """Whom `attacker` (name, side) attacks when the GM picks nobody: the first hostile fighter able
    to act, in the order given (the initiative order), else the first hostile one, else ""."""
    name, side = attacker
    hostile_ones = [(n, can_act) for n, s, can_act in others if n != name and hostile(side, s)]
    return next((n for n, can_act in hostile_ones if can_act), hostile_ones[0][0] if hostile_ones else "")
