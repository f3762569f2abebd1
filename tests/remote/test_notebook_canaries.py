"""No secret in any surface of the notebook a table sees: random sessions with a canary in every secret.

The GM plays a random sequence of magics in a real IPython shell: public and secret rolls, checks and
damage (secret labels hold a canary; secret damage lands on Bren, whose HP no other value shares: 47),
a fight with a fighter hidden from the start (named with the canary) and an NPC whose HP nothing else
shares (37), secret hits, Gamma World draws, secret d20s (a secret natural 1's flux) and fluxes, MtG
checks, GM-only notes, asks (their spec holds a canary), hiding the Ogre, disclosure modes, reveals and
undos, rolls on a GM's table (each entry holds a canary) in secret, for one player or blind, and handouts
to one player (their text holds one): the notebook is everyone's screen, so none of those shows there.
After every step the surfaces are GENERATED, not listed: every magic declared with a GM's view
(a `--gm` flag whose help says "the GM's view") is run in its players' form, bare and with every name
at the table (and each of its subcommands that takes a name), and every export the log declares for
the players is written. What is read: each output's text and HTML, each widget's synced state and
saved record, each exported file. None holds a canary the GM has not revealed, the hidden fighter's
name, an invisible control, Bren's true HP while a secret hides it, or any HP of the NPC as a number
(GURPS-SR-09: a secret roll's result is the GM's alone until revealed; README: HP of fighters nobody
plays are words).
"""

from __future__ import annotations

import contextlib
import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from IPython.utils.capture import capture_output

from gamekernel.syntax import COMMANDS, Integer, Sub

CANARY = "Zq9"
GHOST = f"{CANARY}ghost"  # hidden from the start: never shown, so never public
TOKEN = re.compile(rf"{CANARY}\w*", re.IGNORECASE)
BREN_HP, OGRE_HP = 47, 37
NPC_NUMBER = re.compile(rf"-?\d+\s*/\s*{OGRE_HP}\b|HP\s*{OGRE_HP}\b")
CONTROLS = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
DECK = "4 Forest\n4 Llanowar Elves\n4 Serra Angel\n4 Plains\n4 Lightning Bolt\n"


def fresh(ip):
    """A new session in the shell, the table set up by the GM's magics (the Ogre and a ghost hidden)."""
    from gamekernel.magics import current_session

    with capture_output():
        ip.run_line_magic("unload_ext", "gamekernel")
        ip.run_line_magic("load_ext", "gamekernel")
        for line in ("seed 5", "char new Aiko st=11 dx=13", f"char new Bren st=12 ht=12 hp_adj={BREN_HP - 12}",
                     "gw new Rin level 4", "draw alpha @Rin",
                     f"combat npc {GHOST} ST=10 DX=14 HT=10 HP=10 weapon=Knife:14:thr-1 imp",
                     f"combat npc Ogre ST=12 DX=11 HT=12 HP={OGRE_HP} weapon=Club:11:sw cr",
                     "table seat alice Aiko", "table seat bob Bren", "table seat carol Rin",
                     f"table hide {GHOST.lower()}"):
            name, _, rest = line.partition(" ")
            ip.run_line_magic(name, rest)
        ip.run_cell_magic("rolltable", "define Omen 1d6", "\n".join(f"{n}: omen {CANARY}o{n}" for n in range(1, 7)))
        s = current_session()
        s.mtg.library_load("Mira", "mira.txt", text=DECK)
        s.seats.seat("bob", "Mira")
    assert s.seats.state.hidden == [GHOST] and "Aiko" in s.gurps.state.characters
    s.setup = len(s.active)  # type: ignore[attr-defined]
    return s


