"""text/plain and text/html for MtG action checks, boosts, odds tables and libraries.

Each form shows the rule's working: the first card's mana value + difficulty = target, the second
card's mana value + colour modifier (with its reason) = achievement, the verdict and the exact odds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gamekernel.display import TEXT, renders
from gamekernel.display.html import chip, esc, panel, sign, table
from gamekernel.display.numbers import percent as plain_percent
from gamekernel.i18n import t
from gamekernel.mtg.results import DataLoaded, LibraryLoaded, LibraryView, MtgConfigShown, OddsResult, SceneStarted
from gamekernel.mtg.rules.check import BoostResult, CheckResult
from gamekernel.mtg.rules.decklists import FORMATS
from gamekernel.mtg.rules.odds import OddsTable

if TYPE_CHECKING:
    from gamekernel.mtg.rules.facts import CardFacts

# Swatches for the five colours and colourless (background, text).
SWATCH = {
    "white": ("#f8f3dc", "#5b4e12"), "blue": ("#d6e9f8", "#0e3f6b"), "black": ("#d9d4d9", "#221c22"),
    "red": ("#f9d9d2", "#7a1d0c"), "green": ("#d6efd9", "#1c5a26"), "colourless": ("#e6e6ea", "#44444c"),
}


def percent(value: Fraction | None) -> str:
    if value is None:
        return t("mtg.odds.none")
    return plain_percent(value, 1)


def colour_name(colour: str | None) -> str:
    return t(f"mtg.colour.{colour or 'colourless'}")


def kind_name(kind: str) -> str:
    return t(f"mtg.kind.{kind}")


def colour_list(colours: Sequence[str]) -> str:
    return t("mtg.and").join(colour_name(c) for c in colours)


def number(value: int | float) -> str:
    return str(value)


def actor_prefix(actor: str | None) -> str:
    return f"{actor}: " if actor else ""


def reason(result: CheckResult) -> str:
    """Why the colour modifier is what it is, e.g. 'Steam Vents counts as blue and red for the
    achievement; red chosen at random from blue and red; red is not allied with white'."""
    parts = []
    if result.colours_from_land_types:
        parts.append(t("mtg.reason.land", card=result.second.shown_name, colours=colour_list(result.colours)))
    if result.random_colour:
        parts.append(t("mtg.reason.random", colour=colour_name(result.chosen_colour),
                       colours=colour_list(result.colours)))
    colour, kind = colour_name(result.chosen_colour), kind_name(result.kind)
    if result.chosen_colour is None:
        key = "colourless_same" if result.relation == "same" else "colourless"
        parts.append(t(f"mtg.reason.{key}"))
    elif result.kind == "colourless":
        parts.append(f"{colour}, " + t("mtg.reason.colourless_check"))
    else:
        parts.append(t(f"mtg.reason.{result.relation}", colour=colour, kind=kind))
    return "; ".join(parts)


def _lines(result: CheckResult) -> list[str]:
    lines = []
    if result.unusual_difficulty:
        lines.append(t("mtg.check.unusual", difficulty=result.difficulty))
    if result.known_cards:
        lines.append(t("mtg.check.known", cards=", ".join(c.shown_name for c in result.known_cards)))
    lines.append(t("mtg.check.first", card=result.first.shown_name, mv=number(result.first.mana_value),
                   difficulty=result.difficulty, target=number(result.target)))
    lines.append(t("mtg.check.second", card=result.second.shown_name, mv=number(result.second.mana_value),
                   modifier=sign(result.modifier), reason=reason(result),
                   achievement=number(result.achievement)))
    return lines


def verdict(success: bool, achievement: int | float, target: int | float) -> str:
    return t("mtg.check.verdict", verdict=t("mtg.check.success" if success else "mtg.check.failure"),
             achievement=number(achievement), op="≥" if success else "<", target=number(target))


