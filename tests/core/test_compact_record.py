"""The notebook reads like a session log: a widget's saved record is its picture, then one compact line
per action as the log words it (GURPS-CMB: a fight played by clicks in the tracker), not one framed result
per click."""

from __future__ import annotations

import re


def _fight(ip):
    for cell in ("%seed 4", "%combat npc Goblin ST=9 DX=12 HT=11 weapon=Spear:11:thr+2 imp",
                 "%combat start Aiko{ST=11,DX=13,HT=11,weapon=Broadsword:14:sw+1 cut,pc=1} Goblin"):
        ip.run_cell(cell)
    return ip.run_line_magic("combat", "tracker")


def test_each_click_is_one_line_of_the_record_as_the_log_words_it(ip):
    from gamekernel.magics import current_session

    tracker = _fight(ip)
    session = current_session()
    start = len(session.log)
    tracker._on_custom_message(tracker, {"action": "attack", "attacker": "Aiko", "target": "Goblin",
                                         "weapon": "Broadsword"}, [])
    tracker._on_custom_message(tracker, {"action": "defend", "name": "Goblin", "kind": "dodge"}, [])
    tracker._on_custom_message(tracker, {"action": "next"}, [])
    assert tracker.error == "", tracker.error
    bundle = tracker._record_bundle()
    lines = bundle["text/plain"].splitlines()
    logged = [e.summary() for e in session.log[start:]]
    assert len(lines) == 3 and lines == logged, (lines, logged)  # one line per click, the log's words
    actions = re.findall(r'<div class="gk-widget-action">(.*?)</div>', bundle["text/html"])
    assert len(actions) == 3 and all("<" not in action for action in actions), actions  # text, no framed panel
    assert "state after event" in bundle["text/html"]  # the final picture stays above them
    assert len(bundle["text/html"]) - len(tracker.snapshot_html()) < 600  # three clicks: a few lines, not kB


def test_a_click_without_a_public_event_keeps_its_result_on_one_line(ip):
    """An explorer's move records no event: its result's text, its lines joined."""
    explorer = ip.run_line_magic("explore", "contest 14 vs 12")
    explorer._on_custom_message(explorer, {"action": "set", "name": "a", "value": 10}, [])
    text = explorer._record_bundle()["text/plain"]
    assert text and "\n" not in text, text
