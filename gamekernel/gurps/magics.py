"""GURPS magics (%char, %contest, %react, %damage, %fright, %cr, %sheet, %influence) and the GURPS
forms of %check and %odds, which the core magics dispatch here.

Each magic declares its syntax (syntax.py), gets the line parsed once into typed values and
calls one session method; the rules live in gurps/rules.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from IPython.core.magic import line_magic, magics_class

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.limits import whole_number
from gamekernel.magic_base import EXPLAIN, ProgressBar, Secret, SessionMagics, explainable, guarded
from gamekernel.syntax import Args, Flag, Opt, Rest, Sub, Word, Words, command
from gamekernel.text import resolve_name

if TYPE_CHECKING:  # the table's core and the handles its calls reach (imported on first use, below)
    from gamekernel.gurps.actions import Gurps
    from gamekernel.gurps.results import SheetChange
    from gamekernel.gurps.rules.characters import Character
    from gamekernel.rulesets import Core


def _gurps(session: Core) -> Gurps:
    """GURPS's handle on the session, typed; imported on the first command (`%load_ext` stays light)."""
    from gamekernel.gurps.actions import Gurps

    return Gurps.of(session)


T = TypeVar("T")

# `%char skill Gunnery DX/A 4`: the attribute/difficulty word of a skill outside the catalog
_ATTR_DIFF = re.compile(r"(?i)(st|dx|iq|ht|will|per)/(e|a|h|vh|w)")


def _checks():
    """The GURPS check parsers, imported when a magic first needs them (keeps `%load_ext` cheap)."""
    from gamekernel.gurps.rules import checks
    return checks


def _maybe_secret(result: T, secret: bool) -> T | Secret:
    return Secret(result) if secret else result


def gurps_check(session: Core, args: Args) -> object:
    """`%check Lockpicking-5 dark [@Name] [--secret]`: the spec parsed once, then session.check."""
    spec = _checks().parse_check_spec(args.spec, offset=args.column("spec") - 1)
    return _maybe_secret(_gurps(session).check(spec, actor=args.actor, secret=args.secret), args.secret)


def gurps_check_odds(session: Core, args: Args) -> object:
    """`%odds check 12`, `%odds check Lockpicking-5 @Aiko`, `%odds check 12 | 14` (the best: 14)."""
    spec = _checks().parse_check_spec(args.spec, offset=args.column("spec") - 1)
    return _gurps(session).check_odds(spec, args.actor)


def gurps_contest_odds(session: Core, args: Args) -> object:
    """`%odds contest 14 vs 12`, `%odds contest Aiko:Stealth vs Guard:Per`."""
    sides = _checks().split_vs(args.sides)
    if len(sides) != 2:
        raise UsageError(t("gurps.err.usage", usage="%odds contest 14 vs 12"))
    return _gurps(session).contest_odds(_checks().parse_side(sides[0]), _checks().parse_side(sides[1]), args.actor)


def _changed(session: Core, character: Character) -> SheetChange:
    """A sheet edit's result: the change just logged and a short status, the sheet one %sheet away."""
    from gamekernel.gurps.results import SheetChange

    return SheetChange(character, session.log[-1].data.get("change"))


