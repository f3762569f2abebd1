"""Rollable tables (gamekernel/rolltables): exact odds against an independent count of the dice,
ranges and their errors, the shipped GURPS tables (GURPS-RR-04, GURPS-MAG-19), each audience through
the projection, undo, files, and the magic."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest

from gamekernel import Session
from gamekernel.errors import GameKernelError, UsageError
from gamekernel.remote.projection import SPECTATOR, Audience
from gamekernel.remote.views import view
from gamekernel.rolltables import rules
from gamekernel.rolltables.rules import parse_body, parse_range


def oracle(sides: list[int], modifier: int, spans: list[tuple[int | None, int | None]]) -> list[Fraction]:
    """Each span's chance by listing every face of every die (no dice machinery), a total past the
    ends read as the nearest end."""
    counts: Counter[int] = Counter(sum(f) + modifier for f in itertools.product(*(range(1, s + 1) for s in sides)))
    whole = sum(counts.values())
    lows = [lo if lo is not None else -10**6 for lo, _ in spans]
    highs = [hi if hi is not None else 10**6 for _, hi in spans]
    ways = [0] * len(spans)
    for total, n in counts.items():
        hit = [i for i in range(len(spans)) if lows[i] <= total <= highs[i]]
        index = hit[0] if hit else (lows.index(min(lows)) if total < min(lows) else highs.index(max(highs)))
        ways[index] += n
    return [Fraction(w, whole) for w in ways]


def table() -> Session:
    s = Session(seed=4)
    s.gurps.char_new("Aiko")
    s.gurps.char_new("Bren")
    s.seats.seat("alice", "Aiko")
    s.seats.seat("bob", "Bren")
    return s


@pytest.mark.parametrize("modifier", range(-4, 8))
def test_gurps_rr_04_reaction_table_odds_equal_counting_the_dice(modifier):
    s = table()
    shipped = s.rolltables.get("reaction")
    spans = [(e.low, e.high) for e in shipped.entries]
    assert s.rolltables.odds("reaction", modifier).odds == tuple(oracle([6, 6, 6], modifier, spans))


def test_gurps_rr_04_the_shipped_table_reads_as_the_rules_reaction_band():
    from gamekernel.gurps.rules.reactions import REACTION_TABLE, reaction_band

    shipped = Session().rolltables.get("reaction")
    assert shipped.rule == "GURPS-RR-04" and len(shipped.entries) == len(REACTION_TABLE)
    for total in range(-6, 26):
        index = rules.entry_for(shipped, total)
        assert REACTION_TABLE[index] == reaction_band(total), total
        assert shipped.entries[index].text["en"].startswith(reaction_band(total).name + ":")


def test_gurps_mag_19_spell_failure_has_one_entry_per_3d_total():
    shipped = Session().rolltables.get("spell-failure")
    assert shipped.rule == "GURPS-MAG-19"
    assert [(e.low, e.high) for e in shipped.entries] == [(n, n) for n in range(3, 19)]
    assert rules.entry_odds(shipped)[7] == Fraction(27, 216)  # 10 on 3d: 27 ways of 216


def test_odds_of_a_typed_table_with_two_dice_kinds():
    s = table()
    s.rolltables.define(parse_body("Mixed", "1d4+1d6", "2-4: a\n5: b\n6-8: c\n9+: d"))
    spans = [(2, 4), (5, 5), (6, 8), (9, None)]
    for modifier in (-3, 0, 2):
        assert s.rolltables.odds("Mixed", modifier).odds == tuple(oracle([4, 6], modifier, spans))


@pytest.mark.parametrize(("text", "span"), [("3", (3, 3)), ("2-4", (2, 4)), ("19+", (19, None)), ("<=0", (None, 0)),
                                            ("≤-1", (None, -1)), ("１０-１２", (10, 12)), ("-2--1", (-2, -1))])
def test_ranges(text, span):
    assert parse_range(text, "line 1") == span


@pytest.mark.parametrize("text", ["", "4-2", "a", "3-", "1,2"])
def test_bad_ranges_name_the_line(text):
    with pytest.raises(UsageError, match="line 7"):
        parse_range(text, "line 7")


def test_a_gap_or_an_overlap_is_refused_and_changes_nothing():
    s = table()
    before = len(s.log)
    with pytest.raises(UsageError, match="no entry holds 7"):
        s.rolltables.define(parse_body("Gap", "2d6", "2-6: a\n8-12: b"))
    with pytest.raises(UsageError, match=r"7 is in more than one entry \(2-7, 7-12\)"):
        s.rolltables.define(parse_body("Both", "2d6", "2-7: a\n7-12: b"))
    with pytest.raises(UsageError, match="line 2"):
        s.rolltables.define(parse_body("Colon", "2d6", "2-7: a\n8-12 b"))
    assert len(s.log) == before


def test_entries_roll_again_and_name_characters_and_cards():
    s = table()
    s.rolltables.define(parse_body("Weather", "1d6", "1-3: rain\n4-6: sun"))
    s.rolltables.define(parse_body("Road", "1d6", "1-6: storm [card Serra Angel] -> Weather"))
    s.rolltables.define(parse_body("Meet", "1d6", "1-6: an old friend of @aiko -> again"))
    road = s.rolltables.roll("Road")
    assert road.entry["card"] == "Serra Angel" and len(road.then) == 1 and road.then[0].table == "Weather"
    meet = s.rolltables.roll("Meet")
    assert meet.entry["character"] == "Aiko"  # the table's spelling of a character at the table
    depth, step = 1, meet
    while step.then:
        step, depth = step.then[0], depth + 1
    assert depth == rules.MAX_DEPTH  # a table rolling itself again stops
    with pytest.raises(GameKernelError, match="Nobody"):
        s.rolltables.define(parse_body("Who", "1d6", "1-6: @Nobody"))


def _seen(s: Session, user: str | None) -> str:
    audience = Audience.player(user) if user else Audience(SPECTATOR)
    return json.dumps(view(s, audience, s.public_table()), ensure_ascii=False)


def _canary_table(s: Session) -> None:
    s.rolltables.define(parse_body("Omen", "1d6", "\n".join(f"{n}: omen Qx{n}q" for n in range(1, 7))))


def test_audiences_public_secret_player_blind():
    s = table()
    _canary_table(s)
    assert "Qx" not in _seen(s, "alice")  # the definition is the GM's
    public = s.rolltables.roll("Omen")
    seen = f"Qx{public.total}q"
    assert all(seen in _seen(s, u) for u in ("alice", "bob", None))
    s.undo()
    secret_before = s.rng.getstate()
    mine = s.rolltables.roll("Omen", audience="player", to=["alice"])
    assert s.rng.getstate() == secret_before  # a roll for a player takes the secret dice
    token = f"Qx{mine.total}q"
    assert token in _seen(s, "alice") and token not in _seen(s, "bob") and token not in _seen(s, None)
    assert "The GM rolled on Omen for alice" in _seen(s, "bob")
    s.undo()  # the marker goes with the roll it tells of
    assert "Omen" not in _seen(s, "bob") and "Qx" not in _seen(s, "alice")
    blind = s.rolltables.roll("Omen", audience="blind", to=["alice"])
    token = f"Qx{blind.total}q"
    assert all(token not in _seen(s, u) for u in ("alice", "bob", None))
    assert "alice: a roll on Omen; only the GM knows the result" in _seen(s, "alice")
    s.undo()
    hidden = s.rolltables.roll("Omen", audience="secret")
    assert all(f"Qx{hidden.total}q" not in _seen(s, u) and "Omen" not in _seen(s, u) for u in ("alice", "bob", None))
    s.seats.reveal(s.log[-1].seq)
    assert f"Qx{hidden.total}q" in _seen(s, "bob")  # revealed: everyone reads it


def test_audience_errors_change_nothing():
    s = table()
    before, dice = len(s.log), s.rng.getstate()
    for kwargs, match in [({"audience": "player"}, "names the seated players"),
                          ({"audience": "player", "to": ["carol"]}, "carol has no seat"),
                          ({"audience": "public", "to": ["alice"]}, "for nobody in particular"),
                          ({"audience": "loud"}, "unknown audience")]:
        with pytest.raises(GameKernelError, match=match), s.command():
            s.rolltables.roll("reaction", **kwargs)
    with pytest.raises(GameKernelError, match="no table 'Nope'"), s.command():
        s.rolltables.roll("Nope")
    assert len(s.log) == before and s.rng.getstate() == dice


def test_replay_keeps_the_faces(tmp_path):
    s = table()
    done = s.rolltables.roll("reaction", 3)
    event = s.log[-1]
    from gamekernel.rolltables.results import TableRoll

    assert TableRoll.from_dict(event.data["result"]) == done
    assert event.data["result"]["odds"] == [done.odds.numerator, done.odds.denominator]


def test_files_csv_json_yaml(tmp_path):
    s = table()
    (tmp_path / "loot.csv").write_text("range,result,then\n1-2,gold,\n3-4,a map,Weather\n5-6,nothing,\n")
    (tmp_path / "weather.json").write_text(json.dumps({"name": "Weather", "dice": "1d6",
                                                       "entries": [{"range": "1-3", "result": "rain"},
                                                                   {"range": "4-6", "result": "sun"}]}))
    (tmp_path / "wind.yaml").write_text("dice: 1d4\nentries:\n  - {range: 1-2, result: calm}\n"
                                        "  - {range: 3-4, result: gale}\n")
    s.rolltables.load(tmp_path / "weather.json")
    s.rolltables.load(tmp_path / "loot.csv", dice="1d6")
    s.rolltables.load(tmp_path / "wind.yaml")
    assert {"Weather", "loot", "wind"} <= {n for n, _, _ in s.rolltables.names().rows}
    assert s.rolltables.get("loot").entries[1].then == "Weather"
    with pytest.raises(GameKernelError, match="--dice"):
        s.rolltables.load(tmp_path / "loot.csv")
    (tmp_path / "bad.json").write_text("{\"dice\": \"1d6\",\n \"entries\": [}")
    with pytest.raises(GameKernelError, match=r"bad\.json is not readable at line 2"):
        s.rolltables.load(tmp_path / "bad.json")
    (tmp_path / "big.json").write_text(" " * (300 * 1024))
    with pytest.raises(GameKernelError, match="at most"):
        s.rolltables.load(tmp_path / "big.json")


def test_magic_define_roll_odds_and_errors(ip):
    from gamekernel.testing import run

    cell = ip.run_cell_magic("rolltable", "define Encounter 2d6", "# what the party meets\n2-6: wolves\n7-12: nobody\n")
    assert "Encounter" in str(cell) and "2 entries" in str(cell)
    rolled = str(run(ip, "rolltable", "roll Encounter"))
    total = int(rolled.split(" = ")[1].split()[0])
    assert rolled.endswith("wolves (odds 41.67%)" if total <= 6 else "nobody (odds 58.33%)")
    odds = str(run(ip, "rolltable", "odds reaction +2"))
    assert "GURPS-RR-04" in odds and "3d+2" in odds
    assert "Secret roll" in str(run(ip, "rolltable", "roll reaction --secret"))
    for line in ("char new Aiko", "table seat alice Aiko"):
        run(ip, *line.split(" ", 1))
    told = str(run(ip, "rolltable", "roll Encounter --to=Alice"))  # the notebook says for whom, never what
    assert told.startswith("rolled on Encounter for alice:") and "wolves" not in told and "nobody" not in told
    assert "blind" in str(run(ip, "rolltable", "roll Encounter --blind=alice"))
    assert "one audience at a time" in str(run(ip, "rolltable", "roll reaction --secret --to=alice"))
    assert "bad modifier" in str(run(ip, "rolltable", "roll reaction +x"))
    assert "cell" in str(run(ip, "rolltable", "define Empty 1d6"))
    listed = str(run(ip, "rolltable"))
    assert "reaction" in listed and "spell-failure" in listed and "Encounter" in listed


def test_magic_in_japanese(ip):
    from gamekernel.testing import run

    ip.run_line_magic("config", "GameKernel.language = 'ja'")
    text = str(run(ip, "rolltable", "odds reaction"))
    assert "GURPS 反応表" in text and "中立" in text
