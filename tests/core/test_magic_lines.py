"""Every gamekernel magic line of a cell shows its result or error, in order, once (the notebook is the session log),
through a real IPython shell's run_cell."""

from __future__ import annotations

import pytest


@pytest.fixture
def shown(ip, monkeypatch):
    """Run a cell; return the text/plain of what it showed, in order (our results publish their
    display data themselves, also when IPython's displayhook shows the last line)."""
    seen: list[str] = []

    def publish(data, metadata=None, *args, **kwargs):
        seen.append(data.get("text/plain", ""))

    def write_format_data(format_dict, md_dict=None):
        if format_dict:
            seen.append(format_dict.get("text/plain", ""))

    monkeypatch.setattr(ip.display_pub, "publish", publish)
    monkeypatch.setattr(ip.displayhook, "write_format_data", write_format_data)

    def run(cell: str) -> list[str]:
        seen.clear()
        outcome = ip.run_cell(cell, store_history=True)
        assert outcome.error_in_exec is None and outcome.error_before_exec is None
        return list(seen)

    return run


def test_three_rolls_show_three_results_in_order(shown):
    out = shown("%roll 1d6 a\n%roll 1d6 b\n%roll 1d6 c")
    assert len(out) == 3  # the last line by IPython's displayhook, once
    assert [out[0].startswith("a:"), out[1].startswith("b:"), out[2].startswith("c:")] == [True, True, True], out


def test_an_error_on_an_earlier_line_shows_then_the_next_line(ip, shown):
    ip.run_cell("%char new Aiko st=11 dx=13")
    out = shown("%combat start Aiko Goblin*2\n%roll 1d6 after")
    assert len(out) == 2, out
    assert "Goblin" in out[0]  # the error, naming what was wrong
    assert "after" in out[1]


def test_an_assignment_binds_silently_and_the_total_works(ip, shown):
    out = shown("r = %roll 3d+2\n%roll 1d6 next")
    assert len(out) == 1 and "next" in out[0]
    r = ip.user_ns["r"]
    assert r.text.startswith("3d+2") and 5 <= r.total <= 20
    assert shown("r = %roll 2d6;") == []  # bound, as `r = 3;` binds 3
    assert ip.user_ns["r"].text.startswith("2d6") and 2 <= ip.user_ns["r"].total <= 12


def test_a_trailing_semicolon_keeps_a_line_quiet_but_it_still_runs(shown):
    from gamekernel.magics import current_session

    before = len(current_session().log)
    assert shown("%roll 1d6 quiet;") == []  # the last line, as IPython's `x;`
    out = shown("%roll 1d6 one;\n%roll 1d6 two")  # an earlier line
    assert len(out) == 1 and "two" in out[0]
    assert len(current_session().log) == before + 3  # all three rolled and logged
    assert "quiet" in current_session().log[before].summary()  # the `;` is not part of the label


def test_the_last_line_is_shown_once(shown):
    out = shown("%roll 1d6 only")
    assert len(out) == 1 and "only" in out[0]


def test_python_lines_and_other_magics_keep_ipythons_behaviour(shown):
    out = shown("1 + 1\n%roll 1d6 x\n2 + 2")
    assert len(out) == 2 and "x" in out[0]  # `1 + 1` is not shown, as in IPython
    assert out[1] == "4"


def _gates(ip) -> list:
    """The every-cell pass's gates in `ip`'s input transformers (gamekernel/magics/echo.py)."""
    from gamekernel.magics import echo

    return [t for t in ip.input_transformers_post if isinstance(t, echo.PassGate)]


def test_unload_removes_the_pass(ip, shown):
    assert len(_gates(ip)) == 1
    ip.run_line_magic("unload_ext", "gamekernel")
    assert _gates(ip) == []
    assert not ip.ast_transformers
    ip.run_line_magic("load_ext", "gamekernel")
    assert len(_gates(ip)) == 1
    ip.run_line_magic("load_ext", "gamekernel")  # loaded twice: still one pass, results shown once
    out = shown("%roll 1d6 a\n%roll 1d6 b")
    assert len(out) == 2 and out[0].startswith("a:") and out[1].startswith("b:"), out


