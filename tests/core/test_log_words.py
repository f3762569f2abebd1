"""The GM's %log speaks words: event kinds as words with a short rule-set label (never an internal
id), combat rows with their outcome, undone rows marked and each undo naming what it took back."""

from __future__ import annotations

import pytest

from gamekernel import Session, i18n
from gamekernel.events import EVENT_KINDS, kind_word


def _fight() -> Session:
    s = Session(seed=7)
    s.gurps.char_new("Aiko", st=11, dx=13, ht=11)
    s.combat.npc("Goblin", "ST=9 DX=12 HT=11")
    s.combat.start("Aiko Goblin*2")
    return s


def _rows(s: Session) -> dict[str, tuple[str, str]]:
    from gamekernel.render.log import log_rows

    return {seq: (kind, line) for seq, kind, line in log_rows(s.log_view())}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_event_kind_has_a_word_in_every_language(language):
    Session(seed=1)  # every rule set registered its kinds
    i18n.set_language(language)
    missing = [kind for kind in EVENT_KINDS if f"kind.{kind}" not in i18n.catalog(language)]
    assert missing == []
    assert all("." not in kind_word(kind) and "_" not in kind_word(kind) for kind in EVENT_KINDS)


def test_the_log_shows_words_not_internal_ids():
    s = _fight()
    kinds = [kind for kind, _ in _rows(s).values()]
    assert "GURPS character" in kinds and "combat: start" in kinds
    assert not any("." in kind for kind in kinds), kinds
    assert "gurps.char.set" not in str(s.log_view())


def test_a_combat_row_says_hit_or_miss_and_a_defense_its_outcome():  # GURPS-CMB-26, GURPS-CMB-40
    s = _fight()
    report = s.combat.attack("Aiko", "Goblin1", "Punch")
    hit = report.report.attack.hit
    rows = _rows(s)
    attack_line = rows[str(s.log[-1].seq)][1]
    assert attack_line.endswith(", hit" if hit else ", miss"), attack_line
    if hit:
        s.combat.defend("Goblin1", "dodge")
        event = s.log[-1]
        defended = event.data["outcome"]["defended"]
        line = _rows(s)[str(event.seq)][1]
        assert ("defended" in line) and (("not defended" in line) != defended), line
        if not defended:
            assert f"injury {event.data['outcome']['injury']}" in line


def test_damage_rows_name_the_injury():  # GURPS-DMG-08
    s = _fight()
    s.combat.damage("Goblin1", "2d cut")
    event = s.log[-1]
    injury = event.data["outcome"]["injury"]
    assert isinstance(injury, int)
    line = _rows(s)[str(event.seq)][1]  # the outcome, then any roll made inside the step (a knockdown)
    assert line.split("; ")[0].endswith(f"injury {injury}"), line


def test_an_undone_row_is_marked_and_the_undo_names_what_it_took_back():
    s = Session(seed=1)
    s.note("oops")
    s.undo()
    rows = _rows(s)
    assert rows["2"][1] == "oops (undone)"  # beside its kind word "note": said once
    assert rows["3"][1] == "undo of 2 (note: oops)"
    s.redo()
    rows = _rows(s)
    assert rows["2"][1] == "oops"  # put back: no longer undone
    assert rows["4"][1] == "redo of 2 (note: oops)"


def test_the_log_words_follow_the_language():
    s = Session(seed=1)
    s.note("oops")
    s.undo()
    i18n.set_language("ja")
    rows = _rows(s)
    assert rows["2"][0] == "メモ" and "（取り消し済み）" in rows["2"][1]
    assert rows["3"][1].startswith("取り消し：2")
