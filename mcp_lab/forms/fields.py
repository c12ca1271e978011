"""One ipywidget per elicitation field: build it, read it, fill it without a browser, show its error.

Spec: 2026-07-28 elicitation, form mode (the PrimitiveSchemaDefinition subset, see `schema.py`). Each
kind gets a widget that fits it and never invents a value the person did not give: text, email and URI
are `Text`; date is a `DatePicker` and date-time a `DatetimePicker`, both empty without a default (no
"today"); numbers are typed as text so an empty field stays empty and an integer field can refuse
decimals instead of silently rounding; a boolean without a default is an unanswered Yes/No choice;
single-select is a `Dropdown`, multi-select a `SelectMultiple`; anything outside the subset is a JSON
`Textarea`. Each widget's `description` is the property's title (or its name), so a frontend -- or a test
playing one -- finds a field by what the person reads.

`fill(value)` is the headless path (tests, nbval, pre-arranged answers): a value the widget can show is
put into it; one it cannot (an impossible date, a choice that is not offered) is kept aside and goes
through the same validation as a typed answer, so it is refused with the same message.
"""

from __future__ import annotations

import datetime as dt
import html
import json
from typing import Any

import ipywidgets as W

from mcp_lab.forms.schema import MISSING, FieldSpec, Invalid, parse_number

__all__ = ["FieldWidget", "build_field"]

STYLE = {"description_width": "initial"}
WIDE = W.Layout(width="min(36em, 95%)")


def _placeholder(spec: FieldSpec) -> str:
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


def _as_date(value: Any) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return None
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value) if len(value) == 10 else None
        except ValueError:
            return None
    return None


def _as_datetime(value: Any) -> dt.datetime | None:
    if isinstance(value, str) and "T" in value.upper():
        try:
            value = dt.datetime.fromisoformat(value.upper())
        except ValueError:
            return None
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return value
    return None


class FieldWidget:
    """A field's input widget, its required marker, help text and inline error line."""

    def __init__(self, spec: FieldSpec) -> None:
        self.spec = spec
        self._aside: Any = MISSING
        """A headless value the widget cannot show; validated like a typed one."""
        self.input = self._make_input()
        self.input.observe(self._touched, names="value")
        self.error = W.HTML("")
        marker = W.HTML("<b style='color:#b00' title='required'>*</b>" if spec.required else "")
        rows: list[Any] = [W.HBox([self.input, marker])]
        help_parts = [html.escape(spec.description)] if spec.description else []
        if spec.note:
            help_parts.append(f"<i>{html.escape(spec.note)}</i>")
        if help_parts:
            rows.append(W.HTML(f"<small style='opacity:.75'>{' '.join(help_parts)}</small>"))
        rows.append(self.error)
        self.box = W.VBox(rows)

    def _make_input(self) -> Any:
        spec, default = self.spec, self.spec.default
        common: dict[str, Any] = {"description": spec.title, "style": STYLE}
        if spec.kind == "date":
            return W.DatePicker(value=_as_date(default), **common)
        if spec.kind == "date-time":
            return W.DatetimePicker(value=_as_datetime(default), **common)
        if spec.kind == "boolean":
            if isinstance(default, bool):
                return W.Checkbox(value=default, indent=False, **common)
            return W.ToggleButtons(options=[("Yes", True), ("No", False)], value=None, **common)
        if spec.kind == "choice":
            options: list[tuple[str, Any]] = list(spec.options)
            if not spec.required:
                options.insert(0, ("—", None))
            value = default if default in [v for _, v in spec.options] else None
            return W.Dropdown(options=options, value=value, layout=WIDE, **common)
        if spec.kind == "choices":
            values = [v for _, v in spec.options]
            chosen = tuple(default) if isinstance(default, list) and all(d in values for d in default) else ()
            return W.SelectMultiple(
                options=list(spec.options), value=chosen, rows=min(6, len(values)), layout=WIDE, **common
            )
        if spec.kind == "json":
            text = "" if default is MISSING else json.dumps(default)
            return W.Textarea(value=text, placeholder=_placeholder(spec), layout=WIDE, **common)
        if spec.kind in ("integer", "number"):
            text = str(default) if isinstance(default, int | float) and not isinstance(default, bool) else ""
            return W.Text(value=text, placeholder=_placeholder(spec), layout=WIDE, **common)
        text = default if isinstance(default, str) else ""
        return W.Text(value=text, placeholder=_placeholder(spec), layout=WIDE, **common)

    def _touched(self, change: Any) -> None:
        self._aside = MISSING  # the person changed the widget: that is the answer now

    # ---- reading ---------------------------------------------------------------------------------------
    def read(self) -> Any:
        """The answer for this field: a JSON value, MISSING (left empty) or Invalid (unreadable)."""
        if self._aside is not MISSING:
            return self._aside
        kind, value = self.spec.kind, self.input.value
        if kind == "date":
            return MISSING if value is None else value.isoformat()
        if kind == "date-time":
            return MISSING if value is None else value.isoformat()
        if kind == "boolean":
            return MISSING if value is None else bool(value)
        if kind == "choice":
            return MISSING if value is None else value
        if kind == "choices":
            return list(value) if value else MISSING
        if kind in ("integer", "number"):
            return parse_number(value, integer=kind == "integer")
        if kind == "json":
            if not value.strip():
                return MISSING
            try:
                return json.loads(value)
            except json.JSONDecodeError as exc:
                return Invalid(f"not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})")
        return value if value != "" else MISSING

    # ---- filling (headless) ------------------------------------------------------------------------------
    def fill(self, value: Any) -> None:
        """Put `value` in the widget if it can show it, else keep it aside for validation."""
        kind, aside = self.spec.kind, MISSING
        if value is None or value is MISSING:
            self._clear()
        elif kind == "date":
            day = _as_date(value)
            self.input.value = day
            if day is None:
                aside = value.isoformat() if isinstance(value, dt.date) else value
        elif kind == "date-time":
            moment = _as_datetime(value)
            self.input.value = moment
            if moment is None:
                aside = value.isoformat() if isinstance(value, dt.datetime) else value
        elif kind == "boolean":
            if isinstance(value, bool):
                self.input.value = value
            else:
                aside = value
        elif kind == "choice":
            if isinstance(value, str) and value in [v for _, v in self.spec.options]:
                self.input.value = value
            else:
                aside = value
        elif kind == "choices":
            values = [v for _, v in self.spec.options]
            if isinstance(value, list | tuple) and all(isinstance(v, str) and v in values for v in value):
                self.input.value = tuple(value)
            else:
                aside = list(value) if isinstance(value, list | tuple) else value
        elif kind in ("integer", "number"):
            if isinstance(value, str) or (isinstance(value, int | float) and not isinstance(value, bool)):
                self.input.value = str(value)
            else:
                aside = value
        elif kind == "json":
            self.input.value = value if isinstance(value, str) else json.dumps(value)
        elif isinstance(value, str):
            self.input.value = value
        else:
            aside = value
        self._aside = aside  # after the widget changed: its observer clears `_aside`

    def _clear(self) -> None:
        kind = self.spec.kind
        if kind in ("date", "date-time", "choice") or (kind == "boolean" and not isinstance(self.input, W.Checkbox)):
            self.input.value = None
        elif kind == "choices":
            self.input.value = ()
        elif kind == "boolean":
            self.input.value = False
        else:
            self.input.value = ""

    def show_error(self, message: str | None) -> None:
        self.error.value = f"<span style='color:#b00'>{html.escape(message)}</span>" if message else ""


def build_field(spec: FieldSpec) -> FieldWidget:
    return FieldWidget(spec)
