"""gamekernel: run tabletop role-playing sessions from a Jupyter notebook.

`%load_ext gamekernel` registers the magics; `from gamekernel import Session` gives the same
operations from plain Python.
"""

from __future__ import annotations

from gamekernel.display import on_first_display

__version__ = "0.1.0"

__all__ = ["Session", "__version__", "load_ipython_extension", "unload_ipython_extension"]


def __getattr__(name: str):
    # Lazy, so `import gamekernel` (and `%load_ext`) stays cheap.
    if name == "Session":
        from gamekernel.table_session import Session

        return Session
    raise AttributeError(name)


def _render_layer() -> None:
    """The render layer, imported on the first display: every module that draws a result or an
    event's log line registers itself with gamekernel.display."""
    from gamekernel.render import register_all

    register_all()


on_first_display(_render_layer)


def load_ipython_extension(ipython) -> None:
    """Register the magics (called by `%load_ext gamekernel`)."""
    from gamekernel.magics import load

    load(ipython)


def unload_ipython_extension(ipython) -> None:
    """Remove the magics (called by `%unload_ext gamekernel`)."""
    from gamekernel.magics import unload

    unload(ipython)
