"""Fuzz every gamekernel magic and every widget's messages: each input ends in a result or in a
one-line refusal that changed nothing.

    python tools/fuzz_magics.py --inputs 100000 --seed 1

The magics are read from IPython's registry after `%load_ext gamekernel` (a new magic is fuzzed
without editing this file), the widgets from the classes below `SessionWidget` (each one is made
by the magic that shows it, `WIDGET_LINES`). Inputs are grammar-aware: lines built from each
command's own declaration (`gamekernel.syntax.COMMANDS`: its subcommands, positionals, `@Name`,
options) and known valid lines, then mutated (numbers at their boundaries, huge, negative, NaN,
unicode, quotes, names with spaces, paths, empty). Widget messages are the actions and fields each
widget's module reads, filled with live card uids and names or odd values.

Checked after each input: no exception escapes (a traceback), a refusal is exactly one line, and a
refusal changes no state (a digest of the session - RNG, log, state - and of the table's folder,
the open campaign's files included, before and after). Everything runs in a scratch folder (HOME,
caches and Jupyter's runtime folder too), so no input writes outside it. The CI test
(`tests/core/test_fuzz_tool.py`) runs a seeded sample of this same code.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import pkgutil
import random
import re
import sys
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Known valid lines per magic, mutated as they are (a magic missing here is fuzzed from its grammar).
SEEDS = {
    "roll": ["3d+2 sword", "4d6kh3", "1d20+4 @Rin", "3d6<=12 --secret", "1d20 @Rin --secret"],
    "odds": ["3d6 <= 12", "4d6kh3", "check 12", "check green 2 @Mira", "contest 14 vs 12"],
    "check": ["Broadsword @Bren", "Lockpicking-5 dark @Aiko", "green 2 @Mira", "12", "Per --secret @Aiko"],
    "char": ["new Cid st=11 dx=12", "use Aiko", "set dx=13 @Aiko", "skill Broadsword 4 @Bren", "list",
             "trait Combat Reflexes @Aiko", "weapon Bren Broadsword:12:sw+1 cut", "save Aiko aiko.json",
             "load aiko.json", "diff Aiko"],
    "combat": ["start Aiko Bren Goblin*2", "npc Orc ST=11 DX=11 weapon=Axe:12:sw+2 cut", "status", "end",
               "add Kobold ST=8", "arm Aiko Broadsword:14:sw+1 cut"],
    "next": [""],
    "attack": ["Aiko -> Goblin Broadsword", "Bren -> Goblin Broadsword range=8 braced"],
    "defend": ["Goblin parry", "Aiko dodge"],
    "maneuver": ["Aiko attack", "Aiko aoa determined Goblin", "Bren aod dodge"],
    "posture": ["Aiko kneeling"],
    "hit": ["Goblin 2d+1 cut @Aiko"],
    "hazard": ["fall 6m @Bren", "disease -3 @Bren", "suffocation 10s @Aiko", "poison weak @Bren", "cold wet @Aiko"],
    "firstaid": ["Bren TL3 skill=12 @Aiko"],
    "heal": ["Bren 3days +1"],
    "wake": ["Bren --care"],
    "mortal": ["Bren --healed"],
    "cast": ["Fireball 3 skill=14 @Aiko", "Heal 2 skill=12 -2 far @Aiko"],
    "rest": ["Bren 30min", "@Rin"],
    "note": ["the door is locked $gold", "GM: trap", "secret door --gm"],
    "undo": ["", "2"],
    "redo": ["", "1"],
    "seed": ["42"],
    "log": ["", "5", "--gm", "--players", "export log.md"],
    "deck": ["new Rin", 'add Rin "Sap Bloom" x2', "show Rin", "validate Rin", 'odds Rin "Sap Bloom" 3'],
    "draw": ["alpha Rin", "alpha", "alpha @Rin --gm"],
    "gw": ["Rin level 4 bonus +2", "new Kit level 2", "config flux_outside_encounter=true"],
    "flux": ["odds 5", "Rin", "Rin --force"],
    "overcharge": ["odds +2", 'Rin "Sap Bloom"'],
    "tap": ['Rin "Sap Bloom"'],
    "untap": ["Rin"],
    "hand": ["Rin", "Rin --static", "Rin --gm"],
    "encounter": ["start", "end", "end --force"],
    "library": ["load Mira mira.txt", "odds", "data cards.json", "show Mira", "peek 2 @Mira"],
    "boost": ["@Mira"],
    "scene": ["green 2", ""],
    "contest": ["Aiko:DX vs Bren:DX"],
    "react": ["+2", "+1 polite --npc=Guard @Aiko"],
    "influence": ["Diplomacy vs 12 @Aiko"],
    "damage": ["2d+1 cut @Goblin", "3d cut --dr=2 @Bren --secret"],
    "fright": ["-2 @Aiko"],
    "cr": ["Bad Temper @Aiko"],
    "luck": ["@Aiko", "status @Aiko"],
    "campaign": ["status", "save", "date 2026-01-02"],
    "table": ["seat alice Aiko", "seats", "ask alice Per", "disclose outcome", "hide Goblin", "show Goblin"],
    "reveal": ["1"],
    "explain": ["", "1"],
    "quiz": ["gurps 2", "alpha 1", "mtg"],
    "explore": ["check Per", "contest 12 vs 10", "alpha @Rin", "library @Mira"],
    "sheet": ["Aiko"],
}
SKIP = {"gamekernel", "gk"}  # the overview: one help table, no input
# The table every run starts from (and comes back to now and then): characters of every rule set,
# a fight, an encounter, an open campaign - so that mutated lines meet live state.
TABLE_LINES = (
    "char new Aiko st=10 dx=13 iq=11", "char new Bren st=12 ht=11", "gw new Rin level 4",
    "deck new Rin", 'deck add Rin "Sap Bloom" x2', 'deck add Rin "Sticky Pads" x2', "draw alpha @Rin",
    "library load Mira mira.txt", "char weapon Aiko Broadsword:14:sw+1 cut", "combat npc Goblin ST=9 DX=11",
    "combat start Aiko Bren Goblin",
    "encounter start", "table seat alice Aiko",
)
# A line that shows each widget class (so its messages are fuzzed); a new class needs a line here.
WIDGET_LINES = ("sheet Aiko", "combat tracker", "hand Rin", "library show Mira", "table", "table players",
                "quiz gurps 2", "explore check Per", "explore contest 12 vs 10", "explore alpha @Rin",
                "explore library @Mira")
# a cell magic's widget: (magic, line, body), shown the same way (the prepared scene's buttons)
WIDGET_CELLS = (("scene", "Crypt", "The door: [Lockpicking-5] [Per @Aiko]\nRats: [3d6] [green 2 @Mira]"),)

NUMBERS = ["0", "-1", "1", "+3", "--5", "2", "3", "10", "18", "20", "99", "100", "255", "256", "1000", "65535",
           "2147483647", "2147483648", "-2147483648", "9223372036854775807", "9" * 30, "9" * 31, "9" * 5000,
           "-" + "9" * 40, "1e999", "-1e999", "inf", "-inf", "nan", "NaN", "-0", "0x10", "3.5", "1_000", "١٢", "１２"]
UNICODE = ["\x00", "\ud800", "\udfff", "a\x00b", "鍵開け", "《エルフの神秘家》", "＠Aiko", "é", "e\u0301", "\u200b",
           "\u202e", "\t", "\r", "\x1b[31m", "🎲", "x" * 300, "ß", "İ", "Ａｉｋｏ", "<script>alert(1)</script>",
           "&amp;", "$gold", "{gold}", "{1+1}", "%roll"]
QUOTES = ['"', "'", '"two words"', "'x", '""', "''", "\"a b", "«a»", '"Sap Bloom"', '"Aiko Bren"', "\\"]
NAMES = ["Aiko", "Bren", "Rin", "Mira", "Goblin", "GM", "Nobody", "aiko", "AIKO", '"Two Words"', "Ai", "Goblin*3",
         "Goblin*100000000", "alice", "bob"]
PATHS = ["camp", "camp2", "x.json", "aiko.json", "mira.txt", "cards.json", "log.md", "sub/dir/x.json", "./x",
         "../x", "a b.json", '"a b.json"', "~", "~/x.json", ".", "..", "/dev/null", "x" * 200 + ".json",
         "nul", "con.txt", "*.json", "x.json\x00"]
WORDS = ["--secret", "--force", "--care", "--healed", "--gm", "--static", "--x=1", "--", "--secret=1", "-5", "@",
         "@Aiko", "@Nobody", '@"Two words"', "@Rin", "@Mira", "->", "vs", "=", "x2", "x0", "x100000000", "skill=14",
         "skill=x", "TL3", "TL99999999999", "speed=inf", "range=nan", "st=0", "dx=-3", "dx=99999", "3d6", "3d",
         "1d20", "100d100kh50", "1000d6kh500", "10000dkh2", "10d100r1", "d%", "kh", "Broadsword", '"Sap Bloom"',
         "Per", "IQ", "green", "2", "6m", "10s", "30min", "3days", "status", "end", "start", "alpha", "odds",
         "cut", "imp", "2d+1", "parry", "dodge", "outcome", "full"]
TOKENS = NUMBERS + UNICODE + QUOTES + NAMES + PATHS + WORDS
ODD_VALUES: list[Any] = [float("inf"), float("-inf"), float("nan"), None, "", "x", 0, -1, 1, 3, 10**30, -(10**30),
                         1.5, True, False, [], {}, [1], {"a": 1}, "\ud800", "x" * 5000, "2d+1 cut", "7 cut", "dx",
                         "DX", "Broadsword", "Per", "nope", "<b>x</b>"]
CHECKPOINT = 60  # rounds between fresh tables


@dataclass
class Report:
    """What a run found; a finding is (where, input, what happened)."""

    inputs: int = 0
    magic_inputs: int = 0
    widget_inputs: int = 0
    refusals: int = 0
    crashes: list[tuple[str, str, str]] = field(default_factory=list)
    multi_line: list[tuple[str, str, str]] = field(default_factory=list)
    changed: list[tuple[str, str, str]] = field(default_factory=list)
    per_magic: Counter = field(default_factory=Counter)
    per_widget: Counter = field(default_factory=Counter)
    uncovered_widgets: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def findings(self) -> list[tuple[str, str, str]]:
        return self.crashes + self.multi_line + self.changed

    def summary(self) -> str:
        return (f"{self.inputs} inputs ({self.magic_inputs} magic lines over {len(self.per_magic)} magics, "
                f"{self.widget_inputs} widget messages over {len(self.per_widget)} widgets), "
                f"{self.refusals} refusals; crashes {len(self.crashes)}, multi-line errors {len(self.multi_line)}, "
                f"refusals that changed state {len(self.changed)}; uncovered widgets "
                f"{self.uncovered_widgets or 'none'}; {self.seconds:.1f} s")


# ------------------------------------------------------------------------------ the registries


def gamekernel_magics(shell: Any) -> list[str]:
    """Every line magic gamekernel registered (read from IPython, not from a list here)."""
    names = []
    for name, function in shell.magics_manager.magics["line"].items():
        owner = getattr(function, "__self__", None)
        if owner is not None and type(owner).__module__.startswith("gamekernel.") and name not in SKIP:
            names.append(name)
    return sorted(names)


def widget_classes() -> list[type]:
    """Every concrete widget class (a subclass of SessionWidget), its modules imported first."""
    import gamekernel
    from gamekernel.widgets.base import SessionWidget

    for info in pkgutil.walk_packages(gamekernel.__path__, "gamekernel."):
        if "widget" in info.name and not info.name.startswith("gamekernel.widgets."):
            importlib.import_module(info.name)
    found, todo = [], list(SessionWidget.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("gamekernel.") and "handle_action" in vars(cls):
            found.append(cls)
    return sorted(set(found), key=lambda c: f"{c.__module__}.{c.__name__}")


# ------------------------------------------------------------------------------ inputs


def mutate(chooser: random.Random, line: str) -> str:
    """1-3 edits of a valid line: a word replaced, inserted, deleted, spliced into, or appended."""
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


def _value(chooser: random.Random, arg: Any, pool: list[str]) -> list[str]:
    """Words for one positional of a declaration: a number for an Integer, else words of the
    command's own valid lines, names, paths or odd tokens."""
    from gamekernel.syntax import Integer, Rest, Words

    if isinstance(arg, Integer):
        return [chooser.choice(NUMBERS)]
    count = chooser.randint(1, 3) if isinstance(arg, (Words, Rest)) else 1
    sources = (pool or WORDS, NAMES, PATHS, TOKENS)
    return [chooser.choice(chooser.choice(sources)) for _ in range(count)]


