"""Dice results and exact distributions as text/plain and static, escaped, deterministic HTML."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from gamekernel.dice.odds import Distribution
from gamekernel.dice.result import RollResult
from gamekernel.display import TEXT, renders
from gamekernel.display.html import FONT, SLOT, accent, bars, chip_box, esc, filled, panel, table
from gamekernel.display.numbers import count, decimal, percent
from gamekernel.i18n import get_language, t

MAX_ROWS = 41  # table and chart rows before trimming the tails and grouping outcomes
TAIL = Fraction(1, 10**6)  # outcomes beyond this tail mass are summarised, not listed
SHOW_DICE = 200

_FATE_TONE = {
    "kept": "neutral",
    "dropped": "muted",
    "exploded": "great",
    "rerolled": "muted",
    "clamped": "warn",
}


# ----- roll results


@lru_cache(maxsize=4096)
def _chip_html(fate: str, value: int, sides: int, face: int | None, language: str) -> str:
    """One die as a face inside the roll's one chip (`_dice_html`), its fate in its class and title;
    cached, since a table sees the same few faces over and over. A die that is not simply kept is
    marked on its own: struck through (dropped, rerolled) and outlined in its fate's tone."""
    text = f"{value}{'!' if fate == 'exploded' else ''}"  # no brackets in the box: spaces keep faces apart
    title = t("dice.fate.clamped", face=face) if fate == "clamped" else t(f"dice.fate.{fate}")
    marks = []
    if fate in ("dropped", "rerolled"):
        marks.append("text-decoration:line-through;opacity:.75")
    if _FATE_TONE.get(fate, "neutral") != "neutral":
        marks.append(f"border:1px solid {accent(_FATE_TONE[fate])};border-radius:3px;padding:0 2px")
    style = f' style="{";".join(marks)}"' if marks else ""
    return f'<span class="gk-die gk-die-{esc(fate)}" title="{esc(title)} (d{sides})"{style}>{esc(text)}</span>'


@lru_cache(maxsize=4096)
def _faces_html(fates: tuple[tuple[str, int, int, int | None], ...], language: str) -> str:
    """Every die of a roll (`RollResult.fates`), one `_chip_html` each; cached, as a table rolls
    the same few dice over and over (216 ways for 3d6)."""
    return " ".join([_chip_html(fate, value, sides, face, language) for fate, value, sides, face in fates])


def _dice_html(faces: list[str]) -> str:
    """Every die of a roll in one chip (a chip per die repeated its style on every die, a sixth of a
    saved session); faces stay "3 2 4" with every tag stripped."""
    return chip_box("".join(faces), cls="gk-dice") if faces else ""


@renders(RollResult)
def roll_html(result) -> str:
    """A panel: the label, the notation, every die as a chip (fate marked), the total big.

    The markup around the values is drawn once per shape (`_roll_frame`); a roll fills in its
    escaped values, which hold no style for `panel` to change (a die's own style neither: tested)."""
    language = get_language()
    fates = result.fates()
    faces = _faces_html(tuple(fates[:SHOW_DICE]), language)
    values = [esc(result.label)] if result.label else []
    values += [esc(result.rolled_text), faces] if faces else [esc(result.rolled_text)]
    if len(fates) > SHOW_DICE:
        values.append(esc(t("dice.more_dice", count=len(fates) - SHOW_DICE)))
    values += [esc(result.total), _breakdown_html(_without_verdict(result))]
    tone = "neutral"
    if result.comparison is not None:
        op, target = result.comparison
        tone = "good" if result.success else "bad"
        word = t("dice.success") if result.success else t("dice.failure")
        values += [esc(result.total), esc(op), esc(target), esc(word), esc(t("dice.margin")),
                   esc(f"{result.margin:+d}")]
    frame = _roll_frame(tone, bool(result.label), bool(faces), len(fates) > SHOW_DICE, result.comparison is not None)
    return filled(frame, values)


