"""Checking a flow written down as plain data before trusting it (`resume`, collections, the replay CLI).

Spec context: a multi round-trip request can be continued by another process from what was written down
(the request, each leg's questions, answers and echoed token). That text comes from files, other processes
and people's hands, so it is checked field by field when it is read: a malformed flow is one `LabError`
naming the field, never a pydantic dump or an AttributeError halfway through a leg.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mcp.types as T
from pydantic import ValidationError

from mcp_lab.errors import LabError
from mcp_lab.protocol.limits import MAX_FLOW_ROUNDS, MAX_SAVED_QUESTIONS

__all__ = ["checked_flow", "checked_round"]

_NUMBER = (int, float)
_FLOW_FIELDS: dict[str, tuple[type, ...]] = {
    "server": (str,),
    "method": (str,),
    "target": (str,),
    "arguments": (dict,),
    "era": (str,),
    "status": (str,),
    "stop_reason": (str, type(None)),
    "notes": (list,),
    "max_rounds": (int,),
    "start_over": (bool,),
    "id": (str,),
}
_ROUND_FIELDS: dict[str, tuple[type, ...]] = {
    "index": (int,),
    "sent_input_responses": (dict, type(None)),
    "sent_request_state": (str, type(None)),
    "answered_by": (dict,),
    "outcome": (str,),
    "input_requests": (dict, type(None)),
    "request_state": (str, type(None)),
    "result": (dict, type(None)),
    "error": (dict, type(None)),
    "backoff": _NUMBER,
    "started": _NUMBER,
    "elapsed": _NUMBER,
    "relisted": (bool,),
    "started_over": (bool,),
    "served_by": (str, type(None)),
    "http": (list,),
    "server_log": (list,),
    "backchannel": (list,),
}
STATUSES = ("new", "input_required", "done", "error", "stopped", "interrupted")
OUTCOMES = ("input_required", "result", "error")
ERAS = ("2026-07-28", "2025-11-25")


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def _fields(data: Mapping[str, Any], table: dict[str, tuple[type, ...]], where: str) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for name, types in table.items():
        if name not in data:
            continue
        value = data[name]
        # bool is an int: a flag where a number belongs (or the reverse) is still a mistake
        wrong = isinstance(value, bool) and bool not in types
        if wrong or not isinstance(value, types):
            wanted = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise LabError(f"{where}: {name!r} must be {wanted}, not {_kind(value)}")
        kept[name] = value
    return kept


def _one_line(exc: ValidationError) -> str:
    first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": str(exc)}
    loc = ".".join(str(p) for p in first.get("loc", ()))
    return f"{first.get('msg', 'invalid')}" + (f" at {loc}" if loc else "")


def checked_round(data: Any, where: str = "round") -> dict[str, Any]:
    """A round's fields, each of the right type; its questions parse as the SDK's input requests."""
    if not isinstance(data, Mapping):
        raise LabError(f"{where} must be an object, not {_kind(data)}")
    fields = _fields(data, _ROUND_FIELDS, where)
    if fields.get("outcome", "result") not in OUTCOMES:
        raise LabError(f"{where}: outcome must be one of {', '.join(OUTCOMES)}, not {fields['outcome']!r}")
    requests = fields.get("input_requests")
    if requests:
        try:
            T.InputRequiredResult.model_validate({"inputRequests": requests, "resultType": "input_required"})
        except ValidationError as exc:
            raise LabError(f"{where}: its input requests are malformed: {_one_line(exc)}") from None
    for key, response in (fields.get("sent_input_responses") or {}).items():
        if not isinstance(response, Mapping):
            raise LabError(f"{where}: the answer sent for {key!r} must be an object, not {_kind(response)}")
    return fields


def checked_flow(data: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the flow's own fields, its rounds' fields), or one LabError saying what is malformed."""
    if not isinstance(data, Mapping):
        raise LabError(f"not a saved flow: expected an object, not {_kind(data)}")
    missing = [k for k in ("server", "method", "target") if k not in data]
    if missing:
        raise LabError(f"not a saved flow: it has no {', '.join(missing)}")
    fields = _fields(data, _FLOW_FIELDS, "flow")
    if fields.get("status", "new") not in STATUSES:
        raise LabError(f"flow: status must be one of {', '.join(STATUSES)}, not {fields['status']!r}")
    if fields.get("era", ERAS[0]) not in ERAS:
        raise LabError(f"flow: era must be {' or '.join(ERAS)}, not {fields['era']!r}")
    if fields.get("max_rounds", 0) < 0:
        raise LabError(f"flow: max_rounds must be >= 0, not {fields['max_rounds']}")
    rounds = data.get("rounds", [])
    if not isinstance(rounds, list):
        raise LabError(f"flow: 'rounds' must be a list, not {_kind(rounds)}")
    if fields.get("max_rounds", 0) > MAX_FLOW_ROUNDS:
        raise LabError(f"flow: max_rounds must be at most {MAX_FLOW_ROUNDS}, not {fields['max_rounds']}")
    _check_size(rounds)
    return fields, [checked_round(r, f"round {i}") for i, r in enumerate(rounds)]


def _check_size(rounds: list[Any]) -> None:
    """Bounded before any round is checked (limits.py): a hostile file must not keep the kernel busy."""
    if len(rounds) > MAX_FLOW_ROUNDS:
        raise LabError(f"flow: it has {len(rounds)} rounds, more than a flow may hold ({MAX_FLOW_ROUNDS})")
    asked = sum(
        len(r["input_requests"]) for r in rounds if isinstance(r, Mapping) and isinstance(r.get("input_requests"), dict)
    )
    if asked > MAX_SAVED_QUESTIONS:
        raise LabError(
            f"flow: its rounds ask {asked} questions in all, more than a flow may hold ({MAX_SAVED_QUESTIONS})"
        )
