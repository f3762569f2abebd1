"""GURPS results -> text/plain and text/html (static, escaped, deterministic), in en or ja.

Every builder shows the rule's working: "Aiko · Lockpicking 9 −5 (dark) = 4 · rolled 11 [4,3,4] ·
failed by 7 · odds 1.9% (crit 1.9%, crit fail 16.2%)".
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from gamekernel.display import TEXT, renders
from gamekernel.display.html import SLOT, chip, dice_chip, esc, filled, panel, sign, table
from gamekernel.gurps.results import (
    CharacterList,
    GcsDifferences,
    GcsLibraryLoaded,
    LibraryFound,
    LoadedCharacter,
    LuckStatus,
    SavedCharacter,
    SheetChange,
)
from gamekernel.gurps.rules.characters import Character
from gamekernel.gurps.rules.checks import CheckOdds, SuccessRoll
from gamekernel.gurps.rules.contests import QuickContest, RegularContest
from gamekernel.gurps.rules.damage import DamageRoll
from gamekernel.gurps.rules.fright import FrightCheck
from gamekernel.gurps.rules.influence import InfluenceResult
from gamekernel.gurps.rules.luck import LuckResult
from gamekernel.gurps.rules.odds import ContestOdds
from gamekernel.gurps.rules.reactions import ReactionRoll
from gamekernel.gurps.rules.selfcontrol import SelfControlRoll
from gamekernel.i18n import get_language, t

if TYPE_CHECKING:
    from gamekernel.gurps.rules.checks import Modifier

SEP = " · "


@lru_cache(maxsize=4096)
def pct(value, digits: int = 1) -> str:
    """A Fraction as a percentage string with `digits` decimals: 4/216 -> '1.9%' (a check's odds
    are few distinct fractions of 216, each printed three times a check: formatted once)."""
    scaled = value * 100
    return f"{round(float(scaled), digits):.{digits}f}%"


def display_name(label: str) -> str:
    """A skill/attribute/trait label in the current language: 〈鍵開け〉 style for skills in ja."""
    if not label:
        return ""
    if get_language() != "ja":
        return label
    from gamekernel.gurps.rules.skills import japanese_name

    ja = japanese_name(label)
    if ja:
        return f"〈{ja}〉"
    key = f"gurps.attr.{label}"
    text = t(key)
    if text != key:
        return text
    from gamekernel.gurps.rules.traits import shown_trait_name

    return shown_trait_name(label) or rule_label(label)


_DEATH_CHECK = re.compile(r"death check −(\d+)×HP")
_FEINT_WITH = re.compile(r"Feint \((.+)\)")
_PARRY_WITH = re.compile(r"Parry \((.+)\)")  # a Parry names its weapon (GURPS-CMB-46)
_ROW = re.compile(r"(size|range|speed\+range) (\d+(?:\.\d+)?) m")  # a size or range row (GURPS-CMB-37..39)


def rule_label(label: str) -> str:
    """A label the rules write in English (a roll's, "stay conscious"; a modifier's, "per −HP" or a trait's
    "Acute Vision"; a word typed at the table such as "dark") in the current language: its `gurps.label.*`
    entry or the trait's Japanese name, else as it is."""
    if get_language() == "en" or not label:
        return label
    key = f"gurps.label.{label}"
    text = t(key)
    if text != key:
        return text
    from gamekernel.gurps.rules.traits import shown_trait_name

    trait = shown_trait_name(label)  # a trait's own bonus ("Acute Vision", "Appearance (Attractive)")
    if trait:
        return trait
    death = _DEATH_CHECK.fullmatch(label)
    if death:
        return t("gurps.label.death_check", line=death.group(1))
    feint = _FEINT_WITH.fullmatch(label)
    if feint:
        return t("gurps.label.feint_with", weapon=display_name(feint.group(1)))
    parry = _PARRY_WITH.fullmatch(label)
    if parry:
        return t("gurps.label.parry_with", weapon=display_name(parry.group(1)))
    row = _ROW.fullmatch(label)
    if row:
        return t(f"gurps.label.row.{row.group(1)}", metres=row.group(2))
    return label


_DEFAULT_NOTE = re.compile(r"default (.+?)([+-]\d+)")


def note_text(note: str) -> str:
    """A note the rules attach to a roll ("default IQ-5": an untrained skill's default, GURPS-STD-03)
    in the current language."""
    found = _DEFAULT_NOTE.fullmatch(note)
    if found is None or get_language() == "en":
        return note if found else rule_label(note)
    return t("gurps.note.default", source=display_name(found.group(1)), modifier=found.group(2))


