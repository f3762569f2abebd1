"""A GM who switches to Japanese mid-session (`%config GameKernel.language = 'ja'`) after some events
sees Japanese in the places that kept the old language's text: the tracker's results panel, the hand
widget's footer line, the widgets' `options:` line and the MtG card names of `%log`."""

from __future__ import annotations

import html
import re

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _text(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def test_the_tracker_results_panel_is_redrawn_in_the_new_language(ip):
    """GURPS-CMB-14: the attack's panel, drawn in English at the click, follows a switch to Japanese."""
    from gamekernel.gurps.widgets.tracker import Tracker
    from gamekernel.magics import current_session

    ip.run_cell("%combat start Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut} Bandit{ST=10,DX=11,HT=10}")
    tracker = Tracker(current_session())
    tracker._on_custom_message(tracker, {"action": "attack", "attacker": "Aiko", "target": "Bandit",
                                         "weapon": "Broadsword"}, [])
    assert tracker.error == "" and "attacks Bandit" in _text(tracker.result_html)
    ip.run_cell("%config GameKernel.language = 'ja'")
    panel = _text(tracker.result_html)
    assert "AikoがBroadswordでBanditを攻撃" in panel and "Banditの防御" in panel
    assert not re.search(r"\b(attacks|rolled|succeeded|odds|may defend)\b", panel), panel
    assert JAPANESE.search(tracker.last)
    ip.run_cell("%config GameKernel.language = 'en'")
    assert "attacks Bandit" in _text(tracker.result_html)


def _rin(ip):
    from gamekernel.gammaworld.widgets.hand import HandWidget
    from gamekernel.magics import current_session

    session = current_session()
    session.gw.deck_new("Rin")
    for card in ("Gravity Knot", "Thought Needle", "Heavy Knuckle", "Ember Thought"):
        session.gw.deck_add("Rin", card, 2)
    session.gw.character("Rin", level=4)
    session.gw.draw("Rin")
    return HandWidget(session, "Rin")


def test_the_hand_footer_line_follows_the_language(ip):
    """GW-ALPHA-08: the footer's line of a tap made in English is drawn again in Japanese."""
    hand = _rin(ip)
    hand._on_custom_message(hand, {"action": "tap", "uid": hand.cards[0]["uid"]}, [])
    assert hand.error == "" and "uses" in hand.last and "tapped" in hand.last
    ip.run_cell("%config GameKernel.language = 'ja'")
    assert "を使用" in hand.last and "uses" not in hand.last, hand.last
    assert hand.counts.startswith("自分のデッキ")


def test_the_options_line_names_each_option_in_japanese_beside_its_setting(ip, tmp_path):
    """The `options:` line of the hand and library widgets: Japanese words for each option, the setting
    still as `%gw config` / `%mtg config` take it (English names them in English the same way)."""
    from gamekernel.magics import current_session
    from gamekernel.mtg.widgets.library import LibraryWidget

    hand = _rin(ip)
    deck = tmp_path / "mira.txt"
    deck.write_text("20 Forest\n4 Llanowar Elves\n", encoding="utf-8")
    current_session().mtg.library_load("Mira", deck)
    library = LibraryWidget(current_session(), "Mira")
    assert hand.labels["options"] == library.labels["options"] == ""  # the defaults: no line at all
    ip.run_line_magic("gw", "config own_deck_first=false flux_outside_encounter=true")
    ip.run_line_magic("mtg", "config boost_cards=4")
    assert hand.labels["options"] == "house rules: 2 changed" and library.labels["options"] == "house rules: 1 changed"
    assert hand.labels["options_detail"].startswith("draw from own deck first (own_deck_first=false) · ")
    assert library.labels["options_detail"] == "cards a boost reveals (boost_cards=4)"
    ip.run_cell("%config GameKernel.language = 'ja'")
    assert hand.labels["options"] == "ハウスルール：2件変更"
    assert hand.labels["options_detail"].startswith("自分のデッキから先に引く（own_deck_first=false） · ")
    assert "遭遇外でも攪乱（flux_outside_encounter=true）" in hand.labels["options_detail"]
    assert library.labels["options_detail"] == "ブーストでめくる枚数（boost_cards=4）"
    detail = hand.labels["options_detail"] + " · " + library.labels["options_detail"]
    named = re.findall(r"([^ ·：]+)（([a-z_0-9]+)=", detail)
    assert len(named) == 3 and all(JAPANESE.search(words) for words, _ in named)


def test_mtg_card_names_in_the_log_follow_the_language(ip, tmp_path, capsys):
    """MTG-CHK-05, MTG-CHK-06: the two cards a check turned are named in `%log` by their Japanese printed names
    once the GM switches to Japanese (Forest -> 森, Llanowar Elves -> ラノワールのエルフ)."""
    deck = tmp_path / "mira.txt"
    deck.write_text("20 Forest\n20 Llanowar Elves\n", encoding="utf-8")
    ip.run_cell(f"%library load Mira {deck}")
    ip.run_cell("%check green 2 @Mira")
    capsys.readouterr()
    ip.run_cell("%log")
    english = capsys.readouterr().out
    assert re.search(r"(Forest|Llanowar Elves) → target", english), english
    ip.run_cell("%config GameKernel.language = 'ja'")
    capsys.readouterr()
    ip.run_cell("%log")
    japanese = capsys.readouterr().out
    check = next(line for line in japanese.splitlines() if "緑判定" in line or "達成値" in line)
    assert re.search(r"(森|ラノワールのエルフ)", check) and not re.search(r"Forest|Llanowar", check), check


def test_a_check_logged_without_japanese_names_keeps_its_english_ones():
    """MTG-CHK-05: a check event of an earlier version (no `ja_names`) still has its line, in English names."""
    from gamekernel.display import summarize
    from gamekernel.i18n import set_language

    data = {"actor": "Mira", "result": {"kind": "green", "difficulty": 2, "first": "Forest", "target": 2,
                                        "second": "Llanowar Elves", "achievement": 6, "success": True}}
    set_language("ja")
    line = summarize("mtg.check", data)
    assert "Forest" in line and "Llanowar Elves" in line and "緑" in line
    assert "森" in summarize("mtg.check", {**data, "ja_names": {"Forest": "森"}})


def test_the_log_exports_name_each_event_by_its_word_in_the_language_not_its_id():
    """`%log export` (Markdown and HTML) heads each entry with the event's word, as `%log` does."""
    from gamekernel import Session
    from gamekernel.i18n import set_language
    from gamekernel.render.log import export_html, export_markdown

    session = Session(seed=7)
    session.roll("3d+2 sword")
    session.gurps.char_new("Aiko", st=11)
    set_language("ja")
    markdown, page = export_markdown(session.log), export_html(session.log)
    assert "2. **ロール** — sword" in markdown and "**roll**" not in markdown, markdown
    assert "<b>ロール</b>" in page and "<b>gurps.char.new</b>" not in page and "<b>roll</b>" not in page
    assert "gurps.char" not in markdown and "gurps.char" not in page


def test_the_labels_the_gurps_rules_write_are_drawn_in_japanese():
    """GURPS-INJ-02 (stay conscious at −1 per −HP), GURPS-INJ-03 (death check), GURPS-CMB-22 (resist
    feint), GURPS-SR-04 (a modifier word typed at the table, "dark"): Japanese labels in ja."""
    from gamekernel.gurps.rules.checks import success_roll
    from gamekernel.i18n import set_language

    rolls = [success_roll(12, [(-1, "per −HP")], label="stay conscious", dice=(3, 3, 3)),
             success_roll(12, label="death check −2×HP", dice=(3, 3, 3)),
             success_roll(13, label="resist feint", dice=(3, 3, 3)),
             success_roll(14, [(-4, "Hard to Kill"), (-5, "dark")], label="Feint (Broadsword)", dice=(3, 3, 3))]
    assert str(rolls[0]).startswith("stay conscious 12 −1 (per −HP) = 11")
    set_language("ja")
    texts = [str(r) for r in rolls]
    assert texts[0].startswith("意識を保つ 12 −1（マイナスHPごと） = 11"), texts[0]
    assert texts[1].startswith("死亡判定（−2×HP） 12") and texts[2].startswith("フェイントに抵抗 13")
    assert texts[3].startswith("フェイント（〈剣〉） 14 −4（しぶとい） −5（暗闇）"), texts[3]
    assert not any(re.search(r"[A-Za-z]{3}", text.split("·")[0]) for text in texts), texts


def test_explaining_an_mtg_check_in_japanese_names_its_cards_in_japanese(ip, tmp_path):
    """MTG-CHK-05, MTG-CHK-12: `%explain` of a check made in English, asked in Japanese, names the
    turned cards (and the cards put to the bottom) by their Japanese printed names."""
    from gamekernel.magics import current_session

    deck = tmp_path / "mira.txt"
    deck.write_text("20 Forest\n20 Llanowar Elves\n", encoding="utf-8")
    ip.run_cell(f"%library load Mira {deck}")
    ip.run_cell("%check green 2 @Mira")
    seq = current_session().log[-1].seq
    ip.run_cell("%config GameKernel.language = 'ja'")
    text = str(ip.run_line_magic("explain", str(seq)))
    assert re.search(r"1枚目 (森|ラノワールのエルフ)", text), text
    assert not re.search(r"Forest|Llanowar", text), text


def test_why_a_target_had_no_defense_is_said_in_japanese(ip):
    """GURPS-CMB-18: an attack on a fighter in All-Out Attack says, in ja, why no defense was rolled."""
    from gamekernel.gurps.combat_render import no_defense_text
    from gamekernel.magics import current_session

    ip.run_cell("%combat start Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut} "
                "Bandit{ST=10,DX=11,HT=10,weapon=Axe:18:sw+2 cut}")
    session = current_session()
    session.combat.maneuver("Aiko", "all_out_attack", option="determined")
    session.combat.attack("Aiko", "Bandit", "Broadsword")
    if session.combat.state.pending is not None:
        session.combat.defend("Bandit", "none")
    session.combat.next()
    ip.run_cell("%config GameKernel.language = 'ja'")
    result = session.combat.attack("Bandit", "Aiko", "Axe")
    report = result.report
    assert report.no_defense_reason.startswith("All-Out Attack allows no defense")  # the fact, in English
    assert no_defense_text(report) == "「全力攻撃」をした者は次のターンまで防御できません（GURPS-CMB-18）"
    assert report.attack.hit and "「全力攻撃」をした者は" in str(result) and "allows" not in str(result)


def test_the_tracker_defenses_and_the_deck_list_name_their_words_in_japanese(ip):
    """GURPS-CMB-43 (a shield's DB adds to every defense) in the tracker row, GW-ALPHA-01 (each card's
    energy source) in `%deck show`: Japanese words, not the rules' English keys."""
    from gamekernel.gurps.combat_render import tracker_row
    from gamekernel.i18n import set_language
    from gamekernel.magics import current_session

    ip.run_cell("%char new Aiko st=11 dx=13\n%char set db=2\n%combat start Aiko Bandit{ST=10,DX=11,HT=10}")
    session = current_session()
    session.gw.deck_new("Rin")
    session.gw.deck_add("Rin", "Thought Needle", 2)
    set_language("ja")
    whys = [entry["why"] for entry in tracker_row(session.combat.state, 0)["defense_values"]]
    assert "+2 盾の防御修正" in whys and not any("shield" in why for why in whys), whys
    shown = str(session.gw.deck_show("Rin"))
    assert "思考の針 (" in shown and "(psi)" not in shown, shown


def test_a_deck_problem_names_its_card_in_japanese():
    """GW-ALPHA-02 (at most two copies of a card): the warning, made in English, names the card by
    its Japanese name once the language is Japanese."""
    from gamekernel import Session
    from gamekernel.i18n import set_language

    session = Session(seed=3)
    session.gw.deck_new("Rin")
    result = session.gw.deck_add("Rin", "Sap Bloom", 3)
    assert "3 copies of Sap Bloom > 2" in str(result)
    set_language("ja")
    assert "樹液の花が3枚 > 2枚" in str(result) and "Sap Bloom" not in str(result)


def test_an_mtg_quiz_names_its_cards_in_japanese(ip):
    """MTG-CHK-05, MTG-CHK-06: an MtG quiz asked in Japanese names the two turned cards by their
    Japanese printed names, in the prompt and in the steps shown after an answer."""
    ip.run_cell("%config GameKernel.language = 'ja'")
    quiz = ip.run_line_magic("quiz", "mtg 2")
    questions = quiz.state()["questions"]
    quiz.answer(1, (questions[0]["answer"] + 1) % len(questions[0]["choices"]))  # wrong: the steps show
    text = repr(quiz) + " " + quiz._record_bundle()["text/html"]
    names = [n for q in questions for n in (q["first"], q["second"]) if q["ja_names"].get(n)]
    assert names and not any(name in text for name in names), (names, text[:400])
    assert all(q["ja_names"][n] in text for q in questions for n in (q["first"], q["second"]) if n in q["ja_names"])


def test_explaining_a_check_in_japanese_names_its_skill_and_modifiers_in_japanese(ip):
    """GURPS-STD-03 (an untrained skill's default) and GURPS-SR-04 (modifiers): `%explain` asked in
    Japanese writes the skill as 〈鍵開け〉 and the typed modifier "dark" as 暗闇 in its steps."""
    from gamekernel.magics import current_session

    ip.run_cell("%char new Aiko dx=12 iq=12")
    ip.run_cell("%check Lockpicking-5 dark @Aiko")
    seq = current_session().log[-1].seq
    english = str(ip.run_line_magic("explain", str(seq))).splitlines()
    assert english[2].startswith("1. Lockpicking untrained") and "−5 (dark)" in english[3], english
    ip.run_cell("%config GameKernel.language = 'ja'")
    steps = str(ip.run_line_magic("explain", str(seq))).splitlines()[2:4]
    assert steps[0].startswith("1. 〈鍵開け〉") and "−5（暗闇）" in steps[1], steps
    assert not any("Lockpicking" in step or "(dark)" in step for step in steps), steps


def test_an_untrained_skills_default_note_is_drawn_in_japanese():
    """GURPS-STD-03: a check on an untrained skill notes its default ("default IQ-5"), in ja as
    デフォルト：知力-5, in the text and the HTML alike."""
    from gamekernel import Session
    from gamekernel.i18n import set_language

    session = Session(seed=2)
    session.gurps.char_new("Aiko", iq=12)
    result = session.gurps.check("Lockpicking", actor="Aiko")
    assert str(result).endswith("(default IQ-5)")
    set_language("ja")
    assert str(result).endswith(" (デフォルト：知力-5)"), str(result)
    assert "default" not in str(result) and "default" not in result._repr_html_()