def test_the_pass_follows_other_transformers_of_the_shell(ip, shown):
    """Another extension's AST transformer still runs beside ours (IPython's list)."""
    import ast

    class Doubler(ast.NodeTransformer):
        def visit_Constant(self, node):
            return ast.copy_location(ast.Constant(node.value * 2), node) if type(node.value) is int else node

    ip.ast_transformers.insert(0, Doubler())
    try:
        assert shown("21") == ["42"]
        out = shown("%roll 1d6 a\n%roll 1d6 b")
        assert len(out) == 2 and out[1].startswith("b:"), out
    finally:
        ip.ast_transformers[:] = [t for t in ip.ast_transformers if not isinstance(t, Doubler)]


def test_the_pass_is_armed_only_for_cells_it_may_change(ip, shown):
    """A one-line magic cell has one statement, its last: no AST transformer of ours is registered
    for it, so IPython does not walk its tree again (`ast.fix_missing_locations`)."""
    from gamekernel.magics import echo

    def armed() -> bool:
        return any(isinstance(t, echo.EchoMagicLines) for t in ip.ast_transformers)

    assert len(shown("%roll 1d6 only")) == 1
    assert not armed()
    assert len(shown("%roll 1d6 a\n%roll 1d6 b")) == 2
    assert armed()
    assert shown("x = 1\ny = 2\nx + y") == ["3"]  # Python lines only: nothing to rewrite
    assert not armed()
    assert shown("%roll 1d6 quiet;") == []  # one line, but a `;` to take off
    assert armed()
    shown("%roll 1d6 again")
    assert not armed()


@pytest.mark.parametrize(("source", "expected"), [
    ("get_ipython().run_line_magic('roll', '3d+2')\n", False),
    ("get_ipython().run_line_magic('roll', '3d+2')\n\n\n", False),  # trailing blank lines
    ("\nget_ipython().run_line_magic('roll', '3d+2')\n", False),
    ("get_ipython().run_line_magic('roll', '3d+2;')\n", True),  # the `;` to take off
    ("r = get_ipython().run_line_magic('roll', '3d+2;')\n", True),
    ("get_ipython().run_line_magic('roll', '1d6')\nget_ipython().run_line_magic('roll', '1d6')\n", True),
    ("get_ipython().run_line_magic('roll', '1d6')\n1 + 1\n", True),
    ("x = 1\ny = 2\n", False),  # no magic call at all
    ("x = 1; y = 2\n", False),
    ("", False),
])
def test_may_rewrite(source, expected):
    from gamekernel.magics.echo import may_rewrite

    assert may_rewrite(source) is expected


def test_unload_removes_the_gate_too(ip):
    from gamekernel.magics import echo

    assert any(isinstance(t, echo.PassGate) for t in ip.input_transformers_post)
    ip.run_line_magic("unload_ext", "gamekernel")
    assert not any(isinstance(t, echo.PassGate) for t in ip.input_transformers_post)
    ip.run_line_magic("load_ext", "gamekernel")
    assert sum(isinstance(t, echo.PassGate) for t in ip.input_transformers_post) == 1


@pytest.mark.parametrize("load", ["load_ext", "reload_ext"])
def test_the_cell_that_loads_gamekernel_shows_every_line_first_run_included(ip, shown, load):
    """IPython has transformed a cell before `%load_ext` in it runs: the lines after it are shown too."""
    ip.run_line_magic("unload_ext", "gamekernel")
    cell = f"%{load} gamekernel\n%seed 7\n%roll 1d6 a\n%roll 1d6 quiet;\n%roll 1d6 b\n%roll 1d6 c"
    out = shown(cell)
    assert len(out) == 4 and "7" in out[0], out  # %seed, a, b, c; `quiet;` stays quiet
    assert [line[:2] for line in out[1:]] == ["a:", "b:", "c:"], out
    assert shown(cell) == out  # the second run: the same lines, the same dice (seeded)


def test_a_cell_that_loads_gamekernel_in_python_keeps_ipythons_display(ip, shown):
    """Only the running cell's own top-level magic lines change: a loop shows nothing, as in IPython."""
    ip.run_line_magic("unload_ext", "gamekernel")
    out = shown("%load_ext gamekernel\nfor _ in range(2):\n    %roll 1d6 loop\n%roll 1d6 last")
    assert len(out) == 1 and out[0].startswith("last:"), out
