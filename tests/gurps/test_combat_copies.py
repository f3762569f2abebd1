"""Cheap copies of the fight's frozen values (every combat reducer copies Combatants many times):
`combat.copy_with` must give exactly what `dataclasses.replace` gives, stay frozen, and skip `__init__`
for Combatant, CombatState and PendingAttack. [GURPS-CMB replay performance]"""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamekernel.errors import NotFoundError
from gamekernel.gurps.rules import combat as cb
from gamekernel.gurps.rules import defenses as dfn
from gamekernel.gurps.rules.combat import Combatant, CombatState, PendingAttack, quick_combatant
from gamekernel.gurps.rules.combat.state import allow_fast_copy

ORC = quick_combatant("Orc", {"ST": 12, "DX": 11, "HT": 12, "HP": 18, "weapon": "Club:11:sw cr"})
CHANGES = st.fixed_dictionaries({}, optional={
    "hp": st.integers(-100, 20), "fp": st.integers(-20, 12), "stunned": st.booleans(),
    "posture": st.sampled_from(["standing", "kneeling", "lying_down"]), "shock": st.integers(0, 4),
    "maneuver": st.sampled_from(["attack", "all_out_defense"]), "name": st.sampled_from(["Orc", "Orc2"]),
})


def test_copy_skips_init(monkeypatch):
    """The copy does not run `__init__`/`__post_init__` (that was most of a combat reducer's time)."""
    calls = []
    original = Combatant.__post_init__
    monkeypatch.setattr(Combatant, "__post_init__", lambda self: (calls.append(1), original(self)))
    copy = cb.copy_with(ORC, hp=5, stunned=True)
    assert calls == []
    assert (copy.hp, copy.stunned, copy.name, copy.weapons) == (5, True, "Orc", ORC.weapons)


@settings(max_examples=200, deadline=None)
@given(CHANGES)
def test_copy_equals_dataclasses_replace(changes):
    fast, slow = cb.copy_with(ORC, **changes), dataclasses.replace(ORC, **changes)
    assert type(fast) is Combatant
    assert fast == slow and hash(fast) == hash(slow) and fast.to_dict() == slow.to_dict()
    assert ORC.hp == 18 and not ORC.stunned  # the original is untouched


def test_copy_stays_frozen():
    copy = cb.copy_with(ORC, hp=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.hp = 4  # type: ignore[misc]


def test_copy_of_state_and_pending():
    state = CombatState(combatants=(ORC,))
    moved = cb.copy_with(state, round=3, active=0)
    assert moved == dataclasses.replace(state, round=3, active=0) and state.round == 1
    p = PendingAttack("A", "Orc", "Club", "sw cr", 0, dfn.Incoming())
    assert cb.copy_with(p, tried=("dodge",)) == dataclasses.replace(p, tried=("dodge",))


def test_unknown_field_and_none_fill_behave_like_dataclasses():
    with pytest.raises(TypeError):
        cb.copy_with(ORC, colour="green")
    refilled = cb.copy_with(ORC, hp=None)  # __post_init__ fills hp from hp_max, as dataclasses.replace does
    assert refilled.hp == ORC.hp_max
    spec = cb.parse_weapon("Axe:12:sw+2 cut")  # any other dataclass: the ordinary replace
    assert cb.copy_with(spec, skill=13) == dataclasses.replace(spec, skill=13)


def test_a_character_copies_like_dataclasses_replace():
    """The GURPS character a combat event writes back to is copied without `__init__` too."""
    from gamekernel.gurps.rules.characters import Character

    aiko = Character("Aiko", st=11, ht=12, hp_lost=3, states=("unconscious",))
    fast = cb.copy_with(aiko, hp_lost=7, states=(), death_line=2)
    assert fast == dataclasses.replace(aiko, hp_lost=7, states=(), death_line=2)
    assert (fast.hp, fast.current_hp, aiko.hp_lost) == (11, 4, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.hp_lost = 1  # type: ignore[misc]


def test_a_copy_does_not_keep_the_lookups_cached_on_the_original():
    """A character caches its skill index on first look-up; a copy with other skills builds its own."""
    import gamekernel.gurps.rules.combat.sheets  # noqa: F401 (registers the character for the fast copy)
    from gamekernel.gurps.rules.characters import Character, Skill

    aiko = Character("Aiko", skills=(Skill("Stealth", "DX", "A", 2),))
    assert aiko.find_skill_entry("stealth") is not None and aiko.find_skill_entry("Climbing") is None
    other = cb.copy_with(aiko, skills=(Skill("Climbing", "DX", "A", 1),), hp_lost=1)
    assert other.find_skill_entry("climbing") == Skill("Climbing", "DX", "A", 1)
    assert other.find_skill_entry("Stealth") is None and other == dataclasses.replace(
        aiko, skills=(Skill("Climbing", "DX", "A", 1),), hp_lost=1)


def test_only_plain_frozen_dataclasses_may_skip_init():
    @dataclasses.dataclass
    class Loose:
        x: int = 0

    @dataclasses.dataclass(frozen=True)
    class Checked:
        x: int = 0

        def __post_init__(self) -> None:
            pass

    for cls in (Loose, Checked, int):
        with pytest.raises(TypeError):
            allow_fast_copy(cls)


def test_find_answers_whether_a_name_is_a_fighter_without_the_error(monkeypatch):
    """`%dmg` on a character outside the fight asks `find` first: no "did you mean" hint is built
    (it cost more than the damage itself); `index` still gives the hint for a real miss."""
    state = CombatState(combatants=(ORC, cb.copy_with(ORC, name="Big Bob")))
    assert state.find("Orc") == 0 and state.find("ｂｉｇ  BOB") == 1 and state.find("Guard") is None
    import gamekernel.gurps.rules.combat.state as module

    monkeypatch.setattr(module, "get_close_matches", lambda *a, **k: pytest.fail("hint built"))
    assert state.find("Guard") is None
    monkeypatch.undo()
    with pytest.raises(NotFoundError, match="Orc"):
        state.index("Ork")
