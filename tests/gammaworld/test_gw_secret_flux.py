"""GW-ALPHA-10 with a secret roll: the pending flux of a secret natural 1 is the GM's own secret.

Every player-visible byte (the notebook's hand and its saved widget state, the `%table` dashboard
live and saved, the players' story, the remote players' views) leaves it out until the GM reveals it
(`%reveal N`) or resolves it; the GM's view (`%hand NAME --gm`) shows it, marked secret. Resolving
it (`%flux`) is as secret as the roll was.
"""

from __future__ import annotations

import json

from gamekernel import Session
from gamekernel.display.results import SecretNotice
from gamekernel.gammaworld.widgets.hand import HandWidget
from gamekernel.i18n import t
from gamekernel.remote.projection import GM, SPECTATOR, Audience, PublicTable
from gamekernel.remote.views import view
from gamekernel.render.story import story_markdown, tell
from gamekernel.session import replay
from gamekernel.table.widget import TableDashboard

PENDING = t("gammaworld.flux.pending", count=1)
SECRET_PENDING = t("gammaworld.flux.pending_secret", count=1)


def table(seed: int = 5) -> Session:
    s = Session(seed=seed)
    s.gw.character("Rin", level=1, new=True)
    s.gw.draw("Rin")
    s.seats.seat("alice", "Rin")
    s.gw.encounter_start()
    return s


def secret_natural_1(s: Session) -> int:
    """Roll secret d20s for Rin until one is a natural 1; the seq of its pending flux event."""
    for _ in range(500):
        s.roll("1d20", actor="Rin", secret=True)
        if s.log[-1].kind == "gw.flux_pending":
            return s.log[-1].seq
    raise AssertionError("no natural 1 in 500 rolls")


def public_surfaces(s: Session, public: PublicTable) -> dict[str, str]:
    """Every byte a player may see, by name: the hand (result, widget state and saved output), the
    dashboard (live state and snapshot), the players' story and every player's and spectator's view."""
    hand = HandWidget(s, "Rin")
    dashboard = TableDashboard(s)
    try:
        hand_bundle = {**hand._repr_mimebundle_()[0], "record": hand._record_bundle()}
        board_bundle = {**dashboard._repr_mimebundle_()[0], "record": dashboard._record_bundle()}
        return {
            "hand": repr(s.gw.hand("Rin")) + s.gw.hand("Rin")._repr_html_(),
            "hand widget": json.dumps(hand.get_state(), default=str) + json.dumps(hand_bundle, default=str),
            "dashboard": json.dumps(dashboard.get_state(), default=str) + json.dumps(board_bundle, default=str),
            "story": story_markdown(tell(public.events())) + story_markdown(tell(s.log)),
            "alice": json.dumps(view(s, Audience.player("alice"), public), default=str),
            "spectator": json.dumps(view(s, Audience(SPECTATOR), public), default=str),
        }
    finally:
        hand.close()
        dashboard.close()


def test_gw_alpha_10_secret_flux_is_in_no_public_surface_until_revealed() -> None:
    s = table()
    public = PublicTable(s)
    seq = secret_natural_1(s)
    assert s.gw.state.flux == {"Rin": 1}
    for name, text in public_surfaces(s, public).items():
        assert "Alpha Flux pending" not in text and SECRET_PENDING not in text, name
        assert "rolled a natural 1" not in text and '"flux": 1' not in text, name  # no triggered line, no count
        assert '"flux_pending": 1' not in text, name
    s.seats.reveal(seq)
    shown = public_surfaces(s, public)
    for name in ("hand", "hand widget", "dashboard", "alice", "spectator"):
        assert PENDING in shown[name] or '"flux": 1' in shown[name] or '"flux_pending": 1' in shown[name], name
    assert SECRET_PENDING not in shown["hand"]


def test_gw_alpha_10_the_gm_sees_the_secret_flux_marked_secret() -> None:
    s = table()
    public = PublicTable(s)
    secret_natural_1(s)
    gm = s.gw.hand("Rin", gm=True)
    assert gm.flux_pending == 0 and gm.flux_secret == 1
    assert SECRET_PENDING in repr(gm) and SECRET_PENDING in gm._repr_html_()
    assert PENDING not in repr(gm)
    assert s.gw.hand("Rin").flux_secret == 0 and SECRET_PENDING not in repr(s.gw.hand("Rin"))  # not even counted
    gm_row = view(s, Audience(GM), public)["facts"]["gamma"][0]  # the GM's seat: the truth, marked secret
    assert (gm_row["flux"], gm_row["flux_secret"]) == (1, 1)
    assert view(s, Audience.player("alice"), public)["gamma"][0]["flux"] == 0  # the players' count


