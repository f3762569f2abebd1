"""The one-line log text of the shared event kinds (core, table, campaign, cards), drawn when the log
is viewed, in the current language; each rule set draws its own kinds' lines (`gamekernel/<set>/summaries.py`).

Events hold inputs and outcomes only (dice faces, targets, results, the names involved); these
renderers turn them into `%log` lines, undo notices and exports. Events written by earlier
versions carried their text (a roll's `breakdown`): they are drawn from their facts like new ones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gamekernel.dice import RollResult
from gamekernel.display import summarizes
from gamekernel.i18n import t

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


@summarizes("table.handout")
def _handout(d: Data) -> str:
    return t("remote.handout.line", name=d["name"]) + " → " + ", ".join(str(u) for u in d["to"])


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
