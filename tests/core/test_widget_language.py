"""A language switch reaches every open widget (no sheet stuck in Japanese after
switching back), and a widget's click leaves its line in its record."""

from __future__ import annotations


def _widgets(ip):
    from gamekernel.gurps.widgets.sheet import SheetWidget
    from gamekernel.gurps.widgets.tracker import Tracker
    from gamekernel.magics import current_session

    ip.run_cell("%char new Aiko st=11 dx=13\n"
                "%combat start Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,pc=1} Bandit{ST=10,DX=11,HT=10}")
    session = current_session()
    return SheetWidget(session, "Aiko"), Tracker(session)


def test_switching_language_and_back_relabels_open_widgets(ip):
    sheet, tracker = _widgets(ip)
    assert (sheet.labels["skills"], tracker.labels["next"]) == ("Skill", "Next turn")
    ip.run_cell("%config GameKernel.language = 'ja'")
    assert (sheet.labels["skills"], tracker.labels["next"]) == ("技能", "次のターン")
    ip.run_cell("%config GameKernel.language = 'en'")
    assert (sheet.labels["skills"], tracker.labels["next"]) == ("Skill", "Next turn")
    assert sheet.pools[0]["label"] == "Current HP"


def test_a_closed_widget_is_left_alone(ip):
    sheet, tracker = _widgets(ip)
    sheet.close()
    ip.run_cell("%config GameKernel.language = 'ja'")
    assert sheet.labels["skills"] == "Skill" and tracker.labels["next"] == "次のターン"


def test_each_click_adds_its_line_and_a_refused_click_adds_none(ip):
    _, tracker = _widgets(ip)
    tracker._on_custom_message(tracker, {"action": "next"}, [])
    tracker._on_custom_message(tracker, {"action": "defend", "name": "Aiko"}, [])  # nothing to defend: refused
    tracker._on_custom_message(tracker, {"action": "resync"}, [])  # a new view asking for rows: not an action
    assert tracker.error == ""
    assert len(tracker._record.texts) == 1 and "Bandit" in tracker._record.texts[0]


def test_a_sheet_edit_records_its_log_line_not_the_whole_sheet(ip):
    sheet, _ = _widgets(ip)
    sheet._on_custom_message(sheet, {"action": "set", "key": "dx", "value": 14}, [])
    sheet._on_custom_message(sheet, {"action": "roll", "attribute": "DX"}, [])
    assert sheet.error == "" and len(sheet._record.texts) == 2
    assert "DX 13 → 14" in sheet._record.texts[0] and "\n" not in sheet._record.texts[0]
    assert "DX" in sheet._record.texts[1] and "rolled" in sheet._record.texts[1]
    assert "state after event" in sheet._record_bundle()["text/html"]


def test_library_buttons_follow_the_language(ip, tmp_path):
    from gamekernel.magics import current_session
    from gamekernel.mtg.widgets.library import LibraryWidget

    deck = tmp_path / "mira.txt"
    deck.write_text("20 Forest\n4 Llanowar Elves\n", encoding="utf-8")
    current_session().mtg.library_load("Mira", deck)
    widget = LibraryWidget(current_session(), "Mira")
    assert (widget.labels["button_check"], widget.labels["button_scene"]) == ("Check", "New scene")
    ip.run_cell("%config GameKernel.language = 'ja'")
    assert (widget.labels["button_check"], widget.labels["button_scene"]) == ("判定", "新しい場面")
    ip.run_cell("%config GameKernel.language = 'en'")
    assert widget.labels["button_check"] == "Check"
