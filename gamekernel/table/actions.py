"""What the tracker and the table dashboard ask the session: fighters joining or leaving a running
fight (events with a reducer, like every combat step), the defenses a pending attack offers, and
`table_view` - the plain facts of every character at the table in one call."""

from __future__ import annotations

from typing import Any

from gamekernel.errors import UsageError
from gamekernel.events import register_event
from gamekernel.gurps.combat_ops import apply_combat_event, op
from gamekernel.gurps.combat_part import CHANGES, PART, CombatPart, running_fight
from gamekernel.gurps.rules import combat as cb
from gamekernel.gurps.rules.combat.roster import leave_fight
from gamekernel.gurps.rules.damage import DamageSpec, damage_type
from gamekernel.host import HostBase
from gamekernel.i18n import t

MOST_DAMAGE = 10_000


@op("leave")
def _op_leave(part: CombatPart, args, tape):
    fight, name = leave_fight(running_fight(part), args["name"])
    roster = {**part.roster, name: running_fight(part).get(name)}
    return {"fight": fight, "roster": roster}, ("lines", [t("table.left", name=name)])


@op("damage_amount")
def _op_damage_amount(part: CombatPart, args, tape):
    """Basic damage rolled at the table (`7 cut`): through DR and wounding like rolled damage."""
    amount, kind = int(args["amount"]), args["kind"]
    spec = DamageSpec(0, amount, kind, "", f"{amount} {kind}")
    fight, report = cb.damage(running_fight(part), args["name"], spec, tape, attacker=args.get("attacker", ""))
    return {"fight": fight}, ("damage", report)


for _name in ("leave", "damage_amount"):
    register_event(f"combat.{_name}", apply=apply_combat_event, changes=CHANGES)


class TableActions(HostBase):
    """The tracker's and the dashboard's session calls (each change one event, undoable)."""

    def combat_join(self, spec: str):
        """Bring someone into the running fight in initiative order: a template (`Goblin`), quick
        stats (`Orc{ST=12,DX=11}`) or a session character (`Rin`)."""
        if not spec.strip():
            raise UsageError(t("table.err.join_who"))
        running_fight(self.state[PART])
        return self.combat_add(spec.strip())

    def combat_damage_amount(self, name: str, amount: int, kind: str = "cr", *, attacker: str = ""):
        """Apply basic damage the players rolled themselves (`combat_damage_amount("Orc", 7, "cut")`)."""
        amount = int(amount)
        if not 0 <= amount <= MOST_DAMAGE:
            raise UsageError(t("table.err.amount", amount=amount, most=f"{MOST_DAMAGE:,}"))
        return self._combat("damage_amount", {"name": name, "amount": amount, "kind": damage_type(kind or "cr"),
                                              "attacker": attacker})

    def combat_leave(self, name: str):
        """Take `name` out of the running fight; the others keep their order."""
        return self._combat("leave", {"name": name})

    def combat_offered(self) -> tuple[str, tuple[tuple[str, int], ...]]:
        """The defender of the pending attack and the defenses he may roll with their values
        (what `%defend` rolls), or ("", ()) when no attack waits."""
        fight = self.state[PART].fight
        if fight is None or fight.over or fight.pending is None:
            return "", ()
        p = fight.pending
        offered = cb.defense_options(fight, p.target, p.incoming, attacker=p.attacker, tried=p.tried,
                                     unheard=p.hearing == "unheard")
        return p.target, tuple(offered)

    def combat_due(self) -> tuple[str, tuple[str, ...]]:
        """The active fighter and the rolls he must make before acting ("consciousness": HT at
        HP <= 0, "will": Will at FP <= 0, "stunned"); rolled when he picks a maneuver."""
        fight = self.state[PART].fight
        if fight is None or fight.over:
            return "", ()
        c = fight.current
        return c.name, cb.checks_due(c) if not c.chosen else ()

    def combat_after_rolls(self) -> tuple[tuple[str, str], ...]:
        """After a fight: who owes which roll - ("Bren", "mortal") for the 30-minute HT roll of a
        mortal wound (GURPS-INJ-10), ("Orc", "wake") for the roll to wake up (INJ-13..15)."""
        fight = self.state[PART].fight
        if fight is None or not fight.over:
            return ()
        out = []
        for c in fight.combatants:
            if c.dead or c.destroyed:
                continue
            if c.mortal:
                out.append((c.name, "mortal"))
            elif c.unconscious:
                out.append((c.name, "wake"))
        return tuple(out)

    def table_view(self, *, gm: bool = False) -> dict[str, Any]:
        """Every character of the session as plain facts, for the table dashboard: GURPS HP/FP and
        condition, Gamma World readied alpha cards and pending flux, MtG library, known top cards
        and boost; plus whose turn it is in a running fight. As the table sees it (`players_facts`),
        or with `gm` the truth, marked `gm` (the dashboard says it is the GM's view)."""
        from gamekernel.table.view import players_facts, table_facts

        if gm:
            return {**table_facts(self, gm=True), "gm": True}
        return players_facts(self)

