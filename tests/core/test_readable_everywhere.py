"""Readable everywhere: outputs read in every theme, in an untrusted notebook and with styles stripped.

- Every colour of the static HTML is a JupyterLab variable with a fallback, or a self-contained
  text/background pair: an element never sets a text colour without its background or the reverse
  (the dark-theme bug was a light background under the theme's white text). JupyterLab's sanitizer
  drops `var()` values in untrusted notebooks, so a pair of variables falls back to the theme's own
  colours together.
- The fallbacks and the fixed pairs (card energies, MtG colour swatches) pass WCAG AA (4.5:1).
- With every tag and style removed (Markdown, plain viewers) nothing runs together: die faces stay
  "3 2 4", badges stay apart ("tapped overcharged").
- Tapped cards are not rotated (a sanitizer strips `transform`); the font stack names the Japanese
  system fonts after JupyterLab's font.
The same contrast is checked on the page in a real browser by tests/browser (see the report).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from gamekernel import Session
from gamekernel.display import html as palette
from gamekernel.gammaworld.render import ENERGY_COLOURS, card_html
from gamekernel.gammaworld.rules import starter_catalog
from gamekernel.mtg.render import SWATCH

HEX = re.compile(r"#[0-9a-fA-F]{3,8}\b")


def _luminance(colour: str) -> float:
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    channels = [int(colour[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def html_of(result: object) -> str:
    return result._repr_html_()


def _fallback(variable: str) -> str:
    return HEX.search(variable).group(0)


def _outputs() -> dict[str, str]:
    """The static HTML of one output of every kind."""
    s = Session(seed=42)
    s.gurps.char_new("Kaito", dx=12, iq=11, skills=[("Stealth", 4)])
    s.gurps.char_new("Guard", iq=10, activate=False)
    out = {
        "roll": html_of(s.roll("3d+2 sword")),
        "odds": html_of(s.odds("3d6<=12")),
        "check": html_of(s.gurps.check("Stealth")),
        "contest": html_of(s.gurps.contest("Kaito:Stealth vs Guard:Per")),
        "damage": html_of(s.gurps.damage("2d cut", target="Guard")),
        "character": html_of(s.gurps.character("Kaito")),
    }
    s.combat.npc("Orc", "ST=12 DX=11 HT=11 weapon=Axe:12:sw+2 cut")
    s.combat.start("Kaito Orc")
    fight = s.combat.state
    current = fight.current.name
    out["attack"] = html_of(s.combat.attack(current, "Orc" if current == "Kaito" else "Kaito",
                                            fight.current.weapons[0].name))
    out["log"] = html_of(s.log_view())
    s.gw.character("Rin", level=4, new=True)
    s.gw.draw("Rin")
    s.gw.encounter_start()
    card = s.gw.hand("Rin").cards[0]
    s.gw.tap("Rin", card.uid)
    out["hand"] = html_of(s.gw.hand("Rin"))
    s.mtg.library_load("Mira", "deck.txt", text="4 Forest\n3 Elvish Mystic\n2 Serra Angel\n")
    out["mtg-check"] = html_of(s.mtg.check("green", 2, actor="Mira"))
    out["library"] = html_of(s.mtg.library_view("Mira")) if hasattr(s, "library_view") else ""
    from gamekernel.display.results import ErrorResult

    out["error"] = html_of(ErrorResult("no skill named <Stealt>"))
    return {k: v for k, v in out.items() if v}


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    return _outputs()


def _styles(html: str) -> list[dict[str, str]]:
    styles = []
    for raw in re.findall(r'style="([^"]*)"', html):
        declarations = {}
        for part in raw.split(";"):
            if ":" in part:
                key, _, value = part.partition(":")
                declarations[key.strip()] = value.strip()
        styles.append(declarations)
    return styles


class _Inked(HTMLParser):
    """Each element's declarations with the text colour it reads: its own, else the nearest
    enclosing element's within the output (CSS inheritance), else None."""

    VOID = frozenset({"br", "img", "hr", "input", "meta", "link", "wbr"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str | None] = []
        self.seen: list[tuple[dict[str, str], str | None]] = []

    def handle_starttag(self, tag, attrs):
        found = _styles(f'style="{dict(attrs).get("style") or ""}"')
        style = found[0] if found else {}
        ink = style.get("color") or (self.stack[-1] if self.stack else None)
        self.seen.append((style, ink))
        if tag not in self.VOID:
            self.stack.append(ink)

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()


def _inked(html: str) -> list[tuple[dict[str, str], str | None]]:
    parser = _Inked()
    parser.feed(html)
    return parser.seen


def test_every_text_colour_comes_with_its_background(outputs):
    """A background reads the theme's ink, set by the element itself or inherited from its box (a
    chip inside a box, whose pair both a sanitizer drops together); a text colour is set only with
    its own background."""
    checked = 0
    for kind, html in outputs.items():
        for style, ink in _inked(html):
            background = style.get("background") or style.get("background-color")
            if background and not background.startswith(("linear-gradient", "var(--jp-border", "var(--jp-brand",
                                                          "var(--jp-success", "var(--jp-error", "var(--jp-warn")):
                checked += 1
                assert ink, f"{kind}: a background without its text colour: {style}"
                if background.startswith("var("):
                    assert ink == palette.INK, f"{kind}: theme paper under {ink}: {style}"
        for style in _styles(html):
            colour = style.get("color")
            background = style.get("background") or style.get("background-color")
            if colour:
                assert background, f"{kind}: a text colour without its background: {style}"
                if colour.startswith("var("):
                    assert colour == palette.INK, f"{kind}: text colour {colour} is not the theme's ink"
    assert checked > 20


def test_gradients_are_translucent_so_the_theme_ink_stays_readable(outputs):
    for html in outputs.values():
        for gradient in re.findall(r"linear-gradient\(([^)]*\))", html):
            assert not HEX.search(gradient), gradient


@pytest.mark.parametrize("paper", [palette.PAPER, palette.PAPER_ALT])
def test_fallback_ink_on_fallback_paper_passes_aa(paper):
    assert contrast(_fallback(palette.INK), _fallback(paper)) >= 4.5


@pytest.mark.parametrize("pair", [*ENERGY_COLOURS.values(), *SWATCH.values(), ("#f8f3dc", "#1f1f1f")])
def test_fixed_colour_pairs_pass_aa(pair):
    background, ink = pair
    assert contrast(background, ink) >= 4.5, pair


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data):
        self.parts.append(data)


