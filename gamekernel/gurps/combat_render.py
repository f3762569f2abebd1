"""Text and HTML for GURPS combat: the tracker snapshot and every combat step's working.

Deterministic and escaped: names, weapons and notes pass through `esc`; no ids or times.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamekernel.display import TEXT, renders
from gamekernel.display.html import ACCENTS, FONT, RULE, TABULAR, chip, esc, panel, row_style, sign
from gamekernel.gurps.render import rule_label
from gamekernel.gurps.results import CombatResult, Harmed
from gamekernel.gurps.rules.combat.sides import SIDES
from gamekernel.gurps.rules.fatigue import FP_STATES
from gamekernel.gurps.rules.injury import HP_STATES
from gamekernel.i18n import t

# The tone of each HP and FP state the rules name (GURPS-INJ-01..04, FAT-01..03), in their order: the
# saved bar and the live tracker's bar (sent with each row) both read these.
HP_TONES = dict(zip(HP_STATES, ("good", "warn", "bad", "awful", "awful", "awful", "awful", "muted", "muted"),
                    strict=True))
FP_TONES = dict(zip(FP_STATES, ("great", "warn", "bad", "awful"), strict=True))
BAR_COLOURS = ACCENTS  # a bar holds no text: the tone's accent colour fills it
BAR_PX = 80  # the length of a full HP/FP bar
BADGE_TONES = {"dead": "muted", "destroyed": "muted", "dying": "awful", "collapse": "bad", "mortal": "awful",
               "unconscious": "awful", "collapsed": "awful", "stunned": "bad", "reeling": "warn", "tired": "warn"}


def badge_tone(badge: str) -> str:
    if badge.startswith("shock"):
        return "bad"
    if badge.startswith(("feint", "aim", "evaluate", "concentrating")):
        return "great"
    return BADGE_TONES.get(badge, "neutral")


def label(key: str) -> str:
    """A translated word for a maneuver, posture, defense or badge key ("all_out_attack")."""
    text = t(f"combat.word.{key}")
    return key.replace("_", " ") if text == f"combat.word.{key}" else text


def side_word(side: str) -> str:
    """A side in the current language: party, foes, neutral, or the name the GM gave it."""
    return t(f"combat.side.{side}") if side in SIDES else side


def no_defense_text(report) -> str:
    """Why the target had no defense (GURPS-CMB-41..52), in the current language; a report made
    without its key keeps its English text."""
    key, fields = report.no_defense_why
    if not key:
        return report.no_defense_reason
    return t(key, **{k: v if k == "name" else label(v) for k, v in fields})


def badge_text(badge: str) -> str:
    head, _, rest = badge.partition(" ")
    word = label(head)
    return f"{word} {rest}".strip() if rest else word


def roll_text(roll) -> str:
    """A core success roll in one line, e.g. "Broadsword 14 −4 (Move and Attack) = 10 · rolled 9 [3,3,3] ..."."""
    return str(roll)


def _mods(roll) -> str:
    return " ".join(f"{sign(m.value)} ({m.label})" if m.label else sign(m.value) for m in roll.modifiers)




def bar_tone(kind: str, state: str) -> str:
    """The tone of an HP (`kind` "hp") or FP bar in `state`."""
    return (HP_TONES if kind == "hp" else FP_TONES).get(state, "neutral")


def hp_bar(current: int, maximum: int, state: str, kind: str) -> str:
    """An HP or FP bar and its figures. One span draws the bar: its left border is the filled part and
    its background the rest, within a fixed length (border-box), so the figures stay in one column
    even where a sanitizer drops the colours; a tracker repeats two bars per fighter in every turn's
    output, so a second span per bar weighs in a saved notebook."""
    tone = bar_tone(kind, state)
    filled = 0 if maximum <= 0 else max(0, min(BAR_PX, round(BAR_PX * current / maximum)))
    return (
        f'<span class="gk-bar gk-{kind} gk-{kind}-{esc(state)}" data-state="{esc(state)}" '
        f'style="display:inline-flex;align-items:center;gap:4px;{TABULAR}">'
        f'<span style="display:inline-block;box-sizing:border-box;width:{BAR_PX}px;height:9px;'
        f'border-left:{filled}px solid {BAR_COLOURS[tone]};background:{RULE};border-radius:3px"></span>'
        f'{current}/{maximum}</span>'
    )


def _mod_text(mods) -> str:
    """"−4 stunned, −3 prone": the modifiers between a base defense and its effective value."""
    return ", ".join(f"{sign(v)} {_mod_word(why)}" for v, why in mods)


def _mod_word(why: str) -> str:
    """A defense modifier's word: a combat word ("stunned", "prone"), else a label the rules write
    ("shield DB"), in the current language."""
    word = label(why.replace(" ", "_"))
    return rule_label(why) if word == why else word


def defense_text(entry: dict[str, Any]) -> str:
    """"Dodge 9" or, when the situation changes it, "Dodge 9→5" (usual → what the next defense roll uses)."""
    base, value = (str(entry[k]).replace("-", "−") for k in ("base", "value"))
    return f"{label(entry['kind'])} {base}" if base == value else f"{label(entry['kind'])} {base}→{value}"


def tracker_rows(state, only: frozenset[str] | None = None) -> list[dict[str, Any]]:
    """Plain data for the tracker (also the widget's synced rows): one dict per combatant (those named
    in `only`, when given), as `tracker_row` makes it."""
    return [tracker_row(state, i) for i, c in enumerate(state.combatants) if only is None or c.name in only]


def tracker_row(state, index: int) -> dict[str, Any]:
    """The tracker row of the fighter at `index`. `defense_values` lists the defenses the maneuver
    allows with their usual value (score + shield DB) and the value the next defense roll uses (stun,
    posture, All-Out Defense, the pending attack), as %defend rolls them. A row reads only its own
    fighter, whether it is the active one, and - for the target of the pending attack - that attack,
    its attacker's feint and the round (GURPS-CMB-05, 11, 43): what the widget recomputes after an
    event (gamekernel/gurps/widgets/tracker.py)."""
    c = state.combatants[index]
    readout = state.readout(c)
    values = [{"kind": k, "base": base, "value": now, "why": _mod_text(mods)}
              for k, base, now, mods in readout.defense_values]
    return {
        "name": c.name, "active": index == state.active and not state.over, "pc": c.pc, "side": c.side,
        "hp": c.hp, "hp_max": c.hp_max, "hp_state": c.hp_state, "fp": c.fp, "fp_max": c.fp_max,
        "fp_state": c.fp_state, "maneuver": c.maneuver, "option": c.option, "posture": c.posture,
        "badges": list(c.badges()), "speed": c.basic_speed, "move": readout.move,
        "dodge": c.dodge, "parry": c.parry, "block": c.block,
        "defenses": list(readout.defenses), "defense_values": values, "can_act": c.can_act,
        "weapons": [w.name for w in c.weapons],
    }


def stale_rows(old, new, where: dict[str, int]) -> set[int] | None:
    """The indices of the rows an event from fight `old` to fight `new` can have changed, or None when
    the fighters themselves changed (joined, left, reordered: every row is sent again). A row reads
    only its fighter, whether that one is active, and for the pending attack's target the attack,
    its attacker's feint and the round (`tracker_row`); the combat state is immutable and shares the
    fighters an event leaves alone, so an unchanged fighter is the very same object. `where` maps
    each name to its index in both fights."""
    if old is None or len(old.combatants) != len(new.combatants):
        return None
    stale = {i for i, (a, b) in enumerate(zip(old.combatants, new.combatants, strict=True)) if a is not b}
    if any(old.combatants[i].name != new.combatants[i].name for i in stale):
        return None
    if (old.active, old.over) != (new.active, new.over):
        stale.update((old.active, new.active))
    pending = _pending_target_rows(old, new, stale, where)
    return None if pending is None else stale | pending


def _pending_target_rows(old, new, stale: set[int], where: dict[str, int]) -> set[int] | None:
    """The pending attack's target rows whose defenses may have moved (GURPS-CMB-22: a feint counts
    against its target's defense in the round it was made): the attack came, went or changed, its
    attacker changed, or the round turned. None: a name not in the fight (recompute everything)."""
    names = set()
    if old.pending is not None and old.pending is not new.pending:
        names.add(old.pending.target)
    p = new.pending
    if p is not None and (p is not old.pending or old.round != new.round or where.get(p.attacker, -1) in stale):
        names.add(p.target)
    if not names <= where.keys():
        return None
    return {where[name] for name in names}


def tracker_text(state, only: frozenset[str] | None = None) -> str:
    """The tracker as text: the whole roster under its title, or (`only`) the rows a step changed,
    which its output's lines head (no second title: the round is `%next`'s turn line)."""
    if state is None:
        return t("combat.none")
    head = t("combat.tracker.title", round=state.round) + (f" · {t('combat.over')}" if state.over else "")
    lines = [head] if only is None else []
    for row in tracker_rows(state, only):
        mark = "▶" if row["active"] else " "
        badges = ", ".join(badge_text(b) for b in row["badges"])
        maneuver = label(row["maneuver"]) + (f" ({label(row['option'])})" if row["option"] else "")
        defenses = ", ".join(defense_text(d) for d in row["defense_values"]) or "—"  # as the HTML's column
        lines.append(
            f"{mark} {row['name']}: HP {row['hp']}/{row['hp_max']} · FP {row['fp']}/{row['fp_max']} · "
            f"{maneuver} · {defenses}" + (f" · {badges}" if badges else "")
        )
    if state.pending is not None:
        lines.append(t("combat.pending", attacker=state.pending.attacker, target=state.pending.target))
    if only is not None:
        lines.append(_others_text(state, only))
    return "\n".join(lines)


def _others_text(state, only: frozenset[str]) -> str:
    return t("limits.others_unchanged", count=len(state.combatants) - len(only & {c.name for c in state.combatants}))


def tracker_html(state, only: frozenset[str] | None = None) -> str:
    if state is None:
        return panel("tracker", esc(t("combat.none")))
    cell = "padding:2px 8px;text-align:left"  # the rule under a row is its <tr>'s (html.row_style)
    heads = [t("combat.col.name"), "HP", "FP", t("combat.col.maneuver"), t("combat.col.defenses"),
             t("combat.col.status")]
    head = "\n".join(f'<th style="{cell}">{esc(h)}</th>' for h in heads)  # newlines: apart when unstyled
    body = []
    for row in tracker_rows(state, only):
        style = f' style="{row_style(row["active"])}"'
        cls = "gk-combatant gk-active" if row["active"] else "gk-combatant"
        badges = "".join(chip(badge_text(b), badge_tone(b), cls="gk-badge") for b in row["badges"])
        maneuver = label(row["maneuver"]) + (f" ({label(row['option'])})" if row["option"] else "")
        defenses = " ".join(
            f'<span class="gk-defense gk-defense-{d["kind"]}" data-value="{d["value"]}"'
            + (f' title="{esc(d["why"])}"' if d["why"] else "") + f">{esc(defense_text(d))}</span>"
            for d in row["defense_values"]
        ) or "—"
        marker = "▶ " if row["active"] else ""
        body.append(
            f'<tr class="{cls}" data-name="{esc(row["name"])}"{style}>'
            f'<td style="{cell}">{marker}{esc(row["name"])}</td>\n'
            f'<td style="{cell}">{hp_bar(row["hp"], row["hp_max"], row["hp_state"], "hp")}</td>\n'
            f'<td style="{cell}">{hp_bar(row["fp"], row["fp_max"], row["fp_state"], "fp")}</td>\n'
            f'<td style="{cell}" class="gk-maneuver">{esc(maneuver)}</td>\n'
            f'<td style="{cell}" class="gk-defenses">{defenses}</td>\n'
            f'<td style="{cell}" class="gk-badges">{badges}</td></tr>\n'
        )
    title = esc(t("combat.tracker.title", round=state.round))
    if state.over:
        title += f" · {esc(t('combat.over'))}"
    pending = ""
    if state.pending is not None:
        text = t("combat.pending", attacker=state.pending.attacker, target=state.pending.target)
        pending = f'\n<div class="gk-pending">{esc(text)}</div>'
    if only is not None:
        pending += f'\n<div class="gk-others">{esc(_others_text(state, only))}</div>'
    table = (f'<table class="gk-tracker-table" style="border-collapse:collapse;margin:4px 0;{FONT}">'
             f'<thead><tr style="{row_style()}">{head}</tr></thead><tbody>{"".join(body)}</tbody></table>')
    if only is not None:  # a step's changed rows: inside its output's box, as in the text
        return f'<div class="gk-tracker gk-tracker-rows">{table}{pending}</div>'
    return panel("tracker", table + pending, title_html=title)


# ---------------------------------------------------------------- step reports


def injury_lines(rep) -> list[Any]:
    """What one loss of HP/FP did, with every roll it asked for (the one injury path, gurps/rules/harm):
    text lines and (roll, outcome) items, drawn with their dice by `item_html`."""
    out: list[Any] = []
    if rep.injury or not rep.fp_loss:
        out.append(t("combat.injury", name=rep.name, injury=rep.injury, before=rep.hp_before,
                     after=rep.hp_before - rep.injury))
    if rep.fp_loss:
        out.append(t("combat.fatigue", name=rep.name, fp=rep.fp_loss, before=rep.fp_before, after=rep.fp_after))
    if rep.fatigue_hp:
        out.append(t("combat.fatigue_hp", hp=rep.fatigue_hp, after=rep.hp_after))
    if rep.shock:
        out.append(t("combat.shock", shock=rep.shock))
    if rep.major_wound and rep.knockdown is not None:
        out.append(t("combat.major_wound"))
    if rep.knockdown is not None:
        out.append((rep.knockdown.check, label(rep.knockdown.outcome)))
    for d in rep.death_checks:
        out.append((d.check, label(d.outcome)))
    if rep.consciousness is not None:
        out.append((rep.consciousness, label("conscious" if rep.consciousness.success else "unconscious")))
    for roll in rep.will_rolls:
        out.append((roll, label("conscious" if roll.success else "unconscious")))
    if rep.brain_damage is not None:
        out.append(rep.brain_damage if rep.brain_damage.success else (rep.brain_damage, label("brain_damage")))
    if rep.concentration is not None:
        out.append(rep.concentration)
    if rep.became:
        out.append(t("combat.became", states=", ".join(label(b.replace(' ', '_')) for b in rep.became)))
    return out


def _damage_lines(dmg) -> list[Any]:
    return [dmg.damage, *injury_lines(dmg.injury)]


def item_text(item: Any) -> str:
    """One item of a step's working as a text line: a roll with its outcome reads "roll → outcome"."""
    if isinstance(item, tuple):
        roll, outcome = item
        return f"{roll_text(roll)} → {outcome}"
    return str(item)


