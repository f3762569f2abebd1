"""One declaration per magic: its syntax, from which come its parser, its `%name?` help, its usage
line (also in `%gamekernel`) and its usage errors.

A magic declares its syntax with `@command(...)`, under `@line_magic` and `@guarded(...)`::

    @line_magic
    @guarded("roll")
    @command("roll", Rest("expression", "dice notation and an optional label: 3d+2 sword"),
             actor="who rolls", options=(Flag("secret", "roll for the GM only"),), group="core")
    def roll(self, args: Args):
        args.expression, args.actor, args.secret     # typed values; the method never sees the line

The line is read ONCE, into an `Args`: values by name (`args.folder`, `args.count`), the `@actor`,
the options (`args.secret`, `args.rounds`; a `-` in an option name becomes `_`), the chosen
subcommand (`args.sub`) and each value's column (`args.column("spec")`, 1-based) for errors that a
rule set's own parser reports later (a check spec, a dice expression).

What a line may hold (full-width `＠`, `－－`, digits are read as ASCII, unless `verbatim=True`):

- `@Name`, or `@"Two words"`: the actor, when the command declares `actor="..."` (at most one). A
  command without an actor keeps `@word` as an ordinary word (a note may mention @Bren).
- `--flag` (a `Flag`, True when given) and `--opt value` or `--opt=value` (an `Opt`; `kind=int`
  converts and reports a bad number); an unknown option names its column and the known ones.
- `# a comment`: a word that starts with `#` ends the line, as in Python and in IPython's magics that
  read Python (`%time`, `%config`), so a line pasted with its comment runs; `%note` (verbatim) keeps it.
  IPython's word-reading magics (`%load_ext`, `%cd`) take the comment as an argument: put a comment
  for them on its own line.
- words, quoted with "..." or '...' when they hold spaces. The positionals take them in order:
  `Word` (one word, unquoted), `Integer` (one whole number), `Words` (the remaining words, unquoted, a
  list) and `Rest` (the remaining words as typed, joined by one space: a dice expression, a check
  spec, a note). Any of them may be `optional=True` (then `default=` is its value when absent).
- subcommands: `subs=(Sub("open", Word("folder")), Sub("status"), ...)`: the first word picks one
  (case-insensitive, `aliases=` too) and the rest of the line fills that subcommand's positionals;
  the command's own positionals (`*positionals`) apply when the first word is no subcommand;
  `bare=True` lets the command stand alone (`%char` shows the active character); `unknown=` and
  `extra=` name the messages for an unknown subcommand and for words left over.

Errors are one-line UsageErrors from the `cmd.err.*` messages (i18n/<lang>/commands.json): what was
wrong, the column, and the usage line. `Integer(..., error="key")` keeps a magic's own message for a bad
number (fields: text, column, name).

Help: `usage(...)` builds the one-line usage (`%campaign open FOLDER | status | close | save | load`);
the method's docstring becomes a `::` usage block, the original description and one line per
argument and option, which is what `%campaign?` shows. `%name?` help stays English (like IPython's
own), the usage errors and the `%gamekernel` overview follow `GameKernel.language`.

`verbatim=True` is for commands whose text is the user's own words (`%note`): no NFKC, and IPython's
`$var`/`{expr}` expansion is off for the line (`no_var_expand`). `expand=False` turns off only the
expansion, for commands whose labels are prose (`%react +2 paid $5`).

Every declaration is kept in `COMMANDS` (name -> Syntax) for `%gamekernel` (alias `%gk`), which
lists them by `group`: core, gurps, combat, gammaworld, mtg, campaign.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from IPython.core.magic import no_var_expand

from gamekernel.args import Args
from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.limits import whole_number
from gamekernel.text import half_width

COMMANDS: dict[str, Syntax] = {}


# ------------------------------------------------------------------------------ declarations


@dataclass(frozen=True)
class Word:
    """One word (quotes removed)."""

    name: str
    help: str = ""
    optional: bool = False
    default: Any = None
    metavar: str = ""
    missing: str = ""  # an i18n key for the error when a required value is absent (default cmd.err.missing)

    @property
    def shown(self) -> str:
        return self.metavar or self.name.upper()

    def usage(self) -> str:
        return f"[{self.shown}]" if self.optional else self.shown

    def take(self, tokens: list[Token], name: str) -> tuple[Any, list[Token]]:
        return tokens[0].value, tokens[1:]


@dataclass(frozen=True)
class Integer(Word):
    """One whole number; `error` is an i18n key for a bad one (fields: text, column, name)."""

    error: str = ""

    def take(self, tokens: list[Token], name: str) -> tuple[Any, list[Token]]:
        token = tokens[0]
        text = token.value
        if not text.lstrip("+-").isdigit() or text.count("-") + text.count("+") > 1:
            fields = {"text": repr(text), "column": token.column, "name": self.shown, "magic": f"%{name}"}
            raise UsageError(t(self.error or "cmd.err.int", **fields))
        return whole_number(text, self.shown), tokens[1:]  # 5,000 digits: one line, not a ValueError


@dataclass(frozen=True)
class Words(Word):
    """Every remaining word, quotes removed, as a list."""

    default: Any = ()

    def usage(self) -> str:
        return f"[{self.shown}...]" if self.optional else f"{self.shown}..."

    def take(self, tokens: list[Token], name: str) -> tuple[Any, list[Token]]:
        return [token.value for token in tokens], []


@dataclass(frozen=True)
class Rest(Word):
    """Every remaining word as typed (quotes kept), joined by one space: text for a rule set's parser."""

    default: Any = ""

    def usage(self) -> str:
        return f"[{self.shown}...]" if self.optional else f"{self.shown}..."

    def take(self, tokens: list[Token], name: str) -> tuple[Any, list[Token]]:
        return " ".join(token.raw for token in tokens), []