def modifier_text(mod: Modifier) -> str:
    if mod.label:
        return t("gurps.mod.labelled", value=sign(mod.value), label=rule_label(mod.label))
    return sign(mod.value)


def working_text(result: SuccessRoll) -> str:
    """"Lockpicking 9 −5 (dark) = 4" (no "= target" when there are no modifiers)."""
    name = display_name(result.label)
    head = f"{name} {result.base}" if name else str(result.base)
    if not result.modifiers:
        return head if name else t("gurps.check.target", target=result.target)
    mods = " ".join(modifier_text(m) for m in result.modifiers)
    return f"{head} {mods} = {result.target}"


def verdict_text(result: SuccessRoll) -> str:
    if result.refused is not None:
        return t("gurps.check.refused", target=result.target)
    if result.critical == "success":
        return t("gurps.check.crit_success", margin=result.margin_of_success)
    if result.critical == "failure":
        return t("gurps.check.crit_failure", margin=result.margin_of_failure)
    if result.success:
        return t("gurps.check.success", margin=result.margin_of_success)
    if result.total is not None and result.total >= 17 and result.total <= result.target:
        return t("gurps.check.auto_failure", total=result.total)
    return t("gurps.check.failure", margin=result.margin_of_failure)


def odds_text(result: SuccessRoll) -> str:
    odds = result.odds
    return _odds_text(odds.success, odds.critical_success, odds.critical_failure, get_language())


@lru_cache(maxsize=1024)  # a check prints its odds twice (text and HTML), and the same few odds recur
def _odds_text(success: Any, critical: Any, fumble: Any, language: str) -> str:
    return t("gurps.check.odds", p=pct(success), crit=pct(critical), fumble=pct(fumble))


@renders(SuccessRoll, TEXT)
def success_text(result: SuccessRoll) -> str:
    parts = []
    if result.actor:
        parts.append(result.actor)
    parts.append(working_text(result))
    if result.refused is None:
        faces = ",".join(str(d) for d in result.dice)
        parts.append(t("gurps.check.rolled", total=result.total, dice=faces))
    parts.append(verdict_text(result))
    parts.append(odds_text(result))
    line = SEP.join(parts)
    for note in result.notes:
        line += f" ({note_text(note)})"
    return line


def _tone(result: SuccessRoll) -> str:
    if result.refused is not None:
        return "muted"
    if result.critical == "success":
        return "great"
    if result.critical == "failure":
        return "awful"
    return "good" if result.success else "bad"


@renders(SuccessRoll)
def success_html(result: SuccessRoll) -> str:
    """A check's panel: the actor, the working, the dice, the verdict as a chip, the odds, the notes.

    The markup around the values is drawn once per shape (`_check_frame`), as a roll's is
    (gamekernel/dice/render.py): a check fills in its escaped values and runs neither `panel` nor its
    style pass (a value, escaped, holds no style attribute for that pass to change)."""
    rolled = result.refused is None
    values = [esc(result.actor)] if result.actor else []
    values.append(esc(working_text(result)))
    if rolled:
        values.append(esc(t("gurps.check.rolled_short", total=result.total)))
        values += [esc(face) for face in result.dice]
    values += [esc(verdict_text(result)), esc(odds_text(result))]
    values += [esc(note_text(note)) for note in result.notes]
    frame = _check_frame(_tone(result), bool(result.actor), len(result.dice) if rolled else -1, len(result.notes))
    return filled(frame, values)


@lru_cache(maxsize=256)
def _check_frame(tone: str, titled: bool, dice: int, notes: int) -> tuple[str, ...]:
    """`success_html`'s markup of one shape (`dice` -1: refused, no roll shown) through `panel`, cut
    at the places of its values, in the order `success_html` gives them."""
    slot = SLOT
    pieces = [f'<span class="gk-working">{slot}</span>']
    if dice >= 0:
        pieces.append(f'<span class="gk-roll">{slot} {dice_chip([slot] * dice)}</span>')
    pieces.append(chip(slot, tone, cls="gk-verdict"))
    pieces.append(f'<span class="gk-odds" style="font-size:11px">{slot}</span>')
    body = " ".join(pieces) + f' <span class="gk-note">({slot})</span>' * notes
    return tuple(panel("gurps-check", body, title_html=slot if titled else "", tone=tone).split(slot))


# ---------------------------------------------------------------- damage