def item_html(item: Any) -> str:
    """One item as HTML: a roll through its registered renderer (dice chips, verdict), text escaped."""
    from gamekernel.display import HTML, renderer

    roll, outcome = item if isinstance(item, tuple) else (item, "")
    draw = None if isinstance(roll, str) else renderer(type(roll), HTML)
    if draw is None:  # each item starts on a line of its own, so stripped text never runs together
        return f'\n<div class="gk-line">{esc(item_text(item))}</div>'
    after = f' <span class="gk-outcome">→ {esc(outcome)}</span>' if outcome else ""
    return f'\n<div class="gk-line gk-line-roll">{draw(roll)}{after}</div>'




def report_items(kind: str, report: Any) -> list[Any]:
    """The working of one combat step: text lines, roll results, or (roll, outcome) pairs."""
    if isinstance(report, Harmed):  # a step whose lines end with what the one injury path did
        harm = report.harm
        return [*report.lines, *(injury_lines(harm) if harm is not None and (harm.injury or harm.fp_loss) else [])]
    if kind == "start":
        return [t("combat.started", names=", ".join(c.name for c in report.combatants)),
                *(t("combat.stand_in", name=c.name) for c in report.combatants if c.stand_in)]
    if kind == "next":
        out: list[Any] = []
        if report.stun_recovery is not None:
            out.append(report.stun_recovery)
        if report.expired:
            out.append(t("combat.expired", name=report.ended, what=", ".join(label(x) for x in report.expired)))
        out += [t("combat.condition.ended", name=report.ended, condition=c) for c in report.ended_conditions]
        out += [t("combat.lost", name=report.ended, what=label(x)) for x in report.lost]
        if report.skipped:
            out.append(t("combat.skipped", names=", ".join(report.skipped)))
        out.append(t("combat.turn", name=report.started, round=report.round))
        if report.burn is not None:
            out += [t("combat.burning", name=report.started), *_damage_lines(report.burn)]
        if report.due:
            out.append(t("combat.due", what=", ".join(label(x) for x in report.due)))
        return out
    if kind == "maneuver":
        out = list(report.checks)
        if report.outcome != "ok":
            out.append(t("combat.became", states=label(report.outcome)))
        else:
            word = label(report.maneuver) + (f" ({label(report.option)})" if report.option else "")
            out.append(t("combat.maneuver", name=report.name, maneuver=word,
                         target=f" → {report.target}" if report.target else "")
                       + (" " + t(f"combat.built_up.{report.maneuver}", count=report.built_up)
                          if report.built_up else ""))
        if report.posture:
            out.append(t("combat.posture", name=report.name, posture=label(report.posture)))
        if report.feint is not None:
            out += [report.feint.mine, report.feint.theirs,
                    t("combat.feint", target=report.feint.target, penalty=report.feint.penalty)]
        return out
    if kind == "attack":
        a = report.attack
        out = list(report.checks)
        if a is None:
            return [*out, t("combat.became", states=label(report.no_defense_reason.split(": ")[-1]))]
        out += [t("combat.attack", attacker=a.attacker, target=a.target, weapon=a.weapon), a.roll]
        if a.hit and report.offered:
            best = ", ".join(f"{label(k)} {v}" for k, v in report.offered)
            out.append(t("combat.offered", target=a.target, defenses=best))
            if getattr(report, "hearing_needed", False):
                out.append(t("combat.hearing_needed", target=a.target))
        elif a.hit and report.no_defense_reason:
            out.append(t("combat.no_defense", reason=no_defense_text(report)))
        if a.hit and getattr(report, "effect", ""):
            out.append(t("combat.effect_not_rolled", weapon=a.weapon, effect=report.effect))
        if a.hit and getattr(report, "follow_up", ""):
            out.append(t("combat.follow_up_not_rolled", weapon=a.weapon, follow_up=report.follow_up))
        if report.damage is not None:
            out += _damage_lines(report.damage)
        return out
    if kind == "defend":
        out = list(report.checks)
        if report.roll is not None:
            out.append(report.roll)
        elif report.kind == "none":
            out.append(t("combat.no_defense_taken", name=report.defender))
        if getattr(report, "unheard", False):
            out.append(t("combat.unheard", name=report.defender))
        if report.again:
            out.append(t("combat.offered", target=report.defender,
                         defenses=", ".join(f"{label(k)} {v}" for k, v in report.again)))
        if report.damage is not None:
            out += _damage_lines(report.damage)
        if getattr(report, "effect", ""):
            out.append(t("combat.effect_lands", name=report.defender, effect=report.effect))
        return out
    if kind == "damage":
        return _damage_lines(report)
    if kind == "end":
        out = [t("combat.ended", seconds=report.seconds)]
        out += [t("combat.fight_fatigue", name=n, fp=fp) for n, fp in report.fatigue]
        return out
    if kind in ("lines", "status", "heal", "wake", "mortal"):
        return list(report)
    return [str(report)]