@dataclass(frozen=True)
class Flag:
    """`--name`: True when given."""

    name: str
    help: str = ""

    @property
    def attr(self) -> str:
        return self.name.replace("-", "_")

    def usage(self) -> str:
        return f"[--{self.name}]"


@dataclass(frozen=True)
class Opt(Flag):
    """`--name VALUE` or `--name=VALUE`; `kind=int` for a whole number."""

    metavar: str = "VALUE"
    kind: type = str
    default: Any = None

    def usage(self) -> str:
        return f"[--{self.name}={self.metavar}]"


@dataclass(frozen=True)
class Sub:
    """A subcommand: its first word (and aliases) and its own positionals."""

    name: str
    args: tuple[Word, ...] = ()
    help: str = ""
    aliases: tuple[str, ...] = ()

    def __init__(self, name: str, *args: Word, help: str = "", aliases: tuple[str, ...] = ()):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "help", help)
        object.__setattr__(self, "aliases", aliases)

    def usage(self) -> str:
        return " ".join([self.name, *(arg.usage() for arg in self.args)])


@dataclass(frozen=True)
class Syntax:
    """Everything a line of one magic may hold; `parse` reads a line, `usage`/`help` describe it."""

    name: str
    args: tuple[Word, ...] = ()
    subs: tuple[Sub, ...] = ()
    options: tuple[Flag, ...] = ()
    actor: str | None = None
    group: tuple[str, ...] = ("core",)
    verbatim: bool = False
    bare: bool = False  # the command alone (no word) is a form of its own: `%char`, `%luck`
    unknown: str = ""  # i18n key for an unknown subcommand (fields: word = action = verb = got, column, usage)
    extra: str = ""  # i18n key for words left over (fields: word, text, column, usage)
    # set by __post_init__: the options' defaults
    _defaults: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [arg.name for arg in self.args] + [option.attr for option in self.options]
        names += [arg.name for sub in self.subs for arg in sub.args]
        taken = sorted(set(names) & _ARGS_OWN)
        if taken:  # `args.NAME` would read Args' own field or method instead
            raise ValueError(f"%{self.name}: argument names {taken} are taken by Args")
        object.__setattr__(self, "_defaults", {o.attr: (o.default if isinstance(o, Opt) else False)
                                               for o in self.options})

    # -- help -------------------------------------------------------------------------------
    def usage(self) -> str:
        """The one-line usage, e.g. `%check SPEC... [@Name] [--secret]`."""
        parts = [f"%{self.name}"]
        own = " ".join(arg.usage() for arg in self.args)
        if self.subs:
            alternatives = [sub.usage() for sub in self.subs] + ([own] if own else [])
            text = " | ".join(alternatives)
            parts.append(f"[{text}]" if self.bare and not own else text)
        elif own:
            parts.append(own)
        if self.actor is not None:
            parts.append("[@Name]")
        parts.extend(option.usage() for option in self.options)
        return " ".join(parts)

    def help(self, description: str | None) -> str:
        """The docstring `%name?` shows: a `::` usage block, the description, then each argument."""
        lines = ["::", "", "  " + self.usage(), ""]
        if description:
            lines += [_dedent(description), ""]
        rows: list[tuple[str, str]] = []
        for sub in self.subs:
            rows.append((sub.usage() + (f" ({', '.join(sub.aliases)})" if sub.aliases else ""), sub.help))
            rows.extend((f"  {arg.shown}", arg.help) for arg in sub.args if arg.help)
        rows.extend((arg.shown, arg.help) for arg in self.args if arg.help)
        if self.actor is not None:
            rows.append(("@Name", self.actor))
        rows.extend((option.usage()[1:-1], option.help) for option in self.options)
        if rows:
            width = max(len(left) for left, _ in rows) + 2
            lines += ["arguments:"] + [f"  {left.ljust(width)}{right}".rstrip() for left, right in rows]
        return "\n".join(lines) + "\n"

    # -- parsing ----------------------------------------------------------------------------
    def parse(self, line: str) -> Args:
        """Read a line into typed values; UsageError (one line, with the column) when it does not fit."""
        text = line if self.verbatim else half_width(line)
        actor: str | None = None
        actor_column = 0
        options: dict[str, Any] = dict(self._defaults)
        columns: dict[str, int] = {}
        words: list[Token] = []
        tokens = tokenize(text, comments=not self.verbatim)  # `%roll 3d  # a comment`, as Python reads it
        if not self.verbatim:
            _no_huge_numbers(text)
        index = 0
        while index < len(tokens):
            token = tokens[index]
            index += 1
            if token.raw.startswith("--") and not token.quoted:
                index = self._option(token, tokens, index, options, columns)
            elif self.actor is not None and token.raw.startswith("@") and not token.quoted:
                if actor is not None:
                    raise UsageError(t("core.err.actors", first=actor_column, second=token.column))
                actor = _unquote(token.raw[1:])
                if not actor:
                    raise UsageError(t("cmd.err.actor_empty", column=token.column, usage=self.usage()))
                actor_column = token.column
                columns["actor"] = token.column
            else:
                words.append(token)
        sub = None
        positionals = self.args
        if self.subs and words:
            head = words[0].value.casefold()
            sub = next((s for s in self.subs if head in (s.name.casefold(), *s.aliases)), None)
            if sub is not None:
                columns["sub"] = words[0].column
                positionals, words = sub.args, words[1:]
        if self.subs and sub is None and not self.args:
            if words:
                word = words[0].value
                raise UsageError(t(self.unknown or "cmd.err.sub", word=word, action=word, verb=word, got=word,
                                   column=words[0].column, usage=self.usage()))
            if not self.bare:
                raise UsageError(t("cmd.err.sub_missing", usage=self.usage()))
        values: dict[str, Any] = {}
        for arg in positionals:
            if not words:
                if not arg.optional:
                    raise UsageError(t(arg.missing or "cmd.err.missing", name=arg.shown, usage=self.usage()))
                values[arg.name] = arg.default
                continue
            columns[arg.name] = words[0].column
            values[arg.name], words = arg.take(words, self.name)
        if words:
            raise UsageError(t(self.extra or "cmd.err.extra", word=words[0].raw, column=words[0].column,
                               text=" ".join(token.raw for token in words), usage=self.usage()))
        return Args(values, options, sub.name if sub else None, actor, columns)

    def _option(self, token: Token, tokens: list[Token], index: int, options: dict[str, Any],
                columns: dict[str, int]) -> int:
        name, eq, value = token.raw[2:].partition("=")
        option = next((o for o in self.options if o.name == name), None)
        if option is None:
            known = ", ".join(f"--{o.name}" for o in self.options) or t("cmd.none")
            raise UsageError(t("core.err.option", name=name, column=token.column, known=known))
        columns[option.attr] = token.column
        if type(option) is Flag:
            if eq:
                raise UsageError(t("cmd.err.flag_value", option=f"--{name}", column=token.column))
            options[option.attr] = True
            return index
        assert isinstance(option, Opt)
        if not eq:
            if index >= len(tokens) or tokens[index].raw.startswith("--"):
                raise UsageError(t("cmd.err.option_value", option=f"--{name}", column=token.column,
                                   metavar=option.metavar))
            value, index = tokens[index].value, index + 1
        else:
            value = _unquote(value)
        if option.kind is int:
            try:
                options[option.attr] = int(value)
            except ValueError:
                raise UsageError(t("cmd.err.option_int", option=f"--{name}", text=repr(value),
                                   column=token.column)) from None
        else:
            options[option.attr] = value
        return index


