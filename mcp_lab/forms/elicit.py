"""The elicitation form (form mode): `requested_schema` rendered as fields, validated before sending.

Spec: 2026-07-28 elicitation, form mode. The server sends a message and a flat `requested_schema`; the
client answers with `ElicitResult(action="accept", content={...})`, `"decline"` or `"cancel"`. The buttons
are Submit, Decline and Cancel, mapped to those three actions. Submit validates first (jsonschema with
format checks, plus the protocol's own content types), so an invalid answer is shown as one inline
message per field and never reaches the server.

A server-side example that produces this form::

    class Trip(BaseModel):
        city: str = Field(title="City", min_length=2)
        when: datetime.date = Field(title="Date")
        nights: int = Field(ge=1, le=14)

    async def ask_trip() -> Elicit[Trip]:
        return Elicit("Where are we going?", Trip)

    @mcp.tool()
    async def book(trip: Annotated[Trip, Resolve(ask_trip)]) -> str: ...

Headless: `form.fill(city="Oslo", when="2026-08-01", nights=3).submit()`.
"""

from __future__ import annotations

import html
from typing import Any, ClassVar

import mcp.types as T

from mcp_lab.answers import AnswerContext, InputResponse
from mcp_lab.errors import LabError
from mcp_lab.forms.base import Form
from mcp_lab.forms.schema import MISSING, FormSpec, check_content, parse_schema

__all__ = ["ElicitForm"]

WHOLE = ""
"""The field name used for the whole content when the schema is not a flat object."""


class ElicitForm(Form):
    """Form-mode elicitation."""

    kind: ClassVar[str] = "elicitation"

    def __init__(self, key: str, request: T.InputRequest, context: AnswerContext) -> None:
        super().__init__(key, request, context)
        params = request.params
        schema = params.requested_schema if isinstance(params, T.ElicitRequestFormParams) else {}
        self.spec: FormSpec = parse_schema(schema)
        self._fields: dict[str, Any] = {}

    @property
    def fields(self) -> dict[str, Any]:
        """Field name -> `FieldWidget` (its `.input` is the ipywidget), built on first use."""
        self.widget  # noqa: B018
        return self._fields

    def _build(self) -> list[Any]:
        import ipywidgets as W

        from mcp_lab.forms.fields import build_field
        from mcp_lab.forms.schema import FieldSpec, format_checker

        format_checker()  # import jsonschema now, while the form appears, not on the first click

        parts: list[Any] = []
        if self.spec.notes:
            notes = "".join(f"<li>{html.escape(n)}</li>" for n in self.spec.notes)
            parts.append(W.HTML(f"<div style='color:#8a5300'>Outside the elicitation subset:<ul>{notes}</ul></div>"))
        specs = list(self.spec.fields)
        if self.spec.whole_json:
            specs = [FieldSpec(name=WHOLE, kind="json", title="Answer (JSON object)", schema={}, required=True)]
        for spec in specs:
            field = build_field(spec)
            self._fields[spec.name] = field
            parts.append(field.box)
        if any(s.required for s in specs):
            parts.append(W.HTML("<small><b style='color:#b00'>*</b> required</small>"))
        return parts

    @property
    def field_names(self) -> list[str]:
        return [WHOLE] if self.spec.whole_json else [f.name for f in self.spec.fields]

    def fill(self, **values: Any) -> ElicitForm:
        """Set fields by property name (a value the widget cannot show is still validated on submit)."""
        self._check_open()
        self.widget  # noqa: B018 -- build the fields
        unknown = [name for name in values if name not in self.fields]
        if self.spec.whole_json and set(values) - {WHOLE}:
            self.fields[WHOLE].fill(dict(values))
            return self
        if unknown:
            known = ", ".join(self.field_names) or "none"
            raise LabError(f"form {self.key!r} has no field {', '.join(map(repr, unknown))} (fields: {known})")
        for name, value in values.items():
            self.fields[name].fill(value)
        return self

    def _collect(self) -> tuple[InputResponse | None, dict[str, str]]:
        values = {name: field.read() for name, field in self._fields.items()}
        content, errors = check_content(self.spec, values)
        for name, field in self._fields.items():
            field.show_error(errors.get(name))
        if errors:
            return None, errors
        return T.ElicitResult(action="accept", content=content), {}

    def values(self) -> dict[str, Any]:
        """What the fields hold right now (MISSING left out), before validation."""
        self.widget  # noqa: B018
        return {name: value for name, field in self.fields.items() if (value := field.read()) is not MISSING}

    def answer_text(self) -> str:
        response = self.response
        if isinstance(response, T.ElicitResult) and response.content is not None:
            return ", ".join(f"{k}={v!r}" for k, v in response.content.items()) or "(no fields)"
        return ""
