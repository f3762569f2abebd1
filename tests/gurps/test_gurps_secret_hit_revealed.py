"""A secret GURPS hit stays secret until a public step shows the fighter it changed: that step first
makes the secret public (one `table.reveal` each, the `%reveal N` event, in log order, the step
caused by the last), then acts, and its result says so (GURPS-SR-09 with GURPS-INJ-01..03)."""

from __future__ import annotations

import json

import pytest

from gamekernel import Session
from gamekernel.errors import GameKernelError
from gamekernel.gurps.widgets.tracker import Tracker
from gamekernel.i18n import t
from gamekernel.remote.projection import GM, Audience
from gamekernel.remote.views import view
from gamekernel.render.log import log_text
from tests.remote.test_gm_view_truth import dashboard_text


def table(seed: int = 11, campaign=None) -> Session:
    s = Session(seed=seed)
    if campaign is not None:
        s.campaign_open(campaign)
    s.gurps.char_new("Aiko", st=11, dx=13)
    s.gurps.char_new("Bren", st=12, ht=12)
    s.seats.seat("bob", "Bren")
    return s


def secret_hit(s: Session, spec: str = "3 cr") -> int:
    s.gurps.damage(spec, target="Bren", secret=True)
    return s.log[-1].seq


def public_hp(s: Session, name: str = "Bren") -> int:
    return next(r for r in view(s, Audience.player("bob"), s.public_table())["gurps"]
                if r["name"] == name)["hp"]


def reveals(s: Session) -> list[tuple[int, int | None]]:
    return [(e.data["seq"], e.data.get("cause")) for e in s.active if e.kind == "table.reveal"]


def players_text(s: Session, tmp_path) -> str:
    story = s.log_write(tmp_path / "story.md", players=True).path.read_text(encoding="utf-8")
    return story + log_text(s.log_view(show_secrets=False))


def test_gurps_inj_01_a_public_hit_outside_a_fight_reveals_the_secret_hit_first(tmp_path) -> None:
    s = table()
    seq = secret_hit(s)  # HP 12 -> 9, unseen
    assert public_hp(s) == 12 and "HP 12/12" in dashboard_text(s) and "HP 9/12" not in dashboard_text(s)
    assert "3 cr" not in players_text(s, tmp_path)
    result = s.gurps.damage("4 cr", target="Bren")
    step = s.log[-1]
    reveal = s.log[-2]
    assert (reveal.kind, reveal.data, reveal.secret) == ("table.reveal", {"seq": seq}, False)
    assert step.kind == "combat.damage" and step.data["cause"] == reveal.seq and not step.secret
    lines = repr(result).splitlines()
    assert lines[1] == t("combat.revealed_by_step", events=str(seq), names="Bren")
    assert "HP 9 → 5" in repr(result)
    assert public_hp(s) == 5 == s.gurps.character("Bren").current_hp  # the players now see the truth
    seen = players_text(s, tmp_path) + json.dumps(view(s, Audience.player("bob"), s.public_table())["story"])
    assert t("core.event.table.reveal", seq=seq) in seen


def test_gurps_sr_09_a_public_step_on_someone_else_or_a_secret_one_on_him_reveals_nothing() -> None:
    s = table()
    s.combat.start("Aiko Bren")
    assert s.combat.state.current.name == "Aiko"
    first = secret_hit(s)
    s.combat.damage("Aiko", "2 cr")  # a public step not touching Bren
    second = secret_hit(s, "1 cr")  # a secret step on him stays secret
    assert reveals(s) == [] and public_hp(s) == 12
    board = dashboard_text(s)  # the fight's rows the players see: Aiko's public hit moved only Aiko
    assert "HP 12/12" in board and "HP 8/12" not in board
    result = s.combat.next()  # Aiko's turn ends, Bren's begins: his row is shown (GURPS-CMB-02)
    assert reveals(s) == [(first, None), (second, s.log[-3].seq)]  # log order, each caused by the one before
    assert s.log[-1].data["cause"] == s.log[-2].seq
    assert result.revealed == (first, second)
    assert t("combat.revealed_by_step", events=f"{first}, {second}", names="Bren") in repr(result)
    assert public_hp(s) == 8


def test_gurps_sr_09_a_refused_public_step_reveals_nothing() -> None:
    s = table()
    secret_hit(s)
    count = len(s.log)
    with pytest.raises(GameKernelError):
        s.combat.damage("Bren", "bogus")
    assert len(s.log) == count and reveals(s) == [] and public_hp(s) == 12


@pytest.mark.parametrize(("spec", "hp"), [("12 cr", 0), ("24 cr", -12)])
def test_gurps_inj_02_03_a_secret_hit_to_zero_or_minus_hp_is_revealed_by_the_next_public_step(
        spec, hp, monkeypatch) -> None:
    # The secret hit's own HT roll (a major wound: knockdown) is drawn from the secret stream, keyed by
    # fresh system entropy: unpinned, Bren was knocked out about one run in 150, and then his turn
    # never begins, so nothing reveals the hit (seen once in CI). Pinned, he stays up.
    monkeypatch.setattr("gamekernel.session.os.urandom", lambda n: bytes(n))
    s = table()
    s.combat.start("Aiko Bren")
    seq = secret_hit(s, spec)
    assert s.combat.state.get("Bren").hp == hp and not s.combat.state.get("Bren").unconscious
    shown = json.dumps(view(s, Audience.player("bob"), s.public_table()), default=str)
    assert f'"hp": {hp}' not in shown and public_hp(s) == 12
    gm = next(r for r in view(s, Audience(GM), s.public_table())["facts"]["gurps"] if r["name"] == "Bren")
    assert gm["hp"] == hp  # the GM's seat: the truth
    if hp == 0:
        s.combat.next()  # his turn begins at 0 HP: the HT roll to stay conscious (GURPS-INJ-02)
    else:
        s.combat.damage("Bren", "1 cr")
    assert reveals(s) == [(seq, None)]
    assert public_hp(s) == s.combat.state.get("Bren").hp


