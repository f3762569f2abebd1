"""GW-ALPHA-10 with a secret roll, after the flux is resolved: the replacement card is the GM's secret.

Every player-visible view of the notebook (the hand result, the hand widget and its saved output,
the `%table` dashboard live and saved, the public results of later commands, `%log`, the players'
story) draws the hand from the session's one public table, the projection the remote views use, so
it keeps the discarded card, the counts and the order until `%reveal N`; `%hand NAME --gm` shows the
true hand with the replacement marked secret.
"""

from __future__ import annotations

import json

import pytest

from gamekernel import Session
from gamekernel.errors import NotFoundError
from gamekernel.gammaworld.rules.state import GM_DECK
from gamekernel.gammaworld.widgets.hand import HandWidget
from gamekernel.i18n import set_language, t
from gamekernel.remote.projection import SPECTATOR, Audience
from gamekernel.remote.views import view
from gamekernel.render.story import story_markdown, tell
from gamekernel.table.widget import TableDashboard


def table(seed: int = 5, log_path=None) -> Session:
    """Rin (two readied cards) and Bob (one) in an encounter, Rin seated for alice."""
    s = Session(seed=seed, log_path=log_path)
    s.gw.character("Rin", level=4, new=True)
    s.gw.character("Bob", level=1, new=True)
    s.gw.draw("Rin")
    s.gw.draw("Bob")
    s.seats.seat("alice", "Rin")
    s.gw.encounter_start()
    return s


def secret_natural_1(s: Session) -> int:
    for _ in range(500):
        s.roll("1d20", actor="Rin", secret=True)
        if s.log[-1].kind == "gw.flux_pending":
            return s.log[-1].seq
    raise AssertionError("no natural 1 in 500 rolls")


def name_of(s: Session, uid: str) -> str:
    return s.gw.state.catalog.card(s.gw.state.table.card(uid).def_id).name


def resolve_secretly(s: Session) -> tuple[str, str, int]:
    """A secret natural 1 resolved by discarding Rin's second card: (discarded, replacement, flux seq)."""
    secret_natural_1(s)
    old = s.gw.state.readied("Rin")
    s.gw.flux("Rin", old[1])
    assert s.log[-1].kind == "gw.flux" and s.log[-1].secret
    new = [u for u in s.gw.state.readied("Rin") if u not in old]
    assert len(new) == 1
    return name_of(s, old[1]), name_of(s, new[0]), s.log[-1].seq


def surfaces(s: Session) -> dict[str, str]:
    """Every byte of the notebook a player may see, and the remote players' and spectators' views."""
    public = s.public_table()
    hands = [HandWidget(s, "Rin"), HandWidget(s, "Rin")]  # a second widget on the same character
    dashboard = TableDashboard(s)
    try:
        shown = {f"hand widget {i}": json.dumps(w.get_state(), default=str) + json.dumps(w._repr_mimebundle_()[0])
                 for i, w in enumerate(hands)}
        return {
            **shown,
            "hand": repr(s.gw.hand("Rin")) + s.gw.hand("Rin")._repr_html_(),
            "dashboard": json.dumps(dashboard.get_state(), default=str) + json.dumps(dashboard._repr_mimebundle_()[0])
                         + repr(dashboard),
            "log": repr(s.log_view()) + s.log_view()._repr_html_(),
            "story": story_markdown(tell(public.events())) + story_markdown(tell(s.log)) + exported(s),
            "alice": json.dumps(view(s, Audience.player("alice"), public), default=str),
            "spectator": json.dumps(view(s, Audience(SPECTATOR), public), default=str),
        }
    finally:
        for widget in (*hands, dashboard):
            widget.close()


