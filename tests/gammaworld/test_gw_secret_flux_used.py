"""GW-ALPHA-10: a public step that uses the card a secret flux drew shows it, as at the table.

The step first makes that secret flux public (a `table.reveal` of it, the event `%reveal N` records),
then acts, recorded as caused by the reveal so one `%undo` takes both back; from then on every
player-visible view shows the true hand. A public step on another card reveals nothing.
"""

from __future__ import annotations

import json

import pytest

from gamekernel import Session
from gamekernel.errors import RuleError
from gamekernel.gammaworld.widgets.hand import HandWidget
from gamekernel.remote.projection import Audience
from gamekernel.remote.views import view
from gamekernel.table.widget import TableDashboard
from tests.gammaworld.test_gw_secret_flux_resolved import (
    SURFACES,
    name_of,
    resolve_secretly,
    secret_natural_1,
    surfaces,
    table,
)


def public_natural_1(s: Session) -> None:
    for _ in range(500):
        s.roll("1d20", actor="Rin")
        if s.log[-1].kind == "gw.flux_pending" and not s.log[-1].secret:
            return
    raise AssertionError("no public natural 1 in 500 rolls")


def reveals(s: Session) -> list[int]:
    return [e.data["seq"] for e in s.active if e.kind == "table.reveal"]


def test_gw_alpha_10_a_public_tap_of_the_secret_card_reveals_its_flux_first() -> None:
    s = table()
    discarded, replacement, seq = resolve_secretly(s)
    s.gw.tap("Rin", discarded)  # the card the players see: the secret one is used
    reveal, tap = s.log[-2:]
    assert (reveal.kind, reveal.data["seq"], reveal.secret) == ("table.reveal", seq, False)
    assert (tap.kind, tap.data["cause"], tap.secret) == ("gw.tap", reveal.seq, False)
    assert s.gw.hand("Rin").cards == s.gw.hand("Rin", gm=True).cards  # the players' hand is the truth now
    for name, text in surfaces(s).items():
        if name not in ("log", "story"):
            assert replacement in text, name


def test_gw_alpha_10_one_undo_takes_back_the_step_and_its_reveal() -> None:
    s = table()
    discarded, replacement, seq = resolve_secretly(s)
    seen = repr(s.gw.hand("Rin"))
    s.gw.tap("Rin", discarded)
    s.undo()
    assert reveals(s) == [] and s.state["seats"].revealed == []
    assert repr(s.gw.hand("Rin")) == seen and replacement not in seen
    assert not s.gw.state.table.card(s.gw.state.readied("Rin")[1]).tapped
    s.redo()
    assert reveals(s) == [seq] and replacement in repr(s.gw.hand("Rin"))


def test_gw_alpha_10_a_public_tap_of_another_card_reveals_nothing() -> None:
    s = table()
    _, replacement, _ = resolve_secretly(s)
    s.gw.tap("Rin", s.gw.state.readied("Rin")[0])  # the card drawn in public
    assert s.log[-1].kind == "gw.tap" and reveals(s) == []
    for name in SURFACES:
        assert replacement not in surfaces(s)[name], name


def test_gw_alpha_10_a_public_flux_discarding_the_secret_card_reveals_it_first() -> None:
    s = table()
    discarded, replacement, seq = resolve_secretly(s)
    public_natural_1(s)
    s.gw.flux("Rin", discarded)  # a public flux on the card the players see
    reveal, flux = s.log[-2:]
    assert (reveal.kind, reveal.data["seq"]) == ("table.reveal", seq)
    assert (flux.kind, flux.secret, flux.data["cause"]) == ("gw.flux", False, reveal.seq)
    assert s.gw.state.catalog.card(flux.data["detail"]["discarded"]).name == replacement  # the true card went
    assert s.gw.hand("Rin").cards == s.gw.hand("Rin", gm=True).cards


def test_gw_alpha_10_the_secret_card_typed_by_its_true_name_reveals_it_too() -> None:
    s = table()
    _, replacement, seq = resolve_secretly(s)
    s.gw.tap("Rin", replacement)  # the GM names the secret card in public
    assert reveals(s) == [seq] and s.log[-1].kind == "gw.tap"


def test_gw_alpha_10_a_refused_step_on_the_secret_card_reveals_nothing() -> None:
    s = table()
    discarded, replacement, _ = resolve_secretly(s)
    count = len(s.log)
    with pytest.raises(RuleError) as error:  # its replacement is untapped: refused
        s.gw.untap("Rin", discarded)
    assert replacement not in str(error.value)
    assert len(s.log) == count and reveals(s) == []


