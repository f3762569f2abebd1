"""GURPS combat magics (%combat, %next, %attack, %defend, %maneuver, %posture, %hit, %hazard,
%firstaid, %heal, %wake, %mortal, %cast) and the GURPS form of %rest, which the core magics dispatch here.

Each magic declares its syntax (syntax.py), gets its line parsed once and calls ONE session
method; no rules here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from IPython.core.magic import line_magic, magics_class

from gamekernel.display.results import ErrorResult, GmView, SecretNotice
from gamekernel.errors import GameKernelError, UsageError
from gamekernel.i18n import t
from gamekernel.limits import real_number, whole_number
from gamekernel.magic_base import EXPLAIN, SessionMagics, explainable, guarded
from gamekernel.syntax import Args, Flag, Rest, Sub, Word, Words, command, tokenize
from gamekernel.text import half_width

if TYPE_CHECKING:  # the table's core and the handles its calls reach (imported on first use, below)
    from gamekernel.gurps.actions import Gurps
    from gamekernel.gurps.combat_actions import Combat
    from gamekernel.rulesets import Core


def _combat(session: Core) -> Combat:
    """GURPS combat's handle on the session, typed; imported on the first command (`%load_ext` stays light)."""
    from gamekernel.gurps.combat_actions import Combat

    return Combat.of(session)


def _gurps(session: Core) -> Gurps:
    """GURPS's handle on the session, typed; imported on the first command (`%load_ext` stays light)."""
    from gamekernel.gurps.actions import Gurps

    return Gurps.of(session)


_ATTACK_USAGE = "%attack Aiko -> Goblin1 Broadsword [damage] [range=8 braced ...] [-2 dark ...]"
_HAZARD_USAGE = "%hazard fall 6m @Bren"
_DAYS = re.compile(r"(\d+)\s*(?:days?|d|日)", re.IGNORECASE)
_DURATION = re.compile(r"\b\d+(?:\.\d+)?\s*(?:s|sec|min|m|h|hr|hours?|d|days?)\b", re.IGNORECASE)


def looks_like_gurps_rest(words: list[str]) -> bool:
    """GURPS rest names a duration (`%rest Bren 30min`); Gamma World's extended rest does not."""
    return any(_DURATION.search(word) for word in words)


def gurps_rest(session: Core, args: Args) -> object:
    """`%rest Bren 30min` / `%rest @Bren 30min`: quiet rest, 1 FP per 10 minutes (GURPS-FAT-10)."""
    words = list(args.names)
    name = args.actor or (words[0] if len(words) >= 2 else "")
    duration = "".join(words if args.actor else words[1:])
    if not name or not duration:
        raise UsageError(t("combat.err.usage", usage="%rest Bren 30min"))
    return _combat(session).rest(name, duration)


_OPTION_KEYS = {
    "range": ("range_m", float), "speed": ("speed_mps", float), "size": ("target_size_m", float),
    "scope": ("scope", int), "footing": ("bad_footing", int), "light": ("poor_light", int),
    "vision": ("vision", str),
}
_OPTION_FLAGS = {"braced": "braced", "offhand": "off_hand", "behind": "from_behind", "unseen": "unseen",
                 "largeshield": "large_shield", "half": "beyond_half_damage"}


_MODIFIER_START = re.compile(r"[+\-−－＋][0-9０-９]")  # a signed number: the GM's modifiers begin


