"""GURPS magics (%char, %contest, %react, %damage, %fright, %cr, %sheet, %influence) and the GURPS
forms of %check and %odds, which the core magics dispatch here.

Magics only split the line and call one session method; the rules live in systems/gurps.
"""

from __future__ import annotations

import shlex

from IPython.core.magic import line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.magics._base import Secret, SessionMagics, guarded, split_line
from gamekernel.magics.syntax import Args
from gamekernel.systems.gurps.checks import parse_check_spec, parse_side, split_vs


def _maybe_secret(result, secret: bool):
    return Secret(result) if secret else result


def gurps_check(session, args: Args):
    """`%check Lockpicking-5 dark [@Name] [--secret]`: the spec parsed once, then session.check."""
    spec = parse_check_spec(args.spec, offset=args.column("spec") - 1)
    return _maybe_secret(session.check(spec, actor=args.actor, secret=args.secret), args.secret)


def gurps_check_odds(session, args: Args):
    """`%odds check 12`, `%odds check Lockpicking-5 @Aiko`, `%odds check 12 | 14` (the best: 14)."""
    return session.check_odds(parse_check_spec(args.spec, offset=args.column("spec") - 1), args.actor)


def gurps_contest_odds(session, args: Args):
    """`%odds contest 14 vs 12`, `%odds contest Aiko:Stealth vs Guard:Per`."""
    sides = split_vs(args.sides)
    if len(sides) != 2:
        raise UsageError(t("gurps.err.usage", usage="%odds contest 14 vs 12"))
    return session.contest_odds(parse_side(sides[0]), parse_side(sides[1]), args.actor)


def _fields(words: list[str]) -> dict[str, object]:
    fields: dict[str, object] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key or not value:
            raise UsageError(t("gurps.err.field_value", word=word))
        key = key.lower()
        fields[key] = int(value) if value.lstrip("-").isdigit() else value
    return fields


