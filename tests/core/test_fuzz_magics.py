"""Robustness: every registered magic, fuzzed with mutations of valid lines (a seeded generator).

The magics are enumerated from IPython's magics manager after `%load_ext gamekernel`, so a new
magic is fuzzed without touching this file. After each line: nothing but a one-line error result
reaches the shell (the registered function is called as IPython calls it; the `guarded` wrapper
turns a GameKernelError into an ErrorResult; anything else raising is a bug), and after every
error the session's state, log length and RNG are as before. 10,000+ lines per run in total, a
few hundred per magic.
"""

from __future__ import annotations

import json
import random
import warnings

import pytest

from gamekernel import magic_base as _base
from gamekernel.display.results import ErrorResult

# Valid lines to mutate (magics missing here are fuzzed from random tokens alone).
SEEDS = {
    "roll": ["3d+2 sword", "4d6kh3", "1d20+4 @Rin", "3d6<=12 --secret"],
    "odds": ["3d6 <= 12", "4d6kh3", "check 12", "check green 2 @Mira", "contest 14 vs 12"],
    "check": ["Broadsword @Bren", "Lockpicking-5 dark @Aiko", "green 2 @Mira", "12"],
    "char": ["new Cid st=11 dx=12", "use Aiko", "set dx=13 @Aiko", "skill Broadsword 4 @Bren", "list",
             "trait Combat Reflexes @Aiko", "weapon Bren Broadsword:12:sw+1 cut", "save Aiko aiko.json"],
    "combat": ["start Aiko Bren Goblin*2", "npc Orc ST=11 DX=11 weapon=Axe:12:sw+2 cut", "status", "end",
               "add Kobold ST=8"],
    "next": [""],
    "attack": ["Aiko -> Goblin1 Broadsword", "Bren -> Goblin2 Broadsword range=8 braced"],
    "defend": ["Goblin1 parry", "Aiko dodge"],
    "maneuver": ["Aiko attack", "Aiko aoa determined Goblin1", "Bren aod dodge"],
    "posture": ["Aiko kneeling"],
    "hit": ["Goblin1 2d+1 cut @Aiko"],
    "hazard": ["fall 6m @Bren", "disease -3 @Bren", "suffocation 10s @Aiko", "poison weak @Bren", "cold wet @Aiko"],
    "firstaid": ["Bren TL3 skill=12 @Aiko"],
    "heal": ["Bren 3days +1"],
    "wake": ["Bren --care"],
    "mortal": ["Bren --healed"],
    "cast": ["Fireball 3 skill=14 @Aiko", "Heal 2 skill=12 -2 far @Aiko"],
    "rest": ["Bren 30min", "@Rin"],
    "note": ["the door is locked $gold", "GM: trap"],
    "undo": ["", "2"],
    "redo": ["", "1"],
    "seed": ["42"],
    "log": ["", "5"],
    "deck": ["new Rin", 'add Rin "Sap Bloom" x2', "show Rin", "validate Rin", 'odds Rin "Sap Bloom" 3'],
    "draw": ["alpha Rin", "alpha"],
    "gw": ["Rin level 4 bonus +2"],
    "flux": ["odds 5", "Rin"],
    "overcharge": ["odds +2", 'Rin "Sap Bloom"'],
    "tap": ['Rin "Sap Bloom"'],
    "untap": ["Rin"],
    "encounter": ["start", "end"],
    "library": ["load Mira mira.txt", "odds", "data cards.json"],
    "boost": ["@Mira"],
    "scene": ["green 2"],
    "contest": ["Aiko:DX vs Bren:DX"],
    "react": ["+2"],
    "influence": ["Aiko Diplomacy"],
    "damage": ["2d+1 cut @Goblin1"],
    "fright": ["-2 @Aiko"],
    "cr": ["Bad Temper @Aiko"],
    "luck": ["@Aiko"],
    "campaign": ["status"],
}

EDGE_NUMBERS = ["0", "-1", "1", "+3", "--5", "2147483647", "9223372036854775807", "9" * 5000, "-" + "9" * 40,
                "1e999", "inf", "nan", "-0", "0x10", "3.5", "١٢", "１２"]
ODD_TEXT = ["\x00", "\ud800", "\udfff", "a\x00b", "鍵開け", "《エルフの神秘家》", "＠Aiko", "é", "x" * 300, "",
            "\u200b", "\t", "<script>alert(1)</script>", "$gold", "{gold}", "~", "../../x", "\\"]