def gm_line(s, op: str, n: int) -> str | None:
    """The GM's magic line for `op` (None when it does not apply now)."""
    fight = s.combat.state
    running = fight is not None and not fight.over
    readied = s.gw.state.readied("Rin") if "Rin" in s.gw.state.characters else []
    if op == "fight":
        if not running:
            return f"%combat start Aiko Bren {GHOST} Ogre"
        if fight.pending is not None:
            return f"%defend {fight.pending.target}"
        me = fight.current
        foes = [c.name for c in fight.combatants if c.side != me.side]
        if me.chosen or n % 3 == 0 or not foes or not me.weapons:
            return "%next"
        return f"%attack {me.name} -> {foes[n % len(foes)]} {me.weapons[0].name}"
    lines = {
        "roll": "%roll 3d6 stairs",
        "secret_roll": f"%roll 3d6 {CANARY}r{n} --secret",
        "check": "%check DX @Aiko",
        "secret_check": f"%check Per-{n % 3} {CANARY}c{n} @Bren --secret",
        "damage": "%damage 1d cr @Bren",
        "secret_damage": f"%damage {1 + n % 3}d cut @Bren --secret",
        "note": "%note the door creaks",
        "gm_note": f"%note --gm the guard is {CANARY}n{n}",
        "ask": f"%table ask bob Will-{n % 4} {CANARY}a{n}",
        "secret_hit": f"%damage 1d cr @{['Bren', 'Ogre', GHOST][n % 3]} --secret" if running else None,
        "hit_ogre": "%hit Ogre 1d cr" if running else None,
        "gw_draw": "%draw alpha @Rin",
        "gw_secret_d20": f"%roll 1d20 {CANARY}d{n} @Rin --secret",
        "gw_flux": (f'%flux Rin "{s.gw.state.catalog.card(s.gw.state.table.card(readied[0]).def_id).name}"'
                    if readied else None),
        "gw_encounter": "%encounter end --force" if s.gw.state.encounter else "%encounter start",
        "mtg_check": f"%check green {1 + n % 3} @Mira",
        "hide_ogre": "%table show Ogre" if "Ogre" in s.seats.state.hidden else "%table hide Ogre",
        "disclose": "%table disclose " + ("outcome" if s.seats.state.disclose == "full" else "full"),
        "undo": "%undo" if len(s.active) > s.setup else None,
        "table_secret": "%rolltable roll Omen --secret",
        "table_to": f"%rolltable roll Omen --to={['alice', 'bob', 'carol'][n % 3]}",
        "table_blind": f"%rolltable roll Omen --blind={['alice', 'bob', 'carol'][n % 3]}",
        "table_roll": f"%rolltable roll reaction {n % 5 - 2:+d}",
        "handout": f"%table show {['alice', 'bob', 'carol'][n % 3]} note{n}.txt",
    }
    if op == "reveal":
        secret = [e for e in s.active_secrets() if e.seq not in s.seats.state.revealed
                  and e.kind not in ("table.ask", "table.answer", "secret.entropy", "rolltable.define")]
        return f"%reveal {secret[n % len(secret)].seq}" if secret else None
    return lines[op]


GM_OPS = ["roll", "secret_roll", "check", "secret_check", "damage", "secret_damage", "note", "gm_note", "ask",
          "fight", "fight", "fight", "fight", "secret_hit", "secret_hit", "hit_ogre", "gw_draw", "gw_secret_d20",
          "gw_flux", "gw_encounter", "mtg_check", "hide_ogre", "disclose", "reveal", "undo",
          "table_secret", "table_to", "table_blind", "table_roll", "handout"]


def players_views() -> list[tuple[str, tuple[Sub | None, ...]]]:
    """Every magic that has a GM's view (`--gm`, "the GM's view ..."), with the subcommands its help
    names: read from the declarations, so a new view is played as soon as it is declared."""
    out = []
    for name, syntax in sorted(COMMANDS.items()):
        gm = next((o for o in syntax.options if o.name == "gm"), None)
        if gm is None or not gm.help.startswith("the GM's view"):
            continue
        words = set(re.findall(r"\w+", gm.help))  # the subcommands it names ("show and odds") are views too
        named = tuple(sub for sub in syntax.subs if sub.name in words and sub.args)
        out.append((name, (None, *named)))
    return out


def names(s) -> list[str]:
    """Every name at the table, any rule set's, the hidden ones included (as a player might type them)."""
    fight = s.combat.state
    fighters = [c.name for c in fight.combatants] if fight is not None else []
    return sorted({*s.gurps.state.characters, *s.gw.state.characters, *s.mtg.state.decks, *fighters, "Ogre", GHOST})


