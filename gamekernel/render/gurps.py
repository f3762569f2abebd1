"""GURPS results -> text/plain and text/html (static, escaped, deterministic), in en or ja.

Every builder shows the rule's working: "Aiko · Lockpicking 9 −5 (dark) = 4 · rolled 11 [4,3,4] ·
failed by 7 · odds 1.9% (crit 1.9%, crit fail 16.2%)".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamekernel.i18n import get_language, t
from gamekernel.render.html import chip, esc, panel, sign, table

if TYPE_CHECKING:
    from gamekernel.systems.gurps.characters import Character
    from gamekernel.systems.gurps.checks import Modifier, SuccessRoll
    from gamekernel.systems.gurps.damage import DamageRoll

SEP = " · "


def pct(value) -> str:
    from gamekernel.systems.gurps.odds import percent

    return percent(value)


def display_name(label: str) -> str:
    """A skill/attribute/trait label in the current language: 〈鍵開け〉 style for skills in ja."""
    if not label:
        return ""
    if get_language() != "ja":
        return label
    from gamekernel.systems.gurps.skills import japanese_name

    ja = japanese_name(label)
    if ja:
        return f"〈{ja}〉"
    key = f"gurps.attr.{label}"
    text = t(key)
    if text != key:
        return text
    from gamekernel.systems.gurps.traits import maybe_trait

    trait = maybe_trait(label)
    if trait is not None and trait.ja:
        return f"「{trait.ja}」"
    return label


def modifier_text(mod: Modifier) -> str:
    if mod.label:
        return t("gurps.mod.labelled", value=sign(mod.value), label=mod.label)
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
    return t("gurps.check.odds", p=pct(odds.success), crit=pct(odds.critical_success),
             fumble=pct(odds.critical_failure))


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
        line += f" ({note})"
    return line


def _tone(result: SuccessRoll) -> str:
    if result.refused is not None:
        return "muted"
    if result.critical == "success":
        return "great"
    if result.critical == "failure":
        return "awful"
    return "good" if result.success else "bad"


def success_html(result: SuccessRoll) -> str:
    title = esc(result.actor) if result.actor else ""
    pieces = [f'<span class="gk-working">{esc(working_text(result))}</span>']
    if result.refused is None:
        dice = "".join(chip(str(d), cls="gk-die") for d in result.dice)
        pieces.append(f'<span class="gk-roll">{esc(t("gurps.check.rolled_short", total=result.total))} {dice}</span>')
    pieces.append(chip(verdict_text(result), _tone(result), cls="gk-verdict"))
    pieces.append(f'<span class="gk-odds" style="color:#666;font-size:11px">{esc(odds_text(result))}</span>')
    body = " ".join(pieces)
    for note in result.notes:
        body += f' <span class="gk-note" style="color:#666">({esc(note)})</span>'
    return panel("gurps-check", body, title_html=title, tone=_tone(result))


# ---------------------------------------------------------------- damage


def damage_text(result: DamageRoll) -> str:
    from gamekernel.systems.gurps.damage import DiceAdds

    spec = result.spec
    dice = f"{DiceAdds(spec.dice, spec.adds)} {spec.kind}"
    if spec.source:
        dice = f"{spec.source} = {dice}"
    parts = []
    head = result.attacker + " → " + result.target if result.attacker and result.target else (
        result.target or result.attacker)
    if head:
        parts.append(head)
    faces = ",".join(str(f) for f in result.faces)
    parts.append(t("gurps.damage.rolled", spec=dice, raw=result.raw, faces=faces))
    if result.basic != result.raw:
        parts.append(t("gurps.damage.minimum", basic=result.basic))
    if result.halved:
        parts.append(t("gurps.damage.halved", basic=result.basic))
    parts.append(t("gurps.damage.dr", dr=result.dr, penetrating=result.penetrating))
    mult = result.multiplier
    mult_text = str(mult.numerator) if mult.denominator == 1 else f"{float(mult):g}"
    parts.append(t("gurps.damage.injury", mult=mult_text, injury=result.injury))
    return SEP.join(parts)


def damage_html(result: DamageRoll) -> str:
    tone = "bad" if result.injury else "muted"
    faces = "".join(chip(str(f), cls="gk-die") for f in result.faces)
    text = damage_text(result)
    return panel("gurps-damage", f"{faces} {esc(text)}", title_html=esc(t("gurps.damage.title")), tone=tone)


# ---------------------------------------------------------------- characters


def character_text(character: Character) -> str:
    pts = character.points()
    speed = f"{character.basic_speed:g}"
    return t(
        "gurps.char.summary", name=character.name, st=character.st, dx=character.dx, iq=character.iq,
        ht=character.ht, hp=character.hp, will=character.will, per=character.per, fp=character.fp,
        speed=speed, move=character.basic_move, dodge=character.dodge, damage=character.damage,
        total=pts.total, budget=pts.budget,
    )


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


def character_html(character: Character) -> str:
    from gamekernel.render.html import table as html_table

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
    issues = character.validate()
    tone = "bad" if any(i.severity == "error" for i in issues) else "neutral"
    total = t("gurps.sheet.total", total=pts.total, budget=pts.budget, unspent=pts.unspent,
              disadvantages=pts.disadvantages, limit=pts.disadvantage_limit)
    issue_html = "".join(f'<div class="gk-issue gk-{esc(i.severity)}">{esc(str(i))}</div>' for i in issues)
    body = (f'<div class="gk-points">{esc(total)}</div>{issue_html}'
            f'<div style="display:flex;gap:12px;flex-wrap:wrap;align-items:flex-start">{attrs}{traits}{skills}</div>')
    return panel("gurps-character", body, title_html=esc(character.name), tone=tone)


__all__ = ["character_html", "character_text", "damage_html", "damage_text", "success_html", "success_text",
           "table"]