@renders(DamageRoll, TEXT)
def damage_text(result: DamageRoll) -> str:
    spec = result.spec
    dice = str(spec)
    if spec.source:
        written = spec.text.split()[0] if spec.text.strip() else spec.source
        dice = f"{written} = {dice}"
    parts = []
    head = result.attacker + " → " + result.target if result.attacker and result.target else (
        result.target or result.attacker)
    if head:
        parts.append(head)
    faces = ",".join(str(f) for f in result.faces)
    if spec.dice == 0:  # basic damage rolled at the table and typed in: no dice here
        # the armor divisor stays with the amount, as with dice ("4(100) cr", GURPS-DMG-05)
        parts.append(t("table.damage.given", amount=f"{spec.adds}{spec.divisor_shown}", kind=spec.kind))
    else:
        parts.append(t("gurps.damage.rolled", spec=dice, raw=result.raw, faces=faces))
    if result.basic != result.raw:
        parts.append(t("gurps.damage.minimum", basic=result.basic))
    if result.halved:
        parts.append(t("gurps.damage.halved", basic=result.basic))
    if result.armor_dr != result.dr:  # an armor divisor: the DR it really met
        parts.append(t("gurps.damage.dr_divided", dr=result.dr, divisor=spec.divisor_shown,
                       armor_dr=result.armor_dr, penetrating=result.penetrating))
    else:
        parts.append(t("gurps.damage.dr", dr=result.dr, penetrating=result.penetrating))
    mult = result.multiplier
    mult_text = str(mult.numerator) if mult.denominator == 1 else f"{float(mult):g}"
    parts.append(t("gurps.damage.injury", mult=mult_text, injury=result.injury))
    return SEP.join(parts)


@renders(DamageRoll)
def damage_html(result: DamageRoll) -> str:
    tone = "bad" if result.injury else "muted"
    faces = dice_chip(result.faces)
    text = damage_text(result)
    return panel("gurps-damage", f"{faces} {esc(text)}", title_html=esc(t("gurps.damage.title")), tone=tone)


# ---------------------------------------------------------------- characters


def _sheet_change_lines(result: SheetChange) -> list[str]:
    """The change, the character's short status and the command that shows the whole sheet."""
    character = result.character
    change = char_change_text(character.name, result.change) if result.change else character.name
    return [change, character_state_text(character), t("gurps.char.see_sheet", name=character.name)]


@renders(SheetChange, TEXT)
def sheet_change_text(result: SheetChange) -> str:
    return "\n".join(_sheet_change_lines(result))


@renders(SheetChange)
def sheet_change_html(result: SheetChange) -> str:
    head, *rest = _sheet_change_lines(result)
    body = "".join(f'<div class="gk-line">{esc(line)}</div>' for line in rest)
    return panel("gurps-change", body, title_html=esc(head))


@renders(Character, TEXT)
def character_text(character: Character) -> str:
    pts = character.points()
    speed = f"{character.basic_speed:g}"
    return t(
        "gurps.char.summary", name=character.name, st=character.st, dx=character.dx, iq=character.iq,
        ht=character.ht, hp=character.hp, will=character.will, per=character.per, fp=character.fp,
        speed=speed, move=character.move, dodge=character.dodge, damage=character.damage,
        total=pts.total, budget=pts.budget,
    ) + "\n" + character_state_text(character)


def character_state_text(character: Character) -> str:
    """Current HP/FP and what they (and the load) mean now: every character output shows it."""
    now = t("gurps.char.now", current_hp=character.current_hp, hp=character.hp,
            current_fp=character.current_fp, fp=character.fp)
    if not character.conditions:
        return now
    names = ", ".join(t(f"gurps.condition.{key}") for key in character.conditions)
    return f"{now} · {t('gurps.char.conditions', conditions=names)}"


def character_rows(character: Character) -> list[tuple[str, str, str]]:
    """(label, value, points) rows of the attribute block, for the sheet and its snapshot."""
    attr_pts = character.attribute_points()
    sec_pts = character.secondary_points()
    rows = [
        (t("gurps.attr.ST"), str(character.st), str(attr_pts["st"])),
        (t("gurps.attr.DX"), str(character.dx), str(attr_pts["dx"])),
        (t("gurps.attr.IQ"), str(character.iq), str(attr_pts["iq"])),
        (t("gurps.attr.HT"), str(character.ht), str(attr_pts["ht"])),
        (t("gurps.attr.HP"), str(character.hp), str(sec_pts["hp_adj"])),
        (t("gurps.attr.Will"), str(character.will), str(sec_pts["will_adj"])),
        (t("gurps.attr.Per"), str(character.per), str(sec_pts["per_adj"])),
        (t("gurps.attr.FP"), str(character.fp), str(sec_pts["fp_adj"])),
        (t("gurps.attr.Basic Speed"), f"{character.basic_speed:g}", str(sec_pts["speed_adj"])),
        (t("gurps.attr.Basic Move"), str(character.basic_move), str(sec_pts["move_adj"])),
        (t("gurps.attr.Dodge"), str(character.dodge), ""),
        (t("gurps.attr.Basic Lift"), f"{character.basic_lift:g} kg", ""),
        (t("gurps.attr.Damage"), character.damage, ""),
    ]
    return rows


