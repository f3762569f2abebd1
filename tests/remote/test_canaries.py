"""No player ever reads a secret: random sessions with a canary in every secret surface.

A session of GURPS, Gamma World and MtG characters at a remote table, with a fighter the GM hides
(named with the canary), is played by a random sequence of steps: every intent a player can send
(`intents.actions()` and the answer to an ask, enumerated from the module, so a new action is played
as soon as it exists) by seated and unseated players, with good and bad fields; and the GM's
operations: public and secret rolls and checks (secret labels hold a canary), hits and damage
(secret damage onto a character whose HP no other value shares: 47), Gamma World draws, secret
d20s (a secret natural 1's flux) and fluxes, MtG checks, GM-only notes, asks (their spec holds a
canary), hiding a second fighter, approvals, disclosure modes, reveals and undos; rollable tables rolled
in secret, for one player and blind (every entry of the GM's table holds a canary) and handouts to one
player (their text holds one): the player they are for may read those, nobody else. After every step,
every player's and a spectator's view (`views.player_view` through the projection, the story
included) and every reply and error a player got hold no canary the GM has not revealed, and no HP
a secret hit gave (GURPS-SR-09: a secret roll's result is the GM's alone until revealed).
"""

from __future__ import annotations

import contextlib
import json
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamekernel import Session
from gamekernel.errors import GameKernelError
from gamekernel.remote import intents
from gamekernel.remote.intents import handle
from gamekernel.remote.projection import SPECTATOR, Audience
from gamekernel.remote.views import gm_view, view
from gamekernel.rolltables.rules import parse_body

CANARY = "Zq9"  # every secret surface holds it, with the step's number after it
GHOST = f"{CANARY}ghost"  # the fighter the GM hides: never shown, so never public
TOKEN = re.compile(rf"{CANARY}\w*", re.IGNORECASE)
HP_MAX = 47  # Bren's HP: "x/47" is Bren's HP and nothing else's
DECK = "4 Forest\n4 Llanowar Elves\n4 Serra Angel\n4 Plains\n4 Lightning Bolt\n"
PLAYERS = ("alice", "bob", "carol", "dave")  # dave has no seat
KINDS = sorted([*intents.actions(), intents.ANSWER])  # every intent kind there is, read from the module


def table() -> Session:
    s = Session(seed=5)
    s.gurps.char_new("Aiko", st=11, dx=13, skills=[("Stealth", 4)])
    s.gurps.char_new("Bren", st=12, ht=12, hp_adj=HP_MAX - 12)
    s.mtg.library_load("Mira", "mira.txt", text=DECK)
    s.gw.character("Rin", level=4, new=True)
    s.gw.draw("Rin")
    s.combat.npc(GHOST, "ST=10 DX=14 HT=10 HP=10 weapon=Knife:14:thr-1 imp")
    s.combat.npc("Orc", "ST=12 DX=11 HT=12 HP=18 weapon=Club:11:sw cr")
    s.seats.seat("alice", "Aiko")
    s.seats.seat("bob", "Bren")
    s.seats.seat("bob", "Mira")
    s.seats.seat("carol", "Rin")
    s.rolltables.define(parse_body("Omen", "1d6", "\n".join(f"{n}: the omen {CANARY}o{n}" for n in range(1, 7))))
    s.seats.hide(GHOST.lower())  # matched as every name is: the lower-case spelling hides him
    assert s.seats.state.hidden == [GHOST]
    s.setup = len(s.active)  # type: ignore[attr-defined]
    return s


def intent_for(s: Session, user: str, kind: str, n: int) -> dict:
    """A plausible (or deliberately wrong) intent of `kind` by `user`, chosen by `n`."""
    mine = s.seats.state.seat_of(user)
    out: dict = {"action": kind}
    if mine and n % 5:
        out["character"] = mine[n % len(mine)]
    fight = s.combat.state
    readied = s.gw.state.readied("Rin") if "Rin" in s.gw.state.characters else []
    if kind == "roll":
        out["dice"] = ["3d6", "1d20 pick", "2d6 won \u202e6 : )by bob(", "3d6 --secret"][n % 4]
    elif kind == "check":
        out["spec"] = ["Per", "DX-1", "green 1", "Per --secret", "Stealth @Bren", "Will -s"][n % 6]
    elif kind == "attack":
        names = [c.name for c in fight.combatants] if fight is not None else ["Orc"]
        out["target"] = [*names, GHOST, GHOST[:5], "someone"][n % (len(names) + 3)]
        me = fight.current if fight is not None else None
        out["weapon"] = me.weapons[0].name if me is not None and me.weapons else "Punch"
    elif kind == "defend":
        out["defense"] = ["dodge", "parry", "block"][n % 3]
        if n % 2:
            del out["defense"]
    elif kind in ("tap", "overcharge"):
        out["card"] = readied[n % len(readied)] if readied else "Nothing"
    elif kind == "answer":
        own = [a["id"] for a in view(s, Audience.player(user), s.public_table())["asks"]]
        out["ask"] = own[n % len(own)] if own and n % 3 else n % 4
    return out


