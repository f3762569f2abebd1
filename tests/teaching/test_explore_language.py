"""The odds explorers' controls carry every word the front end writes (label, tooltip and screen-reader
text, `hint`) in the current language; the library explorer's card controls name each card as printed in
that language (MTG-CHK-13's explorer), and a switch mid-session relabels the open widget."""

from __future__ import annotations

import re

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _explorer(ip, tmp_path):
    deck = tmp_path / "mira.txt"
    deck.write_text("4 エルフの神秘家\n2 対抗呪文\n20 森\n", encoding="utf-8")
    ip.run_cell(f"%library load Mira {deck}")
    return ip.run_line_magic("explore", "library @Mira")


def test_the_card_controls_follow_a_switch_to_japanese_and_back(ip, tmp_path):
    widget = _explorer(ip, tmp_path)
    english = {spec["name"]: (spec["label"], spec["hint"]) for spec in widget.controls}
    assert english["Elvish Mystic"] == ("Elvish Mystic", "copies of Elvish Mystic in this library (0 to 60)")
    ip.run_cell("%config GameKernel.language = 'ja'")
    japanese = {spec["name"]: (spec["label"], spec["hint"]) for spec in widget.controls}
    assert japanese["Elvish Mystic"] == ("エルフの神秘家", "このライブラリーの《エルフの神秘家》の枚数（0～60）")
    assert japanese["Forest"] == ("森", "このライブラリーの《森》の枚数（0～60）")
    assert japanese["Counterspell"][0] == "対抗呪文"
    assert all(not re.search(r"[A-Za-z]", label + hint) for label, hint in japanese.values()), japanese
    ip.run_cell("%config GameKernel.language = 'en'")
    assert {spec["name"]: (spec["label"], spec["hint"]) for spec in widget.controls} == english


def test_a_moved_card_control_is_recorded_under_its_japanese_name(ip, tmp_path):
    widget = _explorer(ip, tmp_path)
    ip.run_cell("%config GameKernel.language = 'ja'")
    line = widget._set("Forest", 10).lines[0]
    assert line.startswith("森 → 10："), line


def test_every_explorer_control_has_a_hint_in_each_language(ip):
    """The check explorer's slider and toggles, the contest's and Alpha's sliders: tooltip words too."""
    from gamekernel.magics import current_session

    current_session().gurps.char_new("Aiko", iq=12, skills=[("Lockpicking", 4)])
    ip.run_cell("%deck gm\n%gw new Rin level 4 bonus +2")
    widgets = [ip.run_line_magic("explore", line) for line in ("check Lockpicking @Aiko", "contest 14 vs 12",
                                                               "alpha @Rin")]
    hints = {spec["name"]: spec["hint"] for widget in widgets for spec in widget.controls}
    assert hints["modifier"] == "modifier: -10 to 10" and hints["explore.situation.dark"] == "darkness -5: on or off"
    ip.run_cell("%config GameKernel.language = 'ja'")
    hints = {spec["name"]: spec["hint"] for widget in widgets for spec in widget.controls}
    assert hints["explore.situation.dark"].endswith("：オン／オフ") and hints["modifier"].endswith("：-10～10")
    assert all(JAPANESE.search(hint) and not re.search(r"[A-Za-z]{2,}", hint) for hint in hints.values()), hints


def test_the_check_explorer_names_its_skill_in_japanese(ip):
    """GURPS-SR-02's explorer: the summary (and so its recorded line) names 〈鍵開け〉, not Lockpicking."""
    from gamekernel.magics import current_session

    current_session().gurps.char_new("Aiko", iq=12, skills=[("Lockpicking", 4)])
    widget = ip.run_line_magic("explore", "check Lockpicking @Aiko")
    assert widget.summary.startswith("Lockpicking 13 +0 = effective 13")
    ip.run_cell("%config GameKernel.language = 'ja'")
    assert widget.summary.startswith("〈鍵開け〉 13 +0 ＝ 実効値 13"), widget.summary
