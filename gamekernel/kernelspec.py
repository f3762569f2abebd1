"""`python -m gamekernel install-kernel`: a "Game (gamekernel)" Jupyter kernel that loads the extension.

ipykernel's own installer has no option for extensions, so this writes the kernel.json itself:
the standard ipykernel launcher with `--IPKernelApp.extensions=['gamekernel']`, and optionally a
first line that opens a campaign folder.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from gamekernel.errors import UsageError

DEFAULT_NAME = "gamekernel"
DEFAULT_DISPLAY_NAME = "Game (gamekernel)"


def kernel_json(*, display_name: str = DEFAULT_DISPLAY_NAME, campaign: str | None = None,
                python: str | None = None) -> dict:
    """The kernel.json of a kernel that starts with gamekernel loaded (and a campaign open)."""
    argv = [python or sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}",
            "--IPKernelApp.extensions=['gamekernel']"]
    if campaign:
        absolute = str(Path(campaign).expanduser().resolve())
        argv.append(f"--IPKernelApp.exec_lines={json.dumps(['%campaign open ' + absolute])}")
    return {"argv": argv, "display_name": display_name, "language": "python",
            "metadata": {"debugger": True}}


def install(*, user: bool = False, prefix: str | None = None, name: str = DEFAULT_NAME,
            display_name: str = DEFAULT_DISPLAY_NAME, campaign: str | None = None) -> str:
    """Install the kernelspec; returns the folder it was written to."""
    try:
        import ipykernel  # noqa: F401 - the kernel it starts
        from jupyter_client.kernelspec import KernelSpecManager
    except ImportError:
        raise UsageError("install-kernel needs ipykernel: pip install 'gamekernel[play]'") from None
    with tempfile.TemporaryDirectory() as temp:
        spec = Path(temp) / name
        spec.mkdir()
        (spec / "kernel.json").write_text(
            json.dumps(kernel_json(display_name=display_name, campaign=campaign), indent=1) + "\n", encoding="utf-8"
        )
        return KernelSpecManager().install_kernel_spec(str(spec), name, user=user, prefix=prefix)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gamekernel install-kernel",
                                     description="Install a Jupyter kernel that loads gamekernel on start.")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="install for the current user")
    where.add_argument("--sys-prefix", action="store_true", help="install into this Python environment (default)")
    where.add_argument("--prefix", help="install under this prefix (PREFIX/share/jupyter/kernels)")
    parser.add_argument("--name", default=DEFAULT_NAME, help="kernel name (default %(default)s)")
    parser.add_argument("--display-name", default=DEFAULT_DISPLAY_NAME, help="name shown in Jupyter")
    parser.add_argument("--campaign", help="open this campaign folder when the kernel starts")
    args = parser.parse_args(argv)
    prefix = args.prefix if args.prefix else (None if args.user else sys.prefix)
    try:
        path = install(user=args.user, prefix=prefix, name=args.name, display_name=args.display_name,
                       campaign=args.campaign)
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"Installed kernelspec {args.name!r} ({args.display_name}) in {path}")
    return 0