def grammar_line(chooser: random.Random, syntax: Any) -> str:
    """A line built from the command's declaration: a subcommand, its positionals, `@Name`, options."""
    from gamekernel.syntax import Opt

    pool = [word for line in SEEDS.get(syntax.name, ()) for word in line.split(" ") if word]
    parts: list[str] = []
    positionals = syntax.args
    if syntax.subs and (not syntax.args or chooser.random() < 0.7):
        sub = chooser.choice(syntax.subs)
        parts.append(chooser.choice((sub.name, *sub.aliases)))
        positionals = sub.args
    for arg in positionals:
        if arg.optional and chooser.random() < 0.3:
            break
        parts.extend(_value(chooser, arg, pool))
    if syntax.actor is not None and chooser.random() < 0.4:
        parts.insert(chooser.randint(0, len(parts)), "@" + chooser.choice(NAMES))
    for option in syntax.options:
        if chooser.random() < 0.2:
            if isinstance(option, Opt):
                value = chooser.choice(NUMBERS if option.kind is int else TOKENS)
                parts.append(f"--{option.name}={value}" if chooser.random() < 0.5 else f"--{option.name} {value}")
            else:
                parts.append(f"--{option.name}")
    return " ".join(parts)


def magic_line(chooser: random.Random, name: str) -> str:
    """A known valid line mutated, a line from the grammar, or a grammar line mutated."""
    from gamekernel.syntax import COMMANDS

    syntax = COMMANDS.get(name)
    pick = chooser.random()
    if syntax is None or (pick < 0.4 and name in SEEDS):
        return mutate(chooser, chooser.choice(SEEDS.get(name) or [""]))
    line = grammar_line(chooser, syntax)
    return line if pick < 0.7 else mutate(chooser, line)


