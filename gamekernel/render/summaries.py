"""The one-line log text of every event kind, drawn when the log is viewed, in the current language.

Events hold inputs and outcomes only (dice faces, targets, results, the names involved); these
renderers turn them into `%log` lines, undo notices and exports. Events written by earlier
versions carried their text (a combat `summary`, a roll's `breakdown`): they are drawn from their
facts like new ones, and only a fact an old event lacks (whose turn began, for an old
`combat.next`) falls back to the text it stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gamekernel.dice import RollResult
from gamekernel.display import summarizes
from gamekernel.gammaworld.render import step_summary
from gamekernel.gammaworld.rules.state import Step
from gamekernel.gurps.combat_render import label
from gamekernel.gurps.render import char_change_text, char_update_text
from gamekernel.gurps.rules.checks import SuccessRoll
from gamekernel.gurps.rules.contests import QuickContest, RegularContest
from gamekernel.gurps.rules.damage import DamageRoll
from gamekernel.gurps.rules.fright import FrightCheck
from gamekernel.gurps.rules.influence import InfluenceResult
from gamekernel.gurps.rules.reactions import ReactionRoll
from gamekernel.gurps.rules.selfcontrol import SelfControlRoll
from gamekernel.i18n import t
from gamekernel.mtg.rules.facts import display_name

Data = Mapping[str, Any]

# ---------------------------------------------------------------- core, campaign, cards


@summarizes("seed")
def _seed(d: Data) -> str:
    return t("core.event.seed", seed=d["seed"])


@summarizes("secret.entropy")
def _secret_entropy(d: Data) -> str:
    """The GM's log only: the event is secret, so players see no more than "secret"."""
    return t("core.event.secret_entropy", entropy=d["entropy"])


@summarizes("roll")
def _roll(d: Data) -> str:
    """The roll's working, rebuilt from its faces (so "Success" follows the language)."""
    result = d["result"]
    try:
        breakdown = RollResult.from_dict(result).breakdown
    except Exception:  # an old event whose expression this version no longer reads: its stored text
        if "breakdown" not in result:
            raise
        breakdown = result["breakdown"]
    return f"{result['label']}: {breakdown}" if result.get("label") else breakdown


@summarizes("note")
def _note(d: Data) -> str:
    return t("core.event.note", text=d["text"])


@summarizes("session.date")
def _session_date(d: Data) -> str:
    return t("core.event.session_date", date=d["date"])


def _table_summary(kind: str) -> Callable[[Data], str]:
    def summary(d: Data) -> str:
        return t(f"core.event.{kind}", **d)

    return summary


for _kind in ("table.seat", "table.unseat", "table.ask", "table.answer", "table.reveal", "table.disclose",
              "table.approval", "table.hide"):
    summarizes(_kind)(_table_summary(_kind))


@summarizes("undo")
def _undo(d: Data) -> str:
    return t("core.event.undo", count=len(d["seqs"]))


@summarizes("redo")
def _redo(d: Data) -> str:
    return t("core.event.redo", count=len(d["seqs"]))


@summarizes("campaign.open")
def _campaign_open(d: Data) -> str:
    return t("campaign.event.open", name=d["name"], session=d["session"], events=d["events"])


def _card_op(op: Data) -> str:
    kind = op.get("op")
    if kind == "add_zone":
        return t("cards.event.add_zone", zone=op["info"]["name"])
    if kind == "set_policy":
        return t("cards.event.set_policy", zone=op["zone"])
    if kind == "create":
        return t("cards.event.create", count=len(op["uids"]), zone=op["zone"])
    if kind == "destroy":
        return t("cards.event.destroy", count=len(op["uids"]))
    if kind == "shuffle":
        return t("cards.event.shuffle", zone=op["zone"])
    if kind == "move":
        return t("cards.event.move", count=len(op["uids"]), zone=op["to"])
    if kind == "set":
        if op.get("reveal_to"):
            return t("cards.event.reveal", count=len(op["uids"]), names=", ".join(op["reveal_to"]))
        if op.get("tapped") is not None:
            return t("cards.event.tap" if op["tapped"] else "cards.event.untap", count=len(op["uids"]))
        return t("cards.event.flip", count=len(op["uids"]))
    return str(kind)


