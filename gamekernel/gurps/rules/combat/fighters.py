"""GURPS fighters written down: a quick NPC from stats, a weapon from its text, a sheet's weapon.
[GURPS-CH, GURPS-CMB-45..49]

Why a module of its own: these parse what the GM types or a character sheet holds into the
combat values; no rule of the fight runs here. The package's __init__ re-exports every name.
"""

from __future__ import annotations

from collections.abc import Mapping
from difflib import get_close_matches
from typing import TYPE_CHECKING, Any

from gamekernel.errors import UsageError
from gamekernel.gurps.rules.combat.sides import FOES, PARTY, is_party, side_key
from gamekernel.gurps.rules.combat.state import Combatant, Weapon, copy_with
from gamekernel.gurps.rules.damage import parse_damage
from gamekernel.i18n import t

if TYPE_CHECKING:  # what a sheet's weapon brings
    from gamekernel.gurps.rules.damage import DamageSpec
    from gamekernel.gurps.rules.weapons import CharacterWeapon


def quick_combatant(name: str, stats: Mapping[str, Any], *, pc: bool = False, side: str = "") -> Combatant:
    """A quick NPC from stats (ST, DX, IQ, HT, HP, FP, Will, Per, Hearing, Speed, Move, DR, weapon "Axe:12:sw+2 cut",
    Shield skill, DB): derived values default as on a sheet (GURPS-CH: HP = ST, FP = HT,
    Basic Speed = (DX + HT) / 4, Move = floor(Speed), Will = IQ)."""
    s = {k.lower(): v for k, v in stats.items()}
    known = {"st", "dx", "iq", "ht", "hp", "fp", "will", "per", "hearing", "speed", "move", "dr", "weapon", "weapons",
             "shield", "db", "enc", "hpt", "cr", "htk", "pc", "side"}
    bad = set(s) - known
    if bad:
        key = sorted(bad)[0]
        close = get_close_matches(key, sorted(known), n=2)
        hint = (t("gurps.err.did_you_mean", names=t("gurps.err.or").join(close)) if close
                else t("gurps.err.known", known=", ".join(sorted(known))))
        raise UsageError(t("combat.err.stat", name=name, key=key, hint=hint))
    st, dx, iq, ht = (int(s.get(k, 10)) for k in ("st", "dx", "iq", "ht"))
    speed = float(s.get("speed", (dx + ht) / 4))
    weapons = []
    raw = s.get("weapons", s.get("weapon", ()))
    for text in ([raw] if isinstance(raw, str) else raw):
        weapons.append(text if isinstance(text, Weapon) else parse_weapon(text))
    return Combatant(
        name=name, st=st, dx=dx, iq=iq, ht=ht, hp_max=int(s.get("hp", st)), fp_max=int(s.get("fp", ht)),
        will=int(s.get("will", iq)), hearing=int(s.get("hearing", s.get("per", iq))), basic_speed=speed,
        basic_move=int(s.get("move", int(speed))),
        dr=int(s.get("dr", 0)), encumbrance=int(s.get("enc", 0)), weapons=tuple(weapons),
        shield=int(s["shield"]) if s.get("shield") is not None else None, shield_db=int(s.get("db", 0)),
        high_pain_threshold=bool(s.get("hpt", False)), combat_reflexes=bool(s.get("cr", False)),
        hard_to_kill=int(s.get("htk", 0)), pc=bool(s.get("pc", pc)),
        side=side_key(str(s.get("side") or side)) if (s.get("side") or side) else
        (PARTY if s.get("pc", pc) else FOES),
    )


SIDE_STATS = frozenset({"side", "pc"})  # what braces may say of a character without dropping his sheet


def on_side(c: Combatant, stats: Mapping[str, Any]) -> Combatant:
    """A fighter (a character with his sheet) on the side `{side=foes}` or `{pc=0}` names: `pc=0`
    moves a party member to the foes, `pc=1` to the party (GURPS-CMB-03 reads who is a PC)."""
    s = {k.lower(): v for k, v in stats.items()}
    if s.get("side"):
        side = side_key(str(s["side"]))
    elif "pc" in s:
        side = PARTY if s["pc"] else (FOES if is_party(c.side) else c.side)
    else:
        side = c.side
    return copy_with(c, side=side, pc=bool(s["pc"]) if "pc" in s else is_party(side))


def parse_weapon(text: str) -> Weapon:
    """"Broadsword:13:sw+1 cut" (melee), "Bow:12:1d+1 imp:ranged:acc=2", "Dagger:12:thr imp:dagger",
    "Punch:12:thr-1 cr:bare_hands", "Morningstar:11:sw+3 cr:flail", "Spear:12:thr+2 imp:reach=1-2"."""
    parts = [p.strip() for p in text.split(":")]
    if len(parts) < 3:
        raise UsageError(t("combat.err.weapon_format", text=text))
    name, skill_text, dmg, *flags = parts
    try:
        skill = int(skill_text)
    except ValueError:
        raise UsageError(t("combat.err.weapon_skill", text=text, skill=skill_text)) from None
    parse_damage(dmg, st=10)
    w = Weapon(name=name, skill=skill, damage=dmg)
    for flag in flags:
        key, _, value = flag.partition("=")
        if key in ("ranged", "missile", "firearm", "beam", "thrown"):
            w = copy_with(w, ranged=True, kind="missile" if key == "ranged" else key, parry=None)
        elif key == "acc":
            w = copy_with(w, acc=int(value))
        elif key == "flail":
            w = copy_with(w, flail=True)
        elif key == "fencing":
            w = copy_with(w, fencing=True)
        elif key in ("dagger", "quarterstaff", "bare_hands"):
            w = copy_with(w, parry_weapon=key)
        elif key == "noparry":
            w = copy_with(w, parry=None)
        elif key == "no_roll":
            w = copy_with(w, no_roll=True, parry=None)
        elif key == "reach":
            w = copy_with(w, reach=value)
        elif key == "kg":
            w = copy_with(w, weight_kg=float(value))
        else:
            raise UsageError(t("combat.err.weapon_flag", text=text, flag=key))
    return w



def weapon_from_sheet(sheet_weapon: CharacterWeapon, level: int, damage: DamageSpec | None = None) -> Weapon:
    """A character sheet's weapon (gurps/rules/weapons.CharacterWeapon) at its effective level, as the combat
    rules use it (parry bonus, ranged/thrown kind, Acc, flail, parry weapon class). `damage`: the sheet's
    own basic damage for it (Character.weapon_damage, a DamageSpec), so the fight rolls what the sheet
    shows; it stays ST-based for All-Out Attack (Strong) (GURPS-CMB-17)."""
    flags = "".join(f":{f}" for f in sheet_weapon.flags)
    effect = sheet_weapon.effect if not sheet_weapon.damage else ""
    text = "0" if effect else (sheet_weapon.damage if damage is None else damage.notation)
    w = parse_weapon(f"weapon:{level}:{text}{flags}")
    if effect:  # no dice to roll: the hit names the file's text (CMB-25 still rolls to hit)
        w = copy_with(w, damage="", effect=effect)
    parry = None if (sheet_weapon.parry is None or w.parry is None) else sheet_weapon.parry
    st_based = bool(damage is not None and damage.source)
    return copy_with(w, name=sheet_weapon.name, parry=parry, st_based=st_based, follow_up=sheet_weapon.follow_up,
                     reach=sheet_weapon.reach, usage=sheet_weapon.usage, uses=sheet_weapon.skill_name)
