"""A rule set written only against gamekernel's public API: a coin that is flipped.

It proves that a rule set is one package plus one entry point (`gk_coin-1.0.dist-info`): its state
part and event kind, its handle on the session (`session.rules["coin"]`), a magic, a renderer and an
event summary, its messages in both languages and its group in `%gamekernel` all come from this declaration.
"""

from __future__ import annotations

from gamekernel.rulesets import RuleSet, RuleSetHandle


def _handles() -> tuple[type[RuleSetHandle], ...]:
    from gk_coin.actions import Coin

    return (Coin,)


def _magics() -> tuple[type, ...]:
    from gk_coin.magics import CoinMagics

    return (CoinMagics,)


def _renderers() -> None:
    import gk_coin.render  # noqa: F401


RULESET = RuleSet(
    name="coin",
    package=__name__,
    groups=("coin",),
    handles=_handles,
    magics=_magics,
    renderers=_renderers,
    public_parts=("coin",),
    event_prefixes=("coin.",),
)
