"""What a `%roll 3d+2` cell does not run: no AST pass and no second walk of the tree by IPython (a
one-line cell has nothing to rewrite, gamekernel/magics/echo.py), no import machinery, no style pass
over the roll's markup (its frame is drawn once), no observers' loop without observers, no reading of
the faces for the alpha flux without a Gamma World deck (GW-ALPHA-10)."""

from __future__ import annotations

import sys

import pytest


def _functions_run(ip, cell: str) -> set[tuple[str, str]]:
    """(file, function) of every Python function the cell calls."""
    seen: set[tuple[str, str]] = set()

    def profile(frame, event, arg):
        if event == "call":
            seen.add((frame.f_code.co_filename.replace("\\", "/"), frame.f_code.co_name))

    sys.setprofile(profile)
    try:
        ip.run_cell(cell, store_history=False)
    finally:
        sys.setprofile(None)
    return seen


@pytest.fixture
def roll_cell(ip):
    from IPython.utils.capture import capture_output

    with capture_output():
        for _ in range(3):  # the first rolls load the renderers and draw the frame
            ip.run_cell("%roll 3d+2", store_history=False)
        ip.run_line_magic("seed", "1")  # the faces of the first roll again, as a table rolls the same few
        seen = _functions_run(ip, "%roll 3d+2")
    assert any(name == "roll_html" for _, name in seen)  # the profile saw the roll drawn
    return seen


@pytest.mark.parametrize(("file_end", "name"), [
    ("/ast.py", "fix_missing_locations"),
    ("gamekernel/magics/echo.py", "visit_Module"),
    ("<frozen importlib._bootstrap>", "_handle_fromlist"),
    ("gamekernel/display/html.py", "inherit_font"),
    ("gamekernel/display/html.py", "panel"),
    ("gamekernel/session.py", "_notify"),
    ("gamekernel/gammaworld/actions.py", "d20_faces"),
    ("gamekernel/gammaworld/actions.py", "_flux_reveal_reaction"),
    # the check a session without a campaign does not need is not called (gamekernel/session.py `_record`)
    ("gamekernel/session.py", "_check_writable"),
    ("gamekernel/state.py", "__getitem__"),
    ("gamekernel/rng.py", "getrandbits"),  # the dice drawn with the Twister's C method, counted once
    ("gamekernel/session.py", "_check_owner"),  # the holder of `command()` is this thread
    ("gamekernel/display/__init__.py", "renderer"),  # the drawing is found in one lookup when shown
    ("gamekernel/display/__init__.py", "_repr_html_"),
    ("gamekernel/magics/__init__.py", "session"),  # the kernel's Session, once built, is a plain attribute
])
def test_a_roll_cell_does_not_run(roll_cell, file_end, name):
    assert not [f for f, n in roll_cell if n == name and f.endswith(file_end)]
