"""Rendering of results to text/plain and self-contained, escaped, deterministic text/html.

Each module registers its renderers (result type -> text/plain, text/html) and event summaries
with gamekernel.display when imported; `register_all` imports them all (the shared ones, each rule
set's as its declaration names them, the cross-rule-set features'), and the core calls it once, on
the first display (importing one render module, e.g. for a widget, loads only that one).
"""

from __future__ import annotations


def register_all() -> None:
    import gamekernel.cards.render
    import gamekernel.dice.render
    import gamekernel.render.campaign
    import gamekernel.render.commands
    import gamekernel.render.log
    import gamekernel.render.summaries
    import gamekernel.render.wrappers
    import gamekernel.rolltables.render
    import gamekernel.table.render
    import gamekernel.teaching.render_explain
    import gamekernel.teaching.render_explore
    import gamekernel.teaching.render_quiz  # noqa: F401
    from gamekernel.rulesets import rule_sets

    for declared in rule_sets():
        declared.renderers()