def stripped(html: str) -> str:
    """What a viewer that drops every tag and style shows (GitHub Markdown of an HTML output)."""
    parser = _Text()
    parser.feed(html)
    return "".join(parser.parts)


def test_stripped_roll_keeps_its_dice_apart(outputs):
    text = stripped(outputs["roll"])
    assert re.search(r"\d\s+\d\s+\d", text) and not re.search(r"\]\s*\[", text), text  # apart, no [3][2][4]
    check = stripped(outputs["check"])
    assert re.search(r"\d\s+\d\s+\d", check), check


def test_stripped_badges_stay_apart():
    card = starter_catalog().find("Gravity Knot")
    text = stripped(card_html(card, tapped=True, overcharged=True))
    assert "tappedovercharged" not in text and re.search(r"tapped\s+overcharged", text), text


def test_no_output_runs_words_together_when_stripped(outputs):
    for kind, html in outputs.items():
        text = stripped(html)
        assert not re.search(r"\d\d\d\d\d", text.replace(",", "")) or kind in {"odds", "character", "log"}, (kind, text)
        assert not re.search(r"[a-z][A-Z][a-z]{3}", text) or kind in {"log", "character", "mtg-check", "library"}, (
            kind, text)


def test_tapped_cards_stay_upright(outputs):
    assert "rotate(" not in outputs["hand"] and "tapped" in stripped(outputs["hand"])


def test_font_stack_names_the_japanese_system_fonts_after_jupyterlab():
    stack = palette.FONT_STACK
    assert stack.startswith("var(--jp-content-font-family")
    for font in ("Hiragino Sans", "Yu Gothic", "Meiryo", "Noto Sans CJK JP", "Noto Sans JP"):
        assert font in stack
    from gamekernel.widgets.base import asset

    theme = asset("theme.css").read_text(encoding="utf-8")
    for font in ("Hiragino Sans", "Yu Gothic", "Meiryo", "Noto Sans CJK JP", "Noto Sans JP"):
        assert font in theme


def test_widget_styles_use_the_shared_palette_only():
    from gamekernel.widgets.base import asset

    for name in ("gammaworld/hand.css", "mtg/library.css", "gurps/sheet.css", "gurps/tracker.css",
                 "table/table.css"):
        css = asset(name).read_text(encoding="utf-8")
        for rule in re.findall(r"\{([^}]*)\}", css):
            colours = [d for d in rule.split(";") if re.match(r"\s*(color|background)\s*:", d)]
            literal = [d for d in colours if HEX.search(d)]
            if literal:  # a fixed pair (card energies): both halves in the same rule
                assert any(re.match(r"\s*color\s*:", d) for d in literal), (name, rule)
                assert any(re.match(r"\s*background", d) for d in literal), (name, rule)
        assert "rotate(" not in css
