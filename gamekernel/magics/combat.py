"""GURPS combat magics (%combat, %next, %attack, %defend, %maneuver, %posture, %hit, %hazard,
%firstaid, %heal, %wake, %mortal, %cast) and the GURPS form of %rest, which the core magics dispatch here.

Each magic parses its line and calls ONE session method; no rules here.
"""

from __future__ import annotations

import re

from IPython.core.magic import line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments

from gamekernel.errors import UsageError
from gamekernel.i18n import t
from gamekernel.magics._base import SessionMagics, guarded, split_line
from gamekernel.magics.syntax import Args

_ATTACK_USAGE = "%attack Aiko -> Goblin1 Broadsword [damage] [range=8 braced ...]"
_HAZARD_USAGE = "%hazard fall 6m @Bren"
_DAYS = re.compile(r"(\d+)\s*(?:days?|d|日)", re.IGNORECASE)
_DURATION = re.compile(r"\b\d+(?:\.\d+)?\s*(?:s|sec|min|m|h|hr|hours?|d|days?)\b", re.IGNORECASE)


def looks_like_gurps_rest(words: list[str]) -> bool:
    """GURPS rest names a duration (`%rest Bren 30min`); Gamma World's extended rest does not."""
    return any(_DURATION.search(word) for word in words)


def gurps_rest(session, args: Args):
    """`%rest Bren 30min` / `%rest @Bren 30min`: quiet rest, 1 FP per 10 minutes (GURPS-FAT-10)."""
    words = list(args.names)
    name = args.actor or (words[0] if len(words) >= 2 else "")
    duration = "".join(words if args.actor else words[1:])
    if not name or not duration or args.no_draw:
        raise UsageError(t("combat.err.usage", usage="%rest Bren 30min"))
    return session.gurps_rest(name, duration)


_OPTION_KEYS = {
    "range": ("range_m", float), "speed": ("speed_mps", float), "size": ("target_size_m", float),
    "scope": ("scope", int), "footing": ("bad_footing", int), "light": ("poor_light", int),
    "vision": ("vision", str),
}
_OPTION_FLAGS = {"braced": "braced", "offhand": "off_hand", "behind": "from_behind", "unseen": "unseen",
                 "largeshield": "large_shield", "half": "beyond_half_damage"}


def parse_attack(text: str) -> tuple[str, str, str, dict]:
    """"Aiko -> Goblin1 Broadsword [sw cut] [range=8 braced ...]" -> (attacker, target, weapon, options)."""
    left, arrow, right = text.partition("->")
    if not arrow:
        left, arrow, right = text.partition("→")
    if not arrow:
        raise UsageError(t("combat.err.usage", usage=_ATTACK_USAGE))
    attacker = left.strip()
    words = right.split()
    if len(words) < 2 or not attacker:
        raise UsageError(t("combat.err.usage", usage=_ATTACK_USAGE))
    target, weapon, *rest = words
    options: dict = {}
    damage: list[str] = []
    for word in rest:
        key, eq, value = word.partition("=")
        if eq and key.lower() in _OPTION_KEYS:
            name, kind = _OPTION_KEYS[key.lower()]
            try:
                options[name] = kind(value)
            except ValueError:
                raise UsageError(t("combat.err.option_number", key=key, value=value)) from None
        elif word.lower() in _OPTION_FLAGS:
            options[_OPTION_FLAGS[word.lower()]] = True
        elif eq:
            known = ", ".join([*_OPTION_KEYS, *_OPTION_FLAGS])
            raise UsageError(t("combat.err.attack_option", key=key, known=known))
        else:
            damage.append(word)
    if damage:
        options["damage"] = " ".join(damage)
    return attacker, target, weapon, options


