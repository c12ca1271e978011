"""Validation before sending: every invalid answer is refused in the form and never reaches the server.

Each case is one field, one answer a person (or a headless cell) might give, and the inline message it
must get. The probe is a real in-process server that records every answer it receives; after each refused
submit the form is cancelled, so the server must see a cancel and nothing else.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from mcp_lab.forms.schema import MISSING, Invalid, parse_number, parse_schema
from tests.forms.conftest import Probe, ask_with_form, obj

ROOT = Path(__file__).resolve().parents[2]

S = {"type": "string"}
ENUM = {"type": "string", "enum": ["a", "b"]}
MULTI = {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2}


@dataclass
class Bad:
    id: str
    prop: dict[str, Any]
    answer: Any
    """What is filled in (`fill(f=answer)`); a `Typed` value is typed into the widget instead."""
    message: str
    required: bool = False


@dataclass
class Typed:
    text: Any


INVALID = [
    Bad("required text left empty", S, "", "required", True),
    Bad("required text never touched", S, None, "required", True),
    Bad("too short", {**S, "minLength": 3}, "ab", "must be at least 3 characters"),
    Bad("too long", {**S, "maxLength": 4}, "abcde", "must be at most 4 characters"),
    Bad("one char min", {**S, "minLength": 1, "maxLength": 1}, "xy", "must be at most 1 character"),
    Bad("text given a number", S, 5, "must be text"),
    Bad("email without @", {**S, "format": "email"}, "ada.example.org", "not a valid email address"),
    Bad("email typed in the widget", {**S, "format": "email"}, Typed("nope"), "not a valid email address"),
    Bad("email with nothing after @", {**S, "format": "email"}, "a@", "not a valid email address"),
    Bad("email with two @", {**S, "format": "email"}, "bob@@example.com", "not a valid email address"),
    Bad("email with a bare host", {**S, "format": "email"}, "bob@localhost", "not a valid email address"),
    Bad("email with a space", {**S, "format": "email"}, "bob smith@example.com", "not a valid email address"),
    Bad("uri with spaces", {**S, "format": "uri"}, "not a uri", "not a valid URI"),
    Bad("uri without scheme", {**S, "format": "uri"}, "example.com/page", "not a valid URI"),
    Bad("date that does not exist", {**S, "format": "date"}, "2026-02-30", "not a valid date"),
    Bad("date in another order", {**S, "format": "date"}, "28/07/2026", "not a valid date"),
    Bad("date month 13", {**S, "format": "date"}, "2026-13-01", "not a valid date"),
    Bad("date given a date-time", {**S, "format": "date"}, dt.datetime(2026, 7, 28, 9), "not a valid date"),
    Bad("date-time without zone", {**S, "format": "date-time"}, "2026-07-28T09:30:00", "not a valid date-time"),
    Bad("date-time with a space", {**S, "format": "date-time"}, "2026-07-28 09:30", "not a valid date-time"),
    Bad("date-time in words", {**S, "format": "date-time"}, "yesterday", "not a valid date-time"),
    Bad("integer with decimals", {"type": "integer"}, "3.5", "must be a whole number (no decimals)"),
    Bad("integer typed with decimals", {"type": "integer"}, Typed("2.0"), "must be a whole number (no decimals)"),
    Bad("integer as a float", {"type": "integer"}, 3.25, "must be a whole number (no decimals)"),
    Bad("integer in words", {"type": "integer"}, "three", "must be a whole number"),
    Bad("integer below minimum", {"type": "integer", "minimum": 1}, 0, "must be at least 1"),
    Bad("integer above maximum", {"type": "integer", "maximum": 10}, "11", "must be at most 10"),
    Bad("integer given true", {"type": "integer"}, True, "must be a whole number"),
    Bad("required integer empty", {"type": "integer"}, "", "required", True),
    Bad("number in words", {"type": "number"}, "abc", "must be a number"),
    Bad("number below minimum", {"type": "number", "minimum": 0.5}, "0.25", "must be at least 0.5"),
    Bad("number above maximum", {"type": "number", "maximum": 1}, 1.5, "must be at most 1"),
    Bad("number nan", {"type": "number"}, "nan", "must be a finite number"),
    Bad("number infinite", {"type": "number"}, Typed("inf"), "must be a finite number"),
    Bad("boolean unanswered", {"type": "boolean"}, None, "required", True),
    Bad("boolean given text", {"type": "boolean"}, "yes", "must be true or false"),
    Bad("choice not offered", ENUM, "z", "must be one of: a, b"),
    Bad("required choice empty", ENUM, None, "required", True),
    Bad("oneOf not offered", {**S, "oneOf": [{"const": "x", "title": "Ex"}]}, "y", "must be one of: Ex"),
    Bad("enumNames not offered", {**ENUM, "enumNames": ["A", "B"]}, "c", "must be one of: A, B"),
    Bad("too few choices", MULTI, [], "required", True),
    Bad("too few choices (optional)", {**MULTI, "minItems": 2}, ["a"], "choose at least 2"),
    Bad("too many choices", MULTI, ["a", "b", "c"], "choose at most 2"),
    Bad("choice not in the list", MULTI, ["a", "z"], "each choice must be one of"),
    Bad("raw JSON that is not JSON", {"type": "array", "items": {"type": "string"}}, Typed("[1,"), "not valid JSON"),
    Bad("raw JSON of the wrong type", {"type": "array", "items": {"type": "string"}}, [1, 2], "must be text"),
    Bad("nested object", {"type": "object"}, {"a": 1}, "protocol can only carry"),
]


def test_there_are_at_least_thirty_invalid_answer_cases() -> None:
    assert len(INVALID) >= 30


@pytest.mark.parametrize("bad", INVALID, ids=[b.id for b in INVALID])
async def test_an_invalid_answer_never_reaches_the_server(probe: Probe, bad: Bad) -> None:
    task, panel = await ask_with_form(obj(*(["f"] if bad.required else []), f=bad.prop))
    form = panel[0]
    if isinstance(bad.answer, Typed):
        submitted = form.submit({"f": bad.answer.text})  # as the browser's Submit message carries it
    else:
        if bad.answer is not None:
            form.fill(f=bad.answer)
        submitted = form.submit()
    assert not submitted
    assert bad.message in form.errors["f"], form.errors
    assert form.record()["errors"]["f"] == form.errors["f"]  # one inline message, by the field, in the record
    assert form.open and not task.done()
    form.cancel()
    flow = await task
    assert json.loads(flow.text)["action"] == "cancel"
    assert probe.seen == [{"action": "cancel"}]  # the server never saw the bad answer


def test_classifying_every_property_kind_never_raises() -> None:
    spec = parse_schema(
        obj(
            "a",
            a={"type": "string", "title": "A", "description": "the a"},
            b={"type": ["string", "null"]},
            c={"anyOf": [{"type": "string"}, {"type": "null"}]},
            d={"type": "string", "enum": [1, 2]},
            e={"type": "string", "oneOf": [{"title": "no const"}]},
            f="not a schema",
            g={"type": "string", "enum": ["x", "y"], "enumNames": ["only one"]},
        )
    )
    kinds = {f.name: f.kind for f in spec.fields}
    assert kinds == {"a": "text", "b": "json", "c": "json", "d": "json", "e": "json", "f": "json", "g": "choice"}
    assert spec.fields[0].required and spec.fields[0].title == "A" and spec.fields[0].description == "the a"
    assert spec.fields[-1].options == (("x", "x"), ("y", "y"))  # mismatched enumNames: values as labels
    assert len(spec.notes) == 5


@pytest.mark.parametrize(
    ("text", "integer", "value"),
    [
        ("", True, MISSING),
        (" 12 ", True, 12),
        ("-3", True, -3),
        ("1e3", True, Invalid("must be a whole number (no decimals)")),
        ("1e3", False, 1000.0),
        ("0.5", False, 0.5),
        ("x", False, Invalid("must be a number")),
    ],
)
def test_numbers_are_read_without_inventing_or_rounding(text: str, integer: bool, value: Any) -> None:
    assert parse_number(text, integer) == value


def test_lazy_imports_and_format_checks_although_the_kernel_blocks_rfc3987_syntax() -> None:
    code = (
        "import sys, mcp_lab, mcp_lab.forms\n"
        "print('ipywidgets' in sys.modules, 'jsonschema' in sys.modules)\n"  # importing forms stays cheap
        "from mcp_lab.forms.schema import format_checker\n"
        "assert sys.modules['rfc3987_syntax'] is None\n"
        "import jsonschema\n"
        "native = jsonschema.FormatChecker().checkers\n"
        "assert {'email', 'uri', 'date', 'date-time'} <= set(native), sorted(native)\n"
        "c = format_checker()\n"
        "good = [('a@b.org','email'), ('https://x.org/p','uri'), ('2026-07-28','date'), ('2026-07-28T09:30:00Z','date-time')]\n"
        "bad = [('ab','email'), ('no scheme','uri'), ('2026-02-30','date'), ('2026-07-28T09:30:00','date-time')]\n"
        "assert all(c.conforms(v, f) for v, f in good) and not any(c.conforms(v, f) for v, f in bad)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.stdout.split() == ["False", "False", "ok"], done.stderr


def test_fallback_format_checks_match_the_native_ones() -> None:
    from mcp_lab.forms import schema

    cases = [
        ("https://x.org/p", "uri"),
        ("no scheme", "uri"),
        ("2026-07-28", "date"),
        ("2026-02-30", "date"),
        ("2026-07-28T09:30:00Z", "date-time"),
        ("2026-07-28T09:30:00", "date-time"),
        ("2026-07-28T09:30:00+02:00", "date-time"),
    ]
    fallbacks = {
        "uri": schema._is_uri,
        "date": schema._is_date,
        "date-time": schema._is_datetime,
    }
    native = schema.format_checker()
    for value, fmt in cases:
        assert fallbacks[fmt](value) == native.conforms(value, fmt), (value, fmt)
