"""A roll cell's published text/plain and text/html, byte for byte, for a sample of expressions and
cells in both languages: the speed work on the `%roll` cell changes no
output byte. The expected bytes were written by the code before that work (`python -m
tests.core.test_roll_output_bytes` rewrites them: only after a deliberate change of the output)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

GOLDEN = Path(__file__).parent / "data" / "roll_outputs.json"
EXPRESSIONS = ("3d+2", "3d+2 sword", "4d6kh3", "4d6dl1 stats", "1d20+5>=15", "3d6<=12", "2d6!", "4d6r1", "1d6 @Rin",
               "3d6 --secret", "1d100", "2d10-3 <b>&'\"", "3d6 斬撃", "d20", "3d", "", "1d6 --explain",
               "2d6+1d4+3", "200d6", "201d6", "4d6mi3 floor", "3d6ma4", "3d6! 爆", "1d6>=7", "2d20kl1+3>=10 <i>",
               "5", "1d6x2", "10d10!r1kh5")
LONG = 4000  # an output longer than this is pinned by its SHA-256 (the 200-dice rolls), to keep the file small
# several magic lines in one cell, `;`, assignments, Python lines between (gamekernel/magics/echo.py)
CELLS = ("%roll 1d6 a\n%roll 1d6 b\n%roll 1d6 c", "%roll 1d6 quiet;", "%roll 1d6 one;\n%roll 2d6 two",
         "x = 1\n%roll 3d+2\nx + 1", "r = %roll 3d+2\nr.total", "%roll 3d+2;", "%roll 3d+2 ;  ",
         "%roll 1d6 a; %roll 1d6 b", "if True:\n    %roll 1d6 inner\n%roll 1d6 outer")


def outputs(shell) -> dict[str, list[dict[str, str]]]:
    """What each cell published (display data, the displayhook's result), per language, seeded 7."""
    from IPython.utils.capture import capture_output

    seen: dict[str, list[dict[str, str]]] = {}
    try:
        for language in ("en", "ja"):
            shell.run_cell(f"%config GameKernel.language = '{language}'")
            shell.run_line_magic("seed", "7")
            for cell in [f"%roll {expression}" for expression in EXPRESSIONS] + list(CELLS):
                with capture_output() as captured:
                    shell.run_cell(cell, store_history=True)
                seen[f"{language}|{cell}"] = [{mime: _pinned(text) for mime, text in output.data.items()}
                                              for output in captured.outputs]
    finally:
        shell.run_cell("%config GameKernel.language = 'en'")
    return seen


def _pinned(text: str) -> str:
    """The output itself, or for a long one its SHA-256 (of its UTF-8 bytes)."""
    if len(text) <= LONG:
        return text
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_roll_cells_publish_the_same_bytes(ip):
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    got = outputs(ip)
    assert sorted(got) == sorted(expected)
    for key, value in expected.items():
        assert got[key] == value, key


if __name__ == "__main__":
    from IPython.testing import globalipapp

    shell = globalipapp.start_ipython() or globalipapp.get_ipython()
    shell.run_line_magic("load_ext", "gamekernel")
    GOLDEN.write_text(json.dumps(outputs(shell), ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8")


def test_a_dies_own_markup_is_left_alone_by_the_panels_style_pass():
    """roll_html draws its markup through `panel` once per shape and puts each die's markup in it
    (gamekernel/dice/render.py): the same bytes as drawing it all through `panel` only while the
    style pass (`inherit_font`) leaves every die's markup as it is and finds no ink of its own in it."""
    from gamekernel import i18n
    from gamekernel.dice.render import _FATE_TONE, _chip_html
    from gamekernel.display.html import _STYLE, _sets_other_ink, inherit_font

    try:
        for language in ("en", "ja"):
            i18n.set_language(language)
            for fate in _FATE_TONE:
                for value, face in ((3, None), (10, 12)):
                    chip = _chip_html(fate, value, 6, face, language)
                    assert inherit_font(chip) == chip, chip
                    assert not any(map(_sets_other_ink, _STYLE.findall(chip))), chip
    finally:
        i18n.set_language("en")