@lru_cache(maxsize=64)
def _roll_frame(tone: str, titled: bool, dice: bool, more: bool, verdict: bool) -> tuple[str, ...]:
    """`roll_html`'s markup of one shape through `panel`, cut at the places of its values (in the
    order roll_html gives them), so that a roll runs neither `panel` nor its style pass."""
    slot = SLOT
    chips = [_dice_html([slot])] if dice else []
    if more:
        chips.append(f'<span class="gk-more">{slot}</span>')
    total = (
        '<span class="gk-total" style="font-size:22px;font-weight:700;margin-left:8px;'
        f'vertical-align:middle">{slot}</span>'
    )
    judged = (
        f'<div class="gk-verdict" style="margin-top:2px">{slot} {slot} {slot} · '
        f"<b>{slot}</b> · {slot} {slot}</div>"
    ) if verdict else ""
    body = (
        f'<div><code class="gk-notation">{slot}</code> '
        f'{"".join(chips)}{total}</div>'
        f'<div class="gk-breakdown" style="font-size:11px">'
        f"{slot}</div>{judged}"
    )
    return tuple(panel("roll", body, title_html=slot if titled else "", tone=tone).split(slot))


# ----- distributions


def _ratio(p: Fraction) -> str:
    if p.denominator < 10**9:
        return f"{p.numerator}/{p.denominator} = {percent(p)}"
    return percent(p)