def parse_attack(text: str) -> tuple[str, str, str, dict]:
    """"Aiko -> Goblin1 Broadsword [sw cut] [range=8 braced ...] [-2 dark +1 ...]" -> (attacker, target,
    weapon, options); names and weapons with spaces are quoted (`"Sir Henryk" -> Orc "Bastard Sword"`).
    Without a weapon (`Aiko -> Orc`) or a target (`Aiko`) they are "": the session picks as the tracker
    does. The GM's modifiers come last, from the first signed number on, read by the one modifier
    parser (`checks.parse_modifiers`, as `%react` and `%check` read theirs) into the `extra` option;
    an option word among their labels is refused, never taken as a label or silently as the option."""
    left, arrow, right = text.partition("->")
    if not arrow:
        left, arrow, right = text.partition("→")
    names = tokenize(left)
    attacker = " ".join(token.value for token in names)  # `"Sir Henryk" -> Orc` as `%combat start`
    if not attacker or (not arrow and len(names) != 1):  # `Aiko Goblin1`: the arrow forgotten
        raise UsageError(t("combat.err.usage", usage=_ATTACK_USAGE))
    if not arrow:  # `%attack Aiko`: his default target with his first pick (the tracker's defaults)
        return attacker, "", "", {}
    tokens = tokenize(right)
    if not tokens:
        raise UsageError(t("combat.err.usage", usage=_ATTACK_USAGE))
    target, weapon = tokens[0].value, tokens[1].value if len(tokens) > 1 else ""
    rest = [token.raw for token in tokens[2:]]
    options: dict = {}
    damage: list[str] = []
    modifiers: list[str] = []
    for token, word in zip(tokens[2:], rest, strict=True):
        if modifiers or _MODIFIER_START.match(word):  # the GM's modifiers and their labels, to the end
            if not word.startswith(("'", '"')) and (word.lower() in _OPTION_FLAGS or "=" in word):
                raise UsageError(t("combat.err.option_in_modifiers", word=token.value))
            modifiers.append(word)
            continue
        key, eq, value = word.partition("=")
        if eq and key.lower() in _OPTION_KEYS:
            name, kind = _OPTION_KEYS[key.lower()]
            try:
                options[name] = kind(value[:64])
            except ValueError:
                raise UsageError(t("combat.err.option_number", key=key, value=value)) from None
            if kind is float:
                real_number(options[name], key)  # inf and nan are refused too
        elif word.lower() in _OPTION_FLAGS:
            options[_OPTION_FLAGS[word.lower()]] = True
        elif eq:
            known = ", ".join([*_OPTION_KEYS, *_OPTION_FLAGS])
            raise UsageError(t("combat.err.attack_option", key=key, known=known))
        else:
            damage.append(word)
    if damage:
        options["damage"] = " ".join(damage)
    if modifiers:
        from gamekernel.gurps.rules.situations import typed_modifiers  # lazy: %load_ext imports no rules

        options["extra"] = [[m.value, m.label] for m in typed_modifiers(" ".join(modifiers))]
    return attacker, target, weapon, options


def gm_console(method: Callable) -> Any:
    """Over `guarded`: the fight's console (`%combat`, `%next`, `%attack` ...) is the GM's instrument and
    shows the fight as it is; while that differs from what the players may know (a secret roll hurt
    someone, a fighter is hidden) its result is marked as the GM's view, so a table that sees the
    notebook knows it is not theirs (GURPS-SR-09). Their own view is `%table` and the players' page."""

    @functools.wraps(method)
    def wrapper(self: SessionMagics, line: str = "", cell: str | None = None) -> object:
        result = method(self, line) if cell is None else method(self, line, cell)
        if isinstance(result, (ErrorResult, SecretNotice)) or hasattr(result, "get_state"):
            return result  # an error, a secret's notice, or the tracker widget (the GM's own, live)
        return GmView(result) if _combat(self.session).fight_differs() else result

    return wrapper


