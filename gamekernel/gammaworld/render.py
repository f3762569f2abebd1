"""Text and HTML for Gamma World alpha cards, hands and command results (static, escaped)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from gamekernel.display import TEXT, renders
from gamekernel.display.html import ACCENTS, FONT, INK, PAPER, chip, esc, panel, sign, table
from gamekernel.display.numbers import percent as plain_percent
from gamekernel.gammaworld.rules.decks import DeckCheck
from gamekernel.gammaworld.rules.results import AlphaOdds, AlphaResult, AlphaResults, DeckOddsView, DeckView, HandView
from gamekernel.i18n import t

if TYPE_CHECKING:
    from gamekernel.gammaworld.rules.catalog import Catalog
    from gamekernel.gammaworld.rules.schema import AlphaCard
    from gamekernel.gammaworld.rules.state import Step

# (background, text/border) per energy source; readable on light and dark themes.
ENERGY_COLOURS = {
    "bio": ("#e6f4e4", "#2e6b2a"),
    "dark": ("#ece4f5", "#4b2a72"),
    "psi": ("#e2ecfa", "#1f4c8c"),
}
CARD_W, CARD_H = 180, 250


def _catalog(catalog: Catalog | None) -> Catalog:
    if catalog is not None:
        return catalog
    from gamekernel.gammaworld.rules.catalog import starter_catalog

    return starter_catalog()


def card_name(card_id: str, catalog: Catalog | None = None) -> str:
    return _catalog(catalog).card(card_id).name


def percent(value: Fraction) -> str:
    return plain_percent(value, 1)


# ----------------------------------------------------------------------------- one card




def card_html(card: AlphaCard, *, tapped: bool = False, overcharged: bool = False, uid: str = "",
              secret: bool = False) -> str:
    """A card face coloured by energy source (its own text/background pair, readable in any theme).

    A tapped card stays upright with a "tapped" badge and a dashed border: a rotation would be
    stripped by a notebook sanitizer and the card would then cover its neighbours."""
    background, ink = ENERGY_COLOURS.get(card.energy, ("#f4f4f6", "#333"))
    rows = [
        f'<div class="gk-card-name" style="font-weight:700;font-size:13px">{esc(card.name)}</div>',
        f'<div style="font-size:10px;text-transform:uppercase;letter-spacing:.04em">'
        f"{esc(t('gammaworld.energy.' + card.energy))} · {esc(t('gammaworld.rarity.' + card.rarity))}</div>",
    ]
    if card.benefit:
        rows.append(f"<div><b>{esc(t('gammaworld.label.benefit'))}:</b> {esc(card.benefit)}</div>")
    if card.power:
        p = card.power
        rows.append(
            f"<div><b>{esc(t('gammaworld.usage.' + p.usage))}</b> · {esc(t('gammaworld.action.' + p.action))}"
            f" · {esc(p.range)}</div>"
        )
        for key in ("trigger", "attack", "hit", "effect"):
            if getattr(p, key):
                rows.append(f"<div><b>{esc(t('gammaworld.label.' + key))}:</b> {esc(getattr(p, key))}</div>")
    if card.overcharge:
        o = card.overcharge
        rows.append(
            f'<div style="border-top:1px dashed {ink};margin-top:2px"><b>{esc(t("gammaworld.label.overcharge"))}'
            f"</b> ({esc(o.when)})<br>{esc(t('gammaworld.label.success', min=o.success_min))}: {esc(o.success)}"
            f"<br>{esc(t('gammaworld.label.failure', max=o.success_min - 1))}: {esc(o.failure)}</div>"
        )
    status = []
    if tapped:
        status.append(chip(t("gammaworld.hand.tapped"), "muted", cls="gk-tapped"))
    if overcharged:
        status.append(chip(t("gammaworld.hand.overcharged"), "warn"))
    if secret:  # GW-ALPHA-10: the GM's view of a secret flux's replacement
        status.append(chip(t("gammaworld.hand.secret_card"), "bad", cls="gk-secret-card"))
    if status:
        rows.append(f"<div>{''.join(status)}</div>")
    state_class = " gk-card-tapped" if tapped else ""
    data = f' data-uid="{esc(uid)}"' if uid else ""
    face = (
        f'<div class="gk-card gk-energy-{esc(card.energy)}{state_class}"{data} style="width:{CARD_W}px;'
        f"min-height:{CARD_H}px;box-sizing:border-box;background:{background};color:{ink};"
        f"border:2px {'dashed' if tapped else 'solid'} {ink};border-radius:8px;padding:5px 7px;font-size:10.5px;"
        f'line-height:1.3">{chr(10).join(rows)}</div>'  # newlines keep the lines apart when unstyled
    )
    # Upright even when tapped (the chip says so): its text stays readable, and nothing depends on a
    # transform a sanitizer may strip; the card grows with its text instead of cutting it off.
    return f'<div class="gk-card-slot" style="display:inline-block;margin:3px;vertical-align:top">{face}</div>'


# ----------------------------------------------------------------------------- hands


def hand_counts(hand: HandView) -> str:
    none = t("gammaworld.hand.no_deck")  # a deck that does not exist yet is "–", never an empty "0"
    deck = none if hand.deck_count is None else hand.deck_count
    gm = none if hand.gm_count is None else hand.gm_count
    return t("gammaworld.hand.counts", deck=deck, gm=gm, discard=hand.discard_count)


@renders(HandView, TEXT)
def hand_text(hand: HandView) -> str:
    catalog = _catalog(hand.catalog)
    title = t(
        "gammaworld.hand.title", name=hand.name, level=hand.level, count=len(hand.cards), target=hand.readied_target
    )
    cards = [
        f"{catalog.card(c.card_id).name} ({t('gammaworld.hand.tapped' if c.tapped else 'gammaworld.hand.ready')}"
        f"{', ' + t('gammaworld.hand.overcharged') if c.overcharged else ''}"
        f"{', ' + t('gammaworld.hand.secret_card') if c.uid in hand.secret_cards else ''})"
        for c in hand.cards
    ]
    body = "; ".join(cards) or t("gammaworld.hand.empty")
    flux = f" · {t('gammaworld.flux.pending', count=hand.flux_pending)}" if hand.flux_pending else ""
    notes = [text for text in (secret_flux_text(hand), players_see_text(hand)) if text]
    return f"{title}: {body} · {hand_counts(hand)}{flux}{''.join(' · ' + text for text in notes)}"


def secret_flux_text(hand: HandView) -> str:
    """GW-ALPHA-10: the flux of a secret roll, in the GM's view only (empty in every other)."""
    return t("gammaworld.flux.pending_secret", count=hand.flux_secret) if hand.show_secret and hand.flux_secret else ""