def test_gw_alpha_10_two_secret_fluxes_on_one_card_are_both_revealed_and_undone_together() -> None:
    s = table()
    discarded, first, seq1 = resolve_secretly(s)
    secret_natural_1(s)
    s.gw.flux("Rin", discarded)  # the players still see Pocket Fold: the second flux replaces the first's card
    assert s.log[-1].kind == "gw.flux" and s.log[-1].secret
    seq2 = s.log[-1].seq
    second = name_of(s, s.gw.state.readied("Rin")[1])
    seen = repr(s.gw.hand("Rin"))
    assert first not in seen and second not in seen
    s.gw.tap("Rin", discarded)
    assert reveals(s) == [seq1, seq2]
    assert s.gw.hand("Rin").cards == s.gw.hand("Rin", gm=True).cards
    s.undo()  # the tap, both reveals
    assert reveals(s) == [] and repr(s.gw.hand("Rin")) == seen


def public_after_tap(s: Session, how: str, ip=None) -> dict[str, str]:
    """Rin's secret flux resolved, then the card the players see tapped by the magic, the hand
    widget's button or the dashboard's: what the log records and what the players see."""
    discarded, replacement, seq = resolve_secretly(s)
    uid = s.gw.hand("Rin").cards[1].uid
    if how == "magic":
        ip.run_line_magic("tap", f"Rin {discarded}")
    elif how == "widget":
        widget = HandWidget(s, "Rin")
        widget._on_custom_message(widget, {"action": "tap", "uid": uid}, [])
        assert widget.error == ""
        widget.close()
    else:
        board = TableDashboard(s)
        board._on_custom_message(board, {"action": "tap", "name": "Rin", "uid": uid}, [])
        assert board.error == ""
        board.close()
    assert [e.kind for e in s.log[-2:]] == ["table.reveal", "gw.tap"] and reveals(s) == [seq], how
    assert replacement in repr(s.gw.hand("Rin")), how
    return {"hand": repr(s.gw.hand("Rin")),
            "alice": json.dumps(view(s, Audience.player("alice"), s.public_table())["gamma"])}


def test_gw_alpha_10_magic_widget_and_dashboard_tap_reveal_the_same(ip) -> None:
    from gamekernel.magics import current_session

    ip.run_line_magic("seed", "5")
    magic = current_session()
    for who, level in (("Rin", 4), ("Bob", 1)):
        magic.gw.character(who, level=level, new=True)
        magic.gw.draw(who)
    magic.seats.seat("alice", "Rin")
    magic.gw.encounter_start()
    by_magic = public_after_tap(magic, "magic", ip)
    assert by_magic == public_after_tap(table(), "widget") == public_after_tap(table(), "dashboard")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_gw_alpha_10_the_result_says_the_secret_flux_was_revealed(language: str) -> None:
    from gamekernel.i18n import set_language, t

    s = table()
    discarded, _, seq = resolve_secretly(s)
    set_language(language)
    try:
        line = t("gammaworld.flux.revealed_by_use", name="Rin", events=str(seq))
        result = s.gw.tap("Rin", discarded)
        assert repr(result).split("\n")[1] == line and "gk-chip" in result._repr_html_()
        other = s.gw.tap("Bob", s.gw.state.readied("Bob")[0])  # nothing revealed: no such line
        assert line not in repr(other) and other.revealed == ()
    finally:
        set_language("en")


def natural_1(s: Session, who: str, *, secret: bool) -> None:
    for _ in range(500):
        s.roll("1d20", actor=who, secret=secret)
        if s.log[-1].kind == "gw.flux_pending" and s.log[-1].secret == secret:
            return
    raise AssertionError("no natural 1 in 500 rolls")


def test_gw_alpha_10_a_public_flux_of_the_only_card_named_by_nobody_reveals_it_too() -> None:
    s = table()
    natural_1(s, "Bob", secret=True)
    s.gw.flux("Bob")  # Bob's only readied card, replaced in secret
    secret_seq = s.log[-1].seq
    assert s.log[-1].secret and s.gw.hand("Bob").cards != s.gw.hand("Bob", gm=True).cards
    natural_1(s, "Bob", secret=False)
    s.gw.flux("Bob")  # no card named: the only one, the secret card
    assert reveals(s) == [secret_seq] and s.log[-1].data["cause"] == s.log[-2].seq
    assert s.gw.hand("Bob").cards == s.gw.hand("Bob", gm=True).cards


def test_gw_alpha_10_an_overcharge_that_taps_nothing_still_reveals_the_secret_card() -> None:
    s = Session(seed=5)
    catalog = s.gw.state.catalog
    s.gw.setup([catalog.card(i).name for i in catalog.starter_ids if catalog.card(i).overcharge])
    s.gw.config(overcharge_taps=False)  # GW-ALPHA-12: the overcharge moves no card
    s.gw.character("Rin", level=4, new=True)
    s.gw.draw("Rin")
    s.gw.encounter_start()
    secret_natural_1(s)
    seen = s.gw.state.readied("Rin")[1]
    s.gw.flux("Rin", seen)
    assert s.log[-1].secret
    seq = s.log[-1].seq
    s.gw.overcharge("Rin", seen)  # the card the players see: the secret one is overcharged
    assert [e.kind for e in s.log[-2:]] == ["table.reveal", "gw.overcharge"] and reveals(s) == [seq]
    assert s.gw.hand("Rin").cards == s.gw.hand("Rin", gm=True).cards