WHOLE_ROSTER = ("start", "status", "end")  # the steps whose output shows every fighter


def combat_lines(result: CombatResult) -> list[str]:
    """The step's working as text lines."""
    return [item_text(item) for item in result_items(result)]


def result_items(result: CombatResult) -> list[Any]:
    """The step's items, the second one saying which secret events it made public and why (GURPS-SR-09)."""
    items = report_items(result.kind, result.report)
    if result.revealed:
        items.insert(1, t("combat.revealed_by_step", events=", ".join(str(seq) for seq in result.revealed),
                          names=", ".join(result.revealed_for)))
    return items


def _shown_row(state, index: int) -> dict[str, Any]:
    """A tracker row as a step's output compares it: the ▶ marker aside, which moves every turn."""
    row = tracker_row(state, index)
    del row["active"]
    return row


def changed_rows(old, new) -> frozenset[str]:
    """The fighters of fight `new` whose tracker row differs from their row in fight `old` (a fighter
    new to the fight included): only the rows `stale_rows` says an event can have changed are
    compared, unless the fighters themselves changed (joined, left: all are compared by name)."""
    if old is None:
        return frozenset(c.name for c in new.combatants)
    where = {c.name: i for i, c in enumerate(new.combatants)}
    stale = stale_rows(old, new, where)
    if stale is None:
        before = {c.name: i for i, c in enumerate(old.combatants)}
        pairs = [(before.get(c.name), i) for i, c in enumerate(new.combatants)]
    else:
        pairs = [(i, i) for i in sorted(stale)]
    return frozenset(new.combatants[i].name for j, i in pairs
                     if j is None or _shown_row(old, j) != _shown_row(new, i))


