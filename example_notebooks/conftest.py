"""Strict nbval of the example notebooks: their saved outputs replay only if the secret stream does.

A Gamma World deck and an MtG library are shuffled from the session's secret stream (GW-ALPHA-10: a
deck's order must not follow from the public seed), keyed from the seed and OS entropy; a demo notebook fixes that
entropy here, before nbval starts its kernels (which inherit the environment), as
`gamekernel.tools.execute_notebooks` does when it saves them. Never set it at a real table.
"""

from __future__ import annotations

import os

from gamekernel.tools.execute_notebooks import DEMO_ENTROPY

os.environ["GAMEKERNEL_SECRET_ENTROPY"] = DEMO_ENTROPY