def players_see_text(hand: HandView) -> str:
    """GW-ALPHA-10: in the GM's view of a hand a secret flux resolution changed, the cards and counts
    the players still see there (empty in every other view)."""
    if not hand.secret_differs or hand.players is None:
        return ""
    catalog = _catalog(hand.catalog)
    names = "; ".join(catalog.card(c.card_id).name for c in hand.players.cards) or t("gammaworld.hand.empty")
    return t("gammaworld.hand.players_see", cards=names, counts=hand_counts(hand.players))


@renders(HandView)
def hand_html(hand: HandView) -> str:
    catalog = _catalog(hand.catalog)
    title = esc(
        t("gammaworld.hand.title", name=hand.name, level=hand.level, count=len(hand.cards), target=hand.readied_target)
    )
    faces = (
        "".join(
            card_html(catalog.card(c.card_id), tapped=c.tapped, overcharged=c.overcharged, uid=c.uid,
                      secret=c.uid in hand.secret_cards)
            for c in hand.cards
        )
        or f"<i>{esc(t('gammaworld.hand.empty'))}</i>"
    )
    banner = ""
    if hand.flux_pending:
        banner = (
            f'<div class="gk-flux-banner" style="background:{PAPER};color:{INK};border:2px solid {ACCENTS["bad"]};'
            f'border-radius:6px;padding:3px 8px;margin:3px 0;font-weight:700">{esc(t("gammaworld.flux.banner"))} '
            f"{esc(t('gammaworld.flux.pending', count=hand.flux_pending))}</div>"
        )
    for text in (secret_flux_text(hand), players_see_text(hand)):
        if text:
            banner += f'<div class="gk-flux-secret" style="font-style:italic">{esc(text)}</div>'
    encounter = t("gammaworld.hand.encounter" if hand.encounter else "gammaworld.hand.no_encounter")
    footer = f'<div class="gk-hand-counts" style="font-size:12px">{esc(hand_counts(hand))} · {esc(encounter)}</div>'
    body = f'{banner}<div class="gk-hand-cards" style="display:flex;flex-wrap:wrap">{faces}</div>{footer}'
    return panel("hand", body, title_html=title)