GM_OPS = [
    "roll", "secret_roll", "check", "secret_check", "damage", "secret_damage", "note", "gm_note", "ask",
    "fight", "fight", "fight", "ghost_attacks", "secret_hit", "gw_draw", "gw_secret_d20", "gw_flux",
    "gw_encounter", "mtg_check", "mtg_secret", "hide_orc", "approval", "approve", "refuse", "disclose",
    "reveal", "undo", "table_roll", "table_secret", "table_to", "table_blind", "handout",
]
HANDOUTS = Path(tempfile.mkdtemp(prefix="gk-handouts-"))  # the table folder of the handouts


def gm(s: Session, op: str, n: int) -> None:
    """One operation of the GM's (each as its magic calls the session); a refused one changes nothing."""
    fight = s.combat.state
    running = fight is not None and not fight.over
    if op == "roll":
        s.roll("3d6 stairs")
    elif op == "secret_roll":
        s.roll(f"3d6 {CANARY}r{n}", secret=True)
    elif op == "check":
        s.gurps.check("Stealth", actor="Aiko")
    elif op == "secret_check":
        s.gurps.check(f"Per-{n % 3} {CANARY}c{n}", actor="Bren", secret=True)
    elif op == "damage":
        s.gurps.damage("1d cr", target="Bren")
    elif op == "secret_damage":
        s.gurps.damage(f"{1 + n % 3}d cut", target="Bren", secret=True)
    elif op == "note":
        s.note("the door creaks")
    elif op == "gm_note":
        s.note(f"the guard is {CANARY}n{n}", gm_only=True)
    elif op == "ask":
        s.seats.ask("bob", f"Will-{n % 4} {CANARY}a{n}")
    elif op == "fight" and not running:
        s.combat.start(f"Aiko Bren {GHOST} Orc")
    elif op == "fight" and fight.pending is not None:
        s.combat.defend(fight.pending.target)
    elif op == "fight" and (fight.current.chosen or n % 3 == 0):
        s.combat.next()
    elif op == "fight":
        me = fight.current
        foe = next(c for c in fight.combatants if c.side != me.side)
        s.combat.attack(me.name, foe.name, me.weapons[0].name)
    elif op == "ghost_attacks" and running and fight.current.name == GHOST and fight.pending is None:
        s.combat.attack(GHOST, ["Aiko", "Bren"][n % 2], "Knife")
    elif op == "secret_hit" and running:
        s.combat.damage(["Bren", GHOST, "Orc"][n % 3], "1d cr", secret=True)
    elif op == "gw_draw":
        s.gw.draw("Rin")
    elif op == "gw_secret_d20":
        s.roll(f"1d20 {CANARY}d{n}", actor="Rin", secret=True)
    elif op == "gw_flux" and s.gw.state.readied("Rin"):
        s.gw.flux("Rin", s.gw.state.readied("Rin")[0])
    elif op == "gw_encounter":
        s.gw.encounter_end(force=True) if s.gw.state.encounter else s.gw.encounter_start()
    elif op == "mtg_check":
        s.mtg.check("green", 1 + n % 3, actor="Mira")
    elif op == "mtg_secret":
        s.roll(f"1d6 {CANARY}m{n}", actor="Mira", secret=True)
    elif op == "hide_orc":
        s.seats.hide("orc", hidden="Orc" not in s.seats.state.hidden)
    elif op == "approval":
        s.seats.approval(not s.seats.state.approval)
    elif op in ("approve", "refuse") and s.seats.pending:
        intents.approve(s, s.seats.pending[n % len(s.seats.pending)]["id"], refuse=op == "refuse")
    elif op == "disclose":
        s.seats.disclose("outcome" if s.seats.state.disclose == "full" else "full")
    elif op == "reveal":
        secret = [e for e in s.active_secrets() if e.seq not in s.seats.state.revealed
                  and e.kind not in ("table.ask", "table.answer", "secret.entropy", "rolltable.define")]
        if secret:
            s.seats.reveal(secret[n % len(secret)].seq)
    elif op == "table_roll":
        s.rolltables.roll("reaction", n % 5 - 2)
    elif op == "table_secret":
        s.rolltables.roll("Omen", audience="secret")
    elif op in ("table_to", "table_blind"):
        s.rolltables.roll("Omen", audience="player" if op == "table_to" else "blind", to=[PLAYERS[n % 3]])
    elif op == "handout":
        (HANDOUTS / f"note{n}.txt").write_text(f"the letter says {CANARY}h{n}", encoding="utf-8")
        s.seats.show([PLAYERS[n % 3]], f"note{n}.txt", folder=HANDOUTS)
    elif op == "undo" and len(s.active) > s.setup:  # the table's setup (the hide among it) stays
        s.undo()


