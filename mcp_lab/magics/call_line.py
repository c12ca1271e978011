"""Parsing the line of a call magic (`%mcp_call`, `%mcp_prompt`, `%mcp_read`) into what the API takes.

Spec context: a multi round-trip request is a method, a target, its arguments -- and, in the lab, how its
questions are answered and how long it may take. People type arguments the way they read them in the
docs: raw JSON (`{"a": 1, "b": [2, 3]}`), `key=value` words, or quoted JSON. A shell-style splitter would
strip the quotes out of raw JSON, so a JSON object or list typed without quotes is kept exactly as typed;
everything else is split as a shell would. Every mistake is one line saying what to type instead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

import mcp_lab.bounded_json as bounded_json
from mcp_lab.bounded_json import check_depth, check_text, json_extent
from mcp_lab.errors import LabError
from mcp_lab.flow.answers import Answerer, ScriptedAnswerer
from mcp_lab.json_types import JsonObject, JsonValue
from mcp_lab.magics.magic_line import read_word
from mcp_lab.protocol.limits import DEFAULT_MAX_ROUNDS, check_max_rounds, check_timeout

__all__ = ["CallLine", "parse_arguments", "parse_call_line", "split_line"]

OPTIONS = "--answers JSON|VAR, --timeout S, --max-rounds N, --step, --legacy"
_FLAGS = ("--step", "--legacy")
_VALUED = ("--answers", "--timeout", "--max-rounds")
_JSON_AFTER_KEY = re.compile(r"(?:--?[\w-]+|[A-Za-z_][\w.-]*)=(?=[\[{])")
"""`key={...}` / `--answers=[...]`: the JSON after `=` is kept as typed too."""
_DECODER = json.JSONDecoder()


def _raw_json(line: str, start: int, what: str) -> int:
    """End of the JSON value typed at `start`; a LabError naming the column when it is not JSON."""
    check_depth(json_extent(line, start)[1], what)
    try:
        _, end = _DECODER.raw_decode(line, start)
    except json.JSONDecodeError as exc:
        problem = "it ends before it is closed" if exc.pos >= len(line) else f"{exc.msg} (column {exc.pos - start + 1})"
        raise LabError(f"{what} not valid JSON: {problem}") from None
    if end < len(line) and not line[end].isspace():
        raise LabError(f"unexpected {line[end : end + 40].split()[0]!r} right after the JSON (column {end - start + 1})")
    return end


def split_line(line: str) -> list[str]:
    """Shell-style words, except that raw JSON (`{...}`, `[...]`, `key={...}`) stays one word as typed."""
    words: list[str] = []
    i, n = 0, len(line)
    while i < n:
        if line[i].isspace():
            i += 1
            continue
        head = _JSON_AFTER_KEY.match(line, i)
        if line[i] in "{[" or head is not None:
            option = (head is not None and line.startswith("--answers", i)) or words[-1:] == ["--answers"]
            end = _raw_json(line, head.end() if head is not None else i, "--answers is" if option else "arguments are")
            words.append(line[i:end])
            i = end
            continue
        word, i = read_word(line, i)
        words.append(word)
    return words


def parse_arguments(words: list[str]) -> JsonObject:
    """`{"a": 1}` (JSON) or `a=1 b=text` (each value JSON if it parses, else a string)."""
    if not words:
        return {}
    text = " ".join(words)
    if text.lstrip().startswith("{"):
        return _json_object(text, "arguments are", "JSON arguments must be an object")
    arguments: JsonObject = {}
    for word in words:
        key, sep, raw = word.partition("=")
        if not sep or not key:
            hint = " (JSON arguments are one object: {...})" if word.startswith("[") else ""
            raise LabError(f"expected key=value or a JSON object, got {word!r}{hint}")
        if key.startswith("-"):
            raise LabError(f"unknown option {key!r} (options: {OPTIONS})")
        try:
            arguments[key] = bounded_json.loads(raw, f"argument {key!r} is")
        except json.JSONDecodeError:
            arguments[key] = raw
    return arguments


@dataclass
class CallLine:
    """What a call magic's line asks for."""

    server: str
    target: str
    arguments: JsonObject
    answers: Mapping[str, JsonValue] | Answerer | None = None
    step: bool = False
    legacy: bool = False
    timeout: float | None = None
    """Wall-clock limit in seconds; None (the default) waits until answered -- Interrupt ends any wait."""
    max_rounds: int = DEFAULT_MAX_ROUNDS