@renders(Character)
def character_html(character: Character) -> str:
    from gamekernel.display.html import table as html_table

    pts = character.points()
    attrs = html_table([t("gurps.sheet.col.stat"), t("gurps.sheet.col.value"), t("gurps.sheet.col.points")],
                       character_rows(character), cls="gk-table gk-sheet-attrs")
    trait_rows = [(display_name(label) if get_language() == "ja" else label, str(cost))
                  for label, cost in character.feature_points()]
    traits = html_table([t("gurps.sheet.col.trait"), t("gurps.sheet.col.points")], trait_rows,
                        cls="gk-table gk-sheet-traits") if trait_rows else ""
    skill_rows = []
    for skill in character.skills:
        try:
            level = str(character.skill_level(skill.full_name).level)
        except Exception:  # a broken imported skill still shows on the sheet
            level = "?"
        skill_rows.append((display_name(skill.full_name), f"{skill.attribute}/{skill.difficulty}",
                           level, str(skill.points)))
    skills = html_table([t("gurps.sheet.col.skill"), t("gurps.sheet.col.diff"), t("gurps.sheet.col.level"),
                         t("gurps.sheet.col.points")], skill_rows, cls="gk-table gk-sheet-skills") if skill_rows else ""
    weapons = weapons_table(character)
    issues = character.validate()
    tone = "bad" if any(i.severity == "error" for i in issues) else "neutral"
    total = t("gurps.sheet.total", total=pts.total, budget=pts.budget, unspent=pts.unspent,
              disadvantages=pts.disadvantages, limit=pts.disadvantage_limit)
    issue_html = "".join(f'<div class="gk-issue gk-{esc(i.severity)}">{esc(str(i))}</div>' for i in issues)
    if character.gcs_source:  # where the seed and GCS's Basic Set differ, the seed is followed: say so once
        issue_html += f'<div class="gk-issue gk-neutral">{esc(t("gurps.gcs.seed_rules"))}</div>'
    body = (f'<div class="gk-points">{esc(character_state_text(character))}</div>'
            f'<div class="gk-points">{esc(total)}</div>{issue_html}'
            f'<div style="display:flex;gap:12px;flex-wrap:wrap;align-items:flex-start">'
            f'{attrs}{traits}{skills}{weapons}</div>')
    return panel("gurps-character", body, title_html=esc(character.name), tone=tone)


def weapon_rows(character: Character) -> list[dict[str, str]]:
    """The sheet's weapons as the sheet shows them (static snapshot and live widget alike): level from
    the skill, damage, reach, Parry = skill/2 + 3 + weapon and trait bonuses (GURPS-CMB-46)."""
    rows = []
    for w in character.weapons:
        if "no_roll" in w.flags:  # no attack roll in the file: its damage shown, no level or parry
            rows.append({"name": w.name, "level": "—", "damage": character.damage_shown(w),
                         "reach": w.reach or "—", "parry": "—"})
            continue
        try:
            level = character.weapon_level(w)
            parry_value = character.weapon_parry(w)
            parry = "—" if parry_value is None else str(parry_value)
            level_text = str(level)
        except Exception:  # a skill that cannot be used untrained
            level_text, parry = "?", "?"
        rows.append({"name": w.name, "level": level_text, "damage": character.damage_shown(w),
                     "reach": w.reach or "—", "parry": parry})
    return rows


def weapons_table(character: Character) -> str:
    """The sheet's weapons table (empty when there are none)."""
    from gamekernel.display.html import table as html_table

    rows = [(r["name"], r["level"], r["damage"], r["reach"], r["parry"]) for r in weapon_rows(character)]
    if not rows:
        return ""
    heads = [t("gurps.sheet.col.weapon"), t("gurps.sheet.col.level"), t("gurps.attr.Damage"),
             t("gurps.sheet.col.reach"), t("gurps.attr.Parry")]
    return html_table(heads, rows, cls="gk-table gk-sheet-weapons")


