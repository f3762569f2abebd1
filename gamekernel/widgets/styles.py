"""Widget stylesheets: the shared theme (JupyterLab variables, fonts) first, then the widget's own."""

from __future__ import annotations

from gamekernel.widgets.base import asset


def themed(name: str) -> str:
    """`widgets/theme.css` + `widgets/<name>`: one palette for every widget (see render/html.py)."""
    return asset("theme.css").read_text(encoding="utf-8") + "\n" + asset(name).read_text(encoding="utf-8")