def title(result: CheckResult) -> str:
    return t("mtg.check.title", actor=actor_prefix(result.actor), kind=kind_name(result.kind),
             difficulty=result.difficulty)


@renders(CheckResult, TEXT)
def check_text(result: CheckResult) -> str:
    tail = [verdict(result.success, result.achievement, result.target)]
    if result.odds is not None:
        tail.append(t("mtg.check.odds", odds=percent(result.odds)))
    tail.append(bottom_line(result))
    lines = [title(result), *(f"  {line}" for line in _lines(result)), "  " + " · ".join(tail)]
    lines += [f"  {line}" for line in _after_lines(result)]
    if result.auto_boost is not None:
        lines.append(boost_text(result.auto_boost))
    return "\n".join(lines)


def foresight_line(result: CheckResult) -> str | None:
    """Boost foresight: the exact chance that the scene's boost turns this failure into a success."""
    if result.boost_odds is None:
        return None
    odds = result.boost_odds
    return t("mtg.check.foresight", odds=percent(odds), fraction=f"{odds.numerator}/{odds.denominator}")


def _after_lines(result: CheckResult) -> list[str]:
    return [line for line in (foresight_line(result), result.auto_boost_note) if line]


def bottom_line(result: CheckResult) -> str:
    """The two revealed cards in the order they went to the bottom, by their shown names."""
    shown = {result.first.name: result.first.shown_name, result.second.name: result.second.shown_name}
    return t("mtg.check.bottom", first=shown.get(result.bottom[0], result.bottom[0]),
             second=shown.get(result.bottom[1], result.bottom[1]))


def card_chip(card: CardFacts, *, colour: str | None = None) -> str:
    """A card name chip tinted by its (or the chosen) colour."""
    key = colour or (card.colours[0] if len(card.colours) == 1 else "colourless")
    background, foreground = SWATCH[key]
    return (f'<span class="gk-card" style="background:{background};color:{foreground};border:1px solid '
            f'{foreground};border-radius:4px;padding:0 5px;display:inline-block">{esc(card.shown_name)}</span>')


@renders(CheckResult)
def check_html(result: CheckResult) -> str:
    notes = []
    if result.unusual_difficulty:
        notes.append(chip(t("mtg.check.unusual", difficulty=result.difficulty), "warn"))
    if result.known_cards:
        notes.append(f'<div class="gk-mtg-known">{esc(t("mtg.check.known", cards=""))}'
                     + " ".join(card_chip(c) for c in result.known_cards) + "</div>")
    mv = esc(t("mtg.check.mv"))
    first = (f'<div class="gk-mtg-first">1 · {card_chip(result.first)} {mv} {esc(result.first.mana_value)} '
             f'+ {esc(result.difficulty)} = <b>{esc(result.target)}</b></div>')
    second = (f'<div class="gk-mtg-second">2 · {card_chip(result.second, colour=result.chosen_colour)} '
              f'{mv} {esc(result.second.mana_value)} {esc(sign(result.modifier))} '
              f'<span>({esc(reason(result))})</span> = <b>{esc(result.achievement)}</b></div>')
    tone = "good" if result.success else "bad"
    foot = chip(verdict(result.success, result.achievement, result.target), tone, cls="gk-verdict")
    if result.odds is not None:
        foot += " " + chip(t("mtg.check.odds", odds=percent(result.odds)), "muted", cls="gk-odds")
    foot += (f' <span style="font-size:11px">'
             f'{esc(bottom_line(result))}</span>')
    body = "".join(notes) + first + second + f'<div style="margin-top:3px">{foot}</div>'
    body += "".join(f'<div class="gk-mtg-foresight" style="font-size:11px">{esc(line)}</div>'
                    for line in _after_lines(result))
    if result.auto_boost is not None:
        body += boost_html(result.auto_boost)
    return panel("mtg-check", body, title_html=esc(title(result)), tone="neutral")


