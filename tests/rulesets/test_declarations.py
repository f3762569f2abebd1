"""Every rule set is declared once (gamekernel/rulesets.py) and everything that lists rule sets reads
the declarations: the Session's operations, the magics, the renderers, the catalogs, the command groups."""

from __future__ import annotations

import inspect

from gamekernel import Session
from gamekernel.rulesets import BUILTIN, RuleSet, groups, rule_sets


def test_the_builtin_rule_sets_are_declared_by_their_packages():
    assert [r.package for r in rule_sets()[: len(BUILTIN)]] == list(BUILTIN)
    assert [r.name for r in rule_sets()[: len(BUILTIN)]] == ["gurps", "gammaworld", "mtg"]
    assert all(isinstance(r, RuleSet) for r in rule_sets())


def test_session_methods_of_a_rule_set_carry_its_event_prefix():
    """One naming scheme: a rule set's Session methods are named after the events they record
    (`combat_cast` records `combat.*`, `gw_draw` records `gw.*`), so the prefix says where a method lives."""
    for declared in rule_sets():
        prefixes = tuple(p.replace(".", "_") for p in declared.event_prefixes)
        for cls in declared.operations():
            public = [name for name, member in vars(cls).items()
                      if not name.startswith("_") and (inspect.isfunction(member) or isinstance(member, property))]
            parts = {p.rstrip("_") for p in prefixes}  # `session.gurps`: the rule set's own state part
            wrong = [name for name in public if not name.startswith(prefixes) and name not in parts]
            assert not wrong, (cls.__name__, wrong)


def test_every_group_of_commands_comes_from_a_declaration():
    assert groups() == ("core", "gurps", "combat", "gammaworld", "mtg", "campaign")


def test_every_declared_operation_is_mixed_into_the_session():
    for declared in rule_sets():
        for cls in declared.operations():
            assert issubclass(Session, cls)