_ARGS_OWN = frozenset({"values", "options", "sub", "actor", "columns"} | set(vars(Args)))


# ------------------------------------------------------------------------------ the line itself


@dataclass(frozen=True)
class Token:
    """One word of the line: as typed (`raw`), its value (quotes removed), its 1-based column."""

    raw: str
    column: int

    @property
    def value(self) -> str:
        return _unquote(self.raw)

    @property
    def quoted(self) -> bool:
        return self.raw[:1] in "\"'"


# a word: runs of anything but white space and quotes, or quoted runs ("Big Bob", 'x y'), joined; an
# apostrophe after a letter or digit is one (Aiko's, the players'), never a quote that opens; inside a
# single-quoted run an apostrophe between letters is one too ('Area Knowledge (Jupiter's Moons)')
_WORD = re.compile(r"""\s*((?:[^\s"']+|(?<=\w)'|"[^"]*"|'(?:[^']|(?<=\w)'(?=\w))*')+)""")
_SPACE = re.compile(r"\s*")


def tokenize(text: str, *, comments: bool = False) -> list[Token]:
    """Split on whitespace outside quotes; an unclosed quote is an error naming its column. With
    `comments`, a word that starts with `#` (unquoted) and everything after it is a comment, left out."""
    tokens: list[Token] = []
    word, position = _WORD.match, 0
    while (found := word(text, position)) is not None:
        if comments and found.group(1).startswith("#"):
            return tokens
        tokens.append(Token(found.group(1), found.start(1) + 1))
        position = found.end()
    gap = _SPACE.match(text, position)  # \s* always matches, maybe empty
    position = gap.end() if gap else position
    if position < len(text):  # what stopped the words is a quote that never closes
        raise UsageError(t("cmd.err.quote", column=position + 1))
    return tokens


