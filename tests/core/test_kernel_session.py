"""The kernel's Session (`GameKernel.session`) is built at the first magic that needs it, with the
options in force then, and from then on is the magics' plain attribute (no call per magic line)."""

from __future__ import annotations

from IPython.utils.capture import capture_output

from gamekernel.magic_base import current_session, kernel_magics


def test_the_session_is_built_on_first_use_with_the_options_then_and_kept(ip):
    ip.run_line_magic("unload_ext", "gamekernel")
    ip.run_line_magic("load_ext", "gamekernel")
    magics = kernel_magics()
    assert "session" not in vars(magics) and magics._session is None  # `%load_ext` built nothing
    ip.run_line_magic("config", "GameKernel.max_dice = 7")
    with capture_output():
        ip.run_cell("%roll 3d+2", store_history=False)
    session = vars(magics)["session"]
    assert session is magics._session is magics.session is current_session()
    assert session.max_dice == 7 and session.log[-1].kind == "roll"
    with capture_output():
        ip.run_cell("%roll 1d6", store_history=False)
    assert current_session() is session and len(session.log) == 2


def test_a_reloaded_extension_builds_a_new_session(ip):
    with capture_output():
        ip.run_cell("%roll 3d+2", store_history=False)
    first = current_session()
    ip.run_line_magic("reload_ext", "gamekernel")
    assert kernel_magics()._session is None
    assert current_session() is not first