# ---------------------------------------------------------------- sheet edits in the log


def field_label(key: str) -> str:
    """A sheet field in the current language: ST/DX/IQ/HT as attributes, the rest as sheet fields."""
    if key in ("st", "dx", "iq", "ht"):
        return t(f"gurps.attr.{key.upper()}")
    text = t(f"gurps.field.{key}")
    return key if text == f"gurps.field.{key}" else text


def char_update_text(name: str, changes: dict, before: dict) -> str:
    """`%char set` in the log: "Aiko: DX 12 → 13, HP lost 0 → 2"."""
    items = ", ".join(f"{field_label(k)} {before.get(k, '?')} → {v}" for k, v in changes.items())
    return t("gurps.event.char_update", name=name, changes=items)


def char_change_text(name: str, change: dict) -> str:
    """What one `%char skill/trait/weapon` did, from the description stored with the event."""
    what = change.get("what")
    if what == "skill":
        fields = {"skill": display_name(change["skill"]), "points": change["points"],
                  "level": "?" if change.get("level") is None else change["level"]}
        if "was_points" in change:
            was_level = change.get("was_level")
            return t("gurps.event.skill_changed", name=name, **fields, was_points=change["was_points"],
                     was_level="?" if was_level is None else was_level)
        return t("gurps.event.skill_added", name=name, **fields)
    if what == "trait":
        if change.get("was"):
            return t("gurps.event.trait_changed", name=name, trait=display_name(change["trait"]),
                     was=display_name(change["was"]), points=change["points"])
        return t("gurps.event.trait_added", name=name, trait=display_name(change["trait"]), points=change["points"])
    if what == "weapon":
        return t(f"gurps.event.weapon_{change['action']}", name=name, weapon=change["weapon"])
    return t("gurps.event.char_set", name=name)


__all__ = ["char_change_text", "char_update_text", "character_html", "character_text", "damage_html", "damage_text",
           "success_html", "success_text", "table"]


# ---------------------------------------------------------------- contests


def _side(roll: SuccessRoll) -> str:
    who = f"{roll.actor}:" if roll.actor else ""
    verdict = verdict_text(roll)
    faces = ",".join(str(d) for d in roll.dice)
    return f"{who}{working_text(roll)} → {roll.total} [{faces}] {verdict}"


@renders(QuickContest, TEXT)
def contest_text(contest) -> str:
    head = _side(contest.a) + t("gurps.contest.vs") + _side(contest.b)
    if contest.winner is None:
        verdict = t("gurps.contest.tie")
    else:
        verdict = t("gurps.contest.winner", name=_name_of(contest, contest.winner), margin=contest.margin)
    odds = contest.odds
    line = t("gurps.contest.odds", a=pct(odds.a_wins), b=pct(odds.b_wins), tie=pct(odds.tie))
    return SEP.join([head, verdict, line])


def _name_of(contest, side: str) -> str:
    roll = contest.a if side == "a" else contest.b
    return roll.actor or display_name(roll.label) or ("A" if side == "a" else "B")


@renders(QuickContest)
def contest_html(contest) -> str:
    tone = "neutral" if contest.winner is None else "good"
    rows = [(esc(r.actor), esc(working_text(r)), dice_chip(r.dice),
             chip(verdict_text(r), _tone(r))) for r in (contest.a, contest.b)]
    body = table(["", "", "", ""], rows, raw=True)
    verdict = (t("gurps.contest.tie") if contest.winner is None
               else t("gurps.contest.winner", name=_name_of(contest, contest.winner), margin=contest.margin))
    odds = contest.odds
    body += f'<div class="gk-verdict">{esc(verdict)}</div>'
    body += (f'\n<div class="gk-odds" style="font-size:11px">'
             f'{esc(t("gurps.contest.odds", a=pct(odds.a_wins), b=pct(odds.b_wins), tie=pct(odds.tie)))}</div>')
    return panel("gurps-contest", body, title_html=esc(t("gurps.contest.title")), tone=tone)


