"""Sheet edits say what changed in the log (GURPS-CH-04..26): `%char skill/trait/weapon/set` record
the change with the event, so the log line reads "Aiko: skill Stealth 4 pts → 13" instead of the same
"character Aiko" for every edit; old events without it keep the old text, and replay is unchanged."""

import pytest

from gamekernel import Session, i18n
from gamekernel.events import Event
from gamekernel.session import replay


@pytest.fixture
def aiko():
    s = Session(seed=3)
    s.gurps.char_new("Aiko", dx=12, iq=12, ht=11)
    return s


@pytest.fixture
def japanese():
    before = i18n.get_language()
    i18n.set_language("ja")
    yield
    i18n.set_language(before)


def last(s: Session) -> str:
    return s.log[-1].summary()


def test_gurps_ch_skill_bought_and_rebought(aiko):
    aiko.gurps.char_add_skill("Stealth", 4)  # DX/A: 4 points = DX+1
    assert last(aiko) == "Aiko: skill Stealth 4 pts → 13"
    aiko.gurps.char_add_skill("Stealth", 8)
    assert last(aiko) == "Aiko: skill Stealth 4 → 8 pts, level 13 → 14"


def test_gurps_ch_trait_added_and_changed(aiko):
    aiko.gurps.char_add_trait("Combat Reflexes")
    assert last(aiko) == "Aiko: trait Combat Reflexes added [15 pts]"
    aiko.gurps.char_add_trait("Acute Vision", level=1)
    aiko.gurps.char_add_trait("Acute Vision", level=2)
    assert last(aiko) == "Aiko: trait Acute Vision 1 → Acute Vision 2 [4 pts]"


def test_gurps_ch_weapon_added_replaced_removed(aiko):
    aiko.gurps.char_add_weapon("Broadsword:14:sw+1 cut")
    assert last(aiko) == "Aiko: weapon Broadsword added"
    aiko.gurps.char_add_weapon("Broadsword:15:sw+1 cut")
    assert last(aiko) == "Aiko: weapon Broadsword replaced"
    aiko.gurps.char_drop_weapon("Broadsword")
    assert last(aiko) == "Aiko: weapon Broadsword removed"


def test_gurps_ch_set_shows_before_and_after(aiko):
    aiko.gurps.char_set("Aiko", dx=13)
    assert last(aiko) == "Aiko: DX 12 → 13"
    aiko.gurps.char_set("Aiko", ht=12, hp_lost=2)
    assert last(aiko) == "Aiko: HT 11 → 12, HP lost 0 → 2"


def test_gurps_ch_summaries_in_japanese(aiko, japanese):
    aiko.gurps.char_add_skill("Stealth", 4)
    assert "技能" in last(aiko) and "13" in last(aiko) and "skill" not in last(aiko)
    aiko.gurps.char_add_weapon("Broadsword:14:sw+1 cut")
    assert last(aiko) == "Aiko：武器Broadsword追加"
    aiko.gurps.char_set("Aiko", dx=13)
    assert last(aiko) == "Aiko：敏捷力 12 → 13"


def test_gurps_ch_replay_and_old_events_without_the_change(aiko):
    aiko.gurps.char_add_skill("Stealth", 4)
    aiko.gurps.char_set("Aiko", dx=13)
    assert replay(aiko.active).to_dict() == aiko.state.to_dict()
    skill, update = aiko.log[-2], aiko.log[-1]
    old_skill = Event(**{**skill.__dict__, "data": {k: v for k, v in skill.data.items() if k != "change"}})
    old_update = Event(**{**update.__dict__, "data": {k: v for k, v in update.data.items() if k != "before"}})
    assert old_skill.summary() == "character Aiko"
    assert old_update.summary() == "Aiko: dx=13"
