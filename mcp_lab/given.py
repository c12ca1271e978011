"""Checks for what a notebook passes to the public API: one `LabError` line naming the argument and what it
got, instead of an `AttributeError` or `TypeError` from deep inside the lab (or the SDK) later on.

Spec context: none of the protocol's own; the team rule that bad input gets one clear line.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from pathlib import Path

import pydantic_core

from mcp_lab.errors import LabError
from mcp_lab.json_types import JsonObject, JsonValue

__all__ = ["check_path", "check_text_map", "json_safe", "plain_arguments", "shown", "wire_arguments"]

_SHOWN_CHARS = 60


def shown(value: object) -> str:
    """`value` as a short phrase for an error line: its repr when short, else its type (`a dict of 3`)."""
    try:
        text = repr(value)
    except Exception:  # a user object whose repr raises: its type is enough
        text = ""
    if text and len(text) <= _SHOWN_CHARS and "\n" not in text:
        return text
    size = f" of {len(value)}" if isinstance(value, list | tuple | dict | set | str | bytes) else ""
    return f"a {type(value).__name__}{size}"


def check_text_map(value: object, what: str) -> None:
    """`what=` (an environment, HTTP headers) maps text to text; None passes. The line names types only:
    such a map may hold a secret (a bearer token), never shown."""
    if value is None:
        return
    if not isinstance(value, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        kind = type(value).__name__ if not isinstance(value, Mapping) else "a dict with a name or value that is not text"
        raise LabError(f"{what}= maps names to values, both text (a dict of str), not {kind}")


def check_path(path: object, what: str) -> Path:
    """A file path given as text or `pathlib.Path`: one clear error for None, a number, bytes, an empty
    path, or a NUL byte (which the OS would refuse with a ValueError of its own)."""
    if isinstance(path, bytes | bytearray):
        raise LabError(f"{what} takes a file path as text (str or pathlib.Path), not bytes")
    if not isinstance(path, str | os.PathLike):
        raise LabError(f"{what} takes a file path (str or pathlib.Path), not {shown(path)}")
    text = os.fspath(path)
    if not isinstance(text, str):
        raise LabError(f"{what} takes a file path as text (str or pathlib.Path), not bytes")
    if not text.strip():
        raise LabError(f"{what} takes a file path such as 'flows.json', not an empty one")
    if "\0" in text:
        raise LabError(f"{what}: the path {shown(text)} contains a NUL byte")
    return Path(text)


def wire_arguments(arguments: Mapping[str, JsonValue]) -> JsonObject:
    """The arguments as the SDK puts them on the wire (its pydantic JSON): NaN and infinities become null,
    tuples and sets lists, dates ISO text. A flow records -- and saves -- exactly that, so a saved collection
    is valid JSON and says what the server received. What JSON cannot carry at all is one clear error."""
    flat = _flat_json(arguments, ascii_only=False)
    if flat is not None:
        return flat
    try:
        wired = json.loads(pydantic_core.to_json(dict(arguments), inf_nan_mode="null"))
    except (ValueError, TypeError, RecursionError) as exc:  # PydanticSerializationError is a ValueError
        detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise LabError(f"the arguments cannot be sent as JSON: {detail[:200]}") from None
    if not isinstance(wired, dict):  # pragma: no cover - a dict always serialises to an object
        raise LabError("the arguments must be a JSON object")
    return wired


def plain_arguments(arguments: object) -> JsonObject | None:
    """`wire_arguments(arguments)` when they need neither converting nor checking: a dict of ASCII text keys
    and of ASCII text, whole numbers, booleans, None and finite floats (what most calls send), which holds
    no lone surrogate either. None for anything else."""
    return _flat_json(arguments, ascii_only=True)


_JSON_ATOMS = (int, bool, type(None))


def _flat_json(arguments: object, ascii_only: bool) -> JsonObject | None:
    """A copy of `arguments` when the JSON round trip would return them unchanged (text keys; text, whole
    numbers, booleans, None and finite floats as values), else None; with `ascii_only`, all that text ASCII."""
    if type(arguments) is not dict:
        return None
    for key, value in arguments.items():
        kind = type(value)
        if type(key) is not str or (ascii_only and not key.isascii()):
            return None
        if kind is str:
            if ascii_only and not value.isascii():
                return None
        elif not (kind in _JSON_ATOMS or (kind is float and math.isfinite(value))):
            return None
    return dict(arguments)


def json_safe(value: object) -> object:
    """`value` with every non-finite float as None: what the SDK's JSON puts on the wire for it."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value
