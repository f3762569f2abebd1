"""A saved session small enough to live in git: what every output repeated is said once per output.

- The ~200-character font stack and the tabular figures are named once per output, on its
  outermost box: boxes, chips, bars and tables nested inside inherit them; an output at the top
  level (a box, a table on its own) still names them, so no output relies on another cell's.
- The rule under a table row is drawn by the row, not repeated by each of its cells; cells keep the
  left alignment and padding Lab's own table style would otherwise change.
- An HP/FP bar is one span of a fixed length whose left border is the filled part; the palette
  fallbacks are written short (#fff).
"""

from __future__ import annotations

import re

import pytest

from gamekernel import Session
from gamekernel.display import html as palette
from gamekernel.gurps.combat_render import BAR_PX, hp_bar, tracker_html


def _fight() -> Session:
    s = Session(seed=3)
    s.gurps.char_new("Aiko", st=11, dx=13, iq=12, ht=11)
    s.combat.npc("Orc", "ST=12 DX=11 HT=12 HP=18 weapon=Club:11:sw cr")
    s.combat.start("Aiko Orc*2")
    return s


def _count_stack(html: str) -> int:
    return html.count(palette.FONT_STACK)


def test_a_box_inside_a_box_inherits_the_font_stack():
    inner = palette.panel("inner", "x")
    assert _count_stack(inner) == 1  # on its own it names the stack
    outer = palette.panel("outer", inner + palette.table(["a"], [["1"]]))
    assert _count_stack(outer) == 1
    assert outer.startswith('<div class="gk gk-outer" style="font-family:')
    assert "font-size:13px" in outer.split("gk-inner", 1)[1]  # the size stays: Lab sizes tables itself


def test_chips_and_bars_inside_a_box_inherit_its_tabular_figures():
    chip = palette.chip("3", cls="gk-die")
    bar = hp_bar(5, 10, "healthy", "hp")
    assert palette.TABULAR in chip and palette.TABULAR in bar  # on their own they set them
    box = palette.panel("roll", chip + bar)
    assert box.count(palette.TABULAR) == 1
    assert box.index(palette.TABULAR) < box.index(">")  # on the box itself
    assert 'style=""' not in box and "border-radius:4px" in box  # the rest of their styles stay


def test_only_exact_inherited_declarations_are_dropped():
    body = '<span style="font-variant-numeric:slashed-zero;color:red">x</span><b style="font-family:serif">y</b>'
    assert palette.inherit_font(body) == body


def test_a_table_on_its_own_still_names_the_font_stack():
    assert _count_stack(palette.table(["a"], [["1"]])) == 1


def test_every_output_of_a_fight_names_the_font_stack_once():
    s = _fight()
    outputs = [s.gurps.damage("1d+2 cut", target="Orc1"), s.combat.next(), s.gurps.check("DX-2")]
    for result in outputs:
        assert _count_stack(result._repr_html_()) == 1, type(result).__name__


def _cells(html: str) -> list[str]:
    return re.findall(r"<t[dh] style=\"([^\"]*)\"", html)


def _rows(html: str) -> list[str]:
    return re.findall(r"<tr[^>]* style=\"([^\"]*)\"", html)


@pytest.mark.parametrize("draw", [
    lambda: palette.table(["a", "b"], [["1", "2"], ["3", "4"]], highlight={1}),
    lambda: tracker_html(_fight().combat.state),
])
def test_the_rule_under_a_row_is_drawn_once_by_the_row(draw):
    html = draw()
    cells, rows = _cells(html), _rows(html)
    assert cells and rows
    assert all("border" not in c and "text-align:left" in c and "padding:" in c for c in cells), cells
    assert len(rows) == html.count("<tr")  # the head row and every body row
    assert all(palette.ROW_RULE in r for r in rows), rows


def test_a_highlighted_row_keeps_its_paper_and_ink_pair():
    style = palette.row_style(True)
    assert f"background:{palette.PAPER_ALT}" in style and f"color:{palette.INK}" in style
    assert palette.row_style(False) == palette.ROW_RULE


def _fill(bar: str) -> tuple[int, int]:
    match = re.search(r"width:(\d+)px;height:9px;border-left:(\d+)px solid", bar)
    assert match, bar
    return int(match.group(1)), int(match.group(2))


