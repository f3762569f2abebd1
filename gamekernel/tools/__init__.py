"""Maintainer tools (run with `python -m gamekernel.tools.<name>`)."""