def rows_shown(kind: str, before, after, since) -> frozenset[str] | None:
    """The fighters whose rows the output of step `kind` shows, from the fight `before` it to the fight
    `after` it (None: the whole roster). A step shows the rows it changed, none when it changed none
    (a damage on someone outside the fight); `%next` the fighter whose turn begins and every row
    changed since `since`, the fight as the previous turn began (or `before`, when unknown). The whole
    roster is one command away (`%combat status`), and the output says so where rows are left out."""
    if after is None or kind in WHOLE_ROSTER:
        return None
    if kind == "next":
        rows = changed_rows(since if since is not None else before, after)
        if not after.over:
            rows |= {after.current.name}
    else:
        rows = changed_rows(before, after)
    return None if len(rows) == len(after.combatants) else rows


def result_rows(result: CombatResult) -> frozenset[str] | None:
    """The fighters whose rows `result`'s tracker shows (None: all), as `rows_shown` picks them."""
    if result.state is None:
        return None
    return rows_shown(result.kind, result.before, result.state, result.since)


def _draws_tracker(result: CombatResult, rows: frozenset[str] | None) -> bool:
    """Whether the output ends with the tracker: not when the step changed no row."""
    if not result.show_tracker or rows == frozenset():
        return False
    return result.state is not None or result.kind == "status"