@pytest.mark.parametrize(("current", "maximum", "filled"), [
    (11, 11, BAR_PX), (0, 11, 0), (5, 10, BAR_PX // 2), (1, 18, 4), (-3, 10, 0), (15, 10, BAR_PX), (4, 0, 0),
])
def test_a_bar_is_one_span_filled_by_its_left_border(current, maximum, filled):
    bar = hp_bar(current, maximum, "healthy", "hp")
    assert bar.count("<span") == 2  # the bar's box (with its figures) and the bar itself
    assert _fill(bar) == (BAR_PX, filled)
    assert bar.endswith(f"{current}/{maximum}</span>")


def test_a_tracker_of_three_fighters_stays_small():
    """Six bars, eighteen cells and a box: 5.2 kB (it was 7.6 kB when each cell repeated its rule,
    each bar had a second span and its own tabular figures, and the table its own font stack)."""
    assert len(tracker_html(_fight().combat.state)) < 5500


def test_the_palette_fallbacks_are_written_in_their_shortest_form():
    """Every box and chip repeats them: #fff, not #ffffff."""
    for colour in (palette.INK, palette.PAPER, palette.PAPER_ALT, palette.RULE, *palette.ACCENTS.values()):
        fallback = re.search(r"#([0-9a-f]+)\)", colour).group(1)
        pairs = [fallback[i:i + 2] for i in range(0, len(fallback), 2)]
        assert len(fallback) == 3 or not all(p[0] == p[1] for p in pairs), colour


def test_the_benchmark_breaks_a_saved_notebook_down_by_mime_type_and_construct(tmp_path):
    import json

    from benchmarks.bench_notebook import breakdown
    from gamekernel.widgets.record import ActionRecord

    box = palette.panel("roll", "14")
    record = ActionRecord()
    record_html = record.bundle("<b>sheet</b>", 3)["text/html"]
    outputs = [{"output_type": "display_data", "metadata": {},
                "data": {"text/html": box, "text/plain": "14"}},
               {"output_type": "display_data", "metadata": {}, "data": {"text/html": record_html}},
               {"output_type": "stream", "name": "stdout", "text": "done\n"}]
    notebook = {"cells": [{"cell_type": "code", "execution_count": 1, "id": "a", "metadata": {},
                           "outputs": outputs, "source": "%roll 3d"}],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    parts = breakdown(path)
    assert parts["text/plain"] == len('"14"') and parts["stream"] == len('"done\\n"')
    assert parts["text/html"] == len(json.dumps(box).encode()) + len(json.dumps(record_html).encode())
    assert parts["html: the font stack in them"] == len(palette.FONT_STACK)
    theme = (palette.PAPER, palette.INK, palette.RULE, palette.ACCENTS["neutral"])  # the box's paper, ink, rules
    assert parts["html: theme variables in them"] == sum(map(len, theme))
    picture = record_html[len('<div class="gk-widget-record">'):-len("</div>")]
    assert parts["html: widget pictures in records"] == len(picture) and "sheet" in picture
    assert parts["whole file"] == path.stat().st_size


def test_the_benchmark_saves_one_output_per_stream_as_jupyterlab_does(tmp_path, monkeypatch):
    """Otherwise the text peer's size depends on how the kernel happened to flush a print."""
    import nbclient

    from benchmarks.bench_notebook import _saved

    seen: dict[str, object] = {}

    class Client:
        def __init__(self, notebook, **options):
            seen.update(options)

        def execute(self):
            return None

    monkeypatch.setattr(nbclient, "NotebookClient", Client)
    assert _saved(["print(1)"], tmp_path).exists()
    assert seen["coalesce_streams"] is True


def test_elements_inside_a_box_read_its_ink_unless_one_sets_another_colour():
    """A chip's paper inside a box reads the box's ink; a card's own ink (a fixed pair) inside the
    box keeps every ink of that box where it is, so nothing inherits a card's colour."""
    chip = palette.chip("3", cls="gk-die")
    assert palette.TEXT in chip  # on its own it names its ink
    box = palette.panel("roll", chip + palette.table(["a"], [["1"]], highlight={0}))
    assert box.count(palette.TEXT) == 1 and box.index(palette.TEXT) < box.index(">")
    assert f"background:{palette.PAPER_ALT}" in box.split(">", 1)[1]  # the chip keeps its paper
    card = '<span style="background:#f8f3dc;color:#1f1f1f">card</span>'
    kept = palette.panel("hand", card + chip)
    assert kept.count(palette.TEXT) == 2 and "color:#1f1f1f" in kept


def test_the_dice_of_one_roll_share_one_chip_each_face_its_own_die():
    """A 3d check draws one chip box, not three; each face keeps its `gk-die` hook, apart, no brackets."""
    assert palette.dice_chip([]) == ""
    dice = palette.dice_chip([3, 5, 1])
    assert dice.count('class="gk-chip') == 1 and dice.count('<span class="gk-die">') == 3
    assert re.sub(r"<[^>]+>", "", dice) == "3 5 1 "  # apart with every tag stripped, no `[3]` in the box
    check = Session(seed=3)
    check.gurps.char_new("Aiko", st=11, dx=13, iq=12, ht=11)
    html = check.gurps.check("DX-2")._repr_html_()
    assert html.count('class="gk-chip gk-dice"') == 1 and html.count('class="gk-die"') == 3


def test_a_rolls_dice_share_one_chip_and_each_die_keeps_its_fate():
    """%roll 4d6kh3: one chip box; every die its fate class and title; the dropped one struck and
    outlined in its tone, the kept ones plain; faces stay "a b c d" with tags stripped, no brackets."""
    from gamekernel.dice.render import _FATE_TONE

    html = Session(seed=3).roll("4d6kh3")._repr_html_()
    assert html.count('class="gk-chip') == 1
    dice = re.findall(r'<span class="gk-die gk-die-(\w+)" title="[^"]+ \(d6\)"( style="[^"]*")?>\d</span>', html)
    assert sorted(fate for fate, _ in dice) == ["dropped", "kept", "kept", "kept"]
    assert all(not style for fate, style in dice if fate == "kept")
    dropped = next(style for fate, style in dice if fate == "dropped")
    assert "line-through" in dropped and palette.accent(_FATE_TONE["dropped"]) in dropped
    assert re.search(r"\d \d \d \d", re.sub(r"<[^>]+>", "", html)) and "][" not in re.sub(r"<[^>]+>", "", html)
