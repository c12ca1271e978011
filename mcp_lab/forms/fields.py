"""One elicitation field as plain data: what the front end draws, how a value it sends is read, how a
headless value is shown.

Spec: 2026-07-28 elicitation, form mode (the PrimitiveSchemaDefinition subset, see `schema.py`). Each kind
is drawn by the front end (labextension/src/forms/render.ts) as the input that fits it, and never with a
value the person did not give: text, email and URI are text inputs; date and date-time are the browser's
date pickers, empty without a default (no "today"); numbers are typed as text so an empty field stays empty
and an integer field can refuse "3.5" instead of rounding; a boolean without a default is an unanswered
Yes/No choice; single-select is a drop-down, multi-select a list of checkboxes; anything outside the subset
is a JSON text area.

Why values are read here and not in the browser: the whole answer arrives in one Submit message (see
`widget.py` for why per-field updates cannot be trusted while a cell waits), and Python validates it with
the same rules for a person and for a headless `fill()`, so both get the same inline message.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from mcp_lab.forms.schema import MISSING, FieldSpec, Invalid, parse_number
from mcp_lab.json_types import JsonObject, JsonValue

__all__ = ["default_value", "display_value", "field_record", "placeholder", "read_field"]


def placeholder(spec: FieldSpec) -> str:
    """A hint inside an empty input: the expected shape and limits."""
    schema = spec.schema
    if spec.kind == "email":
        return "name@example.com"
    if spec.kind == "uri":
        return "https://example.com/page"
    if spec.kind in ("integer", "number"):
        what = "whole number" if spec.kind == "integer" else "number"
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            return f"{what} from {low} to {high}"
        if low is not None:
            return f"{what}, at least {low}"
        if high is not None:
            return f"{what}, at most {high}"
        return what
    if spec.kind == "json":
        return "a JSON value"
    low, high = schema.get("minLength"), schema.get("maxLength")
    if low is not None and high is not None:
        return f"{low} to {high} characters"
    if high is not None:
        return f"at most {high} characters"
    if low is not None:
        return f"at least {low} characters"
    return ""


def _front_kind(spec: FieldSpec) -> str:
    if spec.kind == "boolean" and isinstance(spec.default, bool):
        return "checkbox"  # a default makes the answer a plain on/off switch
    return spec.kind


def field_record(spec: FieldSpec) -> JsonObject:
    """What the front end needs to draw the field (the FieldRecord of the forms protocol)."""
    return {
        "name": spec.name,
        "label": spec.title,
        "kind": _front_kind(spec),
        "required": spec.required,
        "description": spec.description or "",
        "note": spec.note or "",
        "placeholder": placeholder(spec),
        "options": [[label, value] for label, value in spec.options],
    }


def default_value(spec: FieldSpec) -> Any:
    """The field's starting value, when the schema gives a usable default (else MISSING)."""
    default = spec.default
    if default is MISSING:
        return MISSING
    if spec.kind == "choice" and default not in [v for _, v in spec.options]:
        return MISSING
    if spec.kind == "choices" and not (
        isinstance(default, list) and all(d in [v for _, v in spec.options] for d in default)
    ):
        return MISSING
    return default


def display_value(spec: FieldSpec, value: object) -> JsonValue:
    """`value` (typed by a person or given headless) as the front end shows it (a JSON value)."""
    kind = spec.kind
    if value is MISSING or value is None:
        return None if kind in ("boolean", "choice") else ([] if kind == "choices" else "")
    if isinstance(value, dt.date):  # also datetime
        return value.isoformat()
    if kind == "json" and not isinstance(value, str):
        try:
            return json.dumps(value)
        except (TypeError, ValueError):
            return str(value)
    if kind in ("integer", "number") and isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str | bool | int | float) or value is None:
        return value
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return list(value)
    return str(value)


def read_field(spec: FieldSpec, value: object) -> Any:
    """The answer for this field: a JSON value, MISSING (left empty) or Invalid (unreadable).

    `value` is what the front end sent (strings for typed fields) or what a headless `fill()` gave (any
    Python value); a value of the wrong type is passed on as is, so validation names what is wrong.
    """
    kind = spec.kind
    if value is MISSING or value is None:
        return MISSING
    if isinstance(value, str) and value == "" and kind not in ("choice",):
        return MISSING
    if kind in ("date", "date-time") and isinstance(value, dt.date):
        return value.isoformat()
    if kind == "choices" and isinstance(value, list | tuple):
        return list(value) if value else MISSING
    if kind in ("integer", "number") and isinstance(value, str | int | float) and not isinstance(value, bool):
        return parse_number(str(value), integer=kind == "integer")  # 3.25 for an integer: "no decimals"
    if kind == "json" and isinstance(value, str):
        if not value.strip():
            return MISSING
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            return Invalid(f"not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})")
    if kind == "date-time" and isinstance(value, str):
        return value.strip()
    return value
