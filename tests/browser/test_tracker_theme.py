"""The live tracker's HP/FP bars take their colours from the theme, as the saved bar does: in the Light
and the Dark theme, the live bar of a state (GURPS-INJ-01, FAT-01) has the very colour of the saved
bar (`%combat status`) of that state, which is the theme's own variable for the state's tone."""

import pytest

pytestmark = pytest.mark.browser

COLOURS_JS = """() => {
  const probe = (value) => {
    const node = document.createElement("div");
    node.style.background = value;
    document.body.appendChild(node);
    const colour = getComputedStyle(node).backgroundColor;
    node.remove();
    return colour;
  };
  const row = '.gk-tracker-widget .gk-combatant[data-name="Goblin"]';
  const live = (kind) => getComputedStyle(document.querySelector(`${row} .gk-${kind} .gk-bar-fill`)).backgroundColor;
  const saved = (kind) => {
    const bars = [...document.querySelectorAll(`.gk-${kind}`)].filter((e) => !e.closest(".gk-tracker-widget"));
    return getComputedStyle(bars[bars.length - 1].firstElementChild).borderLeftColor;
  };
  return {liveHp: live("hp"), liveFp: live("fp"), savedHp: saved("hp"), savedFp: saved("fp"),
          good: probe("var(--jp-success-color1)"), great: probe("var(--jp-brand-color1)")};
}"""


def _switch(page, theme: str) -> None:
    page.evaluate(f"window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{theme}'}})")
    page.wait_for_function(f"() => document.body.dataset.jpThemeName === '{theme}'", timeout=60_000)
    page.wait_for_timeout(1500)  # the theme's stylesheet loads after the attribute changes


def test_live_bars_follow_the_theme_as_the_saved_bars_do(lab):
    page = lab.open("tracker_theme.ipynb", [
        "%load_ext gamekernel",
        "%seed 4",
        "%combat start Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,pc=1} Goblin{ST=9,DX=12,HT=11}",
        "w = %combat tracker\nw",
        "%combat status",
    ])
    page.locator('.gk-tracker-widget .gk-combatant[data-name="Goblin"] .gk-hp .gk-bar-fill').first.wait_for()
    page.locator(".jp-OutputArea-output .gk-hp").last.wait_for()
    seen = {}
    for theme in ("JupyterLab Light", "JupyterLab Dark"):
        _switch(page, theme)
        colours = page.evaluate(COLOURS_JS)
        seen[theme] = colours
        assert colours["liveHp"] == colours["savedHp"] == colours["good"], (theme, colours)  # healthy: good
        assert colours["liveFp"] == colours["savedFp"] == colours["great"], (theme, colours)  # rested: great
    assert seen["JupyterLab Light"]["great"] != seen["JupyterLab Dark"]["great"], seen  # the theme decides
    lab.close_page(page)
