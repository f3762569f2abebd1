"""MTG-CHK-12 and -13 in the log: mtg.check and mtg.boost events store each fact once, and checks
logged by earlier versions (which also stored the move plan, the library after the check and the
actor again) still open and replay to the same state."""

import json

from gamekernel import Session
from gamekernel.session import replay

DECK = "1 Elvish Mystic\n1 Runeclaw Bear\n1 Serra Angel\n1 Ornithopter\n1 Forest\n1 Island\n"
ORDER = ["Elvish Mystic", "Runeclaw Bear", "Serra Angel", "Ornithopter", "Forest", "Island"]

# The check below as earlier versions logged it (written by hand in their shape): result.new_order,
# result.actor and data.after repeat what the batch and the event's actor already say. Its seq is 6:
# it takes the live check's place, after the secret stream's key (logged before the library, which is
# shuffled from that stream, GW-ALPHA-10), the library, its stacking and the peek.
OLD_CHECK = (
    '{"schema":1,"seq":6,"kind":"mtg.check","actor":"Mira","time":"2026-11-30T18:50:57.811+00:00",'
    '"data":{"actor":"Mira","result":{"kind":"green","difficulty":8,"library_size":6,'
    '"known":["Elvish Mystic"],"first":"Runeclaw Bear","second":"Serra Angel","target":10,'
    '"colours":["white"],"chosen_colour":"white","relation":"allied","modifier":3,"achievement":8,'
    '"success":false,"bottom":["Serra Angel","Runeclaw Bear"],"new_order":[0,3,4,5,2,1],"odds":[3,20],'
    '"actor":"Mira","boost_odds":[1,1]},'
    '"after":["c#1","c#4","c#5","c#6","c#3","c#2"],'
    '"batch":{"label":"check","ops":[{"op":"move","uids":["c#1"],"sources":["Mira:library"],'
    '"to":"Mira:exile","face_up":true},{"op":"move","uids":["c#3","c#2"],'
    '"sources":["Mira:library","Mira:library"],"to":"Mira:library","face_up":false,"tapped":false,'
    '"forget":true},{"op":"move","uids":["c#1"],"sources":["Mira:exile"],"to":"Mira:library",'
    '"at":"top","face_up":false}],"uids":["c#2","c#3"]}}}'
)


def _played(log=None) -> Session:
    """A known top card (exiled and returned, MTG-CHK-04) and a failed check whose pair is swapped."""
    session = Session(seed=1, log_path=log)
    session.mtg.library_load("Mira", "mira.txt", text=DECK)
    session.mtg.library_stack("Mira", ORDER)
    session.mtg.library_peek(1, "Mira")
    session.mtg.check("G8")
    return session


def test_mtg_chk_12_check_event_stores_each_fact_once_and_replays_as_played():
    session = _played()
    result = session.mtg._check_from_record(session.state["mtg"].last_check["Mira"])  # rebuilt from the event
    event = session.log[-1]
    assert set(event.data) == {"actor", "result", "batch", "ja_names"}  # ja_names: the log line's card names
    assert "new_order" not in event.data["result"] and "actor" not in event.data["result"]
    assert result.new_order == (0, 3, 4, 5, 2, 1) and not result.success  # swapped pair, boostable
    record = session.state["mtg"].last_check["Mira"]
    assert record["after"] == list(session.state["mtg"].table.order("Mira:library"))
    assert record["new_order"] == [0, 3, 4, 5, 2, 1] and record["actor"] == "Mira"
    assert replay(session.active).to_dict() == session.state.to_dict()
    boost = session.mtg.boost()  # the rebuilt record still lets the boost find its check
    assert boost.check == result and boost.bonus == 3
    stored = session.log[-1].data["result"]
    assert "new_order" not in stored and "actor" not in stored  # the boost's move plan is its batch too
    assert session.state["mtg"].last_boost["Mira"] == boost.to_dict()
    assert replay(session.active).to_dict() == session.state.to_dict()
    last = session.log[-1]  # the boost as earlier versions logged it: its whole to_dict()
    old_boost = type(last)(last.seq, last.kind, {**last.data, "result": boost.to_dict()}, last.actor)
    assert replay([*session.active[:-1], old_boost]).to_dict() == session.state.to_dict()
    assert session.teaching.explain_event(event).title_fields["who"] == "Mira"
    assert session.teaching.explain_event(session.log[-1]).title_fields["who"] == "Mira"


def test_mtg_chk_12_check_logged_by_an_earlier_version_opens_to_the_same_state(tmp_path):
    live = _played(tmp_path / "live.jsonl")
    live.close()
    lines = (tmp_path / "live.jsonl").read_text(encoding="utf-8").splitlines()
    old = json.loads(OLD_CHECK)
    slim = json.loads(lines[-1])
    assert {k: v for k, v in old["data"]["result"].items() if k not in ("new_order", "actor")} == \
        slim["data"]["result"]  # the hand-written line is this very check
    (tmp_path / "old.jsonl").write_text("\n".join([*lines[:-1], OLD_CHECK]) + "\n", encoding="utf-8")
    opened = Session()
    opened.attach_log(tmp_path / "old.jsonl")
    assert opened.state.to_dict() == live.state.to_dict()
    rebuilt = [s.mtg._check_from_record(s.state["mtg"].last_check["Mira"]) for s in (opened, live)]
    assert rebuilt[0] == rebuilt[1]
    reopened_fields = opened.teaching.explain_event(opened.log[-1]).title_fields
    assert reopened_fields == live.teaching.explain_event(live.log[-1]).title_fields
    assert opened.log[-1].summary() == live.log[-1].summary()
    assert opened.mtg.boost().to_dict() == live.mtg.boost().to_dict()
