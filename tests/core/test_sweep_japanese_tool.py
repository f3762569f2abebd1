"""The Japanese sweep (`tools/sweep_japanese.py`): the notebook it runs switches to Japanese right after
gamekernel loads and stays there, and the words it excuses are what the user typed (magic lines, string
literals), not the functions their Python calls. The full run (a kernel per notebook) is the tool's."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "sweep_japanese.py"


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("sweep_japanese", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules["sweep_japanese"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("sweep_japanese", None)


def _code(source: str) -> dict:
    return {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": source}


def test_the_switch_follows_the_load_and_a_later_switch_back_stays_japanese(tool):
    notebook = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "%load_ext gamekernel"},
                          _code("%reload_ext gamekernel\n%seed 3"), _code("%roll 3d6"),
                          _code("%config GameKernel.language = 'en'\n%log")], "metadata": {}}
    cells = [cell["source"] for cell in tool.japanese_notebook(notebook)["cells"]]
    assert cells[1:] == ["%reload_ext gamekernel\n%seed 3", tool.SWITCH, "%roll 3d6",
                         "%config GameKernel.language = 'ja'\n%log"]
    with pytest.raises(SystemExit):
        tool.japanese_notebook({"cells": [_code("print(1)")], "metadata": {}})


def test_typed_text_is_magic_lines_and_string_literals(tool):
    typed = tool.WORD.findall(tool.typed_text('%check Lockpicking-5 dark\nprint(aiko.points(), "spent of")'))
    assert typed == ["check", "Lockpicking", "dark", "spent", "of"]


def test_what_a_user_sees_of_an_output(tool):
    rich = {"output_type": "display_data", "data": {"text/plain": "<Character Aiko>",
                                                    "text/html": "<style>.x{}</style><b>Aiko</b> &amp; 森"}}
    assert tool.shown_text(rich)[1].split() == ["Aiko", "&", "森"]
    assert tool.shown_text({"output_type": "stream", "text": "spent 9"}) == ("stream", "spent 9")


def test_a_translated_name_is_found_whole(tool):
    names = tool.translated_names()
    assert [m.group(0) for m in names.finditer("+1（Acute Vision） Lockpicking Forests")] == ["Acute Vision",
                                                                                            "Lockpicking"]


def test_a_cell_magics_body_is_typed_text(tool):
    """A table typed in a `%%rolltable` cell is the GM's words, excused like a magic line."""
    body = "%%rolltable define Road 2d6\n2-3: wolves -> Weather\n4-12: nobody"
    assert "wolves" in tool.typed_text(body) and "nobody" in tool.typed_text(body)
    assert "wolves" not in tool.typed_text("x = 1\nwolves(2)")
