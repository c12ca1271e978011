"""The limits a flow runs under -- how long it may take, how many times the server may ask -- checked once,
for the Python API, the magics and connections alike.

Spec context: 2026-07-28 multi round-trip requests. A server may answer with `InputRequiredResult` again and
again; as the SDK's `Client(input_required_max_rounds=10)`, the lab stops after `max_rounds` rounds of
questions, and a `timeout` bounds a whole flow (or a connect). Bad values are one `LabError` line.
"""

from __future__ import annotations

import math
from typing import Any

from mcp_lab.errors import LabError

__all__ = ["DEFAULT_MAX_ROUNDS", "check_max_rounds", "check_timeout"]

DEFAULT_MAX_ROUNDS = 10
"""As the SDK's `Client(input_required_max_rounds=10)`."""


def check_timeout(timeout: Any, what: str = "timeout") -> float | None:
    """None (no limit) or a positive, finite number of seconds."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, int | float):
        raise LabError(f"{what} must be a number of seconds (or None for no limit), not {timeout!r}")
    if not math.isfinite(timeout) or timeout <= 0:
        raise LabError(f"{what} must be a positive number of seconds (or None for no limit), not {timeout!r}")
    return float(timeout)


def check_max_rounds(max_rounds: Any, what: str = "max_rounds") -> int:
    """How many times the server may ask for input: a whole number >= 0."""
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 0:
        raise LabError(f"{what} must be a whole number >= 0 (default {DEFAULT_MAX_ROUNDS}), not {max_rounds!r}")
    return max_rounds