def exported(s: Session) -> str:
    """`%log export FILE --players` as Markdown and HTML: the story a GM hands out."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        for name in ("players.md", "players.html"):
            s.log_write(Path(folder) / name, players=True)
        return "".join((Path(folder) / name).read_text(encoding="utf-8") for name in ("players.md", "players.html"))


def counts(s: Session) -> tuple[int, int, int]:
    hand = s.gw.hand("Rin")
    return len(hand.cards), hand.gm_count, hand.discard_count


SURFACES = ("hand widget 0", "hand widget 1", "hand", "dashboard", "log", "story", "alice", "spectator")


@pytest.mark.parametrize("surface", SURFACES)
def test_gw_alpha_10_a_resolved_secret_flux_shows_in_no_player_view(surface: str) -> None:
    s = table()
    discarded, replacement, _ = resolve_secretly(s)
    text = surfaces(s)[surface]
    assert replacement not in text  # the card that came out
    if surface not in ("log", "story"):
        assert discarded in text  # the card the players saw stays


@pytest.mark.parametrize("surface", SURFACES)
def test_gw_alpha_10_after_the_encounter_ends_every_view_still_draws_without_the_secret(surface: str) -> None:
    s = table()
    _, replacement, _ = resolve_secretly(s)
    s.gw.encounter_end()  # public: discards the secret card with the others (the projection failed here)
    assert replacement not in surfaces(s)[surface]


def test_gw_alpha_10_the_players_hand_keeps_its_counts_and_order() -> None:
    s = table()
    before_names = [name_of(s, u) for u in s.gw.state.readied("Rin")]
    before = counts(s)
    _, replacement, _ = resolve_secretly(s)
    assert replacement not in before_names
    assert counts(s) == before  # card count, GM deck and discard pile as the players knew them
    assert [name_of(s, c.uid) for c in s.gw.hand("Rin").cards] == before_names  # the order too
    assert [e.data.get("cause") for e in s.active if e.kind == "gw.flux"]  # the step really happened


def test_gw_alpha_10_the_gm_view_marks_the_secret_replacement() -> None:
    s = table()
    discarded, replacement, _ = resolve_secretly(s)
    gm = s.gw.hand("Rin", gm=True)
    marked = t("gammaworld.hand.secret_card")
    assert f"{replacement} ({t('gammaworld.hand.ready')}, {marked})" in repr(gm)
    seen = s.gw.hand("Rin")
    assert t("gammaworld.hand.players_see", cards="; ".join(name_of(s, c.uid) for c in seen.cards),
             counts=t("gammaworld.hand.counts", deck="–", gm=seen.gm_count, discard=seen.discard_count)) in repr(gm)
    assert (seen.gm_count, seen.discard_count) == (gm.gm_count + 1, gm.discard_count - 1)
    assert "gk-secret-card" in gm._repr_html_() and replacement in gm._repr_html_()
    assert discarded not in repr(gm).split(" · ")[2]  # the true readied list no longer holds it
    gm_log = repr(s.log_view(1, show_secrets=True))  # `%log --gm`: the step, marked secret
    assert replacement in gm_log and discarded in gm_log and t("core.log.secret") in gm_log
    assert marked not in repr(s.gw.hand("Rin")) and "gk-secret-card" not in s.gw.hand("Rin")._repr_html_()


def test_gw_alpha_10_reveal_shows_the_replacement_everywhere() -> None:
    s = table()
    discarded, replacement, seq = resolve_secretly(s)
    s.seats.reveal(seq)
    for name, text in surfaces(s).items():
        if name not in ("log", "story"):
            assert replacement in text, name
    assert t("gammaworld.hand.secret_card") not in repr(s.gw.hand("Rin", gm=True))
    assert s.gw.hand("Rin").cards == s.gw.hand("Rin", gm=True).cards
    assert replacement in repr(s.gw.hand("Rin")) and discarded not in repr(s.gw.hand("Rin")).split(" · ")[2]


def test_gw_alpha_10_undo_and_redo_of_the_secret_resolution_keep_the_public_hand() -> None:
    s = table()
    seen = repr(s.gw.hand("Rin"))
    _, replacement, _ = resolve_secretly(s)
    after_roll = repr(s.gw.hand("Rin"))
    s.undo()  # the secret flux step
    assert repr(s.gw.hand("Rin")) == after_roll
    assert t("gammaworld.hand.secret_card") not in repr(s.gw.hand("Rin", gm=True))
    s.redo()
    assert repr(s.gw.hand("Rin")) == after_roll == seen
    assert replacement in repr(s.gw.hand("Rin", gm=True)) and replacement not in repr(s.gw.hand("Rin"))


def test_gw_alpha_10_a_reopened_log_keeps_the_secret(tmp_path) -> None:
    path = tmp_path / "table.jsonl"
    s = table(log_path=path)
    _, replacement, _ = resolve_secretly(s)
    seen = repr(s.gw.hand("Rin"))
    s.close()
    again = Session()
    again.attach_log(path)
    assert repr(again.gw.hand("Rin")) == seen and replacement not in seen
    assert replacement in repr(again.gw.hand("Rin", gm=True))


def test_gw_alpha_10_a_reopened_campaign_keeps_the_secret(tmp_path) -> None:
    s = Session(seed=5)
    s.campaign_open(tmp_path / "camp")
    s.gw.character("Rin", level=4, new=True)
    s.gw.draw("Rin")
    s.gw.encounter_start()
    _, replacement, _ = resolve_secretly(s)
    seen = repr(s.gw.hand("Rin"))
    s.campaign_save()
    s.campaign_close()
    again = Session()
    again.campaign_open(tmp_path / "camp", same_session=True)  # a restart mid-encounter, not a new session
    assert repr(again.gw.hand("Rin")) == seen and replacement not in seen
    board = TableDashboard(again)
    try:
        assert replacement not in json.dumps(board.get_state(), default=str)
    finally:
        board.close()
    again.campaign_close()


def test_gw_alpha_10_the_next_public_commands_show_the_public_hand() -> None:
    s = table()
    before = counts(s)
    _, replacement, _ = resolve_secretly(s)
    tap = s.gw.tap("Bob", s.gw.hand("Bob").cards[0].uid)  # a public step: its hands are the public ones
    assert (tap.hands[0].gm_count, tap.hands[0].discard_count) == before[1:]
    assert replacement not in repr(tap) + tap._repr_html_()
    end = s.gw.encounter_end()  # every readied card replaced in public: the secret card is spent
    assert [c.uid for c in s.gw.hand("Rin").cards] == s.gw.state.readied("Rin")
    assert [c.uid for c in end.hands[0].cards] == s.gw.state.readied(end.hands[0].name)
    json.dumps(view(s, Audience.player("alice"), s.public_table()))  # the projection still draws (was DataError)


def test_gw_alpha_10_a_click_on_the_card_the_players_see_acts_on_the_card_in_its_place() -> None:
    s = table()
    discarded, replacement, _ = resolve_secretly(s)
    widget = HandWidget(s, "Rin")
    try:
        stale = next(c["uid"] for c in widget.cards if c["name"] == discarded)
        widget._on_custom_message(widget, {"action": "tap", "uid": stale}, [])
        assert widget.error == "" and s.log[-1].kind == "gw.tap"
        assert s.gw.state.table.card(s.gw.state.readied("Rin")[1]).tapped  # the true card was used
        assert replacement in json.dumps(widget.get_state())  # used in public: the secret is spent
    finally:
        widget.close()


def test_gw_alpha_10_japanese_marks_and_hides_the_same() -> None:
    s = table()
    _, replacement, _ = resolve_secretly(s)
    set_language("ja")
    try:
        gm = repr(s.gw.hand("Rin", gm=True))
        assert "秘密（GMのみ）" in gm and "プレイヤーに見える手札" in gm
        ja_replacement = s.gw.state.catalog.card(s.gw.state.table.card(s.gw.state.readied("Rin")[1]).def_id).name
        assert ja_replacement in gm and ja_replacement not in repr(s.gw.hand("Rin"))
    finally:
        set_language("en")
    assert replacement


def public_views_after(s: Session, how: str, ip=None) -> dict[str, str]:
    """Rin's secret flux resolved through the magic, the hand widget's button or the dashboard's."""
    s.gw.character("Rin", level=4, new=True)
    s.gw.character("Bob", level=1, new=True)
    s.gw.draw("Rin")
    s.gw.draw("Bob")
    s.seats.seat("alice", "Rin")
    s.gw.encounter_start()
    secret_natural_1(s)
    uid = s.gw.hand("Rin").cards[1].uid
    if how == "magic":
        ip.run_line_magic("flux", f"Rin {name_of(s, uid)}")
    elif how == "widget":
        widget = HandWidget(s, "Rin")
        widget._on_custom_message(widget, {"action": "flux", "uid": uid}, [])
        assert widget.error == ""
        widget.close()
    else:
        board = TableDashboard(s)
        board._on_custom_message(board, {"action": "flux", "name": "Rin", "uid": uid}, [])
        assert board.error == ""
        board.close()
    assert s.log[-1].kind == "gw.flux" and s.log[-1].secret, how
    replacement = name_of(s, s.gw.state.readied("Rin")[1])
    board = TableDashboard(s)
    try:
        shown = {"hand": repr(s.gw.hand("Rin")) + s.gw.hand("Rin")._repr_html_(),
                 "dashboard": json.dumps(board.view) + json.dumps(board.texts) + board.last,
                 "alice": json.dumps(view(s, Audience.player("alice"), s.public_table())["gamma"])}
        assert not [name for name, text in shown.items() if replacement in text], how
        return shown
    finally:
        board.close()