def widget_words(widget: Any) -> tuple[list[str], list[str]]:
    """The action names and payload fields the widget's module reads (so the fuzz reaches every branch)."""
    import inspect

    source = inspect.getsource(inspect.getmodule(type(widget)))
    actions = sorted(set(re.findall(r'action (?:==|in) \(?"(\w+)"', source))
                     | set(re.findall(r'"(\w+)":\s*(?:lambda|self\.)', source)))
    fields = sorted(set(re.findall(r'payload(?:\.get\(|\[)"(\w+)"', source))
                    | set(re.findall(r'content(?:\.get\(|\[)"(\w+)"', source)))
    return actions or ["set"], fields or ["value"]


def live_values(session: Any) -> list[Any]:
    """Values that mean something at this table now: card uids, names, weapons."""
    values: list[Any] = ["Aiko", "Bren", "Rin", "Mira", "Goblin", "Broadsword", "Sap Bloom", "green", 2, 12]
    values += sorted(session.gw.state.table.cards)[:12]
    return values


def widget_message(chooser: random.Random, actions: list[str], fields: list[str], live: list[Any]) -> dict:
    content: dict = {"action": chooser.choice([*actions, *actions, 0, None, "nope", ""])}
    for name in chooser.sample(fields, chooser.randint(0, len(fields))):
        content[name] = chooser.choice(live if chooser.random() < 0.5 else ODD_VALUES)
    return content


