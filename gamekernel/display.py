"""The display protocol every result shares: text/plain and text/html, published in one step.

IPython tries each of its eleven formatters on every displayed object (svg, png, latex, json ...);
our results only ever have text/plain and text/html, so `_ipython_display_` publishes those two
directly, which halves the cost of showing a result. Nothing is imported from IPython until a
result is actually displayed, so the rules stay usable from a plain script.
"""

from __future__ import annotations


class Displayable:
    """Mixin for result objects that define `__repr__` and `_repr_html_`."""

    __slots__ = ()

    def _ipython_display_(self) -> None:
        from IPython.display import publish_display_data

        publish_display_data({"text/plain": repr(self), "text/html": self._repr_html_()})