def test_gw_alpha_10_magic_widget_and_dashboard_give_the_same_public_views(ip) -> None:
    from gamekernel.magics import current_session

    ip.run_line_magic("seed", "5")
    by_magic = public_views_after(current_session(), "magic", ip)
    assert by_magic == public_views_after(Session(seed=5), "widget")
    assert by_magic == public_views_after(Session(seed=5), "dashboard")


def test_gw_alpha_10_a_typed_card_the_players_see_acts_on_the_card_in_its_place() -> None:
    s = table()
    discarded, replacement, _ = resolve_secretly(s)
    s.gw.tap("Rin", discarded)
    assert s.gw.state.table.card(s.gw.state.readied("Rin")[1]).tapped
    with pytest.raises(NotFoundError) as error:  # a card in neither hand: the players' hand is listed
        s.gw.untap("Rin", "Gravity Knot")
    assert replacement in str(error.value)  # tapped in public just now: the secret is spent


def test_gw_alpha_10_an_unknown_card_lists_the_hand_the_players_see() -> None:
    s = table()
    discarded, replacement, _ = resolve_secretly(s)
    with pytest.raises(NotFoundError) as error:
        s.gw.tap("Rin", "Gravity Knot")
    assert discarded in str(error.value) and replacement not in str(error.value)
    assert s.log[-1].kind == "gw.flux"  # nothing recorded