_Number = TypeVar("_Number", int, float)


def _number(option: str, text: str | None, kind: type[_Number]) -> _Number:
    if text is None or text.startswith("--"):
        raise LabError(f"{option} needs a value, e.g. {option} {5 if kind is int else 30}")
    try:
        return kind(text)
    except ValueError:
        noun = "a whole number" if kind is int else "a number of seconds"
        raise LabError(f"{option} takes {noun}, not {text!r}") from None


def parse_call_line(line: str, usage: str, has_args: bool, namespace: Mapping[str, JsonValue]) -> CallLine:
    """NAME TARGET [arguments] and options, in any order; `usage` is the one-line reminder on a mistake."""
    words = split_line(line)
    flags: set[str] = set()
    options: dict[str, str | None] = {}
    rest: list[str] = []
    it = iter(words)
    for word in it:
        option, sep, value = word.partition("=") if word.startswith("--") else (word, "", "")
        if option in _FLAGS:
            if sep:
                raise LabError(f"{option} takes no value")
            flags.add(option)
        elif option in _VALUED:
            options[option] = value if sep else next(it, None)
        elif word.startswith("--"):
            raise LabError(f"unknown option {option!r} (options: {OPTIONS})")
        else:
            rest.append(word)
    if len(rest) < 2:
        raise LabError(f"usage: {usage}")
    name, target, extra = rest[0], rest[1], rest[2:]
    if extra and not has_args:
        raise LabError(f"unexpected arguments: {' '.join(extra)} (usage: {usage})")
    call = CallLine(name, target, parse_arguments(extra), step="--step" in flags, legacy="--legacy" in flags)
    check_text(call.arguments, "the arguments")
    if "--answers" in options:
        call.answers = answers_from(options["--answers"], namespace)
    if "--timeout" in options:
        call.timeout = check_timeout(_number("--timeout", options["--timeout"], float), "--timeout")
    if "--max-rounds" in options:
        call.max_rounds = check_max_rounds(_number("--max-rounds", options["--max-rounds"], int), "--max-rounds")
    return call


def answers_from(text: str | None, namespace: Mapping[str, JsonValue]) -> Mapping[str, JsonValue] | Answerer:
    """`--answers`: a JSON object, or the name of a variable holding a dict (or an Answerer)."""
    if text is None or text.startswith("--"):
        raise LabError("--answers needs a JSON object or a variable name")
    if text in namespace:
        value = namespace[text]
        if not isinstance(value, Mapping | Answerer):
            raise LabError(f"--answers {text}: expected a dict keyed by input-request key, not {type(value).__name__}")
        if isinstance(value, Mapping):
            ScriptedAnswerer(value)  # its keys and text checked now, before the call starts
        return value
    if text.isidentifier():
        raise LabError(
            f"--answers {text}: no variable named {text!r} (give a JSON object or a variable holding a dict)"
        )
    answers = _json_object(text, "--answers is", "--answers must be a JSON object keyed by input-request key")
    ScriptedAnswerer(answers)
    return answers


def _json_object(text: str, what: str, not_an_object: str) -> JsonObject:
    try:
        value = bounded_json.loads(text, what)
    except json.JSONDecodeError as exc:
        raise LabError(f"{what} not valid JSON: {exc.msg} (column {exc.colno})") from None
    if not isinstance(value, dict):
        raise LabError(not_an_object)
    return value
