"""`python -m gamekernel hub-config --tables N [...] --output FILE`: write a JupyterHub config for a club's
tables (`club.py` says what it sets). The file holds the settings as data and one call; a setting is
checked when the file is written and again when the hub reads it. No password is written: the local
platform reads the club admin's from GAMEKERNEL_HUB_ADMIN_PASSWORD at each hub start."""

from __future__ import annotations

import argparse
import pprint
import sys
from pathlib import Path

from gamekernel.remote.hub.club import PLATFORMS, Club, check, make_tables
from gamekernel.remote.hub.settings import SetupError

TEMPLATE = '''"""JupyterHub config for {count} gamekernel tables, written by `python -m gamekernel hub-config`.
Edit the settings below (README "Many tables on one hub"), or write the file again."""

import os
import sys

from gamekernel.remote.hub.club import Club, configure_club
from gamekernel.remote.hub.settings import SetupError

SETTINGS = {settings}

try:
    configure_club(get_config(), Club.from_dict(SETTINGS), os.environ)  # noqa: F821  (JupyterHub's loader)
except SetupError as error:
    sys.exit(f"hub config: {{error}}")
'''


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m gamekernel hub-config",
                                description="Write a JupyterHub config for many gamekernel tables.")
    p.add_argument("--tables", type=int, required=True, help="how many tables (table-01, table-02 ...)")
    p.add_argument("--gms", default="", help="the GMs' hub user names, comma-separated, one a table "
                                             "(default gm-01, gm-02 ...)")
    p.add_argument("--gm-prefix", default="gm-", help="the GMs' names when --gms is not given")
    p.add_argument("--admin", default="admin", help="the club admin's user name")
    p.add_argument("--platform", choices=PLATFORMS, default="local",
                   help="local: this machine (ports, database, sign-in set here); tljh, z2jh: the tables only")
    p.add_argument("--ip", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000, help="the players' port")
    p.add_argument("--hub-port", type=int, default=8081)
    p.add_argument("--proxy-port", type=int, default=8001)
    p.add_argument("--state", default="club/.hub", help="local: the hub's database and secrets")
    p.add_argument("--homes", default="club/homes", help="local: the GMs' folders")
    p.add_argument("--ssl-cert", default="")
    p.add_argument("--ssl-key", default="")
    p.add_argument("--url", default="", help="the address players type (off loopback)")
    p.add_argument("--mem", default="512M", help="memory limit of a GM's server (512M; a table uses about 0.2 GB)")
    p.add_argument("--cpu", type=float, default=1.0, help="CPU limit of a GM's server")
    p.add_argument("--cull-timeout", type=int, default=3600, help="seconds idle before a table is stopped (0: never)")
    p.add_argument("--cull-every", type=int, default=300)
    p.add_argument("--allow-root", action="store_true", help="GM servers may run as root (throwaway containers)")
    p.add_argument("--output", default="jupyterhub_config.py", help="the file to write ('-': print it)")
    return p


def build(args: argparse.Namespace) -> Club:
    gms = [g.strip() for g in args.gms.split(",") if g.strip()]
    club = Club(tables=make_tables(args.tables, gms or None, args.gm_prefix), admin=args.admin,
                platform=args.platform, ip=args.ip, port=args.port, hub_port=args.hub_port,
                proxy_port=args.proxy_port, state_dir=args.state, homes_dir=args.homes, ssl_cert=args.ssl_cert,
                ssl_key=args.ssl_key, url=args.url, mem_limit=args.mem, cpu_limit=args.cpu,
                cull_timeout=args.cull_timeout, cull_every=args.cull_every, allow_root=args.allow_root)
    return check(club)


def render(club: Club) -> str:
    settings = pprint.pformat(club.to_dict(), sort_dicts=False, width=100)  # a Python literal: data, no code
    return TEMPLATE.format(count=len(club.tables), settings=settings)


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    try:
        club = build(args)
    except SetupError as error:
        print(f"hub-config: {error}", file=sys.stderr)
        return 2
    text = render(club)
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    Path(args.output).write_text(text, encoding="utf-8")
    print(f"hub-config: wrote {args.output} for {len(club.tables)} tables "
          f"({', '.join(f'{t.group}: {t.gm}' for t in club.tables[:3])}{' ...' if len(club.tables) > 3 else ''})")
    return 0