def _fields(words: list[str]) -> dict[str, int | str]:
    fields: dict[str, int | str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key or not value:
            raise UsageError(t("gurps.err.field_value", word=word))
        key = key.lower()
        numeric = value[1:] if value[:1] in "+-" else value
        fields[key] = whole_number(value, t("limits.what.field", field=key)) if numeric.isdigit() else value
    return fields


_SECRET = Flag("secret", "roll for the GM only; the result goes to the log")


@magics_class
class GurpsMagics(SessionMagics):
    """GURPS Lite at the table."""

    @line_magic
    @guarded("char")
    @command("char", Word("name", "a character to show (like @Name)", optional=True),
             subs=(Sub("new", Word("name", "the character's name"),
                       Words("fields", "st=10 dx=12 iq=12 ht=11 ...", optional=True, metavar="FIELD=VALUE"),
                       help="create a character"),
                   Sub("load", Word("file", "our .json or a GCS .gcs", missing="gurps.err.usage_char_load"),
                       help="load a character file"),
                   Sub("save", Words("what", "[NAME] [FILE.json | COPY.gcs]", optional=True, metavar="NAME|FILE"),
                       help="write a character as JSON (default FILE: NAME.json), or a copy of its GCS "
                            "file with current HP/FP and conditions"),
                   Sub("list", help="the characters at the table"),
                   Sub("diff", Word("name", optional=True),
                       help="every number at the table that differs from the character's GCS file"),
                   Sub("use", Word("name", optional=True), help="make a character the active one"),
                   Sub("set", Words("fields", optional=True, metavar="FIELD=VALUE"), help="change fields"),
                   Sub("skill", Words("skill", "a skill and its points: Lockpicking 8, Axe/Mace 4, Guns (Pistol) 2, "
                                               "or any skill with attribute/difficulty: Gunnery DX/A 4",
                                      optional=True, metavar="NAME [ATTR/DIFF] POINTS"), help="buy a skill"),
                   Sub("trait", Words("trait", "a trait of the data and its level: Acute Vision 2",
                                      optional=True, metavar="NAME [LEVEL]"), help="add a trait"),
                   Sub("weapon", Rest("weapon", "[NAME] Broadsword:14:sw+1 cut[:reach=1:parry=0] | "
                                                "[NAME] -Broadsword", optional=True),
                       help="put a weapon on the sheet (the level may follow a skill) or take it off")),
             actor="whose character (default: the active one)", group="gurps", bare=True,
             options=(Flag("gm", "the GM's view: the true sheet, secret damage included, marked"),
                      Flag("npc", "load: a monster or NPC, fighting with the foes"),
                      Opt("side", "load: the side it fights on (party, foes, neutral or a name)", metavar="SIDE",
                          default="")),
             unknown="gurps.err.char_action")
    def char(self, args: Args):
        """Characters: `%char new Aiko dx=12 iq=12`, `%char load aiko.gcs`, `%char save`, `%char list`,
        `%char use Aiko`, `%char set dx=13`, `%char skill Lockpicking 8`, `%char trait Combat Reflexes`,
        `%char weapon Aiko Broadsword:Broadsword:sw+1 cut` (the level follows the skill) or `Broadsword:14:sw+1 cut`.
        `%char` alone shows the active character."""
        session, actor = self.session, args.actor
        if args.sub is None:  # `%char`, `%char @Cara` or `%char Cara`
            if args.name is not None and actor is not None:
                raise UsageError(t("gurps.err.usage", usage="%char NAME | %char @NAME"))
            if args.name is not None and resolve_name(args.name, _gurps(session).state.characters) == (None, []):
                word = args.name  # nobody of that name, nor close to it: a mistyped action
                raise UsageError(t("gurps.err.char_action", word=word, action=word, verb=word, got=word,
                                   column=args.column("name"), usage=""))
            if args.gm:
                from gamekernel.display.results import GmView

                return GmView(_gurps(session).character(actor or args.name))
            return _gurps(session).character_public(actor or args.name)  # the table sees the notebook
        if args.sub == "new":
            fields = _fields(args.fields)
            if taken := [key for key in fields if key in ("traits", "skills", "activate")]:
                # not fields of the sheet: `traits=Combat` would be read letter by letter
                raise UsageError(t("gurps.err.character_field", field=taken[0]))
            return _gurps(session).char_new(args.name, traits=(), skills=(), activate=True, **fields)
        if args.sub == "load":
            return _gurps(session).char_import(args.file, side="foes" if args.npc else args.side)
        if args.sub == "save":
            what = args.what
            name = actor or (what[0] if what and not what[0].endswith((".json", ".gcs")) else None)
            path = next((a for a in what if a.endswith((".json", ".gcs"))), None)
            return _gurps(session).char_save(name, path)
        if args.sub == "list":
            return _gurps(session).characters()
        if args.sub == "diff":
            return _gurps(session).char_diff(actor or args.name)
        if args.sub == "use":
            if (args.name is None) == (actor is None):
                raise UsageError(t("gurps.err.usage", usage="%char use NAME"))
            return _gurps(session).char_use(actor or args.name)
        if args.sub == "set":
            return _gurps(session).char_set(actor, **_fields(args.fields))
        if args.sub == "skill":
            words = args.skill
            if len(words) < 2 or not words[-1].isdigit():
                raise UsageError(t("gurps.err.usage", usage="%char skill NAME [ATTR/DIFF] POINTS [@Name]"))
            points = whole_number(words[-1], t("limits.what.field", field="points"), limit="max_count")
            if len(words) >= 3 and _ATTR_DIFF.fullmatch(words[-2]):
                return _changed(session, _gurps(session).char_add_skill(" ".join(words[:-2]), points, name=actor,
                                                                      difficulty=words[-2]))
            return _changed(session, _gurps(session).char_add_skill(" ".join(words[:-1]), points, name=actor))
        if args.sub == "trait":
            words = args.trait
            if not words:
                raise UsageError(t("gurps.err.usage", usage="%char trait NAME [LEVEL|OPTION] [@Name]"))
            level, name_words = 1, words
            if len(words) > 1 and words[-1].lstrip("-").isdigit():
                level = whole_number(words[-1], t("limits.what.field", field="level"), limit="max_count")
                name_words = words[:-1]
            return _changed(session, _gurps(session).char_add_trait(" ".join(name_words), level=level, option="",
                                                                  name=actor))
        return self._weapon(actor, args.weapon)

    def _weapon(self, actor: str | None, rest: str):
        """`%char weapon [NAME] Broadsword:14:sw+1 cut [@Name]`; `%char weapon [NAME] -Broadsword` removes it."""
        usage = t("gurps.err.usage_weapon")
        head, _, tail = rest.strip().partition(" ")
        if actor is None and tail and ":" not in head and not head.startswith("-"):
            actor, rest = head, tail
        rest = rest.strip()
        if not rest:
            raise UsageError(usage)
        if rest.startswith("-") and ":" not in rest:
            return _gurps(self.session).char_drop_weapon(rest[1:].strip(), name=actor)
        if ":" not in rest:
            raise UsageError(usage)
        return _gurps(self.session).char_add_weapon(rest, name=actor)

    @line_magic
    @guarded("contest")
    @command("contest", Rest("sides", "Aiko:Stealth vs Guard:Per (numbers work too: 14 vs 12)",
                             metavar="A vs B"),
             actor="the first side's character, when it names none",
             options=(_SECRET, Flag("regular", "a Regular Contest: repeat until exactly one succeeds"),
                      Opt("rounds", "round cap of a Regular Contest (default 20)", metavar="N", kind=int,
                          default=20), EXPLAIN),
             group="gurps")
    @explainable
    def contest(self, args: Args):
        """A Quick Contest: `%contest Aiko:Stealth vs Guard:Per`; `--regular [--rounds=N]` for a Regular one."""
        sides = _checks().split_vs(args.sides)
        if len(sides) != 2:
            raise UsageError(t("gurps.err.contest_sides"))
        first, second = _checks().parse_side(sides[0]), _checks().parse_side(sides[1])
        if args.actor is not None and first.actor is None:
            first = replace(first, actor=args.actor)
        result = _gurps(self.session).contest(first, second, secret=args.secret, regular=args.regular,
                                      max_rounds=args.rounds)
        return _maybe_secret(result, args.secret)

    @line_magic
    @guarded("react")
    @command("react", Rest("modifiers", "+2 good approach -1 rude", optional=True),
             actor="whose Appearance, Charisma, Reputation... are added",
             options=(_SECRET, Opt("npc", "who reacts (shown in the result)", metavar="NAME", default="")),
             group="gurps", expand=False)
    def react(self, args: Args):
        """A reaction roll: `%react +2 good approach @Aiko --npc=Guard` (the actor's Appearance, Charisma,
        Voice, Reputation, OPH... are added)."""
        result = _gurps(self.session).react(_checks().parse_modifiers(args.modifiers), actor=args.actor, npc=args.npc,
                                    secret=args.secret)
        return _maybe_secret(result, args.secret)

    @line_magic
    @guarded("influence")
    @command("influence", Rest("what", "Fast-Talk vs Guard", metavar="SKILL vs TARGET"),
             actor="who influences (default: the active character)", options=(_SECRET,), group="gurps")
    def influence(self, args: Args):
        """An Influence roll: `%influence Fast-Talk vs Guard @Aiko` (Quick Contest vs Will)."""
        sides = _checks().split_vs(args.what)
        if len(sides) != 2:
            raise UsageError(t("gurps.err.usage", usage="%influence SKILL vs TARGET [@Name]"))
        spec = _checks().parse_check_spec(sides[0])
        result = _gurps(self.session).influence(spec, sides[1], actor=args.actor, secret=args.secret)
        return _maybe_secret(result, args.secret)

    @line_magic
    @guarded("damage")
    @command("damage", Rest("damage", "2d+1 cut, sw+2 cut, thr imp (thr/sw use the attacker's ST)",
                            missing="gurps.err.usage"),
             actor="who is hit: DR from the sheet, injury taken off HP",
             options=(_SECRET, Opt("dr", "DR to use instead of the target's", metavar="N", kind=int),
                      Opt("by", "the attacker (default: the active character) for thr/sw", metavar="NAME"),
                      Flag("half", "beyond 1/2D range: halve the damage"), EXPLAIN),
             group="gurps")
    @explainable
    def damage(self, args: Args):
        """A damage roll: `%damage 2d+1 cut @Goblin`, `%damage sw+2 cut @Goblin --by=Aiko`, `--dr=4`."""
        result = _gurps(self.session).damage(args.damage, target=args.actor, attacker=args.by, dr=args.dr,
                                     half=args.half, secret=args.secret)
        return _maybe_secret(result, args.secret)

    @line_magic
    @guarded("luck")
    @command("luck",
             subs=(Sub("reset", Word("time", "how much play time has passed: 30min, 1h, 10",
                                     optional=True, metavar="30min"),
                       help="spent Luck comes back (all, or the levels whose interval has passed)",
                       aliases=("リセット",)),
                   Sub("status", help="who has Luck and whether it is spent")),
             actor="whose last success roll (default: the active character)", group="gurps", bare=True,
             unknown="gurps.err.luck_action")
    def luck(self, args: Args):
        """Luck (GURPS-ADV-19..21): `%luck @Aiko` rerolls Aiko's last success roll twice and keeps the
        best of three; `%luck reset [30min]` when enough play time has passed; `%luck status`."""
        if args.sub is None:
            result = _gurps(self.session).luck(args.actor)
            return _maybe_secret(result, result.secret)
        if args.sub == "reset":
            minutes = None
            if args.time is not None:
                from gamekernel.gurps.combat_specs import parse_minutes

                minutes = parse_minutes(args.time if not args.time.isdigit() else f"{args.time}min")
            return _gurps(self.session).luck_reset(args.actor, minutes=minutes)
        return _gurps(self.session).luck_status()

    @line_magic
    @guarded("fright")
    @command("fright", Rest("modifiers", "-2 (how terrifying)", optional=True),
             actor="who checks (default: the active character)",
             options=(_SECRET, Flag("rule14", "Basic Set Rule of 14 (effective Will above 13 counts as 13)")),
             group="gurps", expand=False)
    def fright(self, args: Args):
        """A Fright Check: `%fright -2 @Aiko` (Combat Reflexes and Fearlessness are added)."""
        modifiers = _checks().parse_modifiers(args.modifiers)
        result = _gurps(self.session).fright(modifiers, actor=args.actor, secret=args.secret,
                                     rule_of_14=args.rule14)
        return _maybe_secret(result, args.secret)

    @line_magic
    @guarded("self_control")
    @command("cr", Rest("trait", "Bad Temper [+4 threat]", metavar="TRAIT [MODIFIERS]",
                        missing="gurps.err.usage"),
             actor="whose trait (default: the active character)",
             options=(_SECRET, Opt("situation", "a trait situation from the data: 'mere threat', 'telling a lie'",
                                   metavar="TEXT", default="")),
             group="gurps", expand=False)
    def cr(self, args: Args):
        """A self-control roll (3d vs 12): `%cr Bad Temper @Aiko`, `%cr Phobia --situation=threat`."""
        text = args.trait
        cut = min((i for i, ch in enumerate(text) if ch in "+-" and i + 1 < len(text) and text[i + 1].isdigit()),
                  default=len(text))
        trait, mods = text[:cut].strip(), text[cut:].strip()
        if not trait:
            raise UsageError(t("gurps.err.usage", usage="%cr TRAIT [modifiers] [@Name]"))
        modifiers = _checks().parse_modifiers(mods)
        result = _gurps(self.session).self_control(trait, modifiers, actor=args.actor, secret=args.secret,
                                           situation=args.situation)
        return _maybe_secret(result, args.secret)

    @line_magic
    @guarded("gurps")
    @command("gurps",
             subs=(Sub("library", Word("path", "a GCS library folder (.skl, .spl, .adq/.trt, .eqp files)",
                                       metavar="PATH"),
                       help="read a GCS library folder into a cached index (the catalog)"),
                   Sub("find", Rest("name", "a skill, spell, trait or equipment name", metavar="NAME"),
                       help="look a name up in the loaded GCS library")),
             options=(Opt("cache", "the index folder (default: the user cache folder)", metavar="DIR",
                          default=None),),
             group="gurps")
    def gurps(self, args: Args):
        """The GCS library as the catalog: `%gurps library ~/GCS/Library`, `%gurps find Fireball`."""
        if args.sub == "library":
            return _gurps(self.session).library(args.path, cache=args.cache, progress=ProgressBar())
        return _gurps(self.session).find(args.name)

    @line_magic
    @guarded("sheet")
    @command("sheet", Word("name", "whose sheet (default: the active character)", optional=True),
             actor="whose sheet", group="gurps",
             options=(Flag("gm", "the GM's view: the true sheet, secret damage included, marked"),))
    def sheet(self, args: Args):
        """The interactive character sheet: `%sheet Aiko` (edit attributes, click a skill to roll it)."""
        from gamekernel.gurps.widgets.sheet import SheetWidget

        character = _gurps(self.session).character(args.actor or args.name)
        return SheetWidget(self.session, name=character.name, gm=args.gm)


MAGICS = [GurpsMagics]