# ----------------------------------------------------------------------------- results


def _problems(problems, catalog: Catalog) -> str:
    """A deck's GW-ALPHA-02 problems as one line, each card named in the current language (the step
    keeps the English name)."""
    from contextlib import suppress

    from gamekernel.errors import NotFoundError

    def shown(fields) -> dict:
        fields = dict(fields)
        if "name" in fields:
            with suppress(NotFoundError):  # a card the catalog no longer knows keeps its logged name
                fields["name"] = catalog.find(str(fields["name"])).name
        return fields

    return "; ".join(t(key, **shown(fields)) for key, fields in problems)


def _name(catalog: Catalog, card_id: str) -> str:
    """A card's name in the current language; its id when the catalog does not know it."""
    from gamekernel.errors import NotFoundError

    try:
        return catalog.card(card_id).name
    except NotFoundError:
        return card_id


def _names(ids, catalog: Catalog) -> str:
    return ", ".join(_name(catalog, card_id) for card_id in ids) or t("gammaworld.flux.nothing")


def _copy_line(d, catalog: Catalog, key: str = "card_id") -> list[tuple[str, str]]:
    """Which of several readied copies a command moved (tapped or not, and its id)."""
    if not d.get("copy"):
        return []
    state = t("gammaworld.copy.tapped" if d.get("copy_tapped") else "gammaworld.copy.untapped")
    return [("muted", t("gammaworld.copy.moved", card=_name(catalog, d[key]), state=state, uid=d["copy"]))]


def _lines(result: AlphaResult) -> list[tuple[str, str]]:
    """(tone, text) lines describing a result; the first is the headline; then a word for each deck
    that ran out and was reshuffled from the discard pile on the way."""
    lines = _step_lines(result)
    if result.revealed:  # GW-ALPHA-10: the secret card was used in public
        events = ", ".join(str(seq) for seq in result.revealed)
        lines.insert(1, ("warn", t("gammaworld.flux.revealed_by_use", name=result.step.actor, events=events)))
    all_back = result.step.detail.get("reshuffled_all", ())
    lines += [("warn", t("gammaworld.reshuffled_all" if deck in all_back else "gammaworld.reshuffled", deck=deck))
              for deck in result.step.detail.get("reshuffled", ())]
    return lines


Lines = list[tuple[str, str]]  # (tone, text), the first one the headline


def _setup_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    return [("neutral", t("gammaworld.setup", size=d["size"]))]


def _config_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    options = ", ".join(f"{k}={v}" for k, v in d.get("options", {}).items())
    return [("neutral", t("gammaworld.config", options=options))]


def _character_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    bonus = d.get("origin_bonus")
    return [
        (
            "neutral",
            t(
                "gammaworld.character",
                name=step.actor,
                level=d["level"],
                readied=result.readied,
                bonus=sign(bonus or 0),
            ),
        )
    ]


def _deck_new_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    return [("neutral", t("gammaworld.deck.new", owner=step.actor))]


def _deck_add_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    lines = [("neutral", t("gammaworld.deck.added", owner=step.actor, cards=_names(d["card_ids"], catalog)))]
    if d.get("deck_problems"):  # GW-ALPHA-02's copy limit, reported on add
        problems = _problems(d["deck_problems"], catalog)
        lines.append(("warn", t("gammaworld.deck.added_illegal", owner=step.actor, problems=problems)))
    return lines


def _deck_remove_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    return [
        (
            "neutral",
            t("gammaworld.deck.removed", owner=step.actor, count=d["count"], card=_name(catalog, d["card_id"])),
        )
    ]


def source_text(d: Mapping[str, Any]) -> str:
    """Which deck a draw took from: "own deck", "GM deck", or both when the own deck ran out on the way."""
    if d["source"] == "own" and d.get("from_gm"):
        return t("gammaworld.source.own_then_gm", gm=d["from_gm"], own=len(d["drawn"]) - d["from_gm"])
    return t("gammaworld.source." + d["source"])


