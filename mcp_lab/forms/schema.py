"""The elicitation schema subset as plain field specs, and answer validation (no widgets here).

Spec: 2026-07-28 elicitation, form mode. `requested_schema` is a flat object whose properties are
`PrimitiveSchemaDefinition`s: strings (title, description, minLength/maxLength, format email / uri / date /
date-time), numbers and integers (minimum/maximum), booleans, single-select enums (plain `enum`, `oneOf` of
const+title, legacy `enumNames`) and multi-select arrays (`items.enum` or `items.anyOf` of const+title,
minItems/maxItems), each with an optional `default`. Anything else (a nested object, an array of free
values, a union) is outside the subset: it becomes a raw-JSON field with a note instead of a crash.

Validation is jsonschema with format checks, one short message per field, so an invalid answer is stopped
in the form and never reaches the server. jsonschema is imported on first use only (it is slow to import).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeGuard

from mcp_lab.json_types import JsonObject, JsonValue

__all__ = [
    "MISSING",
    "FieldSpec",
    "FormSpec",
    "Invalid",
    "check_content",
    "format_checker",
    "is_email",
    "parse_number",
    "parse_schema",
]

Kind = Literal["text", "email", "uri", "date", "date-time", "integer", "number", "boolean", "choice", "choices", "json"]

SUBSET_FORMATS: tuple[Kind, ...] = ("email", "uri", "date", "date-time")
FORMAT_HINTS = {
    "email": "not a valid email address",
    "uri": "not a valid URI (e.g. https://example.com/page)",
    "date": "not a valid date (YYYY-MM-DD)",
    "date-time": "not a valid date-time with a time zone (e.g. 2026-07-28T09:30:00Z)",
}


class _Missing:
    """No value: the person left the field empty (it is then left out of the content)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


@dataclass(frozen=True)
class Invalid:
    """A value that could not even be read (e.g. "3.5" for an integer); `message` says why."""

    message: str


@dataclass(frozen=True)
class FieldSpec:
    """One property of the requested schema, as a form field."""

    name: str
    kind: Kind
    title: str
    """The property's title, or its name when there is none (also the widget's description)."""
    schema: JsonObject
    required: bool = False
    description: str | None = None
    default: Any = MISSING
    options: tuple[tuple[str, str], ...] = ()
    """(label, value) pairs for single- and multi-select fields."""
    note: str | None = None
    """Why a field is shown as raw JSON, or another caveat about it."""


@dataclass
class FormSpec:
    """The whole requested schema: its fields, or one raw-JSON field when the schema is unusable."""

    fields: list[FieldSpec] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    whole_json: bool = False
    """The schema is not a flat object: the person types the whole content as one JSON object."""


def _str_list(value: object) -> TypeGuard[list[str]]:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def _titled(options: object) -> tuple[tuple[str, str], ...] | None:
    if not isinstance(options, list) or not options:
        return None
    pairs = []
    for option in options:
        if not isinstance(option, Mapping) or not isinstance(option.get("const"), str):
            return None
        title = option.get("title")
        pairs.append((str(title) if isinstance(title, str) else option["const"], option["const"]))
    return tuple(pairs)


def _classify(prop: Mapping[str, JsonValue]) -> tuple[Kind, tuple[tuple[str, str], ...], str | None]:
    """(kind, options, note) for one property schema."""
    kind = prop.get("type")
    if kind == "string":
        if "enum" in prop:
            if not _str_list(prop["enum"]):
                return "json", (), "its enum is not a list of strings"
            names = prop.get("enumNames")
            labels = names if _str_list(names) and len(names) == len(prop["enum"]) else prop["enum"]
            return "choice", tuple(zip(labels, prop["enum"], strict=True)), None
        if "oneOf" in prop:
            titled = _titled(prop["oneOf"])
            return ("choice", titled, None) if titled else ("json", (), "its oneOf is not a list of const+title")
        fmt = prop.get("format")
        subset = next((f for f in SUBSET_FORMATS if f == fmt), None)
        if subset is not None:
            return subset, (), None
        note = f"format {fmt!r} is not in the elicitation subset; entered as plain text" if fmt else None
        return "text", (), note
    if kind in ("integer", "number"):
        return kind, (), None
    if kind == "boolean":
        return "boolean", (), None
    if kind == "array":
        items = prop.get("items")
        if isinstance(items, Mapping):
            enum = items.get("enum")
            if _str_list(enum):
                return "choices", tuple((v, v) for v in enum), None
            titled = _titled(items.get("anyOf"))
            if titled:
                return "choices", titled, None
        return "json", (), "an array without a fixed list of string choices is outside the elicitation subset"
    if kind == "object":
        return "json", (), "nested objects are outside the elicitation subset"
    return "json", (), f"type {kind!r} is outside the elicitation subset" if kind else "it has no single type"