# ------------------------------------------------------------------------------ the checks


def digest(session: Any, folder: Path) -> str:
    """The session (RNG, log, every state part) and the table's folder (every file's name, size and
    content), as one hash: a refusal must leave it as it was."""
    h = hashlib.blake2b(digest_size=16)
    h.update(repr(session.rng.getstate()).encode())
    h.update(str(len(session.log)).encode())
    h.update(json.dumps(session.state.to_dict(), sort_keys=True, default=str).encode("utf-8", "surrogatepass"))
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            h.update(str(path.relative_to(folder)).encode("utf-8", "surrogateescape"))
            h.update(path.read_bytes())
    return h.hexdigest()


@contextmanager
def sandboxed(folder: Path) -> Iterator[None]:
    """Run in `folder`, with HOME, the caches and Jupyter's runtime folder inside it: a fuzzed path
    (`~/x`, `../x`) or `%table serve` writes nowhere else."""
    keys = ("HOME", "XDG_CACHE_HOME", "JUPYTER_RUNTIME_DIR")
    saved = {key: os.environ.get(key) for key in keys}
    here = Path.cwd()
    work = folder / "a" / "b" / "work"  # `..` and `../..` stay in the scratch folder
    work.mkdir(parents=True, exist_ok=True)
    os.environ.update({"HOME": str(folder / "home"), "XDG_CACHE_HOME": str(folder / "cache"),
                       "JUPYTER_RUNTIME_DIR": str(folder / "runtime")})
    os.chdir(work)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        os.chdir(here)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _rendered(result: Any) -> None:
    """Draw a result as the notebook would (text and HTML): a renderer's exception is a traceback too."""
    repr(result)
    for method in ("_repr_html_", "_repr_mimebundle_"):
        draw = getattr(result, method, None)
        if callable(draw):
            draw()