def _draw_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    lines = [
        (
            "good",
            t(
                "gammaworld.draw",
                name=step.actor,
                cards=_names(d["drawn"], catalog),
                source=source_text(d),
                level=d["level"],
                wanted=d["wanted"],
            ),
        )
    ]
    if d.get("deck_problems"):  # GW-ALPHA-02, checked when the player deck is drawn from
        problems = _problems(d["deck_problems"], catalog)
        lines.append(("warn", t("gammaworld.deck.drawn_illegal", owner=step.actor, problems=problems)))
    return lines


def _tap_untap_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    return [("neutral", t("gammaworld." + step.kind, name=step.actor, card=_name(catalog, d["card_id"]))),
            *_copy_line(d, catalog)]


def _overcharge_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    verdict = t("gammaworld.overcharge.success" if d["success"] else "gammaworld.overcharge.failure")
    lines = [
        (
            "good" if d["success"] else "bad",
            t(
                "gammaworld.overcharge",
                name=step.actor,
                card=_name(catalog, d["card_id"]),
                face=d["face"],
                bonus=sign(d["bonus"]),
                total=d["total"],
                min=d["success_min"],
                verdict=verdict,
            ),
        )
    ]
    card = catalog.card(d["card_id"]) if d["card_id"] in catalog else None
    if card is not None and card.overcharge:
        lines.append(("neutral", card.overcharge.success if d["success"] else card.overcharge.failure))
    if not d["success"] and d["attack"]:
        lines.append(("warn", t("gammaworld.overcharge.attack_note")))
    if d.get("tapped_now"):
        lines.append(("muted", t("gammaworld.overcharge.tapped_now")))
    if d.get("flux"):
        lines.append(("awful", t("gammaworld.flux.overcharge", name=step.actor)))
    return lines


def _flux_ask_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    label = f" ({d['label']})" if d.get("label") else ""
    names = ", ".join(d.get("names", ()))
    if d.get("unknown"):
        return [("awful", t("gammaworld.flux.ask_unknown", label=label, names=names, actor=d["unknown"]))]
    return [("awful", t("gammaworld.flux.ask", label=label, names=names))]


def _flux_pending_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    label = f" ({d['label']})" if d.get("label") else ""
    count = d.get("count", 1)
    key = "gammaworld.flux.triggered_many" if count > 1 else "gammaworld.flux.triggered"
    return [("awful", t(key, name=step.actor, label=label, count=count))]


def _flux_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    discarded = _name(catalog, d["discarded"]) if d.get("discarded") else t("gammaworld.flux.nothing")
    return [
        (
            "warn",
            t(
                "gammaworld.flux.resolved",
                name=step.actor,
                discarded=discarded,
                drawn=_names(d["drawn"], catalog),
                source=source_text(d),
            ),
        ),
        *_copy_line(d, catalog, "discarded"),
    ]


def _flux_reveal_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    return [("awful", t("gammaworld.flux.revealed", name=step.actor, count=d.get("count", 1)))]


def _cards_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    return [
        (
            "neutral",
            t("gammaworld.cards.added", count=d["count"], source=d["source"], names=", ".join(d.get("names", ()))),
        )
    ]


def _encounter_start_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    return [("neutral", t("gammaworld.encounter.start"))]


def _encounter_end_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    lines = [("neutral", t("gammaworld.encounter.end"))]
    lines += [("good", f"{name}: {_names(ids, catalog)}") for name, ids in d.get("refreshed", {}).items()]
    if d.get("lapsed_flux"):
        lines.append(("warn", t("gammaworld.encounter.lapsed", names=", ".join(d["lapsed_flux"]))))
    return lines


def _rest_lines(result: AlphaResult, step: Step, d: Mapping[str, Any], catalog: Catalog) -> Lines:
    decks = ", ".join(z.split(":")[1] if z.count(":") == 2 else "GM" for z in d.get("shuffled", ()))
    key = "gammaworld.rest.session" if d.get("session") else "gammaworld.rest"
    lines = [("neutral", t(key, names=", ".join(d["characters"]), returned=d["returned"], decks=decks))]
    lines += [
        ("good", t("gammaworld.rest.drawn", name=n, cards=_names(ids, catalog)))
        for n, ids in d.get("drawn", {}).items()
    ]
    if not d.get("drawn"):
        lines.append(("muted", t("gammaworld.rest.no_draw")))
    return lines