def boost_line(boost: BoostResult) -> str:
    return t("mtg.boost.line", count=len(boost.exiled), colourless=boost.bonus,
             before=number(boost.check.achievement), bonus=boost.bonus, after=number(boost.achievement),
             target=number(boost.check.target),
             verdict=t("mtg.check.success" if boost.success else "mtg.check.failure"))


@renders(BoostResult, TEXT)
def boost_text(boost: BoostResult) -> str:
    lines = [t("mtg.boost.title", actor=actor_prefix(boost.actor)), "  " + boost_line(boost)]
    cards = ", ".join(f"{c.shown_name}{' *' if counted else ''}" for c, counted in
                      zip(boost.exiled, boost.colourless, strict=True))
    if cards:
        lines.append(f"  {cards}")
    if boost.turned:
        lines.append("  " + t("mtg.boost.turned"))
    return "\n".join(lines)


@renders(BoostResult)
def boost_html(boost: BoostResult) -> str:
    cards = " ".join(
        card_chip(c) + (chip("+1", "good") if counted else "")
        for c, counted in zip(boost.exiled, boost.colourless, strict=True))
    body = (f'<div class="gk-mtg-exiled">{cards}</div>'
            f'<div>{chip(boost_line(boost), "good" if boost.success else "bad", cls="gk-verdict")}</div>')
    if boost.turned:
        body += f"<div>{esc(t('mtg.boost.turned'))}</div>"
    return panel("mtg-boost", body, title_html=esc(t("mtg.boost.title", actor=actor_prefix(boost.actor))))


def format_name(fmt: str) -> str:
    """A decklist format as its users call it ('MTG Arena', 'Cockatrice .cod')."""
    return t(f"mtg.fmt.{fmt}") if fmt in FORMATS else fmt


@renders(LibraryLoaded, TEXT)
def loaded_text(loaded) -> str:
    fmt = t("mtg.deck.fmt_detected" if loaded.detected else "mtg.deck.fmt_forced", fmt=format_name(loaded.fmt))
    lines = [*loaded.warnings, t("mtg.loaded", actor=loaded.actor, count=loaded.main, source=loaded.source,
                                 fmt=fmt, sideboard=loaded.sideboard)]
    if loaded.commander:
        lines.append(t("mtg.deck.commander", count=len(loaded.commander),
                       cards=t("mtg.comma").join(loaded.commander)))
    made = loaded.composition
    if made is not None:
        colours = t("mtg.comma").join(t(f"mtg.colour.{c}") for c in made.colours) or t("mtg.colour.colourless")
        lines.append(t("mtg.deck.composition", cards=made.cards, lands=made.lands, colours=colours,
                       sideboard=made.sideboard))
        lines += [t(f"mtg.deck.warn.{key}", cards=made.cards, sideboard=made.sideboard) for key in made.warnings]
    return "\n".join(lines)


@renders(LibraryLoaded)
def loaded_html(loaded) -> str:
    return panel("mtg-library-loaded", "<br>".join(esc(line) for line in loaded_text(loaded).splitlines()))


@renders(MtgConfigShown, TEXT)
def config_text(shown) -> str:
    options = ", ".join(f"{key}={value}" for key, value in asdict(shown.options).items())
    return t("mtg.config.shown", options=options)


@renders(MtgConfigShown)
def config_html(shown) -> str:
    return panel("mtg-config", esc(config_text(shown)))


@renders(SceneStarted, TEXT)
def scene_text(started) -> str:
    return t("mtg.scene.started", scene=started.scene)


@renders(SceneStarted)
def scene_html(started) -> str:
    return panel("mtg-scene", esc(scene_text(started)))


@renders(OddsResult, TEXT)
def odds_result_text(result) -> str:
    if result.odds is None:  # MTG-CHK-04: say why, not '— (—)'
        return t("mtg.odds.impossible", actor=actor_prefix(result.actor), kind=kind_name(result.kind),
                 difficulty=result.difficulty, size=result.size, known=result.known,
                 left=max(result.size - result.known, 0))
    return odds_single_text(result.actor, result.kind, result.difficulty, result.odds) + given_text(
        result.known_unordered)


