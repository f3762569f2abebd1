"""Every rule set is declared once (gamekernel/rulesets.py) and everything that lists rule sets reads
the declarations: the Session's operations, the magics, the renderers, the catalogs, the command groups."""

from __future__ import annotations

import pytest

from gamekernel import Session
from gamekernel.rulesets import BUILTIN, RuleSet, groups, rule_sets


def test_the_builtin_rule_sets_are_declared_by_their_packages():
    assert [r.package for r in rule_sets()[: len(BUILTIN)]] == list(BUILTIN)
    assert [r.name for r in rule_sets()[: len(BUILTIN)]] == ["gurps", "gammaworld", "mtg"]
    assert all(isinstance(r, RuleSet) for r in rule_sets())


def test_a_rule_sets_handles_carry_its_event_prefixes():
    """One naming scheme: a handle is named after the events it records (`session.combat` records
    `combat.*`, `session.gw` records `gw.*`), so the attribute says where an operation lives."""
    for declared in rule_sets():
        for cls in declared.handles():
            assert declared.owns_event(f"{cls.name}.x"), (declared.name, cls.name)


def test_every_group_of_commands_comes_from_a_declaration():
    assert groups() == ("core", "gurps", "combat", "gammaworld", "mtg", "campaign")


def test_every_declared_handle_is_a_typed_attribute_of_the_session():
    """The built-in handles are typed properties of the public Session (a misspelt operation is a
    type error, tests/core/test_typing_probe.py), each the handle `session.rules` makes, once."""
    session = Session(seed=1)
    for declared in rule_sets():
        for cls in declared.handles():
            assert isinstance(getattr(type(session), cls.name), property), cls.name
            assert getattr(session, cls.name) is session.rules[cls.name], cls.name
            assert isinstance(session.rules[cls.name], cls) and session.rules[cls.name].table is session


def test_the_pages_actions_are_the_rule_sets_declarations():
    """What a player may send (`RuleSet.player_actions`) and what the GM's `%table` clicks do
    (`.dashboard_actions`, `.dashboard_labels`) come from each rule set's own module; the remote
    table and the dashboard list them in the rule sets' order and name none."""
    from gamekernel.mtg.render import colour_name
    from gamekernel.rulesets import dashboard_actions, dashboard_labels, player_actions

    owners = {name: r.name for r in rule_sets() for name in (r.player_actions() if r.player_actions else {})}
    assert list(player_actions()) == ["attack", "defend", "draw", "tap", "overcharge", "boost"]
    assert owners == {"attack": "gurps", "defend": "gurps", "draw": "gammaworld", "tap": "gammaworld",
                      "overcharge": "gammaworld", "boost": "mtg"}
    assert sorted(dashboard_actions()) == ["check", "encounter_end", "encounter_start", "end_fight", "flux", "next",
                                           "scene", "tap", "untap"]
    assert dashboard_actions()["next"].__module__ == "gamekernel.gurps.intents"
    assert dashboard_labels()["colours"][0] == ["white", colour_name("white")]


def test_two_rule_sets_may_not_claim_one_action(monkeypatch):
    from dataclasses import replace

    from gamekernel import rulesets

    twice = [*rulesets.rule_sets(), replace(rulesets.rule_set("mtg"), name="other")]
    monkeypatch.setattr(rulesets, "rule_sets", lambda: tuple(twice))
    rulesets.player_actions.cache_clear()
    try:
        with pytest.raises(RuntimeError, match="player action 'boost' is another rule set's"):
            rulesets.player_actions()
    finally:
        rulesets.player_actions.cache_clear()


def test_the_dashboard_text_is_each_rule_set_s_section_then_the_boards():
    """`%table`'s text: the rule sets' own sections (`RuleSet.dashboard_section`) in their order, a
    rule set with nobody at the table leaving none, then the rows declared as data."""
    from gamekernel.table.render import sections

    view = {"gurps": [], "gamma": [{"name": "Rin", "cards": [], "flux": 0}], "mtg": [],
            "boards": {"x": {"title": "t", "columns": ["c"], "rows": [["r"]]}}}
    assert [title for title, _, _ in sections(view)] == ["Gamma World", "t"]
    assert sections(view)[0][2] == [["Rin", "—", "0"]]
