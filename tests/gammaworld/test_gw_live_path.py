"""The live path of a Gamma World command (the fast one) agrees with replay: the reducer applies the
Step being recorded rather than parsing its data back, takes the scratch table a chain of card
plans already moved cards on, and a refused command gives back the dice it drew."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from gamekernel.errors import UsageError
from gamekernel.gammaworld.rules import Step, play
from gamekernel.gammaworld.rules.results import AlphaResult
from gamekernel.session import replay

from .test_gw_session import table_of_five


def test_chained_steps_recorded_live_equal_their_replay_and_hand_their_table_over() -> None:
    session = table_of_five()
    session.gw.encounter_start()
    for name in session.gw.state.characters:
        before = session.gw.state.table
        result = session.gw.flux(name, session.gw.state.readied(name)[0], force=True)  # GW-ALPHA-10: discard + draw
        assert session.gw.state.table is not before  # the chain's scratch table was taken, not the moves applied again
        assert not result.step.planned  # handed over once, then let go
        assert replay(session.active).to_dict() == session.state.to_dict()
    session.gw.encounter_end()  # GW-ALPHA-09: every hand discarded and redrawn in one step
    assert replay(session.active).to_dict() == session.state.to_dict()
    session.gw.rest()  # GW-ALPHA-11
    assert replay(session.active).to_dict() == session.state.to_dict()
    session.gw.state.table.check()


def test_a_chain_planned_before_the_table_changed_is_applied_not_taken() -> None:
    """The scratch table is taken only while the table it was copied from is unchanged: a step
    planned, then a tap recorded, then the step recorded keeps the tap."""
    session = table_of_five()
    session.gw.encounter_start()
    gw = session.gw.state
    step = play.plan_flux(gw, "Ash", gw.readied("Ash")[0], session.rng, gw.catalog, force=True)
    assert step.planned  # a discard then a draw: a chain with a scratch table
    kit = gw.readied("Kit")[0]
    session.gw.tap("Kit", kit)
    session.gw._gw_record(step, step.to_dict())
    assert session.gw.state.table.cards[kit].tapped
    assert replay(session.active).to_dict() == session.state.to_dict()


def test_a_lone_step_refused_when_recorded_gives_back_its_dice() -> None:
    """A single step is checked storable by `record` itself; refused there (a lone surrogate) after
    its planner shuffled, it leaves the RNG, the log and the state as they were."""
    session = table_of_five()
    session.gw.rest(draw=False)  # GW-ALPHA-11: decks change once every card is back
    before = (session.rng.getstate(), len(session.log), session.state.to_dict())

    def planner(gw) -> Step:
        step = play.plan_deck_add(gw, "Rin", ["GK-A01"], session.rng, gw.catalog)  # shuffles the deck
        return dataclasses.replace(step, detail={**step.detail, "note": "bad \udfff"})

    with pytest.raises(UsageError, match="U\\+DFFF"):
        session.gw._gw_one(planner)
    assert (session.rng.getstate(), len(session.log), session.state.to_dict()) == before


def test_a_step_stores_only_the_fields_it_sets() -> None:
    session = table_of_five()
    session.gw.encounter_start()
    uid = session.gw.state.readied("Rin")[0]
    session.gw.tap("Rin", uid)
    data = session.log[-1].data
    assert set(data) == {"kind", "actor", "cards", "detail"}
    assert data["cards"]["ops"] == [{"op": "set", "uids": [uid], "tapped": True}]
    assert Step.from_dict(data).to_dict() == data


def test_a_lone_planner_that_plans_nothing_is_refused_and_gives_back_its_dice() -> None:
    """The one-step path (a set-up table, one planner): nothing planned is the same one-line refusal
    as in the multi-step path, with the dice the planner drew put back."""
    session = table_of_five()
    before = (session.rng.getstate(), len(session.log), session.state.to_dict())

    def planner(gw) -> None:
        session.rng.shuffle(list(range(10)))  # draws, then plans nothing
        return None

    with pytest.raises(UsageError, match="already"):
        session.gw._gw_one(planner)
    assert (session.rng.getstate(), len(session.log), session.state.to_dict()) == before


def test_a_result_built_fast_equals_the_dataclass_and_draws_its_hands() -> None:
    session = table_of_five()
    result = session.gw.tap("Rin", session.gw.state.readied("Rin")[0])  # GW-ALPHA-08
    assert result == AlphaResult(result.step, result.snapshots, result.catalog)
    assert [hand.name for hand in result.hands] == ["Rin"] and result.hands[0].cards[0].tapped
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.step = None  # type: ignore[misc]


def test_a_draw_hands_over_the_scratch_table_it_drew_on_and_equals_its_replay() -> None:
    """GW-ALPHA-06: a draw moves its cards on the chain's scratch copy as it plans them; recorded
    live, that copy becomes the table (no move applied a second time), and replay agrees."""
    session = table_of_five()
    session.gw.character("Bren", level=4)  # GW-ALPHA-06: level 4 readies two cards, he holds one
    step = play.plan_draw(session.gw.state, "Bren", session.rng)
    assert step.planned  # the scratch copy the draw moved its card on
    before = session.gw.state.table
    session.gw._gw_record(step, step.to_dict())
    assert session.gw.state.table is not before and len(session.gw.state.readied("Bren")) == 2
    assert replay(session.active).to_dict() == session.state.to_dict()
    session.gw.state.table.check()


def test_a_steps_own_init_takes_exactly_its_fields_with_their_defaults() -> None:
    """Step builds its fields in one `__dict__` (for speed): its signature must stay the dataclass's."""
    parameters = list(inspect.signature(Step.__init__).parameters.values())[1:]
    fields = dataclasses.fields(Step)
    assert [p.name for p in parameters] == [f.name for f in fields]
    for parameter, spec in zip(parameters, fields, strict=True):
        if spec.default_factory is not dataclasses.MISSING:  # detail: None stands for a fresh dict
            assert parameter.default is None and Step("tap").detail == spec.default_factory()
        else:
            assert parameter.default == (inspect.Parameter.empty if spec.default is dataclasses.MISSING
                                         else spec.default), spec.name
    first, second = Step("tap"), Step("tap")
    assert first.detail is not second.detail  # never one dict shared by two steps
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.kind = "untap"  # type: ignore[misc]


