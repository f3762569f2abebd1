"""The public `Session`: the core (gamekernel/session.py) with each rule set's handle as a typed
attribute - `Session(seed=7).roll("3d+2")`, `session.gurps.check("Lockpicking-5")`,
`session.gw.draw("Rin")`, `session.mtg.check("green 2")`, a plug-in's `session.rules["coin"]`.

Why a module of its own: the core sits below nothing it names, so it never imports a rule set; the
handles' types are named here, above the rule sets (beside the magics that call them), and only for
the type checker: at run time every handle comes from its rule set's `RuleSet` declaration
(`session.rules`), so `%load_ext` imports nothing more than it did and a plug-in's handle is made
the same way as a built-in one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from gamekernel.actions.campaign import CampaignActions
from gamekernel.cards.actions import Cards
from gamekernel.rolltables.actions import RollTables
from gamekernel.table.seats import Seats
from gamekernel.teaching.actions import Teaching

if TYPE_CHECKING:
    from gamekernel.gammaworld.actions import GammaWorld
    from gamekernel.gurps.actions import Gurps
    from gamekernel.gurps.combat_actions import Combat
    from gamekernel.mtg.actions import Mtg

__all__ = ["Session"]


class Session(CampaignActions):
    """One table: `Session(seed=7).roll("3d+2")`, `session.gurps.check("Stealth")`. The magics hold
    one per kernel."""

    def _make_public_table(self) -> Any:
        from gamekernel.remote.projection import PublicTable

        return PublicTable(self)

    @property
    def cards(self) -> Cards:
        """A free card table for any game (gamekernel/cards/actions.py)."""
        return self.feature(Cards)

    @property
    def seats(self) -> Seats:
        """The remote table's seats: who plays whom, asks, reveals (gamekernel/table/seats.py)."""
        return self.feature(Seats)

    @property
    def rolltables(self) -> RollTables:
        """Rollable tables: define, load, odds, roll for an audience (gamekernel/rolltables/actions.py)."""
        return self.feature(RollTables)

    @property
    def teaching(self) -> Teaching:
        """Explain mode and quizzes (gamekernel/teaching/actions.py)."""
        return self.feature(Teaching)

    @property
    def gurps(self) -> Gurps:
        """GURPS Lite: characters, checks, contests, reactions, damage (gamekernel/gurps/actions.py)."""
        return cast("Gurps", self.rules["gurps"])

    @property
    def combat(self) -> Combat:
        """GURPS combat: the fight, maneuvers, attacks, defenses, injuries (gamekernel/gurps/combat_actions.py)."""
        return cast("Combat", self.rules["combat"])

    @property
    def gw(self) -> GammaWorld:
        """Gamma World alpha mutation decks (gamekernel/gammaworld/actions.py)."""
        return cast("GammaWorld", self.rules["gw"])

    @property
    def mtg(self) -> Mtg:
        """The MtG-card house rule: libraries, checks, boosts, scenes (gamekernel/mtg/actions.py)."""
        return cast("Mtg", self.rules["mtg"])
