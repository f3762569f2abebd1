"""Write the list of valid rule ids (every `ID:` line and table row of RULES.md) to the test data
file tests/teaching/data/rule_ids.txt, so tests need not read the shared rules file.

Run once after RULES.md gains rules: `python tools/rule_ids.py PATH/TO/RULES.md`.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

ID = re.compile(r"^(?:\| )?((?:GURPS|MTG|GW)-[A-Z]+-\d+)\b", re.M)
OUT = Path(__file__).resolve().parents[1] / "tests" / "teaching" / "data" / "rule_ids.txt"


def main(rules_md: str) -> None:
    ids = sorted(set(ID.findall(Path(rules_md).read_text(encoding="utf-8"))))
    OUT.write_text("\n".join(ids) + "\n", encoding="utf-8")
    print(f"{len(ids)} rule ids -> {OUT.name}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Copy the rule ids of RULES.md into the tests' data.")
    parser.add_argument("rules_md", help="the shared RULES.md")
    main(parser.parse_args().rules_md)
