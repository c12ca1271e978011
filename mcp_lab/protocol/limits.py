"""The limits a flow runs under -- how long it may take, how many times the server may ask -- checked once,
for the Python API, the magics and connections alike.

Spec context: 2026-07-28 multi round-trip requests. A server may answer with `InputRequiredResult` again and
again; as the SDK's `Client(input_required_max_rounds=10)`, the lab stops after `max_rounds` rounds of
questions, and a `timeout` bounds a whole flow (or a connect). Bad values are one `LabError` line.

What a server (or a saved file) may make the lab do is bounded too, so a hostile one cannot keep the kernel
busy: a round may ask at most `MAX_INPUT_REQUESTS` questions (a form each) -- past that the flow stops
before anything is shown or answered -- and a flow holds at most `MAX_FLOW_ROUNDS` rounds, running or read
back from a file (a saved flow with more is refused at once, before any of it is checked).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from mcp_lab.errors import LabError

__all__ = [
    "DEFAULT_MAX_ROUNDS",
    "MAX_FLOW_ROUNDS",
    "MAX_INPUT_REQUESTS",
    "MAX_SAVED_QUESTIONS",
    "check_max_rounds",
    "check_saved_size",
    "check_timeout",
    "too_many_questions",
]

DEFAULT_MAX_ROUNDS = 10
"""As the SDK's `Client(input_required_max_rounds=10)`."""

MAX_INPUT_REQUESTS = 64
"""The most questions one round may ask: each becomes a form a person answers (the SDK batches a tool's
independent resolvers into one round; real tools ask a handful)."""

MAX_FLOW_ROUNDS = 1000
"""The most rounds a flow holds; `max_rounds` may not exceed it."""

MAX_SAVED_QUESTIONS = MAX_FLOW_ROUNDS * MAX_INPUT_REQUESTS
"""The most questions a saved flow may hold in all (each is parsed when the file is read)."""


def check_timeout(timeout: object, what: str = "timeout") -> float | None:
    """None (no limit) or a positive, finite number of seconds."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, int | float):
        raise LabError(f"{what} must be a number of seconds (or None for no limit), not {timeout!r}")
    if not math.isfinite(timeout) or timeout <= 0:
        raise LabError(f"{what} must be a positive number of seconds (or None for no limit), not {timeout!r}")
    return float(timeout)


def check_max_rounds(max_rounds: object, what: str = "max_rounds") -> int:
    """How many times the server may ask for input: a whole number >= 0."""
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or not 0 <= max_rounds <= MAX_FLOW_ROUNDS:
        raise LabError(
            f"{what} must be a whole number >= 0 (at most {MAX_FLOW_ROUNDS}; default {DEFAULT_MAX_ROUNDS}), not {max_rounds!r}"
        )
    return max_rounds


def too_many_questions(round_number: int, asked: int) -> str:
    """Why a flow stopped at a round that asks more than `MAX_INPUT_REQUESTS` questions."""
    return (
        f"round {round_number}: the server asked {asked} questions at once, more than a round may ask "
        f"({MAX_INPUT_REQUESTS}); nothing was shown or answered"
    )


def check_saved_size(data: Mapping[str, object]) -> None:
    """A saved flow is an object naming its request, and within the bounds -- checked before any of it is
    validated, so a hostile file cannot keep the kernel busy."""
    if not isinstance(data, Mapping):
        raise LabError(f"not a saved flow: expected an object, not {_kind(data)}")
    missing = [k for k in ("server", "method", "target") if k not in data]
    if missing:
        raise LabError(f"not a saved flow: it has no {', '.join(missing)}")
    rounds = data.get("rounds", [])
    if not isinstance(rounds, list):
        raise LabError(f"flow: 'rounds' must be a list, not {_kind(rounds)}")
    if len(rounds) > MAX_FLOW_ROUNDS:
        raise LabError(f"flow: it has {len(rounds)} rounds, more than a flow may hold ({MAX_FLOW_ROUNDS})")
    asked = sum(len(r["input_requests"]) for r in rounds if isinstance(r, dict) and isinstance(r.get("input_requests"), dict))
    if asked > MAX_SAVED_QUESTIONS:
        raise LabError(
            f"flow: its rounds ask {asked} questions in all, more than a flow may hold ({MAX_SAVED_QUESTIONS})"
        )


def _kind(value: object) -> str:
    return "null" if value is None else type(value).__name__