def parse_schema(schema: object) -> FormSpec:
    """Turn `requested_schema` into field specs; never raises, whatever the server sent."""
    if not isinstance(schema, Mapping) or not isinstance(schema.get("properties", {}), Mapping):
        return FormSpec(
            whole_json=True,
            notes=["The requested schema is not a flat object of properties; answer with one JSON object."],
        )
    if schema.get("type", "object") != "object":
        return FormSpec(whole_json=True, notes=[f"The requested schema has type {schema.get('type')!r}, not object."])
    listed = schema.get("required")
    required: list[object] = list(listed) if isinstance(listed, list) else []
    spec = FormSpec()
    for name, prop in schema.get("properties", {}).items():
        if not isinstance(prop, Mapping):
            prop = {}
        kind, options, note = _classify(prop)
        title = prop.get("title") if isinstance(prop.get("title"), str) and prop.get("title") else str(name)
        description = prop.get("description") if isinstance(prop.get("description"), str) else None
        spec.fields.append(
            FieldSpec(
                name=str(name),
                kind=kind,
                title=title,
                schema=dict(prop),
                required=name in required,
                description=description,
                default=prop.get("default", MISSING),
                options=options,
                note=note,
            )
        )
        if kind == "json":
            spec.notes.append(f"{title!r}: {note}; enter it as JSON.")
    return spec


_INTEGER = re.compile(r"^[+-]?\d+$")


def parse_number(text: str, integer: bool) -> object:
    """A typed number: int, float, MISSING (empty) or Invalid. Integers refuse decimals."""
    text = text.strip()
    if not text:
        return MISSING
    if _INTEGER.match(text):
        return int(text)
    try:
        value = float(text)
    except ValueError:
        return Invalid("must be a whole number" if integer else "must be a number")
    if not math.isfinite(value):
        return Invalid("must be a finite number")
    if integer:
        return Invalid("must be a whole number (no decimals)")
    return value


@functools.cache
def format_checker() -> object:
    """jsonschema's FormatChecker, with the four subset formats guaranteed present.

    jsonschema checks `uri` and `date-time` only when rfc3986-validator / rfc3339-validator are installed
    (the project depends on `jsonschema[format-nongpl]`); the small fallbacks here keep an invalid
    answer from slipping through in an environment without them.
    """
    from jsonschema import FormatChecker

    checker = FormatChecker()  # built once, on first use (cached): jsonschema is imported only then
    fallbacks = {"uri": _is_uri, "date": _is_date, "date-time": _is_datetime}
    for name, check in fallbacks.items():
        if name not in checker.checkers:
            checker.checks(name)(check)
    # jsonschema's own "email" check is only `"@" in value` (it took `a@` and `bob@@example.com`):
    # addresses are checked by email-validator, the validator pydantic's EmailStr uses.
    checker.checks("email")(is_email)
    return checker


def is_email(value: object) -> bool:
    """An address as RFC 5321/5322 allow one to be typed (syntax only: no DNS lookup, nothing sent)."""
    if not isinstance(value, str):
        return True
    from email_validator import EmailNotValidError, validate_email

    try:
        validate_email(value, check_deliverability=False, test_environment=True)
    except EmailNotValidError:
        return False
    return True


def _is_uri(value: object) -> bool:
    return not isinstance(value, str) or re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]*", value) is not None


