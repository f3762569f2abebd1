"""Session operations of this rule set (a mixin of Session): resolve names, take dice from the
session RNG, call the rules in gamekernel/systems, record the outcome as events."""


class GurpsActions:
    """Filled in by the rule set's integration."""