@renders(CombatResult, TEXT)
def combat_text(result: CombatResult) -> str:
    parts = combat_lines(result)
    rows = result_rows(result)
    if _draws_tracker(result, rows):
        parts.append(tracker_text(result.state, rows))
    return "\n".join(parts)


@renders(CombatResult)
def combat_html(result: CombatResult) -> str:
    body = "".join(item_html(item) for item in result_items(result))
    rows = result_rows(result)
    if _draws_tracker(result, rows):
        body += tracker_html(result.state, rows)
    return panel(f"combat gk-combat-{result.kind}", body, title_html=esc(t(f"combat.kind.{result.kind}")))


# -- the `%table` dashboard's GURPS rows (RULESET.dashboard_section) -------------------------------
def dashboard_section(view: Mapping[str, Any]) -> tuple[str, list[str], list[list[str]]] | None:
    """GURPS's rows of the dashboard's view: name, HP, FP and state (a fighter's badges, else the
    sheet's conditions), or None without a GURPS character."""
    if not view.get("gurps"):
        return None
    return (t("table.gurps"), [t(f"table.col.{k}") for k in ("name", "hp", "fp", "state")],
            [[r["name"], *_points(r), _state(r)] for r in view["gurps"]])


def _state(row: Mapping[str, Any]) -> str:
    if row["in_fight"]:
        return ", ".join(badge_text(b) for b in row["state"])
    return ", ".join(t(f"gurps.condition.{c}") for c in row["state"])


def _points(row: Mapping[str, Any]) -> list[str]:
    """HP and FP cells: numbers, or for a fighter nobody plays the word the table may read (and no FP)."""
    if "condition" in row:
        return [t(f"table.condition.{row['condition']}"), "—"]
    return [f"{row['hp']}/{row['hp_max']}", f"{row['fp']}/{row['fp_max']}"]
