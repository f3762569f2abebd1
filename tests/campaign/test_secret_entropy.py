"""The secret stream is keyed by the seed and entropy the players never see.

The attack: brute-force the public seed from the public rolls, then compute the secret stream the way
the code does. Keyed from the seed alone that predicted every secret roll; keyed from the seed and
16 bytes of `os.urandom`, written to the GM's log as a secret event, it predicts none, while the GM's
log still replays every secret die.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from gamekernel.dice.nodes import faces
from gamekernel.errors import GameKernelError, UsageError
from gamekernel.events import ENTROPY_KIND, Event
from gamekernel.remote.projection import SPECTATOR, Audience, PublicTable
from gamekernel.remote.views import view
from gamekernel.render.log import log_text, visible_events
from gamekernel.rng import TransactionalRandom
from gamekernel.session import secret_seed
from gamekernel.table_session import Session

pytestmark = pytest.mark.usefixtures("secret_entropy_from_the_system")  # as at a real table

REAL_SEED = 42
SEEDS = range(0, 300)


def _seed_only_key(seed: int) -> int:
    """The derivation of the seed alone (what an attacker who read the code could compute)."""
    return int.from_bytes(hashlib.sha256(f"gamekernel secret stream\0{seed}".encode()).digest()[:16], "big")


class SeedOnly(Session):
    """The old keying: the secret stream from the seed alone."""

    def _key_secret_stream(self) -> None:
        super()._key_secret_stream()
        assert self._secret_seed is not None
        self.secret_rng.seed(_seed_only_key(self._secret_seed))


def _table(kind: type[Session] = Session, seed: int = REAL_SEED) -> Session:
    s = kind(seed=seed)
    s.roll("3d6")
    s.roll("1d20")
    s.roll("3d6", secret=True)
    s.roll("2d6")
    s.roll("3d6", secret=True)
    s.roll("3d6", secret=True)
    return s


def _public_groups(log: list[Event]) -> list[tuple[int, list[int]]]:
    return [(g["sides"], list(g["rolls"])) for e in visible_events(log, players=True) if e.kind == "roll"
            for g in e.data["result"]["dice"]]


def _secret_rolls(log: list[Event]) -> list[list[int]]:
    return [[f for g in e.data["result"]["dice"] for f in g["rolls"]] for e in log if e.secret and e.kind == "roll"]


def _attack(log: list[Event]) -> list[int]:
    """The seeds whose secret stream the attacker predicts: each seed whose public stream gives the
    public dice and whose seed-only key gives every secret die, in order. The whole sequence (nine
    dice) is compared, not roll by roll: one 3d6 matches another by chance once in 216."""
    groups, secrets = _public_groups(log), _secret_rolls(log)
    found = []
    for seed in SEEDS:
        rng = random.Random(seed)
        if all(faces(rng, len(seen), sides) == seen for sides, seen in groups):
            guess = random.Random(_seed_only_key(seed))
            if [faces(guess, 3, 6) for _ in secrets] == secrets:
                found.append(seed)
    return found


def test_recovering_the_seed_from_public_rolls_predicts_no_secret_roll():
    s = _table()
    assert REAL_SEED in SEEDS and len(_secret_rolls(s.log)) == 3
    assert _attack(s.log) == []


def test_the_attack_finds_every_secret_of_a_stream_keyed_by_the_seed_alone():
    """The same attack against the old keying: the test above can fail."""
    s = _table(SeedOnly)
    assert _attack(s.log) == [REAL_SEED]


def test_the_gms_log_replays_the_secret_dice_exactly():
    s = _table()
    entropy = [e for e in s.log if e.kind == ENTROPY_KIND]
    assert len(entropy) == 1 and entropy[0].secret and len(entropy[0].data["entropy"]) == 32
    seed = next(e.data["seed"] for e in s.log if e.kind == "seed")
    replayed = TransactionalRandom(secret_seed(seed, entropy[0].data["entropy"]))
    assert [faces(replayed, 3, 6) for _ in range(3)] == _secret_rolls(s.log)


def test_two_runs_of_one_seed_agree_in_public_and_differ_in_secret():
    a, b = _table(), _table()
    assert [(e.seq, e.kind, e.data) for e in a.log if not e.secret] == \
        [(e.seq, e.kind, e.data) for e in b.log if not e.secret]
    assert [e.data for e in a.log if e.kind == ENTROPY_KIND] != [e.data for e in b.log if e.kind == ENTROPY_KIND]


def test_the_entropy_is_recorded_only_at_the_first_secret_roll():
    s = Session(seed=1)
    s.roll("3d6")
    assert [e.kind for e in s.log] == ["seed", "roll"]  # no secret roll: the numbers stay as they were
    s.roll("3d6", secret=True)
    s.roll("3d6", secret=True)
    assert [e.kind for e in s.log] == ["seed", "roll", ENTROPY_KIND, "roll", "roll"]


def test_a_refused_secret_roll_records_nothing():
    s = Session(seed=1)
    with pytest.raises(GameKernelError), s.command():
        s.roll("3dx", secret=True)
    assert [e.kind for e in s.log] == ["seed"]
    s.roll("3d6", secret=True)
    assert [e.kind for e in s.log] == ["seed", ENTROPY_KIND, "roll"]


def test_an_unseeded_table_logs_no_entropy():
    s = Session()
    s.roll("3d6", secret=True)
    assert [e.kind for e in s.log] == ["roll"]


def test_the_entropy_never_reaches_a_player(tmp_path):
    s = _table()
    s.gurps.char_new("Aiko")
    s.seats.seat("alice", "Aiko")
    entropy = next(e for e in s.log if e.kind == ENTROPY_KIND)
    key = entropy.data["entropy"]
    story = s.log_write(tmp_path / "story.md", players=True).path.read_text(encoding="utf-8")
    page = s.log_write(tmp_path / "story.html", players=True).path.read_text(encoding="utf-8")
    public_log = log_text(s.log_view(show_secrets=False))
    public = PublicTable(s)
    views = [json.dumps(view(s, audience, public)) for audience in (Audience.player("alice"), Audience(SPECTATOR))]
    for text in (story, page, public_log, *views):
        assert key not in text
    assert key in log_text(s.log_view(show_secrets=True))  # the GM's log holds it
    with pytest.raises(UsageError, match=f"event {entropy.seq} keys the secret dice"):
        s.seats.reveal(entropy.seq)


def test_a_reopened_campaign_replays_its_secret_events_exactly(tmp_path):
    s = Session(seed=7)
    s.campaign_open(tmp_path / "camp")
    s.gurps.char_new("Aiko", iq=12)
    s.roll("3d6", secret=True)
    s.gurps.check("Per", secret=True)
    s.gurps.damage("2d cut", target="Aiko", secret=True)
    before = [(e.seq, e.kind, e.data, e.secret) for e in s.log]
    state = s.state.to_dict()
    s.campaign_close()
    again = Session()
    again.campaign_open(tmp_path / "camp")
    assert [(e.seq, e.kind, e.data, e.secret) for e in again.log][: len(before)] == before
    assert again.state.to_dict() == state
    keys = [e for e in again.log if e.kind == ENTROPY_KIND]
    assert len(keys) == 1 and keys[0].secret


def test_a_refused_first_secret_roll_leaves_no_entropy_event():
    """Found by tools/fuzz_magics.py: `%roll 1d20 --secret \\ud800` was refused (text that cannot be
    stored) but left the secret stream's entropy event in the log."""
    session = Session(seed=REAL_SEED)
    events = len(session.log)
    with pytest.raises(GameKernelError), session.command():
        session.roll("1d20 \ud800", secret=True)
    assert len(session.log) == events
    session.roll("1d20", secret=True)  # the next secret roll logs the entropy, just before itself
    assert [e.kind for e in session.log[events:]] == [ENTROPY_KIND, "roll"]