@summarizes("cards.batch")
def _cards_batch(d: Data) -> str:
    """What a batch did, from its operations (the batch's own label is a programmer's note)."""
    lines = list(dict.fromkeys(_card_op(op) for op in d.get("ops", ())))
    if not lines:
        return t("cards.batch", label=d.get("label", ""), count=len(d.get("uids", ())))
    return "; ".join(lines)


# ---------------------------------------------------------------- gamma world


@summarizes("gw.*")
def _gamma_world(d: Data) -> str:
    return step_summary(Step.from_dict(d))


# ---------------------------------------------------------------- gurps


@summarizes("gurps.char.set")
def _char_set(d: Data) -> str:
    """What a sheet edit changed; older events without the change: the name only."""
    name = d["character"]["name"]
    if not d.get("change"):
        return t("gurps.event.char_set", name=name)
    return char_change_text(name, d["change"])


@summarizes("gurps.char.update")
def _char_update(d: Data) -> str:
    """"Aiko: DX 12 → 13" when the event kept the values before the edit, else "Aiko: dx=13"."""
    if "before" not in d:
        return t("gurps.event.char_update", name=d["name"],
                 changes=", ".join(f"{k}={v}" for k, v in d["changes"].items()))
    return char_update_text(d["name"], d["changes"], d["before"])


@summarizes("gurps.char.use")
def _char_use(d: Data) -> str:
    return t("gurps.event.char_use", name=d["name"])


@summarizes("gurps.char.save")
def _char_save(d: Data) -> str:
    return t("gurps.event.char_save", name=d["name"], path=d["path"])


_GURPS_RESULTS: dict[str, Callable[[dict], object]] = {  # each kind's result, rebuilt from the event
    "gurps.check": SuccessRoll.from_dict, "gurps.contest": QuickContest.from_dict,
    "gurps.regular_contest": RegularContest.from_dict, "gurps.react": ReactionRoll.from_dict,
    "gurps.influence": InfluenceResult.from_dict, "gurps.damage": DamageRoll.from_dict,
    "gurps.fright": FrightCheck.from_dict, "gurps.self_control": SelfControlRoll.from_dict,
}


def _gurps_result(kind: str) -> Callable[[Data], str]:
    rebuild = _GURPS_RESULTS[kind]

    def summary(d: Data) -> str:
        return str(rebuild(d["result"]))

    return summary


for _kind in _GURPS_RESULTS:
    summarizes(_kind)(_gurps_result(_kind))


@summarizes("gurps.luck")
def _luck(d: Data) -> str:
    return t("gurps.event.luck", name=d["result"]["actor"], total=d["result"]["kept"]["total"])


@summarizes("gurps.luck.reset")
def _luck_reset(d: Data) -> str:
    return t("gurps.event.luck_reset", names=", ".join(d["names"]) or "—", minutes=d.get("minutes") or "—")


# ---------------------------------------------------------------- mtg


@summarizes("mtg.library")
def _mtg_library(d: Data) -> str:
    return t("mtg.event.library", actor=d["actor"], count=d["deck"]["main"], source=d["deck"]["source"])


@summarizes("mtg.check")
def _mtg_check(d: Data) -> str:
    r = d["result"]
    verdict = t("mtg.check.success" if r["success"] else "mtg.check.failure")
    names = d.get("ja_names", {})  # an event of an earlier version has none: the English names
    return t("mtg.event.check", actor=d["actor"], kind=t(f"mtg.kind.{r['kind']}"), difficulty=r["difficulty"],
             first=display_name(r["first"], names.get(r["first"])), target=r["target"],
             second=display_name(r["second"], names.get(r["second"])), achievement=r["achievement"],
             verdict=verdict)