def given_text(count: int) -> str:
    """What the exact odds take into account beyond the composition: cards known at the bottom."""
    return t("mtg.odds.given", count=count) if count else ""


@renders(OddsResult)
def odds_result_html(result) -> str:
    return panel("mtg-odds-single", esc(odds_result_text(result)))


def odds_single_text(actor: str | None, kind: str, difficulty: int, odds: Fraction | None) -> str:
    fraction = "—" if odds is None else f"{odds.numerator}/{odds.denominator}"
    return t("mtg.odds.single", actor=actor_prefix(actor), kind=kind_name(kind), difficulty=difficulty,
             odds=percent(odds), fraction=fraction)


def _subtitle(table_: OddsTable) -> str:
    known = t("mtg.odds.known", count=table_.exiled_known) if table_.exiled_known else ""
    return t("mtg.odds.subtitle", size=table_.library_size, known=known + given_text(table_.known_unordered))


@renders(OddsTable, TEXT)
def odds_table_text(table_: OddsTable) -> str:
    width = max(len(kind_name(k)) for k in table_.kinds) + 1
    head = t("mtg.odds.kind").ljust(width) + "".join(f"{d:>7}" for d in table_.difficulties)
    rows = [kind_name(k).ljust(width) + "".join(f"{percent(p):>7}" for p in row)
            for k, row in zip(table_.kinds, table_.cells, strict=True)]
    return "\n".join([t("mtg.odds.title"), _subtitle(table_), head, *rows])


@renders(OddsTable)
def odds_table_html(table_: OddsTable) -> str:
    rows = []
    for kind, row in zip(table_.kinds, table_.cells, strict=True):
        background, foreground = SWATCH[kind]
        cells = [f'<span style="background:{background};color:{foreground};padding:0 4px;'
                 f'border-radius:3px">{esc(kind_name(kind))}</span>']
        for value in row:
            shade = 0 if value is None else round(float(value) * 100)
            cells.append(f'<span title="{esc(value)}" style="display:inline-block;min-width:44px;'
                         f'background:linear-gradient(90deg,rgba(63,155,87,.3) {shade}%,transparent {shade}%)">'
                         f'{esc(percent(value))}</span>')
        rows.append(cells)
    headers = [t("mtg.odds.kind"), *(str(d) for d in table_.difficulties)]
    body = f'<div style="font-size:11px">{esc(_subtitle(table_))}</div>' + table(
        headers, rows, raw=True, cls="gk-table gk-mtg-odds")
    return panel("mtg-odds", body, title_html=esc(t("mtg.odds.title")))


def _last_check_line(view) -> str | None:
    last = view.last_check
    if not last:
        return None
    verdict = t("mtg.check.success" if last["success"] else "mtg.check.failure")
    line = t("mtg.view.last", kind=kind_name(last["kind"]), difficulty=last["difficulty"],
             first=view.shown_name(last["first"]), target=number(last["target"]),
             second=view.shown_name(last["second"]), achievement=number(last["achievement"]),
             verdict=verdict)
    if view.last_boost:
        boosted = view.last_boost
        line += " · " + t("mtg.view.boosted", bonus=boosted["bonus"], achievement=number(boosted["achievement"]))
    return line


def _names(names: Sequence[str]) -> str:
    return ", ".join(names) if names else t("mtg.view.none")


def distribution_text(distribution) -> str:
    keys = ("white", "blue", "black", "red", "green", "colourless", "multicolour", "land")
    return " · ".join(f"{colour_name(k) if k in SWATCH else t('mtg.colour.' + k)} {distribution[k]}"
                      for k in keys)


