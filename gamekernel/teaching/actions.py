"""Explain mode in the session (the `session.teaching` handle): `session.teaching.explain(seq)` explains an event of the
log from its stored outcome (a teaching feature). The steps are computed by gamekernel.teaching.explain; this
module only finds the facts an event refers to (card facts, card names, a fight's report rebuilt by
replaying the log up to that event)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gamekernel.errors import NotFoundError, RuleError, UsageError
from gamekernel.events import Event, kind_word, register_event
from gamekernel.gammaworld.actions import GammaWorld
from gamekernel.gurps.actions import Gurps
from gamekernel.gurps.rules.checks import SuccessRoll
from gamekernel.gurps.rules.contests import QuickContest
from gamekernel.gurps.rules.damage import DamageRoll
from gamekernel.i18n import t
from gamekernel.lessons import EXPLAINERS
from gamekernel.mtg.actions import Mtg
from gamekernel.rulesets import RuleSetHandle
from gamekernel.teaching import explain as ex

if TYPE_CHECKING:  # the public Session it acts on (`table`): for the type checker only
    pass

register_event("quiz.start", changes=())  # the questions drawn (an outcome of the RNG), so the log replays them
register_event("quiz.answer", changes=())  # one answer, whether it was right, and the running score

COMBAT_EXPLAINED = {"attack": ex.attack_explanation, "defend": ex.defense_explanation,
                    "damage": ex.combat_damage_explanation}


class Teaching(RuleSetHandle):
    """Teaching on one table (`session.teaching`): `explain`, the working of any roll, check or card
    rule already in the log; `quiz` and `quiz_answer`, questions drawn from the rules engine, answers
    and scores logged."""

    name = "teaching"

    def quiz(self, rule_set: str, count: int = 3) -> int:
        """Draw `count` questions on `rule_set` (gurps, mtg, alpha) with the session RNG; returns the
        event number that identifies the quiz."""
        from gamekernel.teaching.quiz import make_quiz

        questions = make_quiz(rule_set, count, self.table.rng)
        return self.table.record("quiz.start", {"set": rule_set, "questions": questions}).seq

    def quiz_state(self, quiz: int) -> dict[str, Any]:
        """The quiz's questions and the answers given so far (undone answers left out)."""
        start = next((e for e in self.table.active if e.seq == quiz and e.kind == "quiz.start"), None)
        if start is None:
            raise NotFoundError(t("quiz.err.no_quiz", quiz=quiz))
        answers = {e.data["number"]: e.data for e in self.table.active
                   if e.kind == "quiz.answer" and e.data.get("quiz") == quiz}
        return {"quiz": quiz, "set": start.data["set"], "questions": start.data["questions"], "answers": answers}

    def quiz_answer(self, quiz: int, number: int, choice: int) -> dict[str, Any]:
        """Answer question `number` (1-based) with choice `choice` (0-based); logged with the score."""
        from gamekernel.teaching.quiz import is_correct

        state = self.quiz_state(quiz)
        questions = state["questions"]
        if not 1 <= number <= len(questions):
            raise UsageError(t("quiz.err.number", number=number, count=len(questions)))
        if number in state["answers"]:
            raise RuleError(t("quiz.err.answered", number=number))
        correct = is_correct(questions[number - 1], choice)
        right = sum(1 for a in state["answers"].values() if a["correct"]) + correct
        data = {"quiz": quiz, "set": state["set"], "number": number, "choice": choice, "correct": correct,
                "right": right, "answered": len(state["answers"]) + 1, "of": len(questions)}
        self.table.record("quiz.answer", data)
        return data

    def explain(self, seq: int | None = None, *, result: Any = None) -> ex.Explained:
        """The steps of event `seq` (default: the last event that has any), shown with `result`."""
        if seq is None:
            for earlier in reversed(self.table.log):
                found = self.explain_event(earlier)
                if found is not None and not earlier.secret:
                    return ex.Explained(result, (found,), earlier.seq, earlier.by)
            raise NotFoundError(t("explain.err.empty"))
        event = next((e for e in self.table.log if e.seq == seq), None)
        if event is None:
            log = self.table.log
            raise NotFoundError(t("explain.err.no_event", seq=seq, last=log[-1].seq if log else 0))
        if event.secret:
            raise RuleError(t("explain.err.secret", seq=seq))
        found = self.explain_event(event)
        if found is None:
            raise RuleError(_nothing_to_explain(event))
        return ex.Explained(result, (found,), event.seq, event.by)

    def explain_since(self, mark: int, result: Any) -> ex.Explained:
        """`--explain`: `result` with the steps of every explainable event it recorded (log[mark:])."""
        found = tuple(e for e in (self.explain_event(ev) for ev in self.table.log[mark:] if not ev.secret) if e)
        return ex.Explained(result, found)

    def explain_event(self, event: Event) -> ex.Explanation | None:
        """The explanation of one event, or None for a kind that decides nothing by a rule."""
        kind, data = event.kind, event.data
        if kind == "gurps.check":
            roll = SuccessRoll.from_dict(data["result"])
            return ex.check_explanation(roll, self._skill_step(roll))
        if kind == "gurps.contest":
            return ex.contest_explanation(QuickContest.from_dict(data["result"]))
        if kind == "gurps.damage":
            return ex.damage_explanation(DamageRoll.from_dict(data["result"]))
        if kind == "mtg.check":
            return ex.mtg_check_explanation({"actor": data["actor"], **data["result"]}, is_land=self._is_land,
                                            shown=self._card_shown)
        if kind == "mtg.boost":
            boosted = {"actor": data["actor"], **data.get("result", data)}
            return ex.mtg_boost_explanation(boosted, self._check_before(event))
        if kind == "gw.overcharge":
            detail = data["detail"]
            return ex.overcharge_explanation(detail, self._gw_card_name(detail["card_id"]), event.actor or "")
        if kind == "gw.flux_pending":
            return ex.flux_pending_explanation(data["detail"], event.actor or "")
        if kind == "gw.flux":
            return ex.flux_explanation(data["detail"], event.actor or "", self._gw_card_name)
        if kind == "combat.hazard":
            return self._hazard_explanation(event)
        if kind.startswith("combat.") and data.get("op") in COMBAT_EXPLAINED:
            report = self._combat_report(event)
            found = None if report is None else COMBAT_EXPLAINED[data["op"]](report)
            return _with_nested(found, data)
        if kind.startswith("combat.") and data.get("rolls"):  # a maneuver, a turn, a spell: its inner rolls
            return _with_nested(None, data)
        explainer = EXPLAINERS.get(kind)  # a rule set's own (gamekernel/lessons.py), registered from above
        return None if explainer is None else explainer(data, event.actor)

    # -- facts the events refer to -------------------------------------------------------------
    def _skill_step(self, roll: SuccessRoll) -> ex.Step | None:
        """How the actor's sheet reaches the rolled skill level, if the sheet still gives that level."""
        from gamekernel.errors import GameKernelError

        if roll.kind != "skill" or not roll.actor or not roll.label:
            return None
        try:
            character = Gurps.of(self.table).character(roll.actor)
            level = character.skill_level(roll.label)
        except GameKernelError:
            return None
        if level.level != roll.base:
            return None
        entry = character.find_skill_entry(roll.label)
        difficulty = (entry.difficulty if entry else "") or _skill_difficulty(level.name)
        return ex.skill_step(level, difficulty, entry.points if entry else 0)
    def _card_shown(self, name: str) -> str:
        """A card's name as the current language prints it (its Japanese printed name in ja, when known)."""
        try:
            facts = (self.table.state["mtg"].card_facts(name) if name in self.table.state["mtg"].facts
                     else Mtg.of(self.table).facts.lookup(name))
        except Exception:  # an unknown card keeps the name the log holds
            return name
        return facts.shown_name

    def _is_land(self, name: str) -> bool:
        facts = self.table.state["mtg"].facts.get(name)
        if facts is not None:
            return self.table.state["mtg"].card_facts(name).is_land
        try:
            return Mtg.of(self.table).facts.lookup(name).is_land
        except Exception:  # an unknown card is simply not explained as a land
            return False

    def _gw_card_name(self, card_id: str) -> str:
        try:
            return GammaWorld.of(self.table).state.catalog.card(card_id).name
        except Exception:  # a card of a catalog no longer loaded: its id
            return card_id

    def _check_before(self, event: Event) -> dict | None:
        for earlier in reversed(self.table.log):
            if earlier.seq < event.seq and earlier.kind == "mtg.check" and earlier.actor == event.actor:
                return earlier.data["result"]
        return None

    def _hazard_explanation(self, event: Event) -> ex.Explanation | None:
        """Expose the person as they were just before the event to the same hazard with its dice."""
        from gamekernel.gurps.combat_part import PART, lend_characters
        from gamekernel.gurps.rules import hazards as hz
        from gamekernel.gurps.rules.combat import Tape
        from gamekernel.replay import active_events, replay

        args = event.data["args"]
        state = replay(active_events([e for e in self.table.log if e.seq < event.seq])[0])
        part = state[PART]
        lend_characters(state, part)
        try:
            c = part.person(args["name"])
            options = {k: v for k, v in args.items() if k not in ("name", "hazard")}
            outcome = hz.expose(args["hazard"], Tape(faces=event.data["faces"]).d6, ht=c.ht, hp_max=c.hp_max,
                                dr=c.dr, dx=c.dx, **options)
        except Exception:  # a hazard that no longer replays is not explained
            return None
        return ex.hazard_explanation(outcome, c.name, float(args.get("metres", 0)))

    def _combat_report(self, event: Event) -> Any:
        """Rerun a combat event's operation with its recorded dice on the state just before it."""
        from gamekernel.gurps.combat_ops import OPS
        from gamekernel.gurps.combat_part import PART, lend_characters
        from gamekernel.gurps.rules.combat import Tape
        from gamekernel.replay import active_events, replay

        before = [e for e in self.table.log if e.seq < event.seq]
        state = replay(active_events(before)[0])
        part = state[PART]
        lend_characters(state, part)
        try:
            _, (_kind, report) = OPS[event.data["op"]](part, event.data["args"], Tape(faces=event.data["faces"]))
        except Exception:  # a fight that no longer replays is not explained
            return None
        return report


def _skill_difficulty(name: str) -> str:
    from gamekernel.gurps.rules.skills import maybe_skill

    definition = maybe_skill(name)
    return definition.difficulty if definition else ""


def _nothing_to_explain(event: Event) -> str:
    """Why event `event` has no steps: a plain roll is named as such (its dice are its whole result),
    so the refusal never lists "rolls" among what is explained while refusing one."""
    if event.kind == "roll":
        return t("explain.none_roll", seq=event.seq)
    return t("explain.none", seq=event.seq, kind=kind_word(event.kind))


def _with_nested(found: ex.Explanation | None, data: Mapping[str, Any]) -> ex.Explanation | None:
    """`found` with the rolls its step made inside itself (stay conscious, knockdown, death checks,
    concentration ...) as further steps; a step that explains nothing else explains those."""
    rolls = data.get("rolls") or ()
    if not rolls:
        return found
    args = data.get("args") or {}
    steps = ex.nested_roll_steps(rolls, str(args.get("name") or args.get("attacker") or args.get("target") or ""))
    if found is None:
        return ex.Explanation(tuple(steps), None, "explain.title.nested", {"what": data.get("op", "")})
    return replace(found, steps=(*found.steps, *steps))