# The lines of each kind of step, one small renderer per kind.
STEP_LINES: dict[str, Callable[[AlphaResult, Step, Mapping[str, Any], Catalog], Lines]] = {
    "setup": _setup_lines,
    "config": _config_lines,
    "character": _character_lines,
    "deck_new": _deck_new_lines,
    "deck_add": _deck_add_lines,
    "deck_remove": _deck_remove_lines,
    "draw": _draw_lines,
    "tap": _tap_untap_lines,
    "untap": _tap_untap_lines,
    "overcharge": _overcharge_lines,
    "flux_ask": _flux_ask_lines,
    "flux_pending": _flux_pending_lines,
    "flux": _flux_lines,
    "flux_reveal": _flux_reveal_lines,
    "cards": _cards_lines,
    "encounter_start": _encounter_start_lines,
    "encounter_end": _encounter_end_lines,
    "rest": _rest_lines,
}


def _step_lines(result: AlphaResult) -> Lines:
    """The lines of one kind of step (an unknown kind: its name)."""
    step = result.step
    draw = STEP_LINES.get(step.kind)
    return [("neutral", step.kind)] if draw is None else draw(result, step, step.detail, _catalog(result.catalog))


@renders(AlphaResult, TEXT)
def result_text(result: AlphaResult) -> str:
    lines = [text for _, text in _lines(result)]
    lines += [hand_text(hand) for hand in result.hands]
    return "\n".join(lines)


# Steps that deal a new hand show its cards; any other step (a deck edit, a tap, a flux) changed one
# card or none, so it shows the one-line status and the command that shows the cards.
FULL_HAND_STEPS = frozenset({"draw", "character", "encounter_end", "rest", "cards"})


def hand_status_html(hand: HandView) -> str:
    """The one-line status of a hand and how to see its cards (`%hand Rin`)."""
    hint = t("gammaworld.hand.see", name=hand.name)
    return f'<div class="gk-line">{esc(hand_text(hand))}</div><div class="gk-line">{esc(hint)}</div>'


@renders(AlphaResult)
def result_html(result: AlphaResult) -> str:
    lines = _lines(result)
    tone = lines[0][0]
    if result.step.kind == "overcharge" and result.step.detail.get("flux"):
        tone = "awful"
    head = esc(lines[0][1])
    if result.step.kind in ("flux_pending", "flux_ask"):
        head = f'<span class="gk-flux-banner" style="font-size:15px">{head}</span>'
    rest = "".join(f'<div class="gk-line">{chip(text, tone_)}</div>' for tone_, text in lines[1:])
    full = result.step.kind in FULL_HAND_STEPS
    hands = "".join(hand_html(hand) if full else hand_status_html(hand) for hand in result.hands)
    return panel(f"gw gk-gw-{result.step.kind}", f"{rest}{hands}", title_html=head, tone=tone)


@renders(AlphaResults, TEXT)
def results_text(results: AlphaResults) -> str:
    return "\n".join(repr(result) for result in results)


@renders(AlphaResults)
def results_html(results: AlphaResults) -> str:
    return "".join(result._repr_html_() for result in results)


# ----------------------------------------------------------------------------- decks and odds


def deck_check_messages(check: DeckCheck) -> list[str]:
    """The verdict in words: the size when the deck is legal, else one line per broken rule."""
    if check.ok:
        return [t("gammaworld.deck.ok", size=check.size)]
    return [t(problem.key, **dict(problem.fields)) for problem in check.problems]


@renders(DeckCheck, TEXT)
def deck_check_text(check: DeckCheck) -> str:
    return f"{check.owner}: " + "; ".join(deck_check_messages(check))


@renders(DeckCheck)
def deck_check_html(check: DeckCheck) -> str:
    tone = "good" if check.ok else "bad"
    items = "".join(f"<div>{esc(message)}</div>" for message in deck_check_messages(check))
    rows = [(name, str(count)) for name, count in check.copies]
    return panel(
        "gw-deck-check",
        items + (table(["", "×"], rows) if rows else ""),
        title_html=esc(t("gammaworld.deck.title", owner=check.owner)),
        tone=tone,
    )