def _close(widget: Any) -> None:
    """Close a widget the fuzz no longer sends messages to (the test shell's comm manager may have
    dropped its comm already: closing is the fuzz's housekeeping, not an input under test)."""
    with suppress(KeyError):
        widget.close()


def _first_line(error: BaseException) -> str:
    """The exception, its first line and where in gamekernel it was raised (the deepest frame there)."""
    import traceback

    frames = [f for f in traceback.extract_tb(error.__traceback__) if f"{os.sep}gamekernel{os.sep}" in f.filename]
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}{where}"


class Fuzzer:
    """One seeded run over a shell with gamekernel loaded, in a scratch folder."""

    def __init__(self, shell: Any, folder: Path, seed: int) -> None:
        self.shell, self.folder, self.chooser = shell, folder, random.Random(seed)
        self.report = Report()
        self.widgets: dict[str, Any] = {}

    # -- the table ---------------------------------------------------------------------------
    def call(self, name: str, line: str) -> Any:
        """The registered function itself, as IPython calls it (IPython's own `$var` / `{expr}`
        expansion is IPython's: `{expr}` would run fuzz-chosen code)."""
        return self.shell.magics_manager.magics["line"][name](line)

    def fresh_table(self, seed: int) -> None:
        from gamekernel.display.results import ErrorResult

        for widget in self.widgets.values():
            _close(widget)
        self.widgets.clear()
        if "gamekernel" in self.shell.extension_manager.loaded:
            self.call("campaign", "close")  # its lock goes with it (a refusal: none was open)
            self.shell.run_line_magic("unload_ext", "gamekernel")
        self.shell.run_line_magic("load_ext", "gamekernel")
        self.shell.run_line_magic("seed", str(seed))
        Path("mira.txt").write_text("Deck\n4 Elvish Mystic\n4 Runeclaw Bear\n12 Forest\n", encoding="utf-8")
        Path("cards.json").write_bytes(b"\x89PNG\x00\x01binary")
        self.shell.user_ns["gold"] = 12
        for line in (f"campaign open table{seed}", *TABLE_LINES, *WIDGET_LINES):
            name, _, rest = line.partition(" ")
            result = self.call(name, rest)
            if isinstance(result, ErrorResult):
                raise RuntimeError(f"the fuzz table's own line %{line} was refused: {result!r}")
            self.keep(result)
        for name, line, body in WIDGET_CELLS:
            result = self.shell.magics_manager.magics["cell"][name](line, body)
            if isinstance(result, ErrorResult):
                raise RuntimeError(f"the fuzz table's own cell %%{name} {line} was refused: {result!r}")
            self.keep(result)

    def keep(self, result: Any) -> None:
        """A widget a magic showed joins the widgets under fuzz (one per kind, the newest)."""
        from gamekernel.widgets.base import SessionWidget

        if not isinstance(result, SessionWidget):
            return
        key = type(result).__name__
        explorer = getattr(result, "explorer", None)
        if explorer is not None:
            key += f"/{type(explorer).__name__}"
        old = self.widgets.get(key)
        if old is not None and old is not result:
            _close(old)
        self.widgets[key] = result

    # -- one input ---------------------------------------------------------------------------
    def session(self) -> Any:
        from gamekernel.magic_base import current_session

        return current_session()

    def magic(self, name: str, before: str) -> str:
        from gamekernel.display.results import ErrorResult

        line = magic_line(self.chooser, name)
        where = f"%{name}"
        self.report.magic_inputs += 1
        self.report.per_magic[name] += 1
        try:
            result = self.call(name, line)
            _rendered(result)
        except Exception as error:  # the point: nothing may escape
            self.report.crashes.append((where, line, _first_line(error)))
            return digest(self.session(), self.folder)
        after = digest(self.session(), self.folder)
        if isinstance(result, ErrorResult):
            self.refusal(where, line, repr(result), before, after)
        else:
            self.keep(result)
        return after

    def message(self, key: str, widget: Any, before: str) -> str:
        actions, fields = widget_words(widget)
        content = widget_message(self.chooser, actions, fields, live_values(self.session()))
        shown = repr(content)[:300]
        self.report.widget_inputs += 1
        self.report.per_widget[key] += 1
        widget.error = ""
        try:
            widget._on_custom_message(widget, content, [])
        except Exception as error:  # the point: nothing may escape
            self.report.crashes.append((key, shown, _first_line(error)))
            return digest(self.session(), self.folder)
        after = digest(self.session(), self.folder)
        if widget.error:
            self.refusal(key, shown, widget.error, before, after)
        return after

    def refusal(self, where: str, given: str, text: str, before: str, after: str) -> None:
        self.report.refusals += 1
        if "\n" in text.strip("\n") or "Traceback" in text:
            self.report.multi_line.append((where, given, text[:300]))
        if after != before:
            self.report.changed.append((where, given, text[:300]))

    # -- the run -----------------------------------------------------------------------------
    def run(self, inputs: int) -> Report:
        started = time.perf_counter()
        self.fresh_table(0)
        names = gamekernel_magics(self.shell)
        self.report.uncovered_widgets = sorted(
            {c.__name__ for c in widget_classes()} - {key.split("/")[0] for key in self.widgets})
        before = digest(self.session(), self.folder)
        round_ = 0
        while self.report.inputs < inputs:
            round_ += 1
            if round_ % CHECKPOINT == 0:  # a fresh table now and then, so later lines still meet live state
                self.fresh_table(round_)
                before = digest(self.session(), self.folder)
            for name in names:
                before = self.magic(name, before)
                self.report.inputs += 1
                if self.report.inputs >= inputs:
                    break
            for key, widget in list(self.widgets.items()):
                if self.report.inputs >= inputs:
                    break
                before = self.message(key, widget, before)
                self.report.inputs += 1
        for widget in self.widgets.values():
            _close(widget)
        self.report.seconds = time.perf_counter() - started
        return self.report