@magics_class
class GurpsMagics(SessionMagics):
    """GURPS Lite at the table."""

    @magic_arguments()
    @argument("action", help="new NAME [field=value...] | load FILE | save [NAME] [FILE] | list | use NAME | "
                             "set [@Name] field=value... | skill NAME POINTS [@Name] | trait NAME [LEVEL] [@Name] | "
                             "weapon [NAME] Broadsword:14:sw+1 cut[:reach=1:parry=0] | weapon [NAME] -Broadsword")
    @line_magic
    @guarded("char")
    def char(self, line: str = ""):
        """Characters: `%char new Aiko dx=12 iq=12`, `%char load aiko.gcs`, `%char save`, `%char list`,
        `%char use Aiko`, `%char set dx=13`, `%char skill Lockpicking 8`, `%char trait Combat Reflexes`,
        `%char weapon Aiko Broadsword:Broadsword:sw+1 cut` (the level follows the skill) or `Broadsword:14:sw+1 cut`."""
        parsed = split_line(line, flags=())
        try:
            words = shlex.split(parsed.text)
        except ValueError as error:
            raise UsageError(t("gurps.err.char_quotes", error=error)) from None
        if not words:
            return self.session.character(parsed.actor)
        action, args = words[0].lower(), words[1:]
        session = self.session
        if action == "new":
            if not args:
                raise UsageError(t("gurps.err.usage", usage="%char new NAME [st=10 dx=12 ...]"))
            return session.char_new(args[0], **_fields(args[1:]))
        if action == "load":
            if len(args) != 1:
                raise UsageError(t("gurps.err.usage_char_load"))
            return session.char_load(args[0])
        if action == "save":
            name = parsed.actor or (args[0] if args and not args[0].endswith(".json") else None)
            path = next((a for a in args if a.endswith(".json")), None)
            return session.char_save(name, path)
        if action == "list":
            return session.characters()
        if action == "use":
            if len(args) != 1 and parsed.actor is None:
                raise UsageError(t("gurps.err.usage", usage="%char use NAME"))
            return session.char_use(parsed.actor or args[0])
        if action == "set":
            return session.char_set(parsed.actor, **_fields(args))
        if action == "skill":
            if len(args) < 2 or not args[-1].isdigit():
                raise UsageError(t("gurps.err.usage", usage="%char skill NAME POINTS [@Name]"))
            return session.char_add_skill(" ".join(args[:-1]), int(args[-1]), name=parsed.actor)
        if action == "trait":
            if not args:
                raise UsageError(t("gurps.err.usage", usage="%char trait NAME [LEVEL|OPTION] [@Name]"))
            level, option, name_words = 1, "", args
            if len(args) > 1 and args[-1].lstrip("-").isdigit():
                level, name_words = int(args[-1]), args[:-1]
            return session.char_add_trait(" ".join(name_words), level=level, option=option, name=parsed.actor)
        if action == "weapon":
            return self._weapon(parsed.actor, parsed.text.split(None, 1)[1] if len(words) > 1 else "")
        raise UsageError(t("gurps.err.char_action", action=action))

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
            return self.session.char_drop_weapon(rest[1:].strip(), name=actor)
        if ":" not in rest:
            raise UsageError(usage)
        return self.session.char_add_weapon(rest, name=actor)

    @magic_arguments()
    @argument("sides", nargs="*", help="Aiko:Stealth vs Guard:Per (numbers work too: 14 vs 12)")
    @argument("--regular", action="store_true", help="A Regular Contest: repeat until exactly one succeeds.")
    @argument("--rounds", help="Round cap of a Regular Contest (default 20).")
    @argument("--secret", action="store_true", help="Roll for the GM only.")
    @line_magic
    @guarded("contest")
    def contest(self, line: str = ""):
        """A Quick Contest: `%contest Aiko:Stealth vs Guard:Per`; `--regular [--rounds=N]` for a Regular one."""
        parsed = split_line(line, flags=("secret", "regular", "rounds"))
        rounds = parsed.flags.get("rounds", 20)
        try:
            rounds = int(rounds)
        except (TypeError, ValueError):
            raise UsageError(t("gurps.err.flag_number", flag="--rounds", value=rounds)) from None
        text = parsed.text if parsed.actor is None else f"{parsed.actor}:{parsed.text}"
        result = self.session.contest(text, secret=parsed.flag("secret"), regular=parsed.flag("regular"),
                                      max_rounds=rounds)
        return _maybe_secret(result, parsed.flag("secret"))

    @magic_arguments()
    @argument("modifiers", nargs="*", help="+2 good approach -1 rude")
    @argument("--npc", help="Who reacts (shown in the result).")
    @argument("--secret", action="store_true", help="Roll for the GM only (the default in the rules).")
    @line_magic
    @guarded("react")
    def react(self, line: str = ""):
        """A reaction roll: `%react +2 good approach @Aiko --npc=Guard` (the actor's Appearance, Charisma,
        Voice, Reputation, OPH... are added)."""
        parsed = split_line(line, flags=("secret", "npc"))
        npc = parsed.flags.get("npc", "")
        result = self.session.react(parsed.text, actor=parsed.actor, npc=npc if isinstance(npc, str) else "",
                                    secret=parsed.flag("secret"))
        return _maybe_secret(result, parsed.flag("secret"))

    @magic_arguments()
    @argument("skill", nargs="*", help="Fast-Talk vs Guard")
    @line_magic
    @guarded("influence")
    def influence(self, line: str = ""):
        """An Influence roll: `%influence Fast-Talk vs Guard @Aiko` (Quick Contest vs Will)."""
        parsed = split_line(line, flags=("secret",))
        sides = split_vs(parsed.text)
        if len(sides) != 2:
            raise UsageError(t("gurps.err.usage", usage="%influence SKILL vs TARGET [@Name]"))
        result = self.session.influence(sides[0], sides[1], actor=parsed.actor, secret=parsed.flag("secret"))
        return _maybe_secret(result, parsed.flag("secret"))

    @magic_arguments()
    @argument("damage", nargs="*", help="2d+1 cut, sw+2 cut, thr imp (thr/sw use the attacker's ST)")
    @argument("@Target", nargs="?", help="Who is hit: DR from the sheet, injury taken off HP.")
    @argument("--dr", help="DR to use instead of the target's.")
    @argument("--by", help="The attacker (default: the active character) for thr/sw.")
    @argument("--half", action="store_true", help="Beyond 1/2D range: halve the damage.")
    @line_magic
    @guarded("damage")
    def damage(self, line: str = ""):
        """A damage roll: `%damage 2d+1 cut @Goblin`, `%damage sw+2 cut @Goblin --by=Aiko`, `--dr=4`."""
        parsed = split_line(line, flags=("secret", "dr", "by", "half"))
        if not parsed.text:
            raise UsageError(t("gurps.err.usage", usage="%damage 2d+1 cut @Target"))
        dr = parsed.flags.get("dr")
        if dr is not None:
            try:
                dr = int(dr)
            except (TypeError, ValueError):
                raise UsageError(t("gurps.err.flag_number", flag="--dr", value=dr)) from None
        by = parsed.flags.get("by")
        result = self.session.damage(parsed.text, target=parsed.actor, attacker=by if isinstance(by, str) else None,
                                     dr=dr, half=parsed.flag("half"), secret=parsed.flag("secret"))
        return _maybe_secret(result, parsed.flag("secret"))

    @magic_arguments()
    @argument("what", nargs="*", help="[@Name] (reroll the last success roll) | reset [@Name] [30min] | status")
    @line_magic
    @guarded("luck")
    def luck(self, line: str = ""):
        """Luck (GURPS-ADV-19..21): `%luck @Aiko` rerolls Aiko's last success roll twice and keeps the
        best of three; `%luck reset [30min]` when enough play time has passed; `%luck status`."""
        parsed = split_line(line, flags=())
        words = parsed.text.split()
        if not words:
            result = self.session.luck(parsed.actor)
            return _maybe_secret(result, result.secret)
        verb = words[0].lower()
        if verb in ("reset", "リセット"):
            minutes = None
            if len(words) > 1:
                from gamekernel.actions.combat import parse_minutes

                text = words[1] if not words[1].isdigit() else f"{words[1]}min"
                minutes = parse_minutes(text)
            return self.session.luck_reset(parsed.actor, minutes=minutes)
        if verb == "status":
            return self.session.luck_status()
        raise UsageError(t("gurps.err.luck_action", action=words[0]))

    @magic_arguments()
    @argument("modifiers", nargs="*", help="-2 (how terrifying)")
    @argument("--rule14", action="store_true", help="Basic Set Rule of 14 (effective Will above 13 counts as 13).")
    @line_magic
    @guarded("fright")
    def fright(self, line: str = ""):
        """A Fright Check: `%fright -2 @Aiko` (Combat Reflexes and Fearlessness are added)."""
        parsed = split_line(line, flags=("secret", "rule14"))
        result = self.session.fright(parsed.text, actor=parsed.actor, secret=parsed.flag("secret"),
                                     rule_of_14=parsed.flag("rule14"))
        return _maybe_secret(result, parsed.flag("secret"))

    @magic_arguments()
    @argument("trait", nargs="*", help="Bad Temper [+4 threat]")
    @argument("--situation", help="A trait situation from the data: 'mere threat', 'telling a lie' ...")
    @line_magic
    @guarded("self_control")
    def cr(self, line: str = ""):
        """A self-control roll (3d vs 12): `%cr Bad Temper @Aiko`, `%cr Phobia --situation=threat`."""
        parsed = split_line(line, flags=("secret", "situation"))
        text = parsed.text
        cut = min((i for i, ch in enumerate(text) if ch in "+-" and i + 1 < len(text) and text[i + 1].isdigit()),
                  default=len(text))
        trait, mods = text[:cut].strip(), text[cut:].strip()
        if not trait:
            raise UsageError(t("gurps.err.usage", usage="%cr TRAIT [modifiers] [@Name]"))
        situation = parsed.flags.get("situation", "")
        result = self.session.self_control(trait, mods, actor=parsed.actor, secret=parsed.flag("secret"),
                                           situation=situation if isinstance(situation, str) else "")
        return _maybe_secret(result, parsed.flag("secret"))

    @magic_arguments()
    @argument("name", nargs="?", help="Whose sheet (default: the active character).")
    @line_magic
    @guarded("sheet")
    def sheet(self, line: str = ""):
        """The interactive character sheet: `%sheet Aiko` (edit attributes, click a skill to roll it)."""
        from gamekernel.widgets.sheet import SheetWidget

        parsed = split_line(line, flags=())
        name = parsed.actor or (parsed.text or None)
        character = self.session.character(name)
        return SheetWidget(self.session, name=character.name)


MAGICS = [GurpsMagics]