@renders(RegularContest, TEXT)
def regular_text(contest) -> str:
    lines = []
    for index, (a, b) in enumerate(contest.rounds, 1):
        lines.append(t("gurps.contest.round", n=index) + " " + _side(a) + t("gurps.contest.vs") + _side(b))
    if contest.winner is None:
        lines.append(t("gurps.contest.capped", rounds=contest.max_rounds))
    else:
        first = contest.rounds[0]
        roll = first[0] if contest.winner == "a" else first[1]
        name = roll.actor or display_name(roll.label) or contest.winner.upper()
        lines.append(t("gurps.contest.regular_winner", name=name, rounds=len(contest.rounds)))
    odds = contest.odds
    lines.append(t("gurps.contest.regular_odds", a=pct(odds.a_wins), b=pct(odds.b_wins)))
    return "\n".join(lines)


@renders(RegularContest)
def regular_html(contest) -> str:
    rows = []
    for index, (a, b) in enumerate(contest.rounds, 1):
        rows.append((str(index), esc(_side(a)), esc(_side(b))))
    body = table(["#", "A", "B"], rows, raw=True)
    lines = regular_text(contest).split("\n")[-2:]
    body += "".join(f'<div class="gk-verdict">{esc(line)}</div>' for line in lines)
    return panel("gurps-regular-contest", body, title_html=esc(t("gurps.contest.regular_title")),
                 tone="neutral" if contest.winner is None else "good")


# ---------------------------------------------------------------- reactions and influence


_BAND_TONE = {"disastrous": "awful", "very_bad": "bad", "bad": "bad", "poor": "warn", "neutral": "neutral",
              "good": "good", "very_good": "good", "excellent": "great"}


def band_name(band) -> str:
    return t(f"gurps.reaction.{band.key}")


@renders(ReactionRoll, TEXT)
def reaction_text(result) -> str:
    faces = ",".join(str(d) for d in result.dice)
    mods = " ".join(modifier_text(m) for m in result.modifiers)
    head = t("gurps.reaction.head", npc=result.npc) if result.npc else t("gurps.reaction.title")
    if result.actor:
        head = f"{result.actor} · {head}"
    working = f"3d {sum(result.dice)} [{faces}]" + (f" {mods}" if mods else "") + f" = {result.total}"
    behaviour = t(f"gurps.reaction.{result.band.key}.behaviour")
    return SEP.join([head, working, f"{band_name(result.band)}: {behaviour}"])


@renders(ReactionRoll)
def reaction_html(result) -> str:
    faces = dice_chip(result.dice)
    mods = " ".join(esc(modifier_text(m)) for m in result.modifiers)
    behaviour = t(f"gurps.reaction.{result.band.key}.behaviour")
    body = (f'{faces} {mods} = <b>{result.total}</b> {chip(band_name(result.band), _BAND_TONE[result.band.key])}'
            f' <span class="gk-behaviour">{esc(behaviour)}</span>')
    title = t("gurps.reaction.head", npc=result.npc) if result.npc else t("gurps.reaction.title")
    if result.actor:
        title = f"{result.actor} · {title}"
    return panel("gurps-reaction", body, title_html=esc(title), tone=_BAND_TONE[result.band.key])


@renders(InfluenceResult, TEXT)
def influence_text(result) -> str:
    parts = [t("gurps.influence.title", skill=display_name(result.skill)), contest_text(result.contest)]
    if result.reaction is not None:
        parts.append(t("gurps.influence.diplomacy", reaction=reaction_text(result.reaction)))
    parts.append(t("gurps.influence.result", band=band_name(result.band)))
    return SEP.join(parts)


@renders(InfluenceResult)
def influence_html(result) -> str:
    body = contest_html(result.contest)
    if result.reaction is not None:
        body += reaction_html(result.reaction)
    body += f'<div>{chip(t("gurps.influence.result", band=band_name(result.band)), _BAND_TONE[result.band.key])}</div>'
    return panel("gurps-influence", body, title_html=esc(t("gurps.influence.title", skill=display_name(result.skill))),
                 tone=_BAND_TONE[result.band.key])


# ---------------------------------------------------------------- fright, self-control


def fright_outcome_text(result) -> str:
    if result.outcome == "steady":
        return t("gurps.fright.steady")
    faces = ",".join(str(d) for d in result.outcome_dice)
    key = "gurps.fright.faint" if result.outcome == "faint" else "gurps.fright.stunned"
    return t(key, margin=result.roll.margin_of_failure, dice=faces, duration=result.duration)


@renders(FrightCheck, TEXT)
def fright_text(result) -> str:
    return SEP.join([success_text(result.roll), fright_outcome_text(result)])


@renders(FrightCheck)
def fright_html(result) -> str:
    tone = {"steady": "good", "stunned": "bad", "faint": "awful"}[result.outcome]
    body = success_html(result.roll) + f'<div class="gk-outcome">{chip(fright_outcome_text(result), tone)}</div>'
    return panel("gurps-fright", body, title_html=esc(t("gurps.attr.Fright Check")), tone=tone)


