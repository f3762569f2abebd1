"""gamekernel: run tabletop role-playing sessions from a Jupyter notebook.

`%load_ext gamekernel` registers the magics; `from gamekernel import Session` gives the same
operations from plain Python.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["Session", "__version__", "load_ipython_extension", "unload_ipython_extension"]


def __getattr__(name: str):
    # Lazy, so `import gamekernel` (and `%load_ext`) stays cheap.
    if name == "Session":
        from gamekernel.table_session import Session

        return Session
    raise AttributeError(name)


def load_ipython_extension(ipython) -> None:
    """Register the magics (called by `%load_ext gamekernel`)."""
    from gamekernel.magics import load

    load(ipython)


def unload_ipython_extension(ipython) -> None:
    """Remove the magics (called by `%unload_ext gamekernel`)."""
    from gamekernel.magics import unload

    unload(ipython)