@summarizes("mtg.boost")
def _mtg_boost(d: Data) -> str:
    return t("mtg.event.boost", actor=d["actor"], bonus=d["result"]["bonus"], achievement=d["result"]["achievement"])


@summarizes("mtg.scene")
def _mtg_scene(d: Data) -> str:
    return t("mtg.event.scene", scene=d["scene"])


@summarizes("mtg.peek")
def _mtg_peek(d: Data) -> str:
    return t("mtg.event.peek", actor=d["actor"], count=d["count"])


@summarizes("mtg.reset")
def _mtg_reset(d: Data) -> str:
    return t("mtg.event.reset", actor=d["actor"])


@summarizes("mtg.config")
def _mtg_config(d: Data) -> str:
    return t("mtg.event.config", changes=", ".join(f"{k}={v}" for k, v in d["changes"].items()))


# ---------------------------------------------------------------- gurps combat


def _combat_outcome(outcome: Data | None, verdict: str) -> str:
    """`: hit`, `: miss, injury 4`, `: defended`...: what an attack, defense or damage event decided
    (empty for an event written before outcomes were kept)."""
    if outcome is None:
        return ""
    parts = []
    if verdict and outcome.get(verdict) is not None:
        parts.append(t(f"combat.outcome.{verdict}.{'yes' if outcome[verdict] else 'no'}"))
    if outcome.get("injury") is not None:
        parts.append(t("combat.outcome.injury", injury=outcome["injury"]))
    return t("combat.outcome.sep") + ", ".join(parts) if parts else ""


def _combat_line(op: str, args: Data, d: Data) -> str:
    name = args.get("name", "")
    if op == "npc":
        return t("combat.event.npc", name=name)
    if op == "add":
        return t("combat.event.add", name=args["combatant"]["name"])
    if op == "start":
        return t("combat.event.start", names=", ".join(c["name"] for c in args["combatants"]))
    if op == "end":
        return t("combat.event.end")
    if op == "next":
        outcome = d.get("outcome")
        if outcome is None:  # written before outcomes were kept: the text it stored
            return str(d.get("summary") or op)
        return t("combat.event.next", name=outcome["started"], ended=outcome["ended"], round=outcome["round"])
    if op == "maneuver":
        return t("combat.event.maneuver", name=name, maneuver=label(args["maneuver"]))
    if op == "posture":
        return t("combat.event.posture", name=name, posture=label(args["posture"]))
    if op == "attack":
        line = t("combat.event.attack", attacker=args["attacker"], target=args["target"])
        return line + _combat_outcome(d.get("outcome"), "hit")
    if op == "defend":
        line = t("combat.event.defend", name=name, kind=label(args["kind"]))
        return line + _combat_outcome(d.get("outcome"), "defended")
    if op == "damage":
        return t("combat.event.damage", name=name, spec=args["spec"]) + _combat_outcome(d.get("outcome"), "")
    if op == "arm":
        return f"{name}: {args['weapon']}"
    if op == "hazard":
        return t("combat.event.hazard", name=name, hazard=t(f"combat.hazard_kind.{args['hazard']}"))
    if op == "firstaid":
        return t("combat.event.firstaid", name=name)
    if op == "rest":
        return t("combat.event.rest", name=name, minutes=args["minutes"])
    if op == "natural_healing":
        return t("combat.event.natural_healing", name=name, days=args["days"])
    if op == "wake":
        return t("combat.event.wake", name=name)
    if op == "mortal":
        return t("combat.event.mortal", name=name)
    if op == "cast":
        return t("combat.event.cast", name=name, spell=args["spell"])
    if op == "join":
        return t("table.event.join", name=args["combatant"]["name"])
    if op == "leave":
        return t("table.event.leave", name=name)
    if op == "damage_amount":
        return t("combat.event.damage", name=name, spec=f"{args['amount']} {args['kind']}")
    return str(d.get("summary") or op)


@summarizes("combat.*")
def _combat(d: Data) -> str:
    return _combat_line(d["op"], d.get("args", {}), d)