@renders(SelfControlRoll, TEXT)
def self_control_text(result) -> str:
    verdict = t("gurps.cr.resisted") if result.resisted else t("gurps.cr.gave_in", effect=result.failure_effect)
    return SEP.join([success_text(result.roll), verdict])


@renders(SelfControlRoll)
def self_control_html(result) -> str:
    tone = "good" if result.resisted else "bad"
    verdict = t("gurps.cr.resisted") if result.resisted else t("gurps.cr.gave_in", effect=result.failure_effect)
    body = success_html(result.roll) + f'<div class="gk-outcome">{chip(verdict, tone)}</div>'
    return panel("gurps-self-control", body, title_html=esc(display_name(result.trait)), tone=tone)


# ---------------------------------------------------------------- odds for teaching, character list


@renders(CheckOdds, TEXT)
def check_odds_text(odds) -> str:
    return t("gurps.odds.check", target=odds.target, p=pct(odds.success), crit=pct(odds.critical_success),
             fumble=pct(odds.critical_failure))


@renders(CheckOdds)
def check_odds_html(odds) -> str:
    from gamekernel.display.html import bars

    items = []
    highlight = set()
    for index, (total, ways, ok, critical) in enumerate(odds.outcomes):
        word = t(f"gurps.odds.crit_{critical}") if critical else t("gurps.odds.ok" if ok else "gurps.odds.fail")
        items.append((str(total), ways / 216, f"{ways}/216 {word}"))
        if ok:
            highlight.add(index)
    body = f'<div>{esc(check_odds_text(odds))}</div>' + bars(items, highlight=highlight)
    return panel("gurps-odds", body, title_html=esc(t("gurps.odds.title", target=odds.target)))


@renders(ContestOdds, TEXT)
def contest_odds_text(odds) -> str:
    return t("gurps.odds.contest", a=odds.a, b=odds.b, pa=pct(odds.a_wins), pb=pct(odds.b_wins), tie=pct(odds.tie))


@renders(ContestOdds)
def contest_odds_html(odds) -> str:
    from gamekernel.display.html import bars

    items = [(f"A {odds.a}", float(odds.a_wins), pct(odds.a_wins)),
             (f"B {odds.b}", float(odds.b_wins), pct(odds.b_wins)),
             (t("gurps.contest.tie"), float(odds.tie), pct(odds.tie))]
    return panel("gurps-odds", f"<div>{esc(contest_odds_text(odds))}</div>" + bars(items),
                 title_html=esc(t("gurps.contest.title")))


@renders(CharacterList, TEXT)
def character_list_text(roster) -> str:
    if not roster.characters:
        return t("gurps.char.none")
    return "\n".join(("* " if c.name == roster.active else "  ") + str(c) for c in roster.characters)


@renders(LoadedCharacter, TEXT)
def loaded_text(loaded: LoadedCharacter) -> str:
    return "\n".join([*loaded.differences, character_text(loaded.character)])


@renders(LoadedCharacter)
def loaded_html(loaded: LoadedCharacter) -> str:
    lines = "".join(f'<div class="gk-issue gk-warning">{esc(line)}</div>' for line in loaded.differences)
    return lines + character_html(loaded.character)


@renders(GcsDifferences, TEXT)
def gcs_differences_text(found: GcsDifferences) -> str:
    return "\n".join(found.lines) if found.lines else t("gurps.gcs.play_same")


@renders(GcsDifferences)
def gcs_differences_html(found: GcsDifferences) -> str:
    rows = "".join(f"<div>{esc(line)}</div>" for line in found.lines) or esc(t("gurps.gcs.play_same"))
    return panel("gcs-diff", rows, title_html=esc(found.name))


@renders(GcsLibraryLoaded, TEXT)
def library_text(loaded: GcsLibraryLoaded) -> str:
    counts = dict(loaded.counts)
    text = t("gurps.library.loaded", source=loaded.source, skills=counts["skill"], spells=counts["spell"],
             traits=counts["trait"], equipment=counts["equipment"],
             cached=t("gurps.library.cached") if loaded.from_cache else "")
    if loaded.skipped:
        text += t("gurps.library.skipped", count=len(loaded.skipped), files=", ".join(loaded.skipped[:5]))
    return text


@renders(GcsLibraryLoaded)
def library_html(loaded: GcsLibraryLoaded) -> str:
    return panel("gurps-library", esc(library_text(loaded)))


