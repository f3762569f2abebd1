"""Rule sets, each declared once: `RULESET = RuleSet(...)` in its package's `__init__.py`.

Everything that once kept its own list of rule sets reads these declarations instead: the magics
that `%load_ext` registers, the renderers, the message catalogs, the groups of `%gamekernel`, the
rule notes of explain mode, which rule set a `%check` or `%rest` line belongs to, and what of the
state players may see. The three built-in rule sets are listed here; any other installed package
adds one through the `gamekernel.rulesets` entry-point group with the same declaration, so a rule
set is one package plus one entry point.

A declaration is cheap to import: what it names is reached through small functions that import on
call, so `%load_ext` stays light and a static reader can still follow every path. Each of those
functions is typed by a Protocol below (`HandleClasses`, `MagicsClasses`, `Renderers`, `HandlerOf`,
`RunsLine`, `ClaimsLine`): a plug-in's declaration is checked against the surface it implements.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from importlib.machinery import PathFinder
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Protocol, Self, TypeVar, overload

from gamekernel.i18n import add_catalogs

if TYPE_CHECKING:  # the hooks' signatures name what they receive, all of it below this module
    from contextlib import AbstractContextManager

    from IPython.core.magic import Magics

    from gamekernel.args import Args
    from gamekernel.events import Event
    from gamekernel.rng import TransactionalRandom
    from gamekernel.state import TableState

ENTRY_POINT_GROUP = "gamekernel.rulesets"
BUILTIN = ("gamekernel.gurps", "gamekernel.gammaworld", "gamekernel.mtg")


H = TypeVar("H", bound="RuleSetHandle")


class Core(Protocol):
    """The table's core as everything below the public Session reaches it: a rule set's handles, its
    hooks, magics and widgets, and the features across rule sets (gamekernel/session.py's
    `SessionCore` is the one implementation). Why a Protocol here and not that class: the core sits
    above the rule-set declarations it builds its handles from, and a name points down only, even
    for the type checker (no import circle, pyproject.toml's layers). A rule set's own operations are
    its handle's, typed: `Gurps.of(core).check(...)`, `Coin.of(core).flip()`."""

    @property
    def rules(self) -> Mapping[str, RuleSetHandle]:
        """Every rule set's handle by name (`rules["gurps"]`), made on first use."""

    @property
    def state(self) -> TableState:
        """The table's state: the replay of the active events."""

    @property
    def log(self) -> list[Event]:
        """Every event, undo and redo included, in order."""

    @property
    def active(self) -> list[Event]:
        """The events in effect (the log minus what was undone)."""

    @property
    def rng(self) -> TransactionalRandom:
        """The public dice (`dice_for(False)`)."""

    @property
    def reaction_events(self) -> list[Event]:
        """The events reactions recorded (an alpha flux after a roll), shown with the command's result."""

    @property
    def acting_for(self) -> str | None:
        """The player whose intent is being carried out (`command(user)`), else None."""

    def record(self, kind: str, data: Mapping[str, Any] | None = None, *, actor: str | None = None,
               secret: bool = False) -> Event:
        """Apply and log one event (write-ahead)."""

    def dice_for(self, secret: bool) -> TransactionalRandom:
        """The dice of a public or a secret draw."""

    def command(self, user: str | None = None) -> AbstractContextManager[None]:
        """The one entry of every caller: the lock, the transaction, the acting user."""

    def public_only(self) -> AbstractContextManager[None]:
        """Inside: a secret event is refused (a player's own check is public)."""

    def undo(self, count: int = 1) -> list[Event]:
        """Undo the last `count` undoable events."""

    def public_state(self) -> TableState:
        """The state the players' views are drawn from."""

    def public_table(self) -> Any:
        """The players' table (gamekernel/remote/projection.py), as it is now."""

    def ever_secret(self) -> bool:
        """Whether the log holds a secret event."""

    def active_secrets(self, group: str | None = None) -> Sequence[Event]:
        """The secret events still in effect (of one rule set's kinds with `group`)."""

    def feature(self, kind: type[H]) -> H:
        """The handle of a feature across rule sets, made on first use."""

    def observe(self, observer: Callable[[Any, Event], None], *, weak: bool = False) -> Callable[[], None]:
        """Call `observer(session, event)` after every event; returns a function that stops it."""


Words = TypeVar("Words")  # what a shared command's line is claimed by: `%check`'s spec, `%rest`'s names
Words_in = TypeVar("Words_in", contravariant=True)


class RuleSetHandle:
    """One rule set's operations on one table, reached as `session.<name>` (`session.gurps.check(...)`)
    or `session.rules["<name>"]`: the session keeps the table's core (log, dice, undo, record,
    observers) and each rule set keeps what it knows here. `table` is the session it acts on; a
    handle is made on first use, one per session, and keeps no state of the table itself (that is
    in `table.state`, replayed from the log), only caches it may rebuild."""

    name: ClassVar[str] = ""  # `session.<name>`: the rule set's name, or one of its families ("combat")
    table: Core

    def __init__(self, table: Core) -> None:
        self.table = table

    @classmethod
    def of(cls, table: Core) -> Self:
        """This rule set's handle on `table`, typed: `Coin.of(session).flip()` (a plug-in's path; the
        built-in ones are typed attributes of the public Session)."""
        handle = table.rules[cls.name]
        if not isinstance(handle, cls):
            raise TypeError(f"session.rules[{cls.name!r}] is a {type(handle).__name__}, not a {cls.__name__}")
        return handle

    def __repr__(self) -> str:
        return f"<{type(self).__name__} handle of session.{self.name}>"


class HandleClasses(Protocol):
    """`RuleSet.handles`: the handle classes of the rule set (`session.gurps.state`, `session.combat`);
    importing them registers its state parts and event kinds."""

    def __call__(self) -> tuple[type[RuleSetHandle], ...]: ...


class MagicsClasses(Protocol):
    """`RuleSet.magics`: the IPython Magics classes `%load_ext` registers."""

    def __call__(self) -> tuple[type[Magics], ...]: ...


class Renderers(Protocol):
    """`RuleSet.renderers`: imports the modules that register the rule set's renderers."""

    def __call__(self) -> None: ...


class RunsLine(Protocol):
    """`LineHandler.run` and `.odds`: carry out a shared command line its declaration parsed; the
    result goes back to IPython to display (a `Secret` for a result the players must not see)."""

    def __call__(self, session: Core, args: Args, /) -> object: ...


class ClaimsLine(Protocol[Words_in]):
    """`LineHandler.claims`: whether a shared command line is this rule set's, from its words."""

    def __call__(self, words: Words_in, /) -> bool: ...


def _nothing() -> tuple[()]:
    return ()


def _no_renderers() -> None:
    return None


@dataclass(frozen=True)
class LineHandler(Generic[Words]):
    """A rule set's form of a command several rule sets share (`%check`, `%odds check`, `%rest`).

    `claims(words)` says whether a line is this rule set's (`%check green 2` is MtG's); a handler
    with `claims=None` takes every line no other claims (GURPS for `%check`, Gamma World for `%rest`).
    `run(session, args)` carries the command out; `odds(session, args)` answers `%odds check`.
    `Words` is what `claims` reads: the spec (`str`) of `%check`, the names (`list[str]`) of `%rest`.
    `contest(session, args)`, on a `%check` handler, answers `%odds contest` (GURPS's Quick Contest).
    `reads(words)`, optional, reads a line's words as `run` would and raises its one-line error, running
    nothing: a prepared `%%scene` mark is checked when its cell runs, not first when clicked."""

    run: RunsLine
    claims: ClaimsLine[Words] | None = None
    odds: RunsLine | None = None
    contest: RunsLine | None = None
    reads: Callable[[Words], object] | None = None


class Parts(Protocol):
    """What `CharactersOf` reads: the table's state parts by name (`gamekernel.state.TableState`)."""

    def __getitem__(self, name: str, /) -> Any: ...


class CharactersOf(Protocol):
    """`RuleSet.characters`: the names of the characters the rule set holds in the table's state, so
    a shared command naming one (`%check Stealth @Aiko`) goes to the rule set Aiko belongs to (the
    name matched as every named character is, gamekernel.text.resolve_name)."""

    def __call__(self, parts: Parts, /) -> Iterable[str]: ...


@dataclass(frozen=True)
class Form:
    """A rule set's part in the declaration of a shared command (`%check`, `%rest`), read when
    `%load_ext` declares it (so it names no module to import): the help of its words (`"GURPS:
    Lockpicking-5 dark, Per+2, 12"`), its own flags as (name, help) pairs, and its group in
    `%gamekernel` (default: the rule set's first). The shared command accepts the union of the rule
    sets' flags and refuses, by the chosen rule set, a flag that is not its own."""

    words: str = ""
    flags: tuple[tuple[str, str], ...] = ()
    group: str | None = None


@dataclass(frozen=True)
class Board:
    """A rule set's rows on the `%table` dashboard and the players' page: a title and column headings
    (i18n keys), one row of plain text cells per character (its first cell the character's name),
    and the columns (by index) only the GM and the character's own player see; any other player
    sees those cells empty."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    private: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "columns": list(self.columns), "rows": [list(r) for r in self.rows],
                "private": list(self.private)}


class BoardOf(Protocol):
    """`RuleSet.dashboard`: the rule set's rows from the table's state parts as the audience knows
    them (the public table's for the players, the truth for the GM), or None when it has nobody."""

    def __call__(self, parts: Parts, /) -> Board | None: ...


class FieldOf(Protocol):
    """`field(name)`: one text field of a player's intent (`target`, `card` ...), checked as every field
    is (a short line of visible text), or a one-line refusal; with `optional`, "" when it is absent."""

    def __call__(self, name: str, /, *, optional: bool = False) -> str: ...


class PlayerAction(Protocol):
    """One action a seated player may send from the players' page for their character `who` (an attack,
    a card tapped ...): carried out on the GM's table inside `command(user)`, as the magic would; it
    refuses in one line what the player may not do now (not their turn)."""

    def __call__(self, session: Core, who: str, field: FieldOf, /) -> object: ...


class PlayerActionsOf(Protocol):
    """`RuleSet.player_actions`: the rule set's player actions by name (`{"attack": ..., "defend": ...}`),
    made on first use."""

    def __call__(self) -> Mapping[str, PlayerAction]: ...


class DashboardAction(Protocol):
    """One click of the GM's `%table` dashboard on a rule set's row or button (`next`, `tap`, `check`):
    `payload` is what the page sent (`{"name": ..., "uid": ...}`); one session call, its result shown."""

    def __call__(self, session: Core, payload: Mapping[str, Any], /) -> object: ...


class DashboardActionsOf(Protocol):
    """`RuleSet.dashboard_actions`: the rule set's dashboard clicks by action name, made on first use."""

    def __call__(self) -> Mapping[str, DashboardAction]: ...


class LabelsOf(Protocol):
    """`RuleSet.dashboard_labels`: words the dashboard's page shows for the rule set, in the current
    language (MtG's colour names), merged into the page's labels."""

    def __call__(self) -> Mapping[str, Any]: ...


class SectionOf(Protocol):
    """`RuleSet.dashboard_section`: the rule set's section of the `%table` dashboard drawn from its
    facts in the dashboard's view (gamekernel/table/view.py): (title, column heads, rows of cell
    texts) in the current language, or None when it has nobody at the table."""

    def __call__(self, view: Mapping[str, Any], /) -> tuple[str, list[str], list[list[str]]] | None: ...


class HandlerOf(Protocol[Words]):
    """`RuleSet.check` (`HandlerOf[str]`) and `RuleSet.rest` (`HandlerOf[list[str]]`): the rule set's
    handler of that shared command, made on first use."""

    def __call__(self) -> LineHandler[Words]: ...


class Explorer(Protocol):
    """One odds explorer's state (`%explore NAME`): the control values the learner set and how they turn
    into exact tables (gamekernel/lessons.py `cell`) and a summary line. The widget
    (gamekernel/teaching/widgets/explore.py) shows any explorer and sends the controls back."""

    mode: str  # which explorer it is, for the front end (`check`, `library`)

    def controls(self) -> list[dict[str, Any]]:
        """The controls as the front end draws them: name, kind (range, toggle, count), bounds, value, label."""

    def set(self, name: str, value: Any, /) -> None:
        """Move control `name` to `value`, or refuse it in one line (gamekernel/lessons.py `bounded`)."""

    def tables(self) -> list[dict[str, Any]]:
        """The figures as tables: id, title, columns, rows of cells."""

    def summary(self) -> str:
        """One line: what the current controls give."""


class OpensExplorer(Protocol):
    """`Explore.opens`: the explorer of a `%explore NAME ...` line its declaration parsed (the actor's
    skill, library or origin bonus read from the table), or a one-line refusal."""

    def __call__(self, session: Core, args: Args, /) -> Explorer: ...


@dataclass(frozen=True)
class Explore:
    """One of a rule set's odds explorers, `%explore NAME [WORDS] [@Name]`, read when `%load_ext`
    declares `%explore` (so it names no module to import): its name, its line of help, and the help of
    its words (`words`, read as `args.<arg>`; "" when it takes none). `opens` builds the explorer on
    the command, importing what it needs then."""

    name: str
    help: str
    opens: OpensExplorer
    words: str = ""
    arg: str = "words"


class Telling(Protocol):
    """The players' story as it is being told (gamekernel/render/story.py), as a rule set's story lines
    see it: the public events replayed so far, the options, and where its headings and lines go."""

    @property
    def state(self) -> TableState:
        """The table's state replayed from the public events told so far (never a secret)."""

    @property
    def replay_ok(self) -> bool:
        """False once an event no longer replays (a fight that depended on a secret): tell no outcomes."""

    @property
    def odds(self) -> bool:
        """Whether the story tells the odds (an option of the export)."""

    @property
    def outcome_only(self) -> bool:
        """Whether a roll is told by its outcome alone (`%table disclose outcome`): no number, no target."""

    def numbers(self, name: str, pc: bool, /) -> bool:
        """Whether the players may read this character's HP as numbers (a seated one's), else words."""

    def heading(self, section: str, text: str, /) -> None:
        """Open a section (`fight`, `scene`, `encounter`) under a heading."""

    def line(self, text: str, /, rolled_by: tuple[str, ...] = ()) -> None:
        """Tell one line (a player's own action is marked as theirs); `rolled_by`: the fighters whose roll
        numbers it shows, so a players' story leaves it out whole while one of them is hidden."""

    @property
    def scratch(self) -> dict[str, Any]:
        """A rule set's own notes while telling (an attack's rolls held until its defense is known)."""

    def aside(self) -> None:
        """Before a line that is no part of an open fight: an "Aside" heading of its own."""

    def summary_line(self, event: Event, /) -> str:
        """The event's log line as the story tells it: the actor first, the odds only when asked, and by
        its outcome alone when outcomes only are disclosed and the kind is one of `outcome_kinds`."""

    def without_odds(self, text: str, /) -> str:
        """A log line without its odds parts (every rule set's `odds_marks`)."""


class StoryLines(Protocol):
    """`RuleSet.story`: how the players' story tells the rule set's events (those `owns_event` gives it).
    `before(telling)` is read just before one of its events replays (the fighters' HP before a blow);
    `tell(telling, event, before)` adds its headings and lines; an event it does not tell adds nothing.
    `outcome(event)` words an outcome of its own kinds (a reaction's band, a contest's winner) for the
    outcome-only story, None to leave it to the recorded success; `odds_marks()` are how its log
    lines' odds parts begin, in the current language (the story drops them unless asked)."""

    outcome_kinds: frozenset[str]

    def before(self, telling: Telling, /) -> object: ...

    def tell(self, telling: Telling, event: Event, before: object, /) -> None: ...

    def outcome(self, event: Event, /) -> str | None: ...

    def odds_marks(self) -> tuple[str, ...]: ...


class StoryOf(Protocol):
    """`RuleSet.story`: the rule set's story lines, made on first use."""

    def __call__(self) -> StoryLines: ...


@dataclass(frozen=True)
class RuleSet:
    """What a rule set brings to gamekernel. `name` is its package's last part, the prefix of its
    event kinds and state parts, and its handle on the session (`gurps.check`, `session.gurps.check`)."""

    name: str
    package: str
    groups: tuple[str, ...]  # its groups of commands in `%gamekernel`, in order (i18n `cmd.group.NAME`)
    handles: HandleClasses = _nothing  # its handles on the session: state parts, event kinds, operations
    magics: MagicsClasses = _nothing  # IPython Magics classes
    renderers: Renderers = _no_renderers  # imports the modules that register its renderers
    check: HandlerOf[str] | None = None  # its form of `%check` and `%odds check`
    rest: HandlerOf[list[str]] | None = None  # its form of `%rest`
    check_form: Form = Form()  # its words, flags and group in `%check`'s declaration
    rest_form: Form = Form()  # the same in `%rest`'s
    characters: CharactersOf | None = None  # who belongs to it: a shared command naming one comes here
    dashboard: BoardOf | None = None  # its rows on the `%table` dashboard and the players' page
    player_actions: PlayerActionsOf | None = None  # what a seated player may send for their character
    dashboard_actions: DashboardActionsOf | None = None  # the GM's clicks on its rows of `%table`
    dashboard_labels: LabelsOf | None = None  # words `%table`'s page shows for it
    dashboard_section: SectionOf | None = None  # its section of `%table`'s text, from the dashboard's view
    explorers: tuple[Explore, ...] = ()  # its odds explorers, `%explore NAME`
    story: StoryOf | None = None  # how the players' story tells its events (`%log export --players`)
    rule_notes: str | None = "data/explain.json"  # explain mode's rule sentences, inside the package (optional)
    public_parts: tuple[str, ...] = ()  # state parts every player may see (the rest are the GM's)
    event_prefixes: tuple[str, ...] = field(default=())  # its event kinds start with one of these
    # what a new game session does to its part, recorded as its own events (Gamma World: every alpha
    # card back in its deck, decks shuffled); called with the session, returns nothing
    new_session: Callable[[Any], None] | None = None

    @property
    def folder(self) -> Path:
        """The package's folder (its `i18n/` and `data/` live there)."""
        spec = import_module(self.package).__file__
        assert spec is not None
        return Path(spec).parent

    def catalogs(self, language: str) -> list[Path]:
        """Its message catalogs in `language` (`i18n/<language>/*.json`), in name order."""
        return sorted((self.folder / "i18n" / language).glob("*.json"))

    def form(self, command: Literal["check", "rest"]) -> Form:
        """Its part in the declaration of the shared command `command`."""
        return self.check_form if command == "check" else self.rest_form

    def takes_part(self, command: Literal["check", "rest"]) -> bool:
        """Whether it has a form of the shared command `command`."""
        return (self.check if command == "check" else self.rest) is not None

    def owns_event(self, kind: str) -> bool:
        return any(kind.startswith(prefix) for prefix in self.event_prefixes or (f"{self.name}.",))


@cache
def rule_sets() -> tuple[RuleSet, ...]:
    """Every rule set: the built-in ones, then those other packages declare, by entry-point name."""
    found: list[RuleSet] = [import_module(name).RULESET for name in BUILTIN]
    found += plugin_rule_sets()
    names = [r.name for r in found]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise RuntimeError(f"two rule sets are named {', '.join(map(repr, duplicates))}")
    return tuple(found)


def plugin_rule_sets() -> list[RuleSet]:
    """The rule sets of other installed packages (entry-point group `gamekernel.rulesets`)."""
    if not _group_may_be_declared(ENTRY_POINT_GROUP):
        return []  # importlib.metadata (a third of `%load_ext`) would only confirm there are none
    from importlib.metadata import entry_points

    found = []
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        if point.value.split(":")[0] in BUILTIN:
            continue
        declared = point.load()
        if not isinstance(declared, RuleSet):
            raise TypeError(f"entry point {point.name!r} ({point.value}) is not a gamekernel RuleSet")
        found.append(declared)
    return found


def _group_may_be_declared(group: str) -> bool:
    """Whether any distribution on `sys.path` may declare an entry point of `group`: a glance at the
    `entry_points.txt` of every `*.dist-info` / `*.egg-info` folder, where importlib.metadata reads
    them. Where it reads more than that (a zip or an egg on the path, another finder of
    distributions) the answer is yes, and importlib.metadata decides."""
    if any(hasattr(finder, "find_distributions") and finder is not PathFinder for finder in sys.meta_path):
        return True
    for entry in sys.path:
        folder = entry or "."
        if not isinstance(entry, str) or entry.lower().endswith(".egg") or os.path.isfile(folder):
            return True
        if any(group in _entry_points_text(folder, name) for name in _metadata_folders(folder)):
            return True
    return False


def _metadata_folders(folder: str) -> list[str]:
    try:
        names = os.listdir(folder)
    except OSError:  # not there (python311.zip often is not) or not readable: nothing declared in it
        return []
    return [name for name in names if name.lower().endswith((".dist-info", ".egg-info"))]


def _entry_points_text(folder: str, name: str) -> str:
    try:
        with open(os.path.join(folder, name, "entry_points.txt"), encoding="utf-8", errors="replace") as file:
            return file.read()
    except OSError:  # most distributions declare no entry point
        return ""


def rule_set(name: str) -> RuleSet:
    for declared in rule_sets():
        if declared.name == name:
            return declared
    raise KeyError(name)


Shared = Literal["check", "rest"]


@overload
def handler_for(command: Literal["check"], words: str, holders: Collection[str] = ()) -> LineHandler[str]: ...
@overload
def handler_for(command: Literal["rest"], words: list[str],
                holders: Collection[str] = ()) -> LineHandler[list[str]]: ...
def handler_for(command: Shared, words: Any, holders: Collection[str] = ()) -> LineHandler[Any]:
    """The handler of a shared command line: that of `rule_set_for` (`words` is the one value the
    overloads above type: a union would not match either `claims`)."""
    return _handlers(command)[rule_set_for(command, words, holders).name]


def rule_set_for(command: Shared, words: Any, holders: Collection[str] = ()) -> RuleSet:
    """Which rule set a shared command line goes to. The actor first: `holders` names the rule sets
    the line's actor belongs to (`%check Stealth @Aiko`: those whose `characters` hold Aiko), and the
    line goes to one of them. Only when nobody holds the actor (or no actor is named) do the words
    decide; among the candidates, the first whose handler claims the words, else the one taking every
    line (`claims` None), else the first holder."""
    handlers = _handlers(command)
    candidates = [r for r in rule_sets() if r.name in handlers]
    owners = [r for r in candidates if r.name in holders]
    among = owners or candidates
    for declared in among:
        claims = handlers[declared.name].claims
        if claims is not None and claims(words):
            return declared
    defaults = [r for r in among if handlers[r.name].claims is None] or owners
    if not defaults:
        raise LookupError(f"no rule set handles %{command}")
    return defaults[0]


@cache
def _handlers(command: Shared) -> dict[str, LineHandler[Any]]:
    """Every rule set's handler of `command`, by rule set name, made once (each rule set imports its
    own on first use)."""
    found: dict[str, LineHandler[Any]] = {}
    for declared in rule_sets():
        hook: HandlerOf[Any] | None = declared.check if command == "check" else declared.rest
        if hook is not None:
            found[declared.name] = hook()
    return found


def contest_odds(holders: Collection[str] = ()) -> RunsLine | None:
    """What answers `%odds contest`: the `%check` handler's `contest` of a rule set holding the line's
    actor (`holders`, as `rule_set_for`), else of the first rule set that has one; None when none has."""
    handlers = _handlers("check")
    for declared in [*(r for r in rule_sets() if r.name in holders), *rule_sets()]:
        handler = handlers.get(declared.name)
        if handler is not None and handler.contest is not None:
            return handler.contest
    return None


def holders_of(actor: str, parts: Parts) -> list[str]:
    """The names of the rule sets holding a character that `actor` names (gamekernel.text.resolve_name):
    a shared command naming them goes to one of these (`rule_set_for`)."""
    from gamekernel.text import resolve_name

    return [r.name for r in rule_sets()
            if r.characters is not None and resolve_name(actor, r.characters(parts))[0] is not None]


@cache
def player_actions() -> dict[str, PlayerAction]:
    """Every rule set's player actions by name, in the rule sets' order (`RuleSet.player_actions`)."""
    found: dict[str, PlayerAction] = {}
    for declared in rule_sets():
        for name, action in (declared.player_actions() if declared.player_actions else {}).items():
            if name in found:
                raise RuntimeError(f"rule set {declared.name!r}: player action {name!r} is another rule set's")
            found[name] = action
    return found


def check_line(spec: str, actor: str, *, secret: bool = False) -> Args:
    """`%check SPEC @actor` as its declaration would read it: the spec, the actor, and every rule set's
    flags of `%check` off (`--secret` as given), so any rule set's form finds the values it reads."""
    flags = {name.replace("-", "_"): False for _, form in forms("check") for name, _ in form.flags}
    from gamekernel.args import Args

    return Args({"spec": spec}, {**flags, "explain": False, "secret": secret}, None, actor)


@cache
def dashboard_actions() -> dict[str, DashboardAction]:
    """Every rule set's dashboard clicks by name (`RuleSet.dashboard_actions`)."""
    found: dict[str, DashboardAction] = {}
    for declared in rule_sets():
        for name, action in (declared.dashboard_actions() if declared.dashboard_actions else {}).items():
            if name in found:
                raise RuntimeError(f"rule set {declared.name!r}: dashboard action {name!r} is another rule set's")
            found[name] = action
    return found


@cache
def explorers() -> dict[str, Explore]:
    """Every rule set's odds explorers by name (`%explore NAME`), in the rule sets' order."""
    found: dict[str, Explore] = {}
    for declared in rule_sets():
        for explore in declared.explorers:
            if explore.name in found:
                raise RuntimeError(f"rule set {declared.name!r}: explorer {explore.name!r} is another rule set's")
            found[explore.name] = explore
    return found


@cache
def story_lines() -> dict[str, StoryLines]:
    """Every rule set's story lines by rule set name (`RuleSet.story`), made once."""
    return {declared.name: declared.story() for declared in rule_sets() if declared.story is not None}


@cache
def story_of(kind: str) -> StoryLines | None:
    """The story lines of the rule set owning the event kind `kind` (None: a kind of the core, or of a
    rule set whose events the story does not tell)."""
    for declared in rule_sets():
        if declared.story is not None and declared.owns_event(kind):
            return story_lines()[declared.name]
    return None


def dashboard_labels() -> dict[str, Any]:
    """Every rule set's words for the dashboard's page, in the current language (`RuleSet.dashboard_labels`)."""
    return {k: v for r in rule_sets() if r.dashboard_labels is not None for k, v in r.dashboard_labels().items()}


def forms(command: Shared) -> list[tuple[RuleSet, Form]]:
    """The rule sets that take part in a shared command, each with its part of the declaration."""
    return [(r, r.form(command)) for r in rule_sets() if r.takes_part(command)]


def boards(parts: Parts) -> dict[str, dict[str, Any]]:
    """Every rule set's dashboard rows (`RuleSet.dashboard`) from `parts`, by rule set name, as data."""
    found = {}
    for declared in rule_sets():
        board = declared.dashboard(parts) if declared.dashboard is not None else None
        if board is not None and board.rows:
            found[declared.name] = board.to_dict()
    return found


def groups() -> tuple[str, ...]:
    """The groups of `%gamekernel`, in order: core first, every rule set's, then campaign."""
    return ("core", *(g for r in rule_sets() for g in r.groups), "campaign")


@cache
def handle_classes() -> dict[str, type[RuleSetHandle]]:
    """Every rule set's handle classes by name (`gurps`, `combat`, `gw`, `mtg`, a plug-in's), imported
    once: importing them registers the state parts and event kinds a log replays through."""
    found: dict[str, type[RuleSetHandle]] = {}
    for declared in rule_sets():
        for cls in declared.handles():
            if not cls.name or cls.name in found:
                raise RuntimeError(f"rule set {declared.name!r}: handle {cls.__name__} needs a name of its own "
                                   f"(got {cls.name!r})")
            found[cls.name] = cls
    return found


def _catalogs(language: str) -> list[Path]:
    """Every rule set's message catalogs in `language`, for gamekernel.i18n."""
    return [path for declared in rule_sets() for path in declared.catalogs(language)]


add_catalogs(_catalogs)  # the messages below the declarations read the rule sets' catalogs from here