def test_gurps_sr_09_undo_takes_the_reveal_with_the_step_and_redo_brings_both_back() -> None:
    s = table()
    seq = secret_hit(s)
    s.gurps.damage("4 cr", target="Bren")
    taken = s.undo()
    assert sorted(e.kind for e in taken) == ["combat.damage", "table.reveal"]
    assert reveals(s) == [] and s.seats.state.revealed == [] and public_hp(s) == 12
    assert s.gurps.character("Bren").current_hp == 9
    s.redo()
    assert reveals(s) == [(seq, None)] and s.seats.state.revealed == [seq] and public_hp(s) == 5


def test_gurps_sr_09_a_reopened_campaign_reveals_an_earlier_secret_hit(tmp_path) -> None:
    s = table(campaign=tmp_path / "camp")
    seq = secret_hit(s)
    s.campaign_close()
    again = Session()
    again.campaign_open(tmp_path / "camp")
    assert public_hp(again) == 12
    again.gurps.damage("4 cr", target="Bren")
    assert reveals(again) == [(seq, None)] and public_hp(again) == 5
    again.campaign_close()
    third = Session()
    third.campaign_open(tmp_path / "camp")
    assert third.seats.state.revealed == [seq] and public_hp(third) == 5


def test_gurps_sr_09_the_tracker_button_reveals_as_the_magic_does(ip) -> None:
    from gamekernel.magics import current_session

    widget = table()
    widget.combat.start("Aiko Bren")
    secret_hit(widget)
    tracker = Tracker(widget)
    try:
        tracker._on_custom_message(tracker, {"action": "next"}, [])
        assert tracker.error == ""
    finally:
        tracker.close()
    ip.run_line_magic("seed", "11")
    magic = current_session()
    assert magic is not widget
    magic.gurps.char_new("Aiko", st=11, dx=13)
    magic.gurps.char_new("Bren", st=12, ht=12)
    magic.seats.seat("bob", "Bren")
    ip.run_line_magic("combat", "start Aiko Bren")
    ip.run_line_magic("damage", "3 cr @Bren --secret")
    ip.run_line_magic("next", "")

    def shape(s: Session) -> list[tuple]:
        secret, reveal, step = s.log[-3:]
        return [(secret.kind, secret.secret), (reveal.kind, reveal.data["seq"] == secret.seq, reveal.secret),
                (step.kind, step.data["cause"] == reveal.seq, step.secret, step.data["facts"])]

    assert shape(magic) == shape(widget)
    assert shape(widget)[1] == ("table.reveal", True, False)
    assert public_hp(magic) == public_hp(widget) == 9


def test_gurps_sr_09_the_reveal_line_is_in_both_catalogs() -> None:
    from gamekernel.i18n import catalog

    en, ja = catalog("en")["combat.revealed_by_step"], catalog("ja")["combat.revealed_by_step"]
    assert en != ja and "{events}" in ja and "{names}" in ja and "公開" in ja


@pytest.mark.parametrize("step", [
    lambda s: s.combat.natural_healing("Bren", 2),  # GURPS-INJ-16: the HT rolls show his HP
    lambda s: s.combat.rest("Bren", "1h"),
    lambda s: s.combat.start("Aiko Bren"),  # his row, true HP, in the new fight
])
def test_gurps_inj_16_healing_or_a_fight_after_a_secret_hit_reveals_it(step) -> None:
    s = table()
    seq = secret_hit(s)
    result = step(s)
    assert reveals(s) == [(seq, None)] and result.revealed == (seq,)
    assert s.log[-1].data["cause"] == s.log[-2].seq
    fight = s.combat.state
    true_hp = fight.get("Bren").hp if fight is not None else s.gurps.character("Bren").current_hp
    assert public_hp(s) == true_hp


def test_gurps_cmb_02_an_attack_on_him_reveals_the_secret_hit() -> None:
    s = table()
    s.combat.start("Aiko Bren")
    seq = secret_hit(s)
    s.combat.next()  # reveals: Bren's turn begins
    s.undo()
    assert reveals(s) == [] and s.combat.state.current.name == "Aiko"
    s.combat.attack("Aiko", "Bren", "Punch")
    assert reveals(s) == [(seq, None)]


def test_gurps_sr_09_the_reveal_line_escapes_the_fighters_name_in_html() -> None:
    s = Session(seed=11)
    s.gurps.char_new("<b>Bren</b>", st=12, ht=12)
    seq = secret_hit_on(s, "<b>Bren</b>")
    page = s.gurps.damage("4 cr", target="<b>Bren</b>")._repr_html_()
    assert f"Secret event {seq} is public now: it changed &lt;b&gt;Bren&lt;/b&gt;" in page and "<b>Bren" not in page


def secret_hit_on(s: Session, name: str) -> int:
    s.gurps.damage("3 cr", target=name, secret=True)
    return s.log[-1].seq
