"""The facts of the table dashboard: every character of the session by game, read from the parts
of the state with no rule computed here beyond what the parts already expose."""

from __future__ import annotations

from typing import Any

from gamekernel.rulesets import boards


def _gurps_rows(session) -> list[dict[str, Any]]:
    fight = session.combat.state
    running = fight is not None and not fight.over
    in_fight = {c.name: c for c in fight.combatants} if running else {}
    rows = []
    for name, ch in sorted(session.gurps.state.characters.items()):
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


def _gamma_rows(session, gm: bool = False) -> list[dict[str, Any]]:
    """Each Gamma World hand; the GM's (`gm`) is the true one, every card a secret flux drew and
    the pending flux of secret rolls marked `secret` (GW-ALPHA-10)."""
    gw = session.gw.state
    rows = []
    for name in sorted(gw.characters):
        view = session.gw.hand(name, gm=gm)
        cards = [{"uid": card.uid, "name": view.catalog.card(card.card_id).name, "tapped": card.tapped,
                  "overcharged": card.overcharged} for card in view.cards]
        row: dict[str, Any] = {"name": name, "cards": cards, "flux": view.flux_pending}
        if gm:
            for card in cards:
                card["secret"] = card["uid"] in view.secret_cards
            row.update(flux=view.flux_pending + view.flux_secret, flux_secret=view.flux_secret)
        rows.append(row)
    return rows


def _mtg_rows(session) -> list[dict[str, Any]]:
    part = session.mtg.state
    rows = []
    for actor in sorted(part.decks):
        view = session.mtg.library_view(actor)
        rows.append({"name": actor, "library": view.count, "known_top": [view.shown_name(n) for n in view.known_top],
                     "known_bottom": view.known_bottom, "boost_used": view.boost_used})
    return rows


def players_session(session) -> Any:
    """The session as the players know it: itself while no secret changed anything, else the public
    table's shadow session (gamekernel/remote/projection.py), so that a secret roll's HP change, a
    secret flux and the card it drew reach no player-visible fact (GURPS-SR-09, GW-ALPHA-10)."""
    if session.projected or session.public_state() is session.state:
        return session
    return session.public_table().shadow()


def players_facts(session) -> dict[str, Any]:
    """`table_facts` as the table sees the notebook (`%table` without `--gm`): the public table, the
    fighters the GM hides left out (their rows, their turn: the turn as it last stood among the others),
    and the HP and FP of a fighter nobody plays a word (unhurt, hurt, badly hurt, down): numbers only
    for a seated character, or while nobody is seated a player character (GURPS-SR-09)."""
    from gamekernel.hiding import condition, hidden_keys, is_hidden, turn_shown

    shown = players_session(session)
    facts = table_facts(shown)
    hidden = hidden_keys(session)
    known = {c for chars in session.state["seats"].seats.values() for c in chars}
    if not known:
        fight = shown.combat.state
        known = set(shown.gurps.state.characters) | ({c.name for c in fight.combatants if c.pc} if fight else set())
    facts["gurps"] = [r if r["name"] in known else
                      {"name": r["name"], "condition": condition(r["hp"], r["hp_max"]), "state": r["state"],
                       "in_fight": r["in_fight"]} for r in facts["gurps"]]
    if seated := {c for chars in session.state["seats"].seats.values() for c in chars}:
        for board in facts["boards"].values():  # a private cell is its player's (RuleSet.dashboard)
            private = set(board["private"])
            board["rows"] = [r if r[0] in seated else ["" if i in private else c for i, c in enumerate(r)]
                             for r in board["rows"]]
    if not hidden:
        return facts
    for game in ("gurps", "gamma", "mtg"):
        facts[game] = [r for r in facts[game] if not is_hidden(r["name"], hidden)]
    for board in facts["boards"].values():
        board["rows"] = [r for r in board["rows"] if not is_hidden(r[0], hidden)]
    fight = facts["fight"]
    if fight is not None:
        if is_hidden(fight["turn"], hidden):
            fight["round"], fight["turn"] = turn_shown(shown, hidden)
        if fight["pending"] and is_hidden(fight["pending"], hidden):
            fight["pending"] = ""
    return facts


def table_facts(session, *, gm: bool = False) -> dict[str, Any]:
    """Plain data (JSON-ready): `gurps`, `gamma` and `mtg` rows, the fight (`round`, `turn`, `pending`),
    the Gamma World encounter flag and the MtG scene number. As the players know them (the public
    table), or with `gm` the truth, the secret cards and flux marked."""
    if not gm:
        session = players_session(session)
    fight = session.combat.state
    running = fight is not None and not fight.over
    return {
        "gurps": _gurps_rows(session),
        "gamma": _gamma_rows(session, gm),
        "mtg": _mtg_rows(session),
        "fight": {"round": fight.round, "turn": fight.current.name,
                  "pending": fight.pending.target if fight.pending else ""} if running else None,
        "encounter": bool(session.gw.state.encounter),
        "scene": session.mtg.state.scene,
        "boards": boards(session.state),  # the rule sets' own rows (RuleSet.dashboard)
    }
