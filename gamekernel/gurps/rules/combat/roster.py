"""Joining and leaving a running fight without reshuffling it (GURPS-CMB-02, CMB-05).

Why a module of its own: the order of a fight is fixed when it starts; a newcomer takes the place
his Basic Speed (then DX) earns among the others, after those he ties with (he came late), and waits
on Do Nothing until his first turn; whoever leaves is simply taken out. Either way the fighter
whose turn it is keeps it.
"""

from __future__ import annotations

from gamekernel.errors import RuleError, UsageError
from gamekernel.gurps.rules.combat.state import Combatant, CombatState, InitiativeEntry, copy_with
from gamekernel.gurps.rules.combat.turns import begin_turn, fresh_for_fight
from gamekernel.i18n import t
from gamekernel.text import match_key


def _running(state: CombatState) -> None:
    if not state.combatants or state.over:
        raise RuleError(t("combat.err.no_fight"))


def join_fight(state: CombatState, newcomer: Combatant) -> tuple[CombatState, int]:
    """`newcomer` enters the fight in initiative order; returns the new state and his place (0-based)."""
    _running(state)
    if any(match_key(c.name) == match_key(newcomer.name) for c in state.combatants):
        raise UsageError(t("combat.err.same_name", name=newcomer.name))
    rank = (newcomer.basic_speed, newcomer.dx)
    place = sum(1 for c in state.combatants if (c.basic_speed, c.dx) >= rank)
    c = fresh_for_fight(newcomer)
    entry = InitiativeEntry(c.name, c.basic_speed, c.dx)
    combatants = (*state.combatants[:place], c, *state.combatants[place:])
    entries = list(state.initiative)
    entries.insert(min(place, len(entries)), entry)
    active = state.active + 1 if place <= state.active else state.active
    return copy_with(state, combatants=combatants, initiative=tuple(entries), active=active), place


def leave_fight(state: CombatState, name: str) -> tuple[CombatState, str]:
    """`name` leaves the fight; the one whose turn it is keeps it (if it was the leaver's, the next
    fighter's turn begins). Refused while an attack on or by him waits for its defense."""
    _running(state)
    i = state.index(name)
    gone = state.combatants[i]
    if len(state.combatants) == 1:
        raise RuleError(t("table.err.last_fighter", name=gone.name))
    p = state.pending
    if p is not None and gone.name in (p.attacker, p.target):
        raise RuleError(t("combat.err.unanswered", target=p.target, attacker=p.attacker))
    combatants = (*state.combatants[:i], *state.combatants[i + 1:])
    entries = tuple(e for e in state.initiative if e.name != gone.name)
    active, round_ = state.active, state.round
    if i < active:
        active -= 1
    state = copy_with(state, combatants=combatants, initiative=entries)
    if i == state.active:
        if active >= len(combatants):
            active, round_ = 0, round_ + 1
        state = begin_turn(copy_with(state, active=active, round=round_))
    return copy_with(state, active=active, round=round_), gone.name