@renders(LibraryFound, TEXT)
def library_entry_text(found: LibraryFound) -> str:
    entry = found.entry
    facts = " · ".join(f"{key} {', '.join(map(str, value)) if isinstance(value, list) else value}"
                       for key, value in entry.facts.items() if key != "defaults")
    return t("gurps.library.entry", kind=entry.kind, name=entry.full_name, facts=facts)


@renders(LibraryFound)
def library_entry_html(found: LibraryFound) -> str:
    return panel("gurps-library", esc(library_entry_text(found)))


@renders(SavedCharacter, TEXT)
def saved_text(saved) -> str:
    return t("gurps.char.saved", name=saved.name, path=saved.path)


@renders(SavedCharacter)
def saved_html(saved) -> str:
    return panel("gurps-saved", esc(saved_text(saved)))


@renders(CharacterList)
def character_list_html(roster) -> str:
    if not roster.characters:
        return panel("gurps-characters", esc(t("gurps.char.none")))
    rows = []
    for c in roster.characters:
        pts = c.points()
        rows.append(("★" if c.name == roster.active else "", c.name, f"{c.st}/{c.dx}/{c.iq}/{c.ht}",
                     f"{c.current_hp}/{c.hp}", f"{c.current_fp}/{c.fp}", str(c.dodge), f"{pts.total}/{pts.budget}"))
    body = table(["", t("gurps.sheet.col.name"), "ST/DX/IQ/HT", "HP", "FP", t("gurps.attr.Dodge"),
                  t("gurps.sheet.col.points")], rows)
    return panel("gurps-characters", body, title_html=esc(t("gurps.char.title")))


# ---------------------------------------------------------------- Luck (GURPS-ADV-19..21)


def _luck_roll_line(roll, kept: bool) -> str:
    faces = ",".join(str(d) for d in roll.dice)
    mark = " ✓" if kept else ""
    return f"{t('gurps.check.rolled', total=roll.total, dice=faces)} → {verdict_text(roll)}{mark}"


@renders(LuckResult, TEXT)
def luck_text(result) -> str:
    """"Aiko uses Luck: best of 3 · Lockpicking 9 −5 (dark) = 4" then one line per roll, the kept one ticked."""
    head = t("gurps.luck.head", name=result.actor, trait=display_name(result.level.name), rolls=len(result.rolls))
    lines = [f"{head}{SEP}{working_text(result.original)}"]
    for i, roll in enumerate(result.rolls):
        label = t("gurps.luck.original") if i == 0 else t("gurps.luck.reroll", n=i)
        lines.append(f"  {label}: {_luck_roll_line(roll, i == result.kept_index)}")
    lines.append(t("gurps.luck.kept", result=success_text(result.kept)))
    return "\n".join(lines)


@renders(LuckResult)
def luck_html(result) -> str:
    head = t("gurps.luck.head", name=result.actor, trait=display_name(result.level.name), rolls=len(result.rolls))
    rows = []
    for i, roll in enumerate(result.rolls):
        label = t("gurps.luck.original") if i == 0 else t("gurps.luck.reroll", n=i)
        kept = i == result.kept_index
        dice = dice_chip(roll.dice)
        style = "font-weight:600" if kept else "font-style:italic"
        rows.append(f'<div class="gk-luck-roll{" gk-kept" if kept else ""}" style="{style}">{esc(label)}: {dice} = '
                    f'{roll.total} {chip(verdict_text(roll), _tone(roll), cls="gk-verdict")}{" ✓" if kept else ""}'
                    "</div>")
    body = f'<div class="gk-working">{esc(working_text(result.original))}</div>' + "".join(rows)
    return panel("gurps-luck", body, title_html=esc(head), tone=_tone(result.kept))


@renders(LuckStatus, TEXT)
def luck_status_text(status) -> str:
    """`%luck reset` / `%luck status`: who may use Luck now."""
    if not status.rows:
        return t("gurps.luck.nobody")
    lines = []
    for name, trait, every, used in status.rows:
        key = "gurps.luck.spent" if used else "gurps.luck.ready"
        lines.append(t(key, name=name, trait=display_name(trait), minutes=every))
    return "\n".join(lines)


@renders(LuckStatus)
def luck_status_html(status) -> str:
    body = "".join(f'<div class="gk-line">{esc(line)}</div>' for line in luck_status_text(status).split("\n"))
    return panel("gurps-luck-status", body, title_html=esc(t("gurps.luck.title")))