def test_gw_alpha_10_the_gm_deck_listing_counts_what_the_players_know() -> None:
    s = table()
    before = s.gw.deck_show("GM").in_deck
    resolve_secretly(s)
    assert s.gw.deck_show("GM").in_deck == before == s.gw.hand("Rin").gm_count
    assert s.gw.state.table.count(GM_DECK) == before - 1


def test_gw_alpha_10_the_encounter_end_discards_the_card_the_players_see_in_its_place() -> None:
    s = table()
    resolve_secretly(s)
    hand, gm, discard = counts(s)
    drawn = hand + len(s.gw.hand("Bob").cards)
    s.gw.encounter_end()  # GW-ALPHA-09 in public: what the players count is what they saw go
    assert counts(s) == (hand, gm - drawn, discard + drawn)
    true = s.gw.hand("Rin", gm=True)
    assert (true.gm_count, true.discard_count) == (gm - drawn - 1, discard + drawn + 1)  # the secret draw
    assert t("gammaworld.hand.counts", deck="–", gm=gm - drawn, discard=discard + drawn) in repr(true)  # the GM is told
    assert [c.uid for c in s.gw.hand("Rin").cards] == s.gw.state.readied("Rin")  # the new cards, as they are


class _Comm:
    """The kernel end of a comm, as much as the table link uses: what it sent, in order."""

    def __init__(self) -> None:
        self.sent: list[dict] = []

    def on_msg(self, callback) -> None:
        self.receive = callback

    def on_close(self, callback) -> None:
        self.closed = callback

    def send(self, data: dict) -> None:
        self.sent.append(data)