QUOTES = ['"', "'", '"two words"', "'x", '""', "\"a b", "«a»"]
FLAGS = ["--secret", "--force", "--care", "--healed", "--x=1", "--", "--secret=1", "-5", "@", "@Aiko", "@Nobody",
         '@"Two words"', "->", "=", "x100000000", "skill=14", "skill=x", "TL3", "TL99999999999", "Goblin*100000000",
         "speed=inf", "range=nan", "3d6", "100d100kh50", "1000d6kh500", "10000dkh2", "10d100r1", "d%", "kh",
         "Aiko", "Bren", "Rin", "Mira", "Goblin1", "green", "6m", "10s", "30min", "3days", "x2", "status", "end"]
TOKENS = EDGE_NUMBERS + ODD_TEXT + QUOTES + FLAGS
PER_MAGIC_MIN = 150
TOTAL = 10_000
# Lines that would leave the test's folder or take long by design (not by input size) are skipped.
SKIP = {"gamekernel", "gk"}  # the overview has no input to fuzz (it is one help table)


def mutate(chooser: random.Random, line: str) -> str:
    words = line.split(" ") if line else []
    for _ in range(chooser.randint(1, 3)):
        action = chooser.random()
        if action < 0.35 and words:
            words[chooser.randrange(len(words))] = chooser.choice(TOKENS)
        elif action < 0.6:
            words.insert(chooser.randint(0, len(words)), chooser.choice(TOKENS))
        elif action < 0.75 and words:
            del words[chooser.randrange(len(words))]
        elif action < 0.9 and words:
            index = chooser.randrange(len(words))
            word = words[index]
            cut = chooser.randint(0, len(word))
            words[index] = word[:cut] + chooser.choice(TOKENS) + word[cut:]
        else:
            words.append(chooser.choice(TOKENS))
    return " ".join(words)


def picture(session) -> tuple:
    return (session.rng.getstate(), len(session.log), json.dumps(session.state.to_dict(), sort_keys=True, default=str))


def gamekernel_magics(ip) -> list[str]:
    """Every line magic that gamekernel registered (read from IPython, not from a list here)."""
    names = []
    for name, function in ip.magics_manager.magics["line"].items():
        owner = getattr(function, "__self__", None)
        if owner is not None and type(owner).__module__.startswith("gamekernel.") and name not in SKIP:
            names.append(name)
    return sorted(names)


def set_the_table(ip) -> None:
    for line in ("char new Aiko st=10 dx=13 iq=11", "char new Bren st=12 ht=11", "gw Rin level 4",
                 "library load Mira mira.txt", "deck new Rin", 'deck add Rin "Sap Bloom" x2',
                 "combat npc Goblin ST=9 DX=11"):
        name, _, rest = line.partition(" ")
        ip.run_line_magic(name, rest)


@pytest.fixture
def table(ip, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mira.txt").write_text("Deck\n4 Elvish Mystic\n4 Runeclaw Bear\n12 Forest\n", encoding="utf-8")
    (tmp_path / "cards.json").write_bytes(b"\x89PNG\x00\x01binary")
    ip.user_ns["gold"] = 12
    set_the_table(ip)
    return ip


def test_every_magic_is_covered_by_the_enumeration(ip):
    names = gamekernel_magics(ip)
    assert {"roll", "odds", "char", "combat", "next", "deck", "library", "note"} <= set(names)
    assert len(names) >= 40


def test_fuzzed_lines_end_in_a_result_or_one_line_error_with_nothing_changed(table):
    ip = table
    names = gamekernel_magics(ip)
    chooser = random.Random(17)
    per_magic = max(PER_MAGIC_MIN, TOTAL // len(names) + 1)
    ran = errors = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for round_ in range(per_magic):
            if round_ % 60 == 59:  # a fresh table now and then, so later lines still meet live state
                ip.run_line_magic("unload_ext", "gamekernel")
                ip.run_line_magic("load_ext", "gamekernel")
                ip.run_line_magic("seed", str(round_))
                set_the_table(ip)
            for name in names:
                seeds = SEEDS.get(name) or [""]
                line = mutate(chooser, chooser.choice(seeds))
                session = _base.current_session()
                before = picture(session)
                try:
                    # the registered function itself: IPython's own `$var` expansion (which takes 0.2 s
                    # on a 5,000-character line) is IPython's, and `{expr}` would run test-chosen code
                    result = ip.magics_manager.magics["line"][name](line)
                except Exception as error:  # the point: nothing may escape
                    pytest.fail(f"%{name} {line!r} raised {type(error).__name__}: {error}")
                ran += 1
                if isinstance(result, ErrorResult):
                    errors += 1
                    text = repr(result)
                    assert "\n" not in text, f"%{name} {line!r}: a multi-line error {text!r}"
                    after = picture(_base.current_session())
                    assert after == before, f"%{name} {line!r} refused ({text}) but changed state"
    assert ran >= TOTAL
    assert errors > ran // 4  # the mutations really do reach the error paths
