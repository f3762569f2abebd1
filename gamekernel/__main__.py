"""`python -m gamekernel install-kernel [--user|--sys-prefix|--prefix P] [--campaign FOLDER]`,
`python -m gamekernel lite build NOTEBOOK... --output SITE` (a zero-install site of the notebooks),
`python -m gamekernel hub-config --tables N ...` (a JupyterHub config for many tables)."""

from __future__ import annotations

import sys

USAGE = ("usage: python -m gamekernel install-kernel [--user|--sys-prefix|--prefix PREFIX] [--campaign FOLDER]\n"
         "       python -m gamekernel lite build NOTEBOOK.ipynb... --output SITE [--cache DIR]\n"
         "       python -m gamekernel hub-config --tables N [--gms a,b,...] [--platform local|tljh|z2jh] "
         "[--output FILE] (--help: every option)")


def main(argv: list[str]) -> int:
    if not argv or argv[0] in {"-h", "--help"}:
        print(USAGE)
        return 0 if argv else 2
    if argv[0] == "install-kernel":
        from gamekernel.kernelspec import main as install_main

        return install_main(argv[1:])
    if argv[0] == "lite":
        from gamekernel.tools.lite import main as lite_main

        return lite_main(argv[1:])
    if argv[0] == "hub-config":
        from gamekernel.remote.hub.club_cli import main as hub_main

        return hub_main(argv[1:])
    print(f"error: unknown command {argv[0]!r}\n{USAGE}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