def _is_date(value: object) -> bool:
    import datetime as dt

    if not isinstance(value, str):
        return True
    try:
        return re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) is not None and bool(dt.date.fromisoformat(value))
    except ValueError:
        return False


def _is_datetime(value: object) -> bool:
    import datetime as dt

    if not isinstance(value, str):
        return True
    pattern = r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})"
    try:
        return re.fullmatch(pattern, value) is not None and bool(dt.datetime.fromisoformat(value.upper()))
    except ValueError:
        return False


def _plural(n: object, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _message(error: Any, spec: FieldSpec) -> str:
    """One short sentence for a jsonschema error, in the form's words."""
    rule, limit = error.validator, error.validator_value
    if rule == "format":
        return FORMAT_HINTS.get(limit, f"not a valid {limit}")
    if rule in ("enum", "oneOf", "anyOf", "const") and spec.options:
        labels = ", ".join(label for label, _ in spec.options)
        return ("each choice must be one of: " if spec.kind == "choices" else "must be one of: ") + labels
    simple = {
        "minLength": lambda: f"must be at least {_plural(limit, 'character')}",
        "maxLength": lambda: f"must be at most {_plural(limit, 'character')}",
        "minimum": lambda: f"must be at least {limit}",
        "maximum": lambda: f"must be at most {limit}",
        "exclusiveMinimum": lambda: f"must be more than {limit}",
        "exclusiveMaximum": lambda: f"must be less than {limit}",
        "minItems": lambda: f"choose at least {limit}",
        "maxItems": lambda: f"choose at most {limit}",
        "uniqueItems": lambda: "choose each option once",
        "pattern": lambda: f"must match the pattern {limit}",
        "enum": lambda: "must be one of: " + ", ".join(map(str, limit)),
    }
    if rule == "type":
        kinds = {"integer": "a whole number", "number": "a number", "boolean": "true or false", "string": "text"}
        wanted = kinds.get(limit, f"of type {limit}") if isinstance(limit, str) else f"of type {limit}"
        return f"must be {wanted}"
    if rule in simple:
        return simple[rule]()
    return str(error.message).splitlines()[0]


def _check_value(spec: FieldSpec, value: object) -> str | None:
    from jsonschema import SchemaError, validators
    from jsonschema.exceptions import best_match

    cls = validators.validator_for(spec.schema, default=validators.Draft202012Validator)
    try:
        cls.check_schema(spec.schema)
    except SchemaError:
        return None  # the server's own schema is broken for this field; only the protocol's types apply
    validator = cls(spec.schema, format_checker=format_checker())
    error = best_match(validator.iter_errors(value))
    return None if error is None else _message(error, spec)


def check_content(spec: FormSpec, values: Mapping[str, JsonValue]) -> tuple[JsonObject, dict[str, str]]:
    """(content, errors): the values to send, and one message per field that must be fixed first.

    `values` maps field names to what was read from the form: a value, MISSING or Invalid.
    """
    import mcp.types as T
    from pydantic import ValidationError

    content: JsonObject = {}
    errors: dict[str, str] = {}
    for field_spec in spec.fields:
        value = values.get(field_spec.name, MISSING)
        if isinstance(value, Invalid):
            errors[field_spec.name] = value.message
        elif value is MISSING:
            if field_spec.required:
                errors[field_spec.name] = "required"
        else:
            problem = _check_value(field_spec, value)
            if problem is not None:
                errors[field_spec.name] = problem
            else:
                content[field_spec.name] = value
    if spec.whole_json:
        raw = values.get("", MISSING)
        if isinstance(raw, Invalid):
            errors[""] = raw.message
        elif not isinstance(raw, Mapping):
            errors[""] = "enter one JSON object"
        else:
            content = dict(raw)
    if not errors:
        try:
            T.ElicitResult.model_validate({"action": "accept", "content": content})
        except ValidationError as exc:
            for detail in exc.errors():
                loc = detail.get("loc", ())
                where = str(loc[1]) if len(loc) > 1 else ""
                errors.setdefault(where, "the protocol can only carry text, numbers, true/false and lists of text here")
    return content, errors
