"""A rule set is one package plus one entry point: the coin-flip rule set in `plugin/` (written only
against gamekernel's public API, installed by nothing but its `.dist-info` entry point) works in a
fresh Python with gamekernel unchanged: operations, state, undo, a campaign snapshot, the magic, the
overview, the log, renderers and both languages."""

from __future__ import annotations

import json
import os
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
set_language("ja")
out["ja"] = repr(ip.run_line_magic("flip", "1"))
print(json.dumps(out, ensure_ascii=False))
"""


def _run() -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLUGIN), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_rule_set_from_another_package_plugs_in_through_its_entry_point():
    out = _run()
    assert out["rule_sets"] == ["gurps", "gammaworld", "mtg", "coin"]
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


def test_without_the_entry_point_gamekernel_has_its_three_rule_sets():
    from gamekernel.rulesets import rule_sets

    assert [r.name for r in rule_sets()] == ["gurps", "gammaworld", "mtg"]
    assert json.loads((PLUGIN / "gk_coin" / "i18n" / "en" / "coin.json").read_text("utf-8")).keys() == json.loads(
        (PLUGIN / "gk_coin" / "i18n" / "ja" / "coin.json").read_text("utf-8")).keys()