def surfaces(ip, s, tmp_path) -> dict[str, str]:
    """Every byte the generated players' views put in the notebook (and in the exports)."""
    seen: dict[str, str] = {}
    lines = []
    for name, subs in players_views():
        syntax = COMMANDS[name]
        takes_name = bool(syntax.args) and not isinstance(syntax.args[0], Integer)
        lines.append(f"{name} ")
        for sub in subs:
            head = f"{name} {sub.name} " if sub is not None else f"{name} "
            if sub is not None or takes_name:
                lines += [head + (f'"{who}"' if " " in who else who) for who in names(s)]
        if any(sub.name == "export" for sub in syntax.subs) and any(o.name == "players" for o in syntax.options):
            lines += [f"{name} export {tmp_path / f'story.{ext}'} --players" for ext in ("md", "html")]
    for line in lines:
        magic, _, rest = line.partition(" ")
        with capture_output() as captured:
            result = ip.run_line_magic(magic, rest.strip())
        parts = [json.dumps(o.data, ensure_ascii=False, default=str) for o in captured.outputs] + [captured.stdout]
        if result is not None:
            parts.append(drawn(result))
            if hasattr(result, "get_state"):  # a widget: what it syncs, and the record a notebook saves
                parts.append(json.dumps(result.get_state(), ensure_ascii=False, default=str))
                with contextlib.suppress(AttributeError):
                    parts.append(json.dumps(result._record_bundle(), ensure_ascii=False, default=str))
                result.close()
        text = "\n".join(parts)
        # what was typed is echoed in an error ("no character 'Zq9ghost'"): the table read it in the line
        seen[line] = text.replace(GHOST, "<typed>") if GHOST in line and "error: " in text else text
    for path in tmp_path.glob("story.*"):
        seen[path.name] = path.read_text(encoding="utf-8")
        path.unlink()
    return seen


def drawn(result) -> str:
    """A result as the notebook draws it: its text, its HTML, a widget's whole mimebundle."""
    parts = [repr(result)]
    if hasattr(result, "_repr_html_"):
        parts.append(result._repr_html_() or "")
    if hasattr(result, "_repr_mimebundle_"):
        parts.append(json.dumps(result._repr_mimebundle_(), ensure_ascii=False, default=str))
    return "\n".join(parts)


def allowed(s) -> set[str]:
    """The canaries the GM made public: those of the revealed events (never the hidden fighter's name)."""
    revealed = set(s.seats.state.revealed)
    text = json.dumps([e.data for e in s.log if e.seq in revealed], ensure_ascii=False)
    return {tok.lower() for tok in TOKEN.findall(text)} - {GHOST.lower()}


def bren_hp(s) -> tuple[int, int]:
    """(the GM's Bren HP, the table's Bren HP)."""
    from gamekernel.table.view import players_facts, table_facts

    def hp(facts: dict) -> int:
        return next(r["hp"] for r in facts["gurps"] if r["name"] == "Bren")

    return hp(table_facts(s, gm=True)), hp(players_facts(s))


def leaks(s, seen: dict[str, str]) -> list[tuple[str, str]]:
    found = []
    public = allowed(s)
    true, shown = bren_hp(s)
    for where, text in seen.items():
        found += [(where, tok) for tok in TOKEN.findall(text) if tok.lower() not in public]
        found += [(where, repr(m)) for m in CONTROLS.findall(text)]
        found += [(where, m.group()) for m in NPC_NUMBER.finditer(text)]
        if true != shown and f"{true}/{BREN_HP}" in text:
            found.append((where, f"Bren HP {true}/{BREN_HP}"))
    return found


STEPS = st.lists(st.tuples(st.sampled_from(GM_OPS), st.integers(0, 99)), min_size=4, max_size=20)


@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(STEPS)
def test_no_notebook_surface_holds_a_secret(ip, tmp_path, steps):
    s = fresh(ip)
    for number, (op, n) in enumerate(steps):
        line = gm_line(s, op, number * 7 + n)
        if op == "handout":  # a handout is a file of the table folder (the kernel's working folder)
            (tmp_path / f"note{number * 7 + n}.txt").write_text(f"the letter {CANARY}h{number}", encoding="utf-8")
        if line is not None:
            magic, _, rest = line[1:].partition(" ")
            with capture_output(), contextlib.chdir(tmp_path):
                ip.run_line_magic(magic, rest)
        found = leaks(s, surfaces(ip, s, tmp_path))
        assert not found, (steps[: number + 1], found[:5])


def test_the_surfaces_are_generated_from_the_declarations():
    """The views played are those the magics declare: the sheet, the character, the hand, the table,
    the log and its export, the deck; a view declared with a GM's view later is played as well."""
    from IPython.testing import globalipapp

    import gamekernel.session  # noqa: F401  (the rule sets' magics are declared when loaded)

    shell = globalipapp.start_ipython() or globalipapp.get_ipython()
    if "gamekernel" not in shell.extension_manager.loaded:
        shell.run_line_magic("load_ext", "gamekernel")
    played = {name for name, _ in players_views()}
    assert {"char", "sheet", "hand", "table", "log", "deck"} <= played, played
