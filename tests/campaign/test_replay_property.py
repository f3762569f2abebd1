"""State = replay of the log, across every rule set (hypothesis property tests).

A random program mixes core rolls and notes, GURPS characters, checks and damage, a GURPS fight,
Gamma World alpha decks (with the alpha-flux reaction), MtG libraries and checks, undo/redo at
random points, snapshots and reopening the campaign. After every step:

(a) `replay(session.active)` gives the live state;
(b) the state is a function of the active events: whenever the same active events were seen
    before (after an undo, a redo, or reopening), the state equals what it was then - so undo
    restores the state before the undone events and redo the state after them;
(d) every part survives `from_dict(to_dict())`, also through JSON (what a snapshot does), and a
    `to_dict()` picture taken before a step is not changed by the step (no aliasing);
and an operation the rules refuse (GameKernelError) changes neither the state nor the log.
At the end (c) the campaign is closed and opened in a new Session: equal state from the snapshot
and from a full replay (snapshot.json deleted).
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamekernel import Session
from gamekernel.errors import GameKernelError
from gamekernel.session import replay
from gamekernel.state import TableState

DECKLIST = """Deck
4 Forest
3 Elvish Mystic
2 Runeclaw Bear
2 Ornithopter
2 Serra Angel
2 Lightning Bolt
1 Counterspell
3 Plains
"""

ROLLS = ("3d6", "1d20+4", "4d20", "1d20", "2d6+1 dmg", "3d+")  # "3d+" is a usage error
GURPS_NAMES = ("Aiko", "Bren", "Nobody")
CHECKS = ("Lockpicking-5 dark", "Stealth", "DX+2", "12", "Per", "Vision+1", "Frobnicate-2")
DAMAGE = ("1d+2 cut", "2d cr", "1d-3 imp", "3d pi+", "banana")
FIGHTS = ("Aiko Orc", "Orc*2", "Aiko Bren Orc", "Aiko Ghost")
DEFENSES = ("", "dodge", "parry", "block", "none")
GW_NAMES = ("Rin", "Vex")
MTG_NAMES = ("Mira", "Zed")
GW_CARDS = ("Gravity Knot", "Sap Bloom", "Ember Thought", "Heavy Knuckle", "Thought Needle", "No Such Card")
MTG_KINDS = ("green", "white", "blue", "red", "black", "colorless")


# --- the operations: op(session, a, b); a and b are small integers choosing the details ---------------

def _roll(s, a, b):
    actor = (None, "Rin", "Aiko", "Vex")[b % 4]
    s.roll(ROLLS[a % len(ROLLS)], actor=actor, secret=b >= 6)


def _note(s, a, b):
    text = ("The party enters the crypt", "<script>alert(1)</script> & co", "  ")[a % 3]
    s.note(f"{text} {b}" if text.strip() else text, gm_only=b % 2 == 1)


def _char_new(s, a, b):
    s.gurps.char_new(GURPS_NAMES[a % 2], st=9 + b % 4, dx=10 + a % 4, iq=10 + b % 3, ht=10 + (a + b) % 3,
               skills=[("Lockpicking", 1, 9), ("Stealth", 1 + b % 4)], traits=["Combat Reflexes"][: b % 2])


def _check(s, a, b):
    actor = (None, "Aiko", "Bren", "Nobody")[b % 4]
    s.gurps.check(CHECKS[a % len(CHECKS)], actor=actor, secret=b >= 4)


def _damage(s, a, b):
    target = (None, "Aiko", "Bren", "Goblin")[b % 4]
    s.gurps.damage(DAMAGE[a % len(DAMAGE)], target=target, secret=b >= 6)


def _combat_npc(s, a, b):
    s.combat.npc("Orc", f"ST={10 + a % 4} DX={10 + b % 3} HT=11 weapon=Axe:{11 + a % 3}:sw+2 cut")


def _combat_start(s, a, b):
    s.combat.start(FIGHTS[a % len(FIGHTS)])


def _combat_next(s, a, b):
    s.combat.next()


def _fight_names(s):
    fight = s.combat.state
    if fight is None or fight.over:
        return ["Aiko", "Orc"]
    return [c.name for c in fight.combatants]


def _combat_attack(s, a, b):
    fight = s.combat.state
    names = _fight_names(s)
    attacker = fight.current.name if fight is not None and not fight.over and b % 4 else names[a % len(names)]
    others = [n for n in names if n != attacker] or names
    target = others[b % len(others)]
    weapon = "Sword"
    if fight is not None and not fight.over:
        weapons = next((c.weapons for c in fight.combatants if c.name == attacker), ())
        if weapons and b % 5:
            weapon = weapons[a % len(weapons)].name
    s.combat.attack(attacker, target, weapon)


def _combat_defend(s, a, b):
    fight = s.combat.state
    pending = fight.pending if fight is not None else None
    name = pending.target if pending is not None and b % 4 else _fight_names(s)[a % len(_fight_names(s))]
    s.combat.defend(name, DEFENSES[a % len(DEFENSES)])


def _combat_damage(s, a, b):
    names = _fight_names(s)
    s.combat.damage(names[a % len(names)], DAMAGE[b % len(DAMAGE)])


def _combat_maneuver(s, a, b):
    names = _fight_names(s)
    maneuver = ("attack", "all_out_attack", "feint", "all_out_defense", "do_nothing", "fly")[a % 6]
    target = names[b % len(names)]
    s.combat.maneuver(names[a % len(names)], maneuver, target=target if maneuver == "feint" else "",
                      option="determined" if maneuver == "all_out_attack" else "")


def _combat_end(s, a, b):
    s.combat.end()


def _gw_setup(s, a, b):
    s.gw.setup()


def _gw_character(s, a, b):
    s.gw.character(GW_NAMES[a % 2], level=1 + b % 5, origin_bonus=b % 3 if a % 3 else None)


def _gw_deck(s, a, b):
    """An own alpha deck (GW-ALPHA-02): created, filled, trimmed."""
    who = GW_NAMES[a % 2]
    if b % 4 == 0:
        s.gw.deck_new(who)
    elif b % 4 == 3:
        s.gw.deck_remove(who, GW_CARDS[a % len(GW_CARDS)])
    else:
        s.gw.deck_add(who, GW_CARDS[(a + b) % len(GW_CARDS)], 1 + b % 2)


def _gw_draw(s, a, b):
    s.gw.draw(GW_NAMES[a % 2] if b % 3 else None, from_gm=b % 2 == 1)


def _readied_name(s, who, pick):
    gw = s.gw.state
    uids = gw.readied(who) if who in gw.characters else []
    if not uids or pick % 5 == 0:
        return "Nonexistent Card"
    uid = uids[pick % len(uids)]
    return gw.catalog.card(gw.table.card(uid).def_id).name


def _gw_tap(s, a, b):
    who = GW_NAMES[a % 2]
    s.gw.tap(who, _readied_name(s, who, b))


def _gw_untap(s, a, b):
    who = GW_NAMES[a % 2]
    s.gw.untap(who, _readied_name(s, who, b))


def _gw_overcharge(s, a, b):
    who = GW_NAMES[a % 2]
    s.gw.overcharge(who, _readied_name(s, who, b))


def _gw_d20(s, a, b):
    s.roll("4d20" if b % 2 else "1d20+2", actor=GW_NAMES[a % 2], secret=b >= 6)


def _gw_flux(s, a, b):
    who = GW_NAMES[a % 2]
    s.gw.flux(who, _readied_name(s, who, b), force=b >= 6)


def _gw_encounter_start(s, a, b):
    s.gw.encounter_start()


def _gw_encounter_end(s, a, b):
    s.gw.encounter_end()


def _gw_rest(s, a, b):
    s.gw.rest(GW_NAMES[: 1 + a % 2] if b % 2 else (), draw=b % 3 != 0)


def _mtg_library(s, a, b):
    s.mtg.library_load(MTG_NAMES[a % 2], "forest-friends.txt", text=DECKLIST if b % 7 else "4 Not A Real Card\n")


def _mtg_check(s, a, b):
    s.mtg.check(MTG_KINDS[a % len(MTG_KINDS)], b % 6, actor=MTG_NAMES[(a + b) % 2])


def _mtg_boost(s, a, b):
    s.mtg.boost(MTG_NAMES[a % 2])


def _mtg_scene(s, a, b):
    s.mtg.scene()


def _mtg_peek(s, a, b):
    s.mtg.library_peek(1 + b % 3, MTG_NAMES[a % 2])


def _mtg_reset(s, a, b):
    s.mtg.library_reset(MTG_NAMES[a % 2])


def _undo(s, a, b):
    s.undo(1 + a % 3)


def _redo(s, a, b):
    s.redo(1 + a % 3)


OPERATIONS = {
    "roll": _roll, "note": _note,
    "char_new": _char_new, "check": _check, "damage": _damage,
    "combat_npc": _combat_npc, "combat_start": _combat_start, "combat_next": _combat_next,
    "combat_attack": _combat_attack, "combat_defend": _combat_defend, "combat_damage": _combat_damage,
    "combat_maneuver": _combat_maneuver, "combat_end": _combat_end,
    "gw_setup": _gw_setup, "gw_character": _gw_character, "gw_deck": _gw_deck, "gw_draw": _gw_draw, "gw_tap": _gw_tap,
    "gw_untap": _gw_untap, "gw_overcharge": _gw_overcharge, "gw_d20": _gw_d20, "gw_flux": _gw_flux,
    "gw_encounter_start": _gw_encounter_start, "gw_encounter_end": _gw_encounter_end, "gw_rest": _gw_rest,
    "mtg_library": _mtg_library, "mtg_check": _mtg_check, "mtg_boost": _mtg_boost, "mtg_scene": _mtg_scene,
    "mtg_peek": _mtg_peek, "mtg_reset": _mtg_reset,
    "undo": _undo, "redo": _redo,
    "save": None, "reopen": None,  # handled by the runner: they replace files or the session
}
# Undo/redo and the operations that move a fight or an encounter on come up more often.
WEIGHTED = sorted(OPERATIONS) + ["undo"] * 3 + ["redo"] * 2 + [
    "combat_attack", "combat_defend", "combat_next", "gw_d20", "gw_tap", "gw_flux", "mtg_check", "mtg_boost",
    "check", "roll"]

# Optional openings that set a table up, so that random steps reach deep states (a running fight,
# readied alpha cards, a library) instead of being refused for want of them.
OPENINGS = {
    "gurps": [("char_new", 0, 1), ("char_new", 1, 2)],
    "fight": [("char_new", 0, 3), ("combat_npc", 1, 1), ("combat_start", 0, 0)],
    "gamma world": [("gw_setup", 0, 0), ("gw_character", 0, 3), ("gw_character", 1, 1), ("gw_draw", 0, 0),
                    ("gw_encounter_start", 0, 0)],
    "mtg": [("mtg_library", 0, 1), ("mtg_library", 1, 1)],
}


@st.composite
def programs(draw):
    opening = [step for name, steps in OPENINGS.items() if draw(st.booleans()) for step in steps]
    body = draw(st.lists(st.tuples(st.sampled_from(WEIGHTED), st.integers(0, 7), st.integers(0, 7)),
                         min_size=12, max_size=40))
    return opening + body


# --- the checker --------------------------------------------------------------------------------------

def _key(session: Session) -> tuple[int, ...]:
    """The active events that change or describe the state (a reopen's own marker and the secret
    stream's entropy, which change nothing, left out)."""
    return tuple(e.seq for e in session.active if e.kind not in ("campaign.open", "secret.entropy"))


class Table:
    """Runs a program against a campaign folder, checking the properties after each step."""

    def __init__(self, folder: Path, seed: int):
        self.folder = folder
        self.seed = seed
        self.seen: dict[tuple[int, ...], dict] = {}
        self.session = self._open(Session(seed=seed))

    def _open(self, session: Session) -> Session:
        session.campaign_open(self.folder, same_session=True)  # a restart, not a new game session
        session.observe(self._remember)
        return session

    def _remember(self, session: Session, event) -> None:
        if event.kind in ("undo", "redo", "campaign.open"):
            return  # checked against what was remembered, in `check`
        self.seen.setdefault(_key(session), copy.deepcopy(session.state.to_dict()))

    def step(self, name: str, a: int, b: int) -> None:
        s = self.session
        if name == "save":
            s.campaign_save()
        elif name == "reopen":
            s.campaign_close()
            fresh = Session()
            fresh.rng.seed(self.seed + a)  # a new kernel's own randomness, not an event of the campaign
            self.session = self._open(fresh)
        else:
            before_picture = s.state.to_dict()
            before = copy.deepcopy(before_picture)
            log_length = len(s.log)
            try:
                OPERATIONS[name](s, a, b)
            except GameKernelError:
                assert s.state.to_dict() == before, f"refused {name} changed the state"
                assert len(s.log) == log_length, f"refused {name} was logged"
            assert before_picture == before, f"{name}: a to_dict() picture taken before it changed (aliasing)"
        self.check(name)

    def check(self, name: str) -> None:
        s = self.session
        live = s.state.to_dict()
        assert replay(s.active).to_dict() == live, f"(a) replay differs from live play after {name}"
        key = _key(s)
        if name in ("undo", "redo", "reopen"):
            assert key in self.seen, f"(b) {name} reached a set of active events never seen live"
        if key in self.seen:
            assert self.seen[key] == live, f"(b) state after {name} differs from the state with the same events"
        self.seen.setdefault(key, copy.deepcopy(live))
        assert TableState.from_dict(live).to_dict() == live, f"(d) from_dict/to_dict round trip after {name}"
        through_json = json.loads(json.dumps(live))
        assert TableState.from_dict(through_json).to_dict() == live, f"(d) JSON round trip after {name}"
        for part_name, part in s.state.parts.items():
            picture = part.to_dict()
            assert type(part).from_dict(picture).to_dict() == picture, f"(d) part {part_name} after {name}"

    def reopen_and_compare(self) -> None:
        """(c) close, then open in a new Session: from the snapshot, then by full replay."""
        expected = self.session.state.to_dict()
        expected_events = len(self.session.log)
        self.session.campaign_close()
        for way in ("snapshot", "replay"):
            if way == "replay":
                (self.folder / "snapshot.json").unlink()
            fresh = Session()
            fresh.campaign_open(self.folder, same_session=True)
            assert fresh.state.to_dict() == expected, f"(c) reopened state differs ({way})"
            assert len(fresh.log) == expected_events + (1 if way == "snapshot" else 2)  # + each campaign.open
            fresh.campaign_close()


def run_program(program, seed: int) -> None:
    with tempfile.TemporaryDirectory() as temp:
        table = Table(Path(temp) / "campaign", seed)
        table.check("open")
        for name, a, b in program:
            table.step(name, a, b)
        table.reopen_and_compare()


@settings(max_examples=120, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(program=programs(), seed=st.integers(0, 2**16))
def test_replay_undo_redo_and_reopen_across_rule_sets(program, seed):
    """Replay = live, undo/redo, snapshots and reopening, every rule set."""
    run_program(program, seed)


# A few hand-written programs that reach deep states random ones seldom reach (a whole GW encounter
# with flux, a fight with an answered attack, a boosted MtG check), run through the same checker.
SCRIPTED = {
    "gamma world flux": [("gw_setup", 0, 0), ("gw_character", 0, 3), ("gw_draw", 0, 1),
                         ("gw_encounter_start", 0, 0), ("gw_tap", 0, 1), *[("gw_d20", 0, 1)] * 6,
                         ("gw_flux", 0, 1), ("undo", 0, 0), ("gw_flux", 0, 2), ("gw_overcharge", 0, 1),
                         ("gw_encounter_end", 0, 0), ("undo", 1, 0), ("redo", 1, 0), ("gw_rest", 0, 1)],
    "gurps fight": [("char_new", 0, 1), ("check", 0, 1), ("check", 1, 5), ("combat_npc", 1, 1),
                    ("combat_start", 0, 0), *[("combat_attack", 1, 1), ("combat_defend", 1, 1),
                                              ("combat_next", 0, 0)] * 4,
                    ("combat_damage", 0, 0), ("undo", 0, 0), ("combat_damage", 1, 1), ("save", 0, 0),
                    ("undo", 2, 0), ("reopen", 1, 0), ("redo", 2, 0), ("combat_end", 0, 0), ("damage", 0, 1)],
    "mtg scenes": [("mtg_library", 0, 1), ("mtg_check", 0, 2), ("mtg_boost", 0, 0), ("mtg_peek", 0, 1),
                   ("mtg_check", 1, 2), ("mtg_scene", 0, 0), ("mtg_check", 0, 2), ("mtg_boost", 0, 0),
                   ("undo", 1, 0), ("mtg_reset", 0, 0), ("reopen", 0, 0), ("undo", 2, 0), ("redo", 2, 0),
                   ("mtg_library", 1, 1), ("mtg_check", 1, 3)],
}


def test_scripted_programs_reach_deep_states():
    """State = replay: the same checks on hand-written programs (flux, a fight, a boost)."""
    for name, program in SCRIPTED.items():
        run_program(program, seed=sum(map(ord, name)))


def test_refused_gamma_world_command_does_not_set_up_the_gm_deck():
    """State = replay, GW-ALPHA-03: the GM deck set up on first use is recorded only with a step that succeeds."""
    session = Session(seed=1)
    rng_before, secret_before = session.rng.getstate(), session.secret_rng.getstate()
    for refused in (lambda: session.gw.draw(), lambda: session.gw.deck_show("GM"),
                    lambda: session.gw.deck_remove("Rin", "Sap Bloom"), lambda: session.gw.rest(["Nobody"])):
        try:
            refused()
        except GameKernelError:
            pass
        else:  # pragma: no cover - the point of the test
            raise AssertionError("expected a refusal")
    assert [e.kind for e in session.log] == ["seed"]
    assert not session.gw.state.ready and session.rng.getstate() == rng_before
    assert session.secret_rng.getstate() == secret_before  # a refused shuffle puts the secret dice back too
    session.gw.character("Rin", new=True)
    session.gw.draw("Rin")  # a step that succeeds brings its set-up along
    # the deck is shuffled from the secret dice (GW-ALPHA-10): their key is logged, secret, first
    assert [e.kind for e in session.log] == ["seed", "gw.character", "secret.entropy", "gw.setup", "gw.draw"]


def test_mtg_picture_is_not_changed_by_a_later_boost():
    """State = replay, MTG-CHK-13: a to_dict() taken after a check still says 'not boosted' after the boost."""
    session = Session(seed=4)
    session.mtg.library_load("Mira", "forest-friends.txt", text=DECKLIST)
    session.mtg.library_stack("Mira", ["Elvish Mystic", "Runeclaw Bear"])  # target 9 > achievement 7: a
    session.mtg.check("green", 8, actor="Mira")  # failure, so the boost is allowed (seed 002:35,64)
    picture = session.state["mtg"].to_dict()
    session.mtg.boost("Mira")
    assert picture["last_check"]["Mira"]["boosted"] is False
    assert session.state["mtg"].to_dict()["last_check"]["Mira"]["boosted"] is True
