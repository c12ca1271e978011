"""JSON text a person or a file hands the lab, read with a bound on its nesting; text no message can carry.

Python's `json` parser recurses once per level: a few thousand nested `[` raise `RecursionError` (a
traceback, not a line), and a value only a little shallower still breaks later code that walks it. So the
depth is measured first, in one pass that never recurses, and anything deeper than `MAX_DEPTH` is one line.
"""

from __future__ import annotations

import json
import re

from mcp_lab.errors import LabError
from mcp_lab.json_types import JsonValue

__all__ = [
    "MAX_DEPTH",
    "RECORD_DEPTH",
    "check_depth",
    "check_text",
    "json_extent",
    "loads",
    "lone_surrogate",
    "nesting_depth",
]

MAX_DEPTH = 100
"""Levels of `[`/`{` a typed JSON value (arguments, answers) may nest: far beyond any real tool argument,
far below where recursion breaks."""
RECORD_DEPTH = 200
"""Levels a saved flow may nest: its own few levels around arguments and answers of up to `MAX_DEPTH`."""

_SPECIAL = re.compile(r'[\[\]{}"\\]')


def _walk(text: str, start: int, stop_at_close: bool) -> tuple[int, int]:
    """(end, deepest): where the bracketed value at `start` closes (or the text's end), and how deep it went."""
    depth = deepest = 0
    in_string = False
    skip = -1
    for match in _SPECIAL.finditer(text, start):
        pos = match.start()
        if pos == skip:
            continue
        char = match[0]
        if in_string:
            if char == "\\":
                skip = pos + 1
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}" and depth > 0:
            depth -= 1
            if depth == 0 and stop_at_close:
                return pos + 1, deepest
    return len(text), deepest


def json_extent(text: str, start: int) -> tuple[int, int]:
    """The end of the bracketed JSON-like value opening at `start` (strings skipped), and its depth."""
    return _walk(text, start, stop_at_close=True)


def nesting_depth(text: str) -> int:
    return _walk(text, 0, stop_at_close=False)[1]


def check_depth(depth: int, what: str, limit: int = MAX_DEPTH) -> None:
    if depth > limit:
        raise LabError(f"{what} nested deeper than {limit} levels (the lab reads at most {limit})")


def loads(text: str, what: str, limit: int = MAX_DEPTH) -> JsonValue:
    """`json.loads` with the depth bound (`json.JSONDecodeError` passes through for the caller's message)."""
    check_depth(nesting_depth(text), what, limit)
    value: JsonValue = json.loads(text)
    return value


_ATOMS = (int, float, bool, type(None))


def _plain_ascii(value: object, levels: int) -> bool:
    """`value` is a dict or list of ASCII text and numbers, nested at most `levels` deep (arguments, answers):
    told without the walk below, which costs more than the rest of a call's checks together."""
    items: tuple[object, ...] | list[object]
    if isinstance(value, dict) and type(value) is dict:
        items = (*value, *value.values())
    elif type(value) is list or type(value) is tuple:
        items = value  # type: ignore[assignment]
    else:
        return False
    for item in items:
        if type(item) is str:
            if not item.isascii():
                return False
        elif type(item) not in _ATOMS and not (levels > 0 and _plain_ascii(item, levels - 1)):
            return False
    return True


def lone_surrogate(value: object) -> str | None:
    """The first text in `value` (strings, and those inside dicts, lists and tuples) that holds a lone UTF-16
    surrogate such as '\\ud800' -- text no UTF-8 message can carry -- or None."""
    if _plain_ascii(value, 2):
        return None  # the common case, said at once: ASCII text holds no surrogate
    stack: list[object] = [value]
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return item
        elif isinstance(item, dict | list | tuple) and id(item) not in seen:
            seen.add(id(item))
            stack.extend(item.items() if isinstance(item, dict) else item)
    return None


def check_text(value: object, what: str) -> None:
    """One line for text that cannot be sent (a lone surrogate), naming where it is."""
    bad = lone_surrogate(value)
    if bad is not None:
        shown = bad.encode("utf-8", "backslashreplace").decode("ascii", "backslashreplace")
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise LabError(f"{what} holds a lone surrogate ('{shown}'), which no UTF-8 message can carry")
