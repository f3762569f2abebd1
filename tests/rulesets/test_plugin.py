"""A rule set is one package plus one entry point, a peer of the built-in ones. Two plug-ins in
`plugin/`, written only against gamekernel's public API and installed by nothing but their
`.dist-info` entry points, work in a fresh Python with gamekernel unchanged:

- the coin (`gk_coin`): operations, state, undo, a campaign snapshot, its magic, the overview, the
  log, renderers and both languages, with none of the optional files or hooks (no explain notes, no
  quiz, no explorer: `%quiz coin` and `%explore coin` say so in one line);
- Fate Core (`gk_fate`): a real fourth rule set that joins the shared `%check` by its characters,
  `--explain` with its own rule notes, `%log` in English and Japanese, the `%table` dashboard, the
  players' projection, a quiz and an odds explorer. Its own tests (`plugin/fate_checks.py`) run as a plug-in author
  runs them, on the `gamekernel.testing` fixtures; and no line of gamekernel names it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

PLUGIN = Path(__file__).parent / "plugin"

SCRIPT = r"""
import json, sys, tempfile
from gamekernel import Session
from gamekernel.rulesets import rule_sets
from gamekernel.i18n import set_language
out = {"rule_sets": [r.name for r in rule_sets()]}
s = Session(seed=5)
flip = s.rules["coin"].flip(3)
out["faces"] = list(flip.faces)
out["state"] = s.coin.state.to_dict()
out["same_handle"] = s.coin is s.rules["coin"] and s.coin.table is s
out["text"] = repr(flip)
s.undo()
out["after_undo"] = s.coin.state.to_dict()
folder = tempfile.mkdtemp()
s.campaign_open(folder + "/c")
s.coin.flip(2)
kept = s.coin.state.to_dict()
s.campaign_close()
again = Session()
again.campaign_open(folder + "/c")
out["reopened"] = again.coin.state.to_dict() == kept
again.campaign_close()

from IPython.testing.globalipapp import start_ipython
ip = start_ipython()
ip.run_line_magic("load_ext", "gamekernel")
ip.run_line_magic("seed", "5")
out["magic"] = repr(ip.run_line_magic("flip", "2"))
out["bad"] = repr(ip.run_line_magic("flip", "1000"))
out["overview"] = repr(ip.run_line_magic("gk", ""))
out["log"] = repr(ip.run_line_magic("log", ""))
out["html"] = ip.run_line_magic("flip", "")._repr_html_()
from gamekernel.magics import current_session
before = len(current_session().log)
out["quiz_none"] = repr(ip.run_line_magic("quiz", "coin"))
out["explore_none"] = repr(ip.run_line_magic("explore", "coin"))
out["explore_of"] = repr(ip.run_line_magic("explore", "gammaworld"))
out["quiz_of"] = current_session().teaching.quiz_state(current_session().teaching.quiz("gammaworld", 1))["set"]
out["unchanged"] = len(current_session().log) == before + 1
set_language("ja")
out["ja"] = repr(ip.run_line_magic("flip", "1"))
print(json.dumps(out, ensure_ascii=False))
"""


ROOT = Path(__file__).resolve().parents[2]
# what would name the Fate plug-in: its package, its game, its dice, its rule ids, event kinds, operations
NAMING_FATE = re.compile(r"gk_fate|Fate Core|Fudge|4dF|FATE-|fate\.(check|character|ladder|outcome)"
                         r"|fate_(check|character)|FateActions|\[[\"']fate[\"']\]|rules\.fate\b", re.IGNORECASE)


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLUGIN), str(ROOT), os.environ.get("PYTHONPATH", "")])}


def _run() -> dict:
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_rule_set_from_another_package_plugs_in_through_its_entry_point():
    out = _run()
    assert out["rule_sets"] == ["gurps", "gammaworld", "mtg", "coin", "fate"]
    assert len(out["faces"]) == 3 and set(out["faces"]) <= {"heads", "tails"}
    assert out["state"] == {"heads": out["faces"].count("heads"), "tails": out["faces"].count("tails")}
    assert out["text"] == "the coin shows " + ", ".join(out["faces"])
    assert out["after_undo"] == {"heads": 0, "tails": 0}
    assert out["reopened"] is True
    assert out["same_handle"] is True  # one handle per session, as an attribute and by name
    assert out["magic"].startswith("the coin shows ")
    assert out["bad"] == "error: a coin is flipped 1 to 100 times, not 1000: %flip 3"
    assert "\nCoin (a test rule set)\n" in out["overview"] and "%flip [N]" in out["overview"]
    assert "coin.flip" in out["log"] and "the coin shows" in out["log"]
    assert 'class="gk gk-coin"' in out["html"]
    assert out["ja"].startswith("コインは") and out["ja"][4:] in {"表", "裏"}
    # a rule set without a quiz or an explorer: one line each, nothing recorded; a rule set's own quiz and
    # explorer found by its name
    assert out["quiz_none"] == ("error: %quiz: the rule set 'coin' offers no quiz; choose gurps, alpha, mtg, fate"), \
        out["quiz_none"]
    assert out["explore_none"] == ("error: %explore: the rule set 'coin' offers no explorer; choose check, contest, "
                                   "alpha, library, ladder"), out["explore_none"]
    assert out["explore_of"] == "error: %explore: the rule set 'gammaworld' explores as %explore alpha"
    assert out["quiz_of"] == "alpha" and out["unchanged"] is True


def test_without_the_entry_point_gamekernel_has_its_three_rule_sets():
    from gamekernel.rulesets import rule_sets

    assert [r.name for r in rule_sets()] == ["gurps", "gammaworld", "mtg"]
    assert json.loads((PLUGIN / "gk_coin" / "i18n" / "en" / "coin.json").read_text("utf-8")).keys() == json.loads(
        (PLUGIN / "gk_coin" / "i18n" / "ja" / "coin.json").read_text("utf-8")).keys()


def test_the_fate_plug_in_passes_its_own_tests_on_the_testing_fixtures():
    """FATE-DICE, FATE-LADDER, FATE-OUTCOME, FATE-SKILL: `%check` by the actor, `--explain`, `%log` in
    both languages, `%table`, the players' view, a quiz, undo and a campaign (plugin/fate_checks.py)."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "gamekernel.testing",
         "--rootdir", str(PLUGIN), "--confcutdir", str(PLUGIN), "-c", str(PLUGIN / "pytest.ini"),
         str(PLUGIN / "fate_checks.py")],
        env=_env(), capture_output=True, text=True, timeout=300, cwd=PLUGIN)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert re.search(r"\b1[3-9] passed\b", done.stdout), done.stdout[-500:]  # every test ran, none skipped


def test_no_line_of_gamekernel_names_the_fate_plug_in():
    assert NAMING_FATE.search("from gk_fate.rules import rating") and NAMING_FATE.search('state["fate"]')
    found = [f"{path.relative_to(ROOT)}:{number}" for path in sorted((ROOT / "gamekernel").rglob("*"))
             if path.is_file() and path.suffix in (".py", ".json", ".md", ".js", ".css", ".txt")
             for number, line in enumerate(path.read_text("utf-8", errors="replace").splitlines(), 1)
             if NAMING_FATE.search(line)]
    assert found == []