ACTIVE = "the player whose move it is"
STEP = st.one_of(
    st.tuples(st.just("gm"), st.sampled_from(GM_OPS), st.integers(0, 99)),
    st.tuples(st.sampled_from([ACTIVE, *PLAYERS]), st.sampled_from(KINDS), st.integers(0, 99)),
)


def whose_move(s: Session) -> str:
    """The player who defends now, else whose turn it is, else alice: so that a defence against a
    hidden fighter and a turn after his are played, not only refused."""
    fight = s.combat.state
    if fight is not None and not fight.over:
        for name in (fight.pending.target if fight.pending else "", fight.current.name):
            owner = s.seats.state.owner_of(name)
            if owner:
                return owner
    return "alice"


def public_tokens(s: Session) -> set[str]:
    """The canaries the GM made public on purpose: those of the revealed events (never the hidden
    fighter's name: revealing a secret hit on him shows the hit, not him)."""
    revealed = set(s.seats.state.revealed)
    text = json.dumps([e.data for e in s.log if e.seq in revealed], ensure_ascii=False)
    return {tok.lower() for tok in TOKEN.findall(text)} - {GHOST.lower()}


def own_tokens(s: Session, user: str | None) -> set[str]:
    """The canaries the GM gave `user` alone: the handouts shown to them and the table rolls made for
    them (`player`, never `blind`), still in effect."""
    if user is None:
        return set()
    mine = [e.data for e in s.active if user in e.data.get("to", ())
            and (e.kind == "table.handout" or (e.kind == "rolltable.roll" and e.data["audience"] == "player"))]
    return {tok.lower() for tok in TOKEN.findall(json.dumps(mine, ensure_ascii=False))}


def bren_hp(s: Session) -> tuple[int, int]:
    """(the GM's Bren HP, the players' Bren HP): in the fight when he is in one."""
    def hp(facts: dict) -> int:
        return next(r["hp"] for r in facts["gurps"] if r["name"] == "Bren")

    from gamekernel.table.view import table_facts

    return hp(gm_view(s)["facts"]), hp(table_facts(s))


CONTROLS = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def leaks(s: Session, texts: list[str], allowed: set[str]) -> list[str]:
    """The secrets read in `texts`: canaries not revealed, Bren's true HP while it is secret, and
    any bidi or zero-width control (a line must read as it holds)."""
    found = [tok for text in texts for tok in TOKEN.findall(text) if tok.lower() not in allowed]
    found += [repr(m) for text in texts for m in CONTROLS.findall(text)]
    true, public = bren_hp(s)
    if true != public:
        found += [f"HP {true}/{HP_MAX}" for text in texts if f"{true}/{HP_MAX}" in text]
    return found


@settings(max_examples=50, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STEP, min_size=10, max_size=40))
def test_no_player_ever_reads_a_secret(steps):
    s = table()
    public = s.public_table()
    told: list[str] = []  # every reply and error any player got
    for number, (who, what, n) in enumerate(steps):
        if who == "gm":
            with contextlib.suppress(GameKernelError):  # a refused step changes nothing
                gm(s, what, number * 7 + n)
        else:
            who = whose_move(s) if who == ACTIVE else who
            secret_dice = (s.secret_rng.getstate(), s._secret_key)
            reply = handle(s, who, intent_for(s, who, what, n))
            told.append(reply.text)
            if what != "answer":  # only the GM's ask rolls the secret dice
                assert (s.secret_rng.getstate(), s._secret_key) == secret_dice, (steps[: number + 1], reply)
        allowed = public_tokens(s)
        found = leaks(s, told, allowed)
        assert not found, (steps[: number + 1], found)
        for user in (*PLAYERS, None):
            audience = Audience.player(user) if user else Audience(SPECTATOR)
            seen = view(s, audience, public)
            own_asks = seen.pop("asks")
            asked = [x for x in s.seats.state.asks.values() if x["user"] == user]
            assert sorted(a["spec"] for a in own_asks) == sorted(x["spec"] for x in asked)  # their own alone
            made = sum(1 for e in s.active if e.kind == "table.ask" and e.data["user"] == user)
            assert all(1 <= a["id"] <= made for a in own_asks), (own_asks, made)  # their count, not the log's
            if seen["fight"] is not None:  # no turn announced that is not a visible fighter's
                assert seen["fight"]["turn"] in {"", *seen["fight"]["order"]}, (steps[: number + 1], seen["fight"])
            bren = next((r for r in seen["gurps"] if r["name"] == "Bren"), None)
            true, shown = bren_hp(s)
            assert bren is None or true == shown or bren["hp"] != true, (steps[: number + 1], user)
            shown_to_me = json.dumps(seen, ensure_ascii=False)
            found = leaks(s, [shown_to_me], allowed | own_tokens(s, user))
            assert not found, (steps[: number + 1], user, found)
            read = {tok.lower() for tok in TOKEN.findall(shown_to_me)}
            assert own_tokens(s, user) <= read, (steps[: number + 1], user)  # and they do read what is theirs