@magics_class
class CombatMagics(SessionMagics):
    """The GURPS combat tracker's commands."""

    @line_magic
    @gm_console
    @guarded("combat")
    @command("combat",
             subs=(Sub("start", Rest("roster", "Aiko Bren Goblin*3", optional=True),
                       help="initiative by Basic Speed, DX, a roll"),
                   Sub("end", help="end the fight (fight fatigue)"),
                   Sub("status", help="the fighters, their HP, FP and states"),
                   Sub("npc", Rest("spec", "Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp or Orc{ST=16}",
                                   optional=True, metavar="NAME [STATS]"),
                       help="an NPC template"),
                   Sub("add", Rest("spec", "Bob, \"Sir Henryk\", Goblin*2 or Orc{ST=12,DX=11} [STATS]",
                                   optional=True, metavar="NAME [STATS]"),
                       help="a fighter from a template, a character or stats"),
                   Sub("arm", Word("name", optional=True), Rest("weapon", "Sword:13:sw cut", optional=True),
                       help="give a fighter a weapon"),
                   Sub("range", Words("what", "Aiko Orc 12m | Aiko Orc -1 (a step closer)", optional=True,
                                      metavar="A B METRES"),
                       help="the distance between two fighters (reach, range modifier)"),
                   Sub("side", Word("name", optional=True), Word("side", "party | foes | neutral | a name",
                                                                 optional=True),
                       help="put a fighter on a side (whom he attacks by default)"),
                   Sub("condition", Word("name", optional=True),
                       Words("what", "Blessed 3s | \"Holy shield\" 5 turns | Cursed (no countdown)", optional=True,
                             metavar="CONDITION [N]"),
                       help="a condition of your own on a fighter, counted down at the end of his turns"),
                   Sub("lift", Word("name", optional=True), Words("what", "Blessed", optional=True,
                                                                  metavar="CONDITION"),
                       help="end a condition of your own now"),
                   Sub("tracker", help="the interactive combat tracker")),
             group="combat", bare=True, unknown="combat.err.combat_command")
    def combat(self, args: Args):
        """Run a GURPS fight: start (initiative by Basic Speed, DX, a roll), end (fight fatigue), status;
        `condition Aiko Blessed 3s` puts a condition of your own on a fighter (a combat turn is one second,
        GURPS-CMB-01: it ends after 3 of his turns, with a line in the log), `lift Aiko Blessed` ends it."""
        session = self.session
        if args.sub == "start":
            return _combat(session).start(args.roster)
        if args.sub == "end":
            return _combat(session).end()
        if args.sub in ("status", None):
            return _combat(session).status()
        if args.sub in ("npc", "add"):
            from gamekernel.gurps.combat_specs import split_specs  # lazy: %load_ext imports no rules

            specs = split_specs(args.spec)
            if not specs:
                usage = f"%combat {args.sub} Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp"
                raise UsageError(t("combat.err.usage", usage=usage))
            add = _combat(session).npc if args.sub == "npc" else _combat(session).add
            return add(specs[0], " ".join(specs[1:]))
        if args.sub == "range":
            if len(args.what) != 3:
                raise UsageError(t("combat.err.usage", usage="%combat range Aiko Orc 12m | %combat range Aiko Orc -1"))
            return _combat(session).range(*args.what)
        if args.sub == "side":
            if not args.name or not args.side:
                raise UsageError(t("combat.err.usage", usage="%combat side Troll foes"))
            return _combat(session).side(args.name, args.side)
        if args.sub == "arm":
            return _combat(session).arm(args.name or "", args.weapon)
        if args.sub in ("condition", "lift"):
            if not args.name or not args.what:
                usage = "%combat condition Aiko Blessed 3s" if args.sub == "condition" else "%combat lift Aiko Blessed"
                raise UsageError(t("combat.err.usage", usage=usage))
            if args.sub == "lift":
                return _combat(session).lift(args.name, " ".join(args.what))
            from gamekernel.gurps.rules.combat.conditions import parse_condition  # lazy: %load_ext imports no rules

            condition, seconds = parse_condition(args.what)
            return _combat(session).condition(args.name, condition, seconds)
        from gamekernel.gurps.widgets.tracker import Tracker

        return Tracker(session)

    @line_magic("next")
    @gm_console
    @guarded("next")
    @command("next", group="combat")
    def next_(self, args: Args):
        """End the active combatant's turn and start the next one's (stun recovery, shock expiry)."""
        return _combat(self.session).next()

    @line_magic
    @gm_console
    @guarded("attack")
    @command("attack", Rest("what", "Aiko -> Goblin1 Broadsword [sw cut] [range=8 speed=0 size=2 braced "
                                    "offhand behind unseen footing=-2 light=-3 half] [-2 dark +1 ...]",
                            optional=True,
                            metavar="A [-> B [WEAPON]]"),
             options=(EXPLAIN,), group="combat")
    @explainable
    def attack(self, args: Args):
        """Roll to hit with every modifier shown; the target's defenses are offered next. `%attack Aiko`
        or `%attack Aiko -> Orc` picks as the tracker does: the first foe, the weapon used last or the best."""
        attacker, target, weapon, options = parse_attack(args.what)
        return _combat(self.session).attack(attacker, target, weapon, **options)

    @line_magic
    @gm_console
    @guarded("defend")
    @command("defend", Word("name", "who defends", optional=True),
             Word("defense", "dodge | parry | block | none (default: the best allowed)", optional=True),
             Rest("weapon", "the weapon to parry with (default: the best)", optional=True),
             options=(EXPLAIN,), group="combat")
    @explainable
    def defend(self, args: Args):
        """Answer the pending attack; a failed defense rolls the damage at once."""
        if not args.name:
            raise UsageError(t("combat.err.usage", usage="%defend Goblin1 parry"))
        return _combat(self.session).defend(args.name, args.defense or "", weapon=(args.weapon or "").strip(' "\''))

    @line_magic
    @gm_console
    @guarded("maneuver")
    @command("maneuver", Words("what", "Aiko attack | Aiko aoa determined|double|feint|strong [target] | "
                                       "Aiko aod dodge|parry|block|double | Aiko feint Goblin1 | Aiko aim Goblin1 | "
                                       "Aiko concentrate [task] | Aiko move | Aiko ready | Aiko wait",
                               optional=True, metavar="NAME MANEUVER"),
             group="combat")
    def maneuver(self, args: Args):
        """Choose the active combatant's maneuver (limits move and defenses until the next turn)."""
        words = args.what
        if len(words) < 2:
            raise UsageError(t("combat.err.usage", usage="%maneuver Aiko all_out_attack determined"))
        name, maneuver, *rest = words
        from gamekernel.gurps.rules.vocabulary import maneuver_key

        key = maneuver_key(maneuver)
        option = target = posture = task = ""
        if key in ("all_out_attack", "all_out_defense") and rest:
            option, *rest = rest
        if key in ("feint", "aim", "all_out_attack") and rest:
            target = rest[0]
        if key == "change_posture" and rest:
            posture = rest[0]
        if key == "concentrate":
            task = " ".join(rest)
        return _combat(self.session).maneuver(name, key, option=option, target=target, posture=posture, task=task)

    @line_magic
    @gm_console
    @guarded("posture")
    @command("posture", Words("what", "Aiko kneeling (crouch/kneel as a free step, else Change Posture)",
                              optional=True, metavar="NAME POSTURE"),
             group="combat")
    def posture(self, args: Args):
        """Change a combatant's posture: `%posture Aiko kneeling`."""
        if len(args.what) != 2:
            raise UsageError(t("combat.err.usage", usage="%posture Aiko kneeling"))
        return _combat(self.session).posture(args.what[0], args.what[1])

    @line_magic
    @gm_console
    @guarded("hit")
    @command("hit", Word("name", "the combatant hit", optional=True),
             Rest("damage", "2d+1 cut", optional=True), actor="the attacker", group="combat")
    def hit(self, args: Args):
        """Apply rolled damage to a combatant (DR, wounding, shock, major wound, death checks)."""
        if not args.name or not args.damage:
            raise UsageError(t("combat.err.usage", usage="%hit Goblin1 2d+1 cut"))
        return _combat(self.session).damage(args.name, args.damage, attacker=args.actor or "")

    @line_magic
    @gm_console
    @guarded("hazard")
    @command("hazard", Words("what", "fall 6m | in_fire | pass_through | furnace | clothing_part | clothing_all | "
                                     "put_out | water | cold [light|winter|arctic|heated] [wet] | heat | "
                                     "poison [weak|typical|irresistible] | disease [-3] | suffocation 10s",
                             optional=True, metavar="HAZARD"),
             actor="who is exposed (required)", options=(EXPLAIN,), group="combat")
    @explainable
    def hazard(self, args: Args):
        """Hazards with their tables: falling, fire, cold, heat, poison, disease, suffocation."""
        words = args.what
        if not words or not args.actor:
            raise UsageError(t("combat.err.usage", usage=_HAZARD_USAGE))
        kind, *rest = words
        options: dict = {}
        if kind == "fall":
            if not rest:
                raise UsageError(t("combat.err.usage", usage=_HAZARD_USAGE))
            try:
                options["metres"] = float(rest[0].lower().rstrip("m")[:32])
            except ValueError:
                raise UsageError(t("combat.err.height", text=rest[0])) from None
            real_number(options["metres"], t("limits.what.height"))
            options["catfall"] = "catfall" in rest
        elif kind == "cold":
            options["clothing"] = next((w for w in rest if w in ("light", "winter", "arctic", "heated")), "winter")
            options["wet"] = "wet" in rest
        elif kind == "poison":
            options["strength"] = rest[0] if rest else "typical"
        elif kind == "disease":
            options["modifier"] = whole_number(rest[0], t("limits.what.modifier")) if rest else 0
        elif kind == "suffocation":
            options["seconds"] = whole_number((rest[0] if rest else "1").rstrip("s"), t("limits.what.seconds"))
        return _combat(self.session).hazard(kind, args.actor, **options)

    @line_magic
    @guarded("firstaid")
    @command("firstaid", Words("what", "Bren TL3 [skill=12]", optional=True, metavar="NAME TL [skill=N]"),
             actor="the medic", group="combat")
    def firstaid(self, args: Args):
        """Bandage (1 min, 1 HP) then First Aid by the TL table (GURPS-INJ-17..19)."""
        words = args.what
        if len(words) < 2 or not words[1].upper().startswith("TL"):
            raise UsageError(t("combat.err.usage", usage="%firstaid Bren TL3 [skill=12] [@Medic]"))
        if not re.fullmatch(r"\d{1,3}", words[1][2:]):
            raise UsageError(t("combat.err.tech_level", text=words[1]))
        tl = int(words[1][2:])
        skill = next((whole_number(w.split("=", 1)[1], t("limits.what.skill"))
                      for w in words[2:] if w.startswith("skill=")), None)
        return _combat(self.session).first_aid(words[0], tl, skill=skill, medic=args.actor)

    @line_magic
    @guarded("heal")
    @command("heal", Words("what", "Bren 3days [+1 good care]", optional=True, metavar="NAME DAYS [+N]"),
             actor="who heals (instead of NAME)", group="combat")
    def heal(self, args: Args):
        """Natural healing: a day of rest, then HT; +1 HP on a success, for each day (GURPS-INJ-16)."""
        words = list(args.what)
        name = args.actor or (words.pop(0) if words else "")
        if not name:
            raise UsageError(t("combat.err.usage", usage="%heal Bren 3days [+1]"))
        days, modifier = 1, 0
        for word in words:
            match = _DAYS.fullmatch(word)
            if match:
                days = whole_number(match.group(1), t("limits.what.days"))
            elif re.fullmatch(r"[+-]\d+", word):
                modifier = whole_number(word, t("limits.what.modifier"))
            elif not re.fullmatch(r"[A-Za-z\u3040-\u9fff]+", word):  # words after a modifier are its label
                raise UsageError(t("combat.err.days", word=word))
        return _combat(self.session).natural_healing(name, days, modifier=modifier)

    @line_magic
    @guarded("wake")
    @command("wake", Rest("name", "Bren", optional=True), actor="who wakes (instead of NAME)",
             options=(Flag("care", "medical care has restored HP: roll HT to wake (GURPS-INJ-15)"),),
             group="combat")
    def wake(self, args: Args):
        """Waking up (GURPS-INJ-13..15): automatic at HP >= 1, hourly HT rolls at 0 >= HP > -HP, one roll
        after 12 h below that (then only with medical care, and 12-hourly rolls against death)."""
        name = args.actor or args.name
        if not name:
            raise UsageError(t("combat.err.usage", usage="%wake Bren [--care]"))
        return _combat(self.session).wake(name, care=args.care)

    @line_magic
    @guarded("mortal")
    @command("mortal", Rest("name", "Bren", optional=True), actor="who rolls (instead of NAME)",
             options=(Flag("healed", "medicine or magic restored HP: a success recovers"),), group="combat")
    def mortal(self, args: Args):
        """A mortally wounded character's HT roll every 30 minutes (GURPS-INJ-10, INJ-11)."""
        name = args.actor or args.name
        if not name:
            raise UsageError(t("combat.err.usage", usage="%mortal Bren [--healed]"))
        return _combat(self.session).mortal_check(name, healed=args.healed)

    def _sheet_spell_level(self, actor: str, spell: str) -> int:
        """The caster's level in the spell as the sheet has it (GURPS-MAG-01: a spell is a skill);
        without `skill=`, a caster with no such spell on a sheet is told to give it."""
        try:
            return _gurps(self.session).character(actor).spell_level(spell).level
        except GameKernelError:
            raise UsageError(t("combat.err.spell_skill")) from None

    @line_magic
    @guarded("cast")
    @command("cast", Words("what", "Fireball 3 skill=14 [-2 far]", optional=True,
                           metavar="SPELL COST skill=N [MODIFIERS]"),
             actor="the caster (required)", group="combat")
    def cast(self, args: Args):
        """Cast a spell: success pays the cost in FP (then HP), critical success nothing, failure 1.
        Without skill=N the caster's sheet gives the spell's level; in a fight it takes Concentrate."""
        words = args.what
        # the spell is every word before the first whole number, the cost: "Recover Energy 1"
        at = next((i for i, word in enumerate(words) if i and re.fullmatch(r"\d+", half_width(word))), 1)
        if len(words) < 2 or not args.actor:  # no number: the second word is the cost, and refused as one
            raise UsageError(t("combat.err.usage", usage="%cast Fireball 3 [skill=14] @Aiko"))
        spell, cost, rest = " ".join(words[:at]), words[at], words[at + 1:]
        skill = None
        mods = []
        for word in rest:
            if word.startswith("skill="):
                skill = whole_number(word[6:], t("limits.what.skill"))
            elif re.fullmatch(r"[+-]\d+", word):
                mods.append([whole_number(word, t("limits.what.modifier")), ""])
            elif mods and not mods[-1][1]:
                mods[-1][1] = word
        if skill is None:
            skill = self._sheet_spell_level(args.actor, spell)
        cost = whole_number(cost, t("limits.what.cost"))
        return _combat(self.session).cast(args.actor, spell, cost, skill, modifiers=mods)


MAGICS = [CombatMagics]