@magics_class
class CombatMagics(SessionMagics):
    """The GURPS combat tracker's commands."""

    @magic_arguments()
    @argument("what", nargs="*", help="start Aiko Bren Goblin*3 | end | status | npc Goblin ST=9 DX=12 HT=11 "
                                      "weapon=Spear:11:thr+2 imp | add Name stats | arm Name Sword:13:sw cut | "
                                      "tracker")
    @line_magic
    @guarded("combat")
    def combat(self, line: str = ""):
        """Run a GURPS fight: start (initiative by Basic Speed, DX, a roll), end (fight fatigue), status."""
        parsed = split_line(line, flags=())
        verb, _, rest = parsed.text.partition(" ")
        verb = verb.lower()
        if verb == "start":
            return self.session.combat_start(rest)
        if verb == "end":
            return self.session.combat_end()
        if verb in ("status", ""):
            return self.session.combat_status()
        if verb in ("npc", "add"):
            name, _, stats = rest.strip().partition(" ")
            if not name:
                usage = f"%combat {verb} Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp"
                raise UsageError(t("combat.err.usage", usage=usage))
            return self.session.combat_npc(name, stats) if verb == "npc" else self.session.combat_add(name, stats)
        if verb == "arm":
            name, _, weapon = rest.strip().partition(" ")
            return self.session.combat_arm(name, weapon)
        if verb == "tracker":
            from gamekernel.widgets.tracker import Tracker

            return Tracker(self.session)
        raise UsageError(t("combat.err.combat_command", verb=verb))

    @magic_arguments()
    @line_magic("next")
    @guarded("next")
    def next_(self, line: str = ""):
        """End the active combatant's turn and start the next one's (stun recovery, shock expiry)."""
        return self.session.combat_next()

    @magic_arguments()
    @argument("what", nargs="*", help="Aiko -> Goblin1 Broadsword [sw cut] [range=8 speed=0 size=2 braced "
                                      "offhand behind unseen footing=-2 light=-3 half]")
    @line_magic
    @guarded("attack")
    def attack(self, line: str = ""):
        """Roll to hit with every modifier shown; the target's defenses are offered next."""
        attacker, target, weapon, options = parse_attack(split_line(line, flags=()).text)
        return self.session.combat_attack(attacker, target, weapon, **options)

    @magic_arguments()
    @argument("what", nargs="*", help="Goblin1 [dodge|parry|block|none] (default: the best allowed)")
    @line_magic
    @guarded("defend")
    def defend(self, line: str = ""):
        """Answer the pending attack; a failed defense rolls the damage at once."""
        words = split_line(line, flags=()).text.split()
        if not words:
            raise UsageError(t("combat.err.usage", usage="%defend Goblin1 parry"))
        return self.session.combat_defend(words[0], words[1] if len(words) > 1 else "")

    @magic_arguments()
    @argument("what", nargs="*", help="Aiko attack | Aiko aoa determined|double|feint|strong [target] | "
                                      "Aiko aod dodge|parry|block|double | Aiko feint Goblin1 | Aiko aim Goblin1 | "
                                      "Aiko concentrate [task] | Aiko move | Aiko ready | Aiko wait")
    @line_magic
    @guarded("maneuver")
    def maneuver(self, line: str = ""):
        """Choose the active combatant's maneuver (limits move and defenses until the next turn)."""
        words = split_line(line, flags=()).text.split()
        if len(words) < 2:
            raise UsageError(t("combat.err.usage", usage="%maneuver Aiko all_out_attack determined"))
        name, maneuver, *rest = words
        from gamekernel.actions.combat import _maneuver_key

        key = _maneuver_key(maneuver)
        option = target = posture = task = ""
        if key in ("all_out_attack", "all_out_defense") and rest:
            option, *rest = rest
        if key in ("feint", "aim", "all_out_attack") and rest:
            target = rest[0]
        if key == "change_posture" and rest:
            posture = rest[0]
        if key == "concentrate":
            task = " ".join(rest)
        return self.session.combat_maneuver(name, key, option=option, target=target, posture=posture, task=task)

    @magic_arguments()
    @argument("what", nargs="*", help="Aiko kneeling (crouch/kneel as a free step, else Change Posture)")
    @line_magic
    @guarded("posture")
    def posture(self, line: str = ""):
        words = split_line(line, flags=()).text.split()
        if len(words) != 2:
            raise UsageError(t("combat.err.usage", usage="%posture Aiko kneeling"))
        return self.session.combat_posture(words[0], words[1])

    @magic_arguments()
    @argument("what", nargs="*", help="Goblin1 2d+1 cut [@Attacker] - damage straight onto a combatant")
    @line_magic
    @guarded("hit")
    def hit(self, line: str = ""):
        """Apply rolled damage to a combatant (DR, wounding, shock, major wound, death checks)."""
        parsed = split_line(line, flags=())
        name, _, spec = parsed.text.partition(" ")
        if not spec:
            raise UsageError(t("combat.err.usage", usage="%hit Goblin1 2d+1 cut"))
        return self.session.combat_damage(name, spec, attacker=parsed.actor or "")

    @magic_arguments()
    @argument("what", nargs="*", help="fall 6m @Bren | in_fire @Bren | pass_through | furnace | clothing_part | "
                                      "clothing_all | cold [light|winter|arctic|heated] [wet] | heat | "
                                      "poison [weak|typical|irresistible] | disease [-3] | suffocation 10s")
    @line_magic
    @guarded("hazard")
    def hazard(self, line: str = ""):
        """Hazards with their tables: falling, fire, cold, heat, poison, disease, suffocation."""
        parsed = split_line(line, flags=())
        words = parsed.text.split()
        if not words or not parsed.actor:
            raise UsageError(t("combat.err.usage", usage=_HAZARD_USAGE))
        kind, *rest = words
        args: dict = {}
        if kind == "fall":
            if not rest:
                raise UsageError(t("combat.err.usage", usage=_HAZARD_USAGE))
            try:
                args["metres"] = float(rest[0].lower().rstrip("m"))
            except ValueError:
                raise UsageError(t("combat.err.height", text=rest[0])) from None
            args["catfall"] = "catfall" in rest
        elif kind == "cold":
            args["clothing"] = next((w for w in rest if w in ("light", "winter", "arctic", "heated")), "winter")
            args["wet"] = "wet" in rest
        elif kind == "poison":
            args["strength"] = rest[0] if rest else "typical"
        elif kind == "disease":
            args["modifier"] = int(rest[0]) if rest else 0
        elif kind == "suffocation":
            args["seconds"] = int((rest[0] if rest else "1").rstrip("s"))
        return self.session.hazard(kind, parsed.actor, **args)

    @magic_arguments()
    @argument("what", nargs="*", help="Bren TL3 [skill=12] [@Medic]")
    @line_magic
    @guarded("firstaid")
    def firstaid(self, line: str = ""):
        """Bandage (1 min, 1 HP) then First Aid by the TL table (GURPS-INJ-17..19)."""
        parsed = split_line(line, flags=())
        words = parsed.text.split()
        if len(words) < 2 or not words[1].upper().startswith("TL"):
            raise UsageError(t("combat.err.usage", usage="%firstaid Bren TL3 [skill=12] [@Medic]"))
        try:
            tl = int(words[1][2:])
        except ValueError:
            raise UsageError(t("combat.err.tech_level", text=words[1])) from None
        skill = next((int(w.split("=", 1)[1]) for w in words[2:] if w.startswith("skill=")), None)
        return self.session.first_aid(words[0], tl, skill=skill, medic=parsed.actor)

    @magic_arguments()
    @argument("what", nargs="*", help="Bren 3days [+1 good care] (or @Bren 3days)")
    @line_magic
    @guarded("heal")
    def heal(self, line: str = ""):
        """Natural healing: a day of rest, then HT; +1 HP on a success, for each day (GURPS-INJ-16)."""
        parsed = split_line(line, flags=())
        words = parsed.text.split()
        name = parsed.actor or (words.pop(0) if words else "")
        if not name:
            raise UsageError(t("combat.err.usage", usage="%heal Bren 3days [+1]"))
        days, modifier = 1, 0
        for word in words:
            match = _DAYS.fullmatch(word)
            if match:
                days = int(match.group(1))
            elif re.fullmatch(r"[+-]\d+", word):
                modifier = int(word)
            elif not re.fullmatch(r"[A-Za-z\u3040-\u9fff]+", word):  # words after a modifier are its label
                raise UsageError(t("combat.err.days", word=word))
        return self.session.natural_healing(name, days, modifier=modifier)

    @magic_arguments()
    @argument("name", nargs="?", help="Bren (or @Bren)")
    @argument("--care", action="store_true", help="Medical care has restored HP: roll HT to wake (GURPS-INJ-15).")
    @line_magic
    @guarded("wake")
    def wake(self, line: str = ""):
        """Waking up (GURPS-INJ-13..15): automatic at HP >= 1, hourly HT rolls at 0 >= HP > -HP, one roll
        after 12 h below that (then only with medical care, and 12-hourly rolls against death)."""
        parsed = split_line(line, flags=("care",))
        name = parsed.actor or parsed.text.strip()
        if not name:
            raise UsageError(t("combat.err.usage", usage="%wake Bren [--care]"))
        return self.session.wake(name, care=parsed.flag("care"))

    @magic_arguments()
    @argument("name", nargs="?", help="Bren (or @Bren)")
    @argument("--healed", action="store_true", help="Medicine or magic restored HP: a success recovers.")
    @line_magic
    @guarded("mortal")
    def mortal(self, line: str = ""):
        """A mortally wounded character's HT roll every 30 minutes (GURPS-INJ-10, INJ-11)."""
        parsed = split_line(line, flags=("healed",))
        name = parsed.actor or parsed.text.strip()
        if not name:
            raise UsageError(t("combat.err.usage", usage="%mortal Bren [--healed]"))
        return self.session.mortal_check(name, healed=parsed.flag("healed"))

    @magic_arguments()
    @argument("what", nargs="*", help="Fireball 3 skill=14 [-2 far] @Aiko")
    @line_magic
    @guarded("cast")
    def cast(self, line: str = ""):
        """Cast a spell: success pays the cost in FP (then HP), critical success nothing, failure 1."""
        parsed = split_line(line, flags=())
        words = parsed.text.split()
        if len(words) < 3 or not parsed.actor:
            raise UsageError(t("combat.err.usage", usage="%cast Fireball 3 skill=14 @Aiko"))
        spell, cost, *rest = words
        skill = None
        mods = []
        for word in rest:
            if word.startswith("skill="):
                skill = int(word[6:])
            elif re.fullmatch(r"[+-]\d+", word):
                mods.append([int(word), ""])
            elif mods and not mods[-1][1]:
                mods[-1][1] = word
        if skill is None:
            raise UsageError(t("combat.err.spell_skill"))
        return self.session.cast(parsed.actor, spell, int(cost), skill, modifiers=mods)


MAGICS = [CombatMagics]