def odds_table_html(flux_rows, overcharge_rows) -> str:
    """Two small exact-odds tables: flux by d20 rolls, overcharge by bonus (one line for one value)."""
    if len(flux_rows) + len(overcharge_rows) == 1:
        text = odds_text(flux_rows, overcharge_rows)
        return panel("gw-odds", esc(text), title_html=esc(t("gammaworld.odds.title")))
    flux = table(
        [t("gammaworld.odds.col.rolls"), t("gammaworld.odds.col.p")],
        [(str(n), _exact_and_percent(p)) for n, p in flux_rows],
    )
    over = table(
        [t("gammaworld.odds.col.bonus"), t("gammaworld.odds.col.overcharge")],
        [(sign(b), _exact_and_percent(p)) for b, p in overcharge_rows],
    )
    body = f'<div style="display:flex;gap:16px;{FONT}">{flux}{over}</div>'
    return panel("gw-odds", body, title_html=esc(t("gammaworld.odds.title")))


def step_summary(step) -> str:
    """One line for the session log (no hands; names from the bundled catalog when possible)."""
    from gamekernel.gammaworld.rules.results import AlphaResult

    return _lines(AlphaResult(step, (), _catalog(None)))[0][1]


def gm_only(text: str, gm: bool) -> str:
    """A deck statistic read from the true deck is marked GM-only (GW-ALPHA-10)."""
    return t("gammaworld.deck.gm_only", text=text) if gm else text


def deck_head(view) -> str:
    return gm_only(t("gammaworld.deck.show", owner=view.owner, size=len(view.card_ids), in_deck=view.in_deck),
                   view.gm)


@renders(DeckView, TEXT)
def deck_view_text(view) -> str:
    head = deck_head(view)
    return head + "".join(f"\n  {count} × {name} ({t('gammaworld.energy.' + energy)})"
                          for name, energy, _, count in view.rows())


@renders(DeckView)
def deck_view_html(view) -> str:
    rows = [
        (name, t("gammaworld.energy." + energy), t("gammaworld.rarity." + rarity), str(count))
        for name, energy, rarity, count in view.rows()
    ]
    head = deck_head(view)
    return panel("gw-deck", table(["", "", "", "×"], rows), title_html=esc(head))


@renders(AlphaOdds, TEXT)
def alpha_odds_text(view) -> str:
    return odds_text(view.flux_rows, view.overcharge_rows)


@renders(AlphaOdds)
def alpha_odds_html(view) -> str:
    return odds_table_html(view.flux_rows, view.overcharge_rows)


@renders(DeckOddsView, TEXT)
def deck_odds_text(view) -> str:
    r = view.result
    value = f"{r.at_least_one} ≈ {percent(r.at_least_one)}"
    return gm_only(t("gammaworld.odds.deck", copies=r.copies, card=view.card_name, draws=r.draws,
                     size=r.deck_size, value=value), view.gm)


@renders(DeckOddsView)
def deck_odds_html(view) -> str:
    return panel("gw-deck-odds", esc(deck_odds_text(view)), tone="neutral")


def _exact_and_percent(p) -> str:
    """`7/20 ≈ 35%`; a fraction of hundreds of digits (1000 rolls) shows only the percentage."""
    if p.denominator.bit_length() > 64:
        return f"≈ {percent(p)}"
    return f"{p} ≈ {percent(p)}"


def odds_text(flux_rows, overcharge_rows) -> str:
    lines = [t("gammaworld.odds.flux", rolls=n, value=_exact_and_percent(p)) for n, p in flux_rows]
    lines += [
        t("gammaworld.odds.overcharge", bonus=sign(b), min=10, favourable=int(p * 20), value=percent(p))
        for b, p in overcharge_rows
    ]
    return "\n".join(lines)


# -- the `%table` dashboard's Gamma World rows (RULESET.dashboard_section) -------------------------
def dashboard_section(view: Mapping[str, Any]) -> tuple[str, list[str], list[list[str]]] | None:
    """Gamma World's rows of the dashboard's view: name, readied cards (tapped, overcharged) and
    pending flux, or None without a mutant."""
    if not view.get("gamma"):
        return None
    return (t("table.gamma"), [t(f"table.col.{k}") for k in ("name", "cards", "flux")],
            [[r["name"], "; ".join(_dashboard_card(c) for c in r["cards"]) or "—", str(r["flux"])]
             for r in view["gamma"]])


def _dashboard_card(card: Mapping[str, Any]) -> str:
    marks = [t("table.tapped")] * card["tapped"] + [t("table.overcharged")] * card["overcharged"]
    return card["name"] + (f" ({', '.join(marks)})" if marks else "")