def test_gw_alpha_10_resolving_a_secret_flux_is_secret_too() -> None:
    s = table()
    public = PublicTable(s)
    secret_natural_1(s)
    before_public = view(s, Audience.player("alice"), public)["gamma"]
    s.gw.flux("Rin")
    assert s.log[-1].kind == "gw.flux" and s.log[-1].secret
    assert s.gw.state.flux == {} and s.gw.state.secret_flux == {}
    assert view(s, Audience.player("alice"), public)["gamma"] == before_public  # the old card, still
    assert "Alpha Flux" not in story_markdown(tell(public.events()))


def test_gw_alpha_10_a_public_flux_is_resolved_first_and_publicly() -> None:
    s = table()
    secret_natural_1(s)
    for _ in range(500):
        s.roll("1d20", actor="Rin")
        if s.log[-1].kind == "gw.flux_pending":
            break
    assert s.gw.state.flux == {"Rin": 2} and s.gw.state.secret_flux == {"Rin": 1}
    assert s.gw.hand("Rin").flux_pending == 1
    s.gw.flux("Rin")
    assert not s.log[-1].secret and s.gw.state.flux == {"Rin": 1} and s.gw.state.secret_flux == {"Rin": 1}
    s.gw.flux("Rin")
    assert s.log[-1].secret and s.gw.state.flux == {}


def test_gw_alpha_10_reveal_of_the_roll_or_the_flux_makes_it_public_and_undo_takes_it_back() -> None:
    for which in ("flux", "roll"):
        s = table()
        seq = secret_natural_1(s)
        target = seq if which == "flux" else s.log[-1].data["cause"]
        s.seats.reveal(target)
        assert s.log[-1].kind == "gw.flux_reveal" and not s.log[-1].secret, which
        assert s.gw.hand("Rin").flux_pending == 1 and s.gw.state.secret_flux == {}
        assert "revealed" in s.log[-1].summary()
        assert replay(s.active).to_dict() == s.state.to_dict()
        s.undo()  # the reveal and the flux it made public go together
        assert s.gw.state.secret_flux == {"Rin": 1} and s.gw.hand("Rin").flux_pending == 0
        assert s.log[-1].kind == "undo" and set(s.log[-1].data["seqs"]) >= {s.log[-3].seq, s.log[-2].seq}


def test_gw_alpha_10_a_lapsed_secret_flux_is_not_named_at_the_encounter_end() -> None:
    s = table()
    secret_natural_1(s)
    s.gw.encounter_end()
    assert s.log[-1].data["detail"]["lapsed_flux"] == {}
    assert "Rin" not in t("gammaworld.encounter.lapsed", names="") and "lapsed" not in s.log[-1].summary()
    assert s.gw.state.flux == {} and s.gw.state.secret_flux == {}


def test_gw_alpha_10_flux_magic_and_hand_widget_keep_a_secret_resolution_secret(ip) -> None:
    from gamekernel.magics import current_session

    s = current_session()
    s.gw.character("Rin", level=1, new=True)
    s.gw.draw("Rin")
    s.gw.encounter_start()
    secret_natural_1(s)
    shown = ip.run_line_magic("hand", "Rin --gm")
    assert SECRET_PENDING in repr(shown)
    assert SECRET_PENDING not in repr(ip.run_line_magic("hand", "Rin --static"))
    result = ip.run_line_magic("flux", "Rin")
    assert isinstance(result, SecretNotice) and s.log[-1].kind == "gw.flux" and s.log[-1].secret
    secret_natural_1(s)
    widget = HandWidget(s, "Rin")
    try:
        assert widget.flux_pending == 0
        widget._on_custom_message(widget, {"action": "flux", "uid": widget.cards[0]["uid"]}, [])
        assert widget.error == "" and s.log[-1].secret
        assert widget.last == str(SecretNotice("flux")) and "Alpha Flux" not in widget.last
    finally:
        widget.close()


def test_gw_alpha_10_the_dashboard_button_keeps_a_secret_resolution_out_of_its_record() -> None:
    s = table()
    secret_natural_1(s)
    dashboard = TableDashboard(s)
    try:
        card = s.gw.hand("Rin").cards[0].uid
        dashboard._on_custom_message(dashboard, {"action": "flux", "name": "Rin", "uid": card}, [])
        assert dashboard.error == "" and s.log[-1].kind == "gw.flux" and s.log[-1].secret
        saved = json.dumps(dashboard._record_bundle(), default=str) + dashboard.last
        assert "Alpha Flux:" not in saved and "discards" not in saved
    finally:
        dashboard.close()