def test_gw_alpha_10_the_remote_link_and_the_notebook_share_one_projection() -> None:
    from gamekernel.remote.comm import TableLink

    s = table()
    link = TableLink(_Comm(), lambda: s)
    link.comm.receive({"content": {"data": {"type": "watch", "users": ["alice"]}}})
    assert link.table is s.public_table()
    discarded, replacement, _ = resolve_secretly(s)
    sent = [m for m in link.comm.sent if m["type"] == "view"][-1]["view"]
    rin = next(row for row in sent["gamma"] if row["name"] == "Rin")
    board = TableDashboard(s)
    try:
        on_the_table = next(row for row in board.view["gamma"] if row["name"] == "Rin")
    finally:
        board.close()
    assert [c["name"] for c in rin["cards"]] == [c["name"] for c in on_the_table["cards"]]
    assert discarded in json.dumps(sent) and replacement not in json.dumps(sent)
    link.close()
    assert s.public_table() is link.session.public_table()  # the notebook's views keep their projection


def _play(s: Session, rng) -> None:
    """One random move of the table: secret or public d20s, a flux resolved from the players' hand,
    a tap or untap of a card the players see, an encounter's end and start, a rest."""
    from gamekernel.errors import GameKernelError

    move = rng.choice(["secret"] * 3 + ["public"] + ["flux"] * 3 + ["tap"] * 2 + ["end", "rest", "undo"])
    who = rng.choice(sorted(s.gw.state.flux) if move == "flux" and s.gw.state.flux else ["Rin", "Bob"])
    try:
        if move in ("secret", "public"):
            s.roll("4d20", actor=who, secret=move == "secret")  # a natural 1 on any of them: a flux
        elif move == "flux" and s.gw.state.flux.get(who):
            s.gw.flux(who, rng.choice(s.gw.hand(who).cards).uid)  # a card the players see
        elif move == "tap" and s.gw.hand(who).cards:
            card = rng.choice(s.gw.hand(who).cards)
            (s.gw.untap if card.tapped else s.gw.tap)(who, card.uid)
        elif move == "end":
            s.gw.encounter_end()
            s.gw.encounter_start()
        elif move == "rest":
            s.gw.rest()
            s.gw.encounter_start()
        elif move == "undo":
            s.undo()
    except GameKernelError:
        pass  # a move the rules refuse (a tapped card tapped again): nothing recorded


def test_gw_alpha_10_the_players_table_stays_whole_and_reveals_back_to_the_truth() -> None:
    import random

    for seed in range(12):
        rng = random.Random(seed)
        s = table(seed)
        moves = 0
        # at least 60 moves, and on until two secret fluxes were resolved (the secret dice are the
        # secret stream's: how many moves that takes differs from run to run, not whether it happens)
        while moves < 60 or sum(e.kind == "gw.flux" and e.secret for e in s.log) < 2:
            assert moves < 2000, seed
            _play(s, rng)
            moves += 1
            for who in ("Rin", "Bob"):  # the public table can be drawn, each card in one zone
                hand = s.gw.hand(who)
                assert len(hand.cards) <= hand.readied_target, (seed, who)
            assert view(s, Audience.player("alice"), s.public_table())["mine"] == ["Rin"]
        for event in [e for e in s.active if e.secret and e.kind.startswith("gw.")]:
            if event.seq not in s.state["seats"].revealed:  # a public use of its card revealed it already
                s.seats.reveal(event.seq)
        assert s.public_table().public["gammaworld"] == s.state.to_dict()["gammaworld"], seed


@pytest.mark.parametrize("language", ["en", "ja"])
def test_gw_alpha_10_a_refused_click_on_the_replaced_card_names_the_card_the_players_see(language: str) -> None:
    s = table()
    used = s.gw.state.readied("Rin")[1]
    s.gw.tap("Rin", used)  # tapped before the flux: the players see it tapped
    secret_natural_1(s)
    s.gw.flux("Rin", used)  # its untapped replacement, in secret
    set_language(language)
    try:
        discarded, replacement = name_of(s, used), name_of(s, s.gw.state.readied("Rin")[1])
        board = TableDashboard(s)
        try:
            count = len(s.log)
            board._on_custom_message(board, {"action": "untap", "name": "Rin", "uid": used}, [])
            assert board.error == t("gammaworld.err.card_in_place", name="Rin", card=discarded)
            assert replacement not in board.error and len(s.log) == count  # nothing recorded
        finally:
            board.close()
    finally:
        set_language("en")