def test_a_result_kept_shows_the_hands_right_after_its_command_whatever_came_later() -> None:
    """GW-ALPHA-08/10: a result reads its hands when first asked or just before the state next
    changes: kept across later commands, an undo and a replay, it still shows its own moment."""
    session = table_of_five()
    session.gw.encounter_start()
    first, second = session.gw.state.readied("Ash")[:2]
    tapped = session.gw.tap("Ash", first)
    expected = dataclasses.replace(session.gw.hand("Ash"))  # what the hand is right now
    session.gw.tap("Ash", second)
    fluxed = session.gw.flux("Ash", first, force=True)
    after_flux = session.gw.hand("Ash")
    session.undo()
    session.gw.untap("Ash", second)
    assert tapped.hands[0] == expected and [c.tapped for c in tapped.hands[0].cards] == [True, False, False]
    assert fluxed.hands[0] == after_flux


def test_a_result_nobody_keeps_never_reads_its_hands(monkeypatch) -> None:
    from gamekernel.gammaworld.rules import results

    session = table_of_five()
    session.gw.encounter_start()
    read: list[str] = []
    real = results.hand_snapshot
    monkeypatch.setattr(results, "hand_snapshot", lambda state, name: (read.append(name), real(state, name))[1])
    session.gw.tap("Ash", session.gw.state.readied("Ash")[0])  # dropped at once
    kept = session.gw.tap("Kit", session.gw.state.readied("Kit")[0])
    session.gw.encounter_end()  # the state changes: the kept result reads Kit's hand now
    assert read == ["Kit"]
    assert kept.hands[0].cards[0].tapped and read == ["Kit"]