_LONG_NUMBER = re.compile(r"\d{31,}")


def _no_huge_numbers(text: str) -> None:
    """No number in a command has more than 30 digits: refused here, before any parser converts it
    (Python refuses 4,300 digits with a ValueError, and smaller giants only make work)."""
    match = _LONG_NUMBER.search(text)
    if match:
        raise UsageError(t("limits.err.digits", column=match.start() + 1, digits=len(match.group())))


def _unquote(text: str) -> str:
    """`"Big Bob"` -> `Big Bob`; `--npc="Old Guard"` values too; quotes inside a word are kept."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def _dedent(text: str) -> str:
    import inspect

    return inspect.cleandoc(text)


# ------------------------------------------------------------------------------ the decorator


def command(
    name: str,
    *args: Word,
    subs: tuple[Sub, ...] = (),
    options: tuple[Flag, ...] = (),
    actor: str | None = None,
    group: str | tuple[str, ...] = "core",
    verbatim: bool = False,
    bare: bool = False,
    unknown: str = "",
    extra: str = "",
    expand: bool = True,
) -> Callable:
    """Declare a magic's syntax: the method then receives `Args` instead of the line, and its
    docstring becomes the `%name?` help with the usage generated from the declaration."""
    syntax = Syntax(name, tuple(args), tuple(subs), tuple(options), actor,
                    (group,) if isinstance(group, str) else tuple(group), verbatim, bare, unknown, extra)
    COMMANDS[name] = syntax

    def decorate(method: Callable) -> Callable:
        @functools.wraps(method)
        def wrapper(self, line: str = "", cell: str | None = None):
            """A cell magic (`%%library load Mira`) also gets the cell's body."""
            return method(self, syntax.parse(line)) if cell is None else method(self, syntax.parse(line), cell)

        wrapper.__doc__ = syntax.help(method.__doc__)
        wrapper.syntax = syntax  # type: ignore[attr-defined]
        return wrapper if expand and not verbatim else no_var_expand(wrapper)

    return decorate
