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

Headless: `form.fill(city="Oslo", when="2026-08-01", nights=3).submit()`; the browser's Submit sends the
same values, as typed, in one message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import mcp.types as T

from mcp_lab.flow.answers import AnswerContext, InputResponse
from mcp_lab.forms.base import Form
from mcp_lab.forms.fields import default_value, display_value, field_record, read_field
from mcp_lab.forms.schema import MISSING, FieldSpec, FormSpec, check_content, parse_schema
from mcp_lab.json_types import JsonObject, JsonValue

__all__ = ["WHOLE", "ElicitForm"]

WHOLE = ""
"""The field name used for the whole content when the schema is not a flat object."""


class ElicitForm(Form):
    """Form-mode elicitation."""

    kind: ClassVar[str] = "elicitation"
    record_kind: ClassVar[str] = "elicitation"

    def __init__(self, key: str, request: T.InputRequest, context: AnswerContext) -> None:
        params = request.params
        schema = params.requested_schema if isinstance(params, T.ElicitRequestFormParams) else {}
        self.spec: FormSpec = parse_schema(schema)
        super().__init__(key, request, context)

    @property
    def specs(self) -> list[FieldSpec]:
        if self.spec.whole_json:
            return [FieldSpec(name=WHOLE, kind="json", title="Answer (JSON object)", schema={}, required=True)]
        return list(self.spec.fields)

    def initial_values(self) -> JsonObject:
        return {s.name: value for s in self.specs if (value := default_value(s)) is not MISSING}

    def fields(self) -> list[JsonObject]:
        return [field_record(s) for s in self.specs]

    def notes(self) -> list[str]:
        return [f"Outside the elicitation subset: {note}" for note in self.spec.notes]

    def display_values(self) -> JsonObject:
        return {s.name: display_value(s, self.values[s.name]) for s in self.specs if s.name in self.values}

    def fill(self, **values: JsonValue) -> ElicitForm:
        """Set fields by property name (a value no input could show is still validated on submit)."""
        if self.spec.whole_json and set(values) - {WHOLE}:
            self._check_open()
            values = {WHOLE: dict(values)}
        super().fill(**values)
        return self

    def check(self, values: Mapping[str, JsonValue]) -> tuple[InputResponse | None, dict[str, str]]:
        read = {s.name: read_field(s, values.get(s.name, MISSING)) for s in self.specs}
        content, errors = check_content(self.spec, read)
        if errors:
            return None, errors
        return T.ElicitResult.model_validate({"action": "accept", "content": content}), {}

    def answer_text(self) -> str:
        response = self.response
        if isinstance(response, T.ElicitResult) and response.content is not None:
            return ", ".join(f"{k}={v!r}" for k, v in response.content.items()) or "(no fields)"
        return ""