def rows(dist) -> tuple[list[tuple[int, int, int]], list[str]]:
    """(low, high, ways) rows for display and notes about what was trimmed or grouped."""
    lo, hi = dist.min, dist.max
    notes: list[str] = []
    if hi - lo + 1 > MAX_ROWS:
        # drop tails holding less than TAIL of the mass each
        cutoff = TAIL * dist.denominator
        cumulative = dist._cumulative
        start = 0
        while cumulative[start] < cutoff and start < len(cumulative) - 1:
            start += 1
        end = len(cumulative) - 1
        while dist.denominator - cumulative[end - 1] < cutoff and end > start:
            end -= 1
        if start > 0 or end < len(cumulative) - 1:
            mass = Fraction(cumulative[start - 1] if start else 0, dist.denominator) + Fraction(
                dist.denominator - cumulative[end], dist.denominator
            )
            notes.append(t("dice.odds.trimmed", low=lo + start, high=lo + end, mass=percent(mass)))
        lo, hi = lo + start, lo + end
    width = max(1, -(-(hi - lo + 1) // MAX_ROWS))
    if width > 1:
        notes.append(t("dice.odds.grouped", width=width))
    out = []
    for low in range(lo, hi + 1, width):
        high = min(low + width - 1, hi)
        ways = dist._ways_le(high) - dist._ways_le(low - 1)
        out.append((low, high, ways))
    return out, notes


def _summary(dist) -> list[str]:
    parts = [
        f"{t('dice.odds.mean')} {decimal(float(dist.mean), 3)}",
        f"{t('dice.odds.sd')} {decimal(dist.stdev, 3)}",
        f"{t('dice.odds.range')} {dist.min}–{dist.max}",
        t("dice.odds.outcomes", count=len(dist.counts)),
    ]
    return parts


def _truncation(dist) -> str:
    if not dist.truncated_mass:
        return ""
    return t("dice.odds.truncated", depth=dist.explode_depth, mass=percent(dist.truncated_mass))


def _row_success(dist, low: int, high: int) -> bool:
    return bool(dist.successful(low)) and bool(dist.successful(high))


def _headers() -> list[str]:
    keys = ("outcome", "ways", "p_eq", "p_le", "p_ge")
    return [t(f"dice.odds.{key}") for key in keys]


def _label(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


@renders(Distribution, TEXT)
def distribution_text(dist) -> str:
    """A text table with a bar per row (P(success) first for comparisons)."""
    lines = []
    title = f"{dist.label}: {dist.text}" if dist.label else dist.text
    lines.append(t("dice.odds.title", text=title))
    if dist.p_success is not None:
        lines.append(f"{t('dice.odds.p_success')} = {_ratio(dist.p_success)}")
    lines.append(" · ".join(_summary(dist)))
    table_rows, notes = rows(dist)
    denominator = dist.denominator
    peak = max((w for _, _, w in table_rows), default=1) or 1
    header = _headers()
    body = []
    for low, high, ways in table_rows:
        mark = " ✓" if _row_success(dist, low, high) else ""
        body.append([
            _label(low, high),
            count(ways),
            percent(Fraction(ways, denominator)),
            percent(dist.p_le(high)),
            percent(dist.p_ge(low)),
            "#" * round(30 * ways / peak) + mark,
        ])
    widths = [max(len(header[i]) if i < len(header) else 0, *(len(r[i]) for r in body)) for i in range(5)]
    lines.append("  ".join(h.rjust(w) for h, w in zip(header, widths, strict=False)))
    for r in body:
        lines.append("  ".join(c.rjust(w) for c, w in zip(r[:5], widths, strict=True)) + "  " + r[5])
    lines.extend(notes)
    if _truncation(dist):
        lines.append(_truncation(dist))
    return "\n".join(lines)


@renders(Distribution)
def distribution_html(dist) -> str:
    """P(success) prominently, then summary, a table and a bar chart (successes highlighted)."""
    title = f"{dist.label}: {dist.text}" if dist.label else dist.text
    parts = []
    if dist.p_success is not None:
        _op, target = dist.comparison
        against = "" if isinstance(target, int) else f" ({t('dice.odds.vs_dice', target=target)})"
        parts.append(
            f'<div class="gk-p-success" style="font-size:20px;font-weight:700">'
            f"{esc(t('dice.odds.p_success'))} = {esc(_ratio(dist.p_success))}{esc(against)}</div>"
        )
    parts.append(f'<div class="gk-summary">{esc(" · ".join(_summary(dist)))}</div>')
    table_rows, notes = rows(dist)
    denominator = dist.denominator
    highlight = {i for i, (low, high, _) in enumerate(table_rows) if _row_success(dist, low, high)}
    body = [
        [
            _label(low, high),
            count(ways),
            percent(Fraction(ways, denominator)),
            percent(dist.p_le(high)),
            percent(dist.p_ge(low)),
        ]
        for low, high, ways in table_rows
    ]
    headers = _headers()
    chart = bars(
        [
            (_label(low, high), ways / denominator, percent(Fraction(ways, denominator)))
            for low, high, ways in table_rows
        ],
        highlight=highlight,
    )
    grid = (
        '<div style="display:flex;gap:16px;align-items:flex-start;flex-wrap:wrap">'
        f"{table(headers, body, highlight=highlight)}{chart}</div>"
    )
    parts.append(grid)
    for note in [*notes, _truncation(dist)]:
        if note:
            parts.append(f'<div class="gk-note" style="font-size:11px">{esc(note)}</div>')
    title_html = esc(t("dice.odds.title", text=title))
    return panel("odds", f'<div style="{FONT}">{"".join(parts)}</div>', title_html=title_html)


def _without_verdict(result: RollResult) -> str:
    """The working up to the total when the verdict line under it states the comparison with a plain
    target (`1d20+5 = [4] + 5 = 9`, then `9 >= 15 · failure`): the comparison is said once."""
    line = result.breakdown
    if result.comparison is None:
        return line
    op, target = result.comparison
    verdict = f" {op} {target}: "
    cut = line.rfind(verdict)
    return line if cut < 0 else line[:cut]


def _breakdown_html(breakdown: str) -> str:
    """The plain-text working with its `~~dropped~~` marks shown as struck-through dice."""
    if "~~" not in breakdown:  # most rolls drop no die
        return esc(breakdown)
    parts = esc(breakdown).split("~~")
    return "".join(f"<s>{part}</s>" if index % 2 else part for index, part in enumerate(parts))
