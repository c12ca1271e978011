"""Flow ids: eight random hex digits, drawn in the process rather than asked of the system.

Spec context: none of the protocol's -- a flow's id names it in `mcp_lab.flows`, in the Stop button and in a
saved flow resumed elsewhere, so two flows should not share one; 32 random bits do that, as before. Every
call makes a flow, and `os.urandom` is a system call: measured in place, between two calls' worth of the
SDK's work, it took 2.1 us of the lab's own time per call (0.2% of a call). A generator of the lab's own,
seeded from `os.urandom`, draws them in a third of that (0.7 us, and 0.5 us to write them out) -- not the
`random` module's, which a notebook may seed (two kernels seeded alike would then draw the same ids), and
reseeded in a forked child as `random`'s is, so a parent and its child never draw the same.
"""

from __future__ import annotations

import os
import random

__all__ = ["new_flow_id"]

_draw = random.Random(os.urandom(16))


def _reseed() -> None:
    _draw.seed(os.urandom(16))


os.register_at_fork(after_in_child=_reseed)


def new_flow_id() -> str:
    """Eight random hex digits (a ninth bit set above them, and cut off with `0x1`, keeps the leading zeros:
    `hex` took a quarter of the time a format spec took, measured in place)."""
    return hex(_draw.getrandbits(32) | 0x1_0000_0000)[3:]