@renders(LibraryView, TEXT)
def library_text(view) -> str:
    lines = [f"{t('mtg.view.title', actor=view.actor)}: {t('mtg.view.count', count=view.count)} · "
             f"{t('mtg.view.scene', scene=view.scene)} · "
             f"{t('mtg.view.boost_used' if view.boost_used else 'mtg.view.boost_free')}",
             "  " + t("mtg.view.known", cards=_names([view.shown_name(n) for n in view.known_top]))
             + (" · " + t("mtg.view.known_bottom", count=view.known_bottom) if view.known_bottom else ""),
             "  " + t("mtg.view.exile", cards=_names([view.shown_name(n) for n in view.exile])),
             "  " + t("mtg.view.colours") + ": " + distribution_text(view.distribution)]
    last = _last_check_line(view)
    if last:
        lines.append("  " + last)
    return "\n".join(lines)


@renders(LibraryView)
def library_html(view) -> str:
    """The static picture of a library (the widget's snapshot uses it too)."""
    status = chip(t("mtg.view.boost_used" if view.boost_used else "mtg.view.boost_free"),
                  "muted" if view.boost_used else "good", cls="gk-mtg-boost-state")
    head = (f'<div><span class="gk-mtg-count" style="font-size:18px;font-weight:600">'
            f'{esc(t("mtg.view.count", count=view.count))}</span> · {esc(t("mtg.view.scene", scene=view.scene))}'
            f" {status}</div>")
    known = " ".join(chip(view.shown_name(n), "warn") for n in view.known_top) or esc(t("mtg.view.none"))
    exile = " ".join(chip(view.shown_name(n), "muted") for n in view.exile) or esc(t("mtg.view.none"))
    bottom = (f' · <span class="gk-mtg-known-bottom">{esc(t("mtg.view.known_bottom", count=view.known_bottom))}'
              '</span>' if view.known_bottom else "")
    rows = [f'<div class="gk-mtg-known">{esc(t("mtg.view.known", cards=""))}{known}{bottom}</div>',
            f'<div class="gk-mtg-exile">{esc(t("mtg.view.exile", cards=""))}{exile}</div>']
    items = []
    for key in ("white", "blue", "black", "red", "green", "colourless"):
        background, foreground = SWATCH[key]
        items.append(f'<span class="gk-mtg-colour gk-mtg-{key}" style="background:{background};'
                     f'color:{foreground};border-radius:3px;padding:0 5px;margin-right:3px">'
                     f"{esc(colour_name(key))} {esc(view.distribution[key])}</span>")
    rows.append(f'<div class="gk-mtg-colours">{"".join(items)}</div>')
    last = _last_check_line(view)
    if last:
        tone = "good" if (view.last_boost or view.last_check)["success"] else "bad"
        rows.append(f'<div class="gk-mtg-last">{chip(last, tone)}</div>')
    return panel("mtg-library", head + "".join(rows), title_html=esc(t("mtg.view.title", actor=view.actor)))


@renders(DataLoaded, TEXT)
def data_loaded_text(loaded: DataLoaded) -> str:
    return t("mtg.data.loaded", count=loaded.count, source=loaded.source)


@renders(DataLoaded)
def data_loaded_html(loaded: DataLoaded) -> str:
    return panel("mtg-data", esc(data_loaded_text(loaded)))


# -- the `%table` dashboard's MtG rows (RULESET.dashboard_section) ---------------------------------
def dashboard_section(view: Mapping[str, Any]) -> tuple[str, list[str], list[list[str]]] | None:
    """MtG's rows of the dashboard's view: name, library size, known top cards and the boost, or
    None without a library."""
    if not view.get("mtg"):
        return None
    return (t("table.mtg"), [t(f"table.col.{k}") for k in ("name", "library", "known", "boost")],
            [[r["name"], f"{r['library']:,}", ", ".join(r["known_top"]) or "—",
              t("table.boost.used" if r["boost_used"] else "table.boost.free")] for r in view["mtg"]])
