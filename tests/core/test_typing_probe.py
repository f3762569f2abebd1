"""Every call from an adapter into the session is typed: a misspelt handle method in a magic or a
widget is a mypy error, not a silent `Any`; a rule set's hooks are held to their Protocols
(gamekernel/rulesets.py). The adapters name what is below them only: the table's core as the
`Core` Protocol (gamekernel/rulesets.py) and their own rule set's handle (`Gurps.of(session)`,
`_gurps(session)` in the GURPS magics), never
the public Session above them (tests/core/test_no_import_cycle.py counts `if TYPE_CHECKING:` imports).

The probes are copies of real adapters (the GURPS magics, the Gamma World hand widget) with one
call misspelt, checked by `mypy.api.run` against this tree with a cache in a temporary folder: the
first check reads the package once, the others reuse it. The same copy unchanged must pass, so a
probe that fails for any other reason (a path, a missing import) is caught too.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api")

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "gamekernel"
PLUGIN = ROOT / "tests" / "rulesets" / "plugin"


RULE_SET = '''
from gamekernel.rulesets import Core, LineHandler, RuleSet
from gamekernel.syntax import Args


def run(session: Core, args: Args) -> object:
    return session.record("probe", {"spec": args.spec})


def claims(words: str) -> bool:
    return words.startswith("coin")


def check() -> LineHandler[str]:
    return LineHandler(run=RUN, claims=claims)


def rest() -> LineHandler[list[str]]:
    return LineHandler(run=run, claims=CLAIMS)


RULESET = RuleSet(name="probe", package=__name__, groups=(), check=check, rest=rest)
'''

CALL = ("from gamekernel.gammaworld.actions import GammaWorld\n"
        "from gamekernel.magic_base import SessionMagics\n\n\n"
        "class Probe(SessionMagics):\n"
        "    def tap(self) -> object:\n"
        "        return GammaWorld.of(self.session).tap('Rin', CARD)\n")


def _misspelt(source: str, call: str, wrong: str) -> str:
    assert source.count(call) == 1, call  # the probe edits one known call of the real module
    return source.replace(call, wrong)


def _probes() -> dict[str, str]:
    """Module name -> source: each real adapter as it is and with one call misspelt, a call with a
    wrong argument, and rule-set declarations with their hooks right and wrong."""
    magics = (PACKAGE / "gurps" / "magics.py").read_text(encoding="utf-8")
    hand = (PACKAGE / "gammaworld" / "widgets" / "hand.py").read_text(encoding="utf-8")
    return {
        "magics_good": magics,
        "magics_bad": _misspelt(magics, "_gurps(self.session).react(", "_gurps(self.session).reactt("),
        "magics_chekk": _misspelt(magics, "_gurps(session).check(spec", "_gurps(session).chekk(spec"),
        "magics_handle": _misspelt(magics, "_gurps(self.session).react(", "self.session.gurps.react("),
        "hand_good": hand,
        "hand_bad": _misspelt(hand, "gw.overcharge(", "gw.overchage("),
        "arg_good": CALL.replace("CARD", "'Sap Bloom'"),
        "arg_bad": CALL.replace("CARD", "3"),
        "ruleset_good": RULE_SET.replace("RUN", "run").replace("CLAIMS", "None"),
        "ruleset_run": RULE_SET.replace("RUN", "claims").replace("CLAIMS", "None"),  # run takes (session, args)
        "ruleset_claims": RULE_SET.replace("RUN", "run").replace("CLAIMS", "claims"),  # %rest's words are a list
    }


@pytest.fixture(scope="module")
def errors(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """One mypy run over every probe and the plug-in (the package is read once): the errors by
    module (`gk_coin` for the plug-ins', the coin's and Fate's), with this tree first on mypy's path."""
    folder = tmp_path_factory.mktemp("typing_probe")
    config = folder / "mypy.ini"
    config.write_text(
        "[mypy]\npython_version = 3.11\ncheck_untyped_defs = true\nfollow_imports = silent\n"
        f"mypy_path = {ROOT},{PLUGIN}\n"
        "[mypy-anywidget.*,ipywidgets.*,nbformat.*,nbclient.*,traitlets.*,jupyterhub.*,nativeauthenticator.*]\n"
        "ignore_missing_imports = true\n", encoding="utf-8")
    files = []
    for name, source in _probes().items():
        (folder / f"probe_{name}.py").write_text(source, encoding="utf-8")
        files.append(str(folder / f"probe_{name}.py"))
    limit = sys.getrecursionlimit()
    try:
        out, err, status = mypy_api.run([*files, str(PLUGIN / "gk_coin"), str(PLUGIN / "gk_fate"),
                                         "--config-file", str(config), "--cache-dir", str(folder / "cache"),
                                         "--no-error-summary", "--hide-error-context"])
    finally:
        sys.setrecursionlimit(limit)  # mypy raises it for itself; the data loaders' depth checks rely on it
    assert status in (0, 1), err or out  # 2: mypy itself could not run (a bad path or option)
    found: dict[str, list[str]] = {name: [] for name in [*_probes(), "gk_coin"]}
    for line in out.splitlines():
        if ": error:" in line:
            match = re.search(r"probe_(\w+)\.py:", line)
            found[match.group(1) if match else "gk_coin"].append(line)
    return found


def test_a_misspelt_session_method_in_a_magic_is_reported(errors: dict[str, list[str]]) -> None:
    assert errors["magics_good"] == []
    source = (PACKAGE / "gurps" / "magics.py").read_text(encoding="utf-8")
    line = source[:source.index("_gurps(self.session).react(")].count("\n") + 1
    assert len(errors["magics_bad"]) == 1, errors["magics_bad"]
    assert re.search(rf'probe_magics_bad\.py:{line}: error: "Gurps" has no attribute "reactt"',
                     errors["magics_bad"][0])


def test_a_misspelt_handle_method_or_handle_in_a_magic_is_reported(errors: dict[str, list[str]]) -> None:
    """`_gurps(session).chekk(...)`: the handle is typed, so the method after it is checked too; and the
    core below the rule sets has no rule set's handle as an attribute (`session.gurps` is the public
    Session's, above): an error, not a handle looked up at run time."""
    assert len(errors["magics_chekk"]) == 1 and '"Gurps" has no attribute "chekk"' in errors["magics_chekk"][0]
    assert len(errors["magics_handle"]) == 1 and '"Core" has no attribute "gurps"' in errors["magics_handle"][0]


def test_a_misspelt_session_method_in_a_widget_is_reported(errors: dict[str, list[str]]) -> None:
    assert errors["hand_good"] == []
    found = errors["hand_bad"]
    assert len(found) == 1 and '"GammaWorld" has no attribute "overchage"' in found[0], found


def test_a_wrong_argument_to_a_session_method_is_reported(errors: dict[str, list[str]]) -> None:
    """Not only the name: `gw.tap(name, card)` takes the card as a str."""
    assert errors["arg_good"] == []
    found = errors["arg_bad"]
    assert len(found) == 1 and 'Argument 2 to "tap" of "GammaWorld"' in found[0], found


@pytest.mark.parametrize(("probe", "error"), [
    ("ruleset_run", 'Argument "run" to "LineHandler" has incompatible type'),
    ("ruleset_claims", 'Argument "claims" to "LineHandler" has incompatible type'),
])
def test_a_rule_set_hook_is_held_to_its_protocol(errors: dict[str, list[str]], probe: str, error: str) -> None:
    assert errors["ruleset_good"] == []
    assert len(errors[probe]) == 1 and error in errors[probe][0], errors[probe]


def test_the_plugin_type_checks_against_the_hooks(errors: dict[str, list[str]]) -> None:
    """tests/rulesets/plugin is written as a third party would: the declarations, mixins and magics of
    both plug-ins (the coin and Fate) pass."""
    assert errors["gk_coin"] == []


# What the adapters, the rule sets' handles and hooks may name, even for the type checker: nothing above
# them (the public Session, the session module): the layers contracts in pyproject.toml hold every import,
# `if TYPE_CHECKING:` ones included, and ignore none.
BELOW_THE_SESSION = [PACKAGE / "magic_base.py", PACKAGE / "widgets" / "base.py", PACKAGE / "rulesets.py",
                     *sorted(PACKAGE.glob("*/magics.py")), *sorted(PACKAGE.glob("*/combat_magics.py")),
                     *sorted(PACKAGE.glob("*/widgets/*.py")), *sorted(PACKAGE.glob("*/actions.py"))]
ABOVE = ("gamekernel.session", "gamekernel.table_session")


def imports_of(path: Path, modules: tuple[str, ...]) -> list[str]:
    """The imports of `modules` in `path`, wherever they are (an `if TYPE_CHECKING:` block too), as `line module`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                 else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
        found += [f"{node.lineno} {name}" for name in names if name in modules]
    return found


def test_no_adapter_handle_or_hook_names_the_session_above_it() -> None:
    """The rule sets' magics, widgets and handles, the two adapter bases and the hooks' Protocols; the
    features across rule sets (table/, teaching/, remote/) sit beside the public Session and may."""
    allowed = {"table", "teaching", "remote", "magics"}
    checked = [p for p in BELOW_THE_SESSION if p.parent.name not in allowed and p.parent.parent.name not in allowed]
    assert len(checked) >= 14  # the two bases, the hooks, each rule set's magics, widgets and handles, cards
    bad = {str(p.relative_to(ROOT)): hits for p in checked if (hits := imports_of(p, ABOVE))}
    assert bad == {}


def test_the_import_finder_sees_a_type_checking_import(tmp_path: Path) -> None:
    module = tmp_path / "adapter.py"
    module.write_text("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                      "    from gamekernel.session import SessionCore\n"
                      "import gamekernel.syntax\nfrom gamekernel.table_session import Session\n", encoding="utf-8")
    assert sorted(imports_of(module, ABOVE)) == ["4 gamekernel.session", "6 gamekernel.table_session"]