def fuzz(shell: Any, inputs: int, seed: int, folder: Path) -> Report:
    """`inputs` fuzzed magic lines and widget messages (seeded) in the scratch folder `folder`."""
    import comm

    # outside a kernel, `%table serve` imports ipykernel (to find its connection file), which installs
    # ipykernel's comm functions in the `comm` module: put the shell's back for what runs after
    comms = comm.create_comm, comm.get_comm_manager
    try:
        with sandboxed(folder), open(os.devnull, "w") as sink, redirect_stdout(sink):  # what results print
            return Fuzzer(shell, folder, seed).run(inputs)
    finally:
        comm.create_comm, comm.get_comm_manager = comms


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="how many magic lines and widget messages")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the inputs and of the table")
    parser.add_argument("--show", type=int, default=20, help="how many findings to print")
    args = parser.parse_args(argv)
    from IPython.testing import globalipapp

    shell = globalipapp.start_ipython() or globalipapp.get_ipython()
    with tempfile.TemporaryDirectory(prefix="gk-fuzz-") as scratch:
        report = fuzz(shell, args.inputs, args.seed, Path(scratch))
    print(report.summary())
    for where, given, what in report.findings[: args.show]:
        print(f"  {where} {given!r}: {what}")
    return 1 if report.findings or report.uncovered_widgets else 0


if __name__ == "__main__":
    sys.exit(main())
