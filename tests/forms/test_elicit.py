"""Every schema kind of the elicitation subset -> the widget it gets -> the content the server receives.

Each case plays the browser: it sets the widget's value as JupyterLab would (or leaves the pre-filled
default), presses Submit, and checks what a real in-process server received.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mcp.types as T
import pytest

from mcp_lab.answers import AnswerContext
from mcp_lab.forms.elicit import ElicitForm
from tests.forms.conftest import Probe, ask_with_form, obj

UTC = dt.UTC
UUID = "123e4567-e89b-12d3-a456-426614174000"


@dataclass
class Case:
    id: str
    prop: dict[str, Any]
    widget: str
    act: Callable[[Any], None] | None
    """Sets the input widget's value as the browser would; None submits what is pre-filled."""
    sent: Any
    """The value the server must receive; `...` for "left out of the content"."""
    required: bool = False
    description: str | None = None


def put(value: Any) -> Callable[[Any], None]:
    def act(widget: Any) -> None:
        widget.value = value

    return act


CASES = [
    Case("string", {"type": "string", "title": "Name"}, "Text", put("Ada"), "Ada", True, "Name"),
    Case("string, no title", {"type": "string"}, "Text", put("Ada"), "Ada", description="f"),
    Case("string default", {"type": "string", "default": "Bob"}, "Text", None, "Bob"),
    Case("string lengths", {"type": "string", "minLength": 2, "maxLength": 4}, "Text", put("abcd"), "abcd"),
    Case("email", {"type": "string", "format": "email"}, "Text", put("ada@example.org"), "ada@example.org"),
    Case(
        "uri",
        {"type": "string", "format": "uri"},
        "Text",
        put("https://example.org/x?y=1"),
        "https://example.org/x?y=1",
    ),
    Case("date", {"type": "string", "format": "date"}, "DatePicker", put(dt.date(2026, 7, 28)), "2026-07-28"),
    Case(
        "date default", {"type": "string", "format": "date", "default": "2026-01-02"}, "DatePicker", None, "2026-01-02"
    ),
    Case("date left empty", {"type": "string", "format": "date"}, "DatePicker", None, ...),
    Case(
        "date-time",
        {"type": "string", "format": "date-time"},
        "DatetimePicker",
        put(dt.datetime(2026, 7, 28, 9, 30, tzinfo=UTC)),
        "2026-07-28T09:30:00+00:00",
    ),
    Case(
        "date-time default",
        {"type": "string", "format": "date-time", "default": "2026-07-28T09:30:00Z"},
        "DatetimePicker",
        None,
        "2026-07-28T09:30:00+00:00",
    ),
    Case("integer", {"type": "integer", "minimum": 1, "maximum": 99}, "Text", put("42"), 42, True),
    Case("integer default", {"type": "integer", "default": 3}, "Text", None, 3),
    Case("number", {"type": "number", "minimum": 0}, "Text", put("2.5"), 2.5),
    Case("number, whole", {"type": "number"}, "Text", put(" 7 "), 7),
    Case("number left empty", {"type": "number"}, "Text", None, ...),
    Case("boolean, unanswered choice", {"type": "boolean", "title": "OK?"}, "ToggleButtons", put(True), True, True),
    Case("boolean no", {"type": "boolean"}, "ToggleButtons", put(False), False, True),
    Case("boolean default", {"type": "boolean", "default": False}, "Checkbox", None, False),
    Case("boolean default ticked", {"type": "boolean", "default": False}, "Checkbox", put(True), True),
    Case("enum", {"type": "string", "enum": ["a", "b", "c"]}, "Dropdown", put("b"), "b", True),
    Case("enum default", {"type": "string", "enum": ["a", "b"], "default": "b"}, "Dropdown", None, "b"),
    Case("enum optional empty", {"type": "string", "enum": ["a", "b"]}, "Dropdown", None, ...),
    Case(
        "oneOf",
        {"type": "string", "oneOf": [{"const": "x", "title": "Ex"}, {"const": "y", "title": "Why"}]},
        "Dropdown",
        put("y"),
        "y",
        True,
    ),
    Case(
        "enumNames", {"type": "string", "enum": ["s", "m"], "enumNames": ["Small", "Medium"]}, "Dropdown", put("m"), "m"
    ),
    Case(
        "multi enum",
        {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2},
        "SelectMultiple",
        put(("a", "c")),
        ["a", "c"],
        True,
    ),
    Case(
        "multi anyOf",
        {"type": "array", "items": {"anyOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]}},
        "SelectMultiple",
        put(("g",)),
        ["g"],
    ),
    Case(
        "multi default",
        {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "default": ["b"]},
        "SelectMultiple",
        None,
        ["b"],
    ),
    Case(
        "outside: free array", {"type": "array", "items": {"type": "string"}}, "Textarea", put('["p", "q"]'), ["p", "q"]
    ),
    Case("outside: uuid format", {"type": "string", "format": "uuid"}, "Text", put(UUID), UUID),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_schema_kind_to_widget_to_content(probe: Probe, case: Case) -> None:
    task, panel = await ask_with_form(obj(*(["f"] if case.required else []), f=case.prop))
    form = panel[0]
    assert isinstance(form, ElicitForm)
    widget = form.fields["f"].input
    assert type(widget).__name__ == case.widget
    assert widget.description == (case.description or case.prop.get("title") or "f")
    if case.act is not None:
        case.act(widget)
    assert form.submit(), form.errors
    flow = await task
    assert flow.status == "done", flow.summary()
    sent = json.loads(flow.text)
    assert sent["action"] == "accept"
    assert sent["content"] == ({} if case.sent is ... else {"f": case.sent})
    assert flow.rounds[-1].answered_by == {"q": "form"}


def test_the_table_covers_every_kind() -> None:
    from mcp_lab.forms.schema import parse_schema

    kinds = {parse_schema(obj(f=c.prop)).fields[0].kind for c in CASES}
    assert kinds == {
        "text",
        "email",
        "uri",
        "date",
        "date-time",
        "integer",
        "number",
        "boolean",
        "choice",
        "choices",
        "json",
    }


async def test_choice_labels_required_markers_and_the_trust_note(probe: Probe) -> None:
    spec = obj(
        "size",
        size={"type": "string", "title": "Size", "enum": ["s", "m"], "enumNames": ["Small", "Medium"]},
        color={"type": "string", "oneOf": [{"const": "r", "title": "Red"}]},
    )
    task, panel = await ask_with_form(spec)
    form = panel[0]
    assert isinstance(form, ElicitForm)
    size, color = form.fields["size"].input, form.fields["color"].input
    assert [label for label, _ in size.options] == ["Small", "Medium"] and size.value is None  # required: no "—"
    assert [label for label, _ in color.options] == ["—", "Red"] and color.value is None  # optional: can stay empty
    header = form.header_html()
    assert "probe" in header and "Tell me" in header and "Answer only what you would tell this server" in header
    assert "required" in form.fields["size"].box.children[0].children[1].value
    assert form.fields["color"].box.children[0].children[1].value == ""
    assert [b.description for b in form.widget.children[-2].children] == ["Submit", "Decline", "Cancel"]
    form.fill(size="m").submit()
    assert json.loads((await task).text)["content"] == {"size": "m"}


@pytest.mark.parametrize("action", ["decline", "cancel"])
async def test_decline_and_cancel_send_the_action_without_content(probe: Probe, action: str) -> None:
    task, panel = await ask_with_form(obj("n", n={"type": "integer"}))
    panel[0].fill(n="not even a number")
    assert getattr(panel[0], action)()
    flow = await task
    assert json.loads(flow.text) == {"action": action, "content": None}
    assert probe.seen == [{"action": action}]


async def test_a_schema_outside_the_subset_gets_a_note_and_raw_json_not_a_crash(probe: Probe) -> None:
    spec = obj("nick", where={"type": "object", "properties": {"lat": {"type": "number"}}}, nick={"type": "string"})
    task, panel = await ask_with_form(spec)
    form = panel[0]
    assert isinstance(form, ElicitForm)
    assert "nested objects are outside the elicitation subset" in form.widget.children[1].value
    assert type(form.fields["where"].input).__name__ == "Textarea"
    assert not form.fill(where={"lat": 1.5}, nick="n").submit()  # the protocol cannot carry an object: said, not sent
    assert "only carry text, numbers" in form.errors["where"]
    assert not form.fill(where='"north"').submit() and form.errors["where"] == "must be of type object"
    assert form.fill(where="").submit()  # optional: left out
    assert json.loads((await task).text)["content"] == {"nick": "n"}
    assert probe.accepted() == [{"action": "accept", "content": {"nick": "n"}}]


@pytest.mark.parametrize("schema", [{"type": "string"}, {"properties": []}, "nonsense"])
def test_a_schema_that_is_not_an_object_is_one_json_answer(schema: Any) -> None:
    # The SDK's own models refuse such a schema on the wire; a form built from one must still not crash.
    params = T.ElicitRequestFormParams.model_construct(message="?", requested_schema=schema, mode="form")
    context = AnswerContext(server="s", method="tools/call", target="t", round_index=0)
    form = ElicitForm("k", T.ElicitRequest.model_construct(params=params, method="elicitation/create"), context)
    assert form.spec.whole_json
    assert "JSON object" in form.widget.children[1].value or "not object" in form.widget.children[1].value
    assert not form.fill(**{"": "[1]"}).submit() and form.errors == {"": "enter one JSON object"}
    assert not form.fill(**{"": "{oops"}).submit() and form.errors[""].startswith("not valid JSON")
    assert form.fill(a="b").submit()
    assert form.outcome() == T.ElicitResult(action="accept", content={"a": "b"})


async def test_after_submitting_the_form_is_a_read_only_record(probe: Probe) -> None:
    task, panel = await ask_with_form(obj("city", city={"type": "string", "title": "City"}))
    form = panel[0]
    form.fill(city="Oslo").submit()
    await task
    assert len(form.widget.children) == 1 and "answered city=&#x27;Oslo&#x27;" in form.widget.children[0].value
    assert form.summary() == "elicitation form 'q' from 'probe': answered city='Oslo'"
    bundle = panel._repr_mimebundle_()
    assert bundle["text/plain"] == "round 1 from 'probe':\n  elicitation form 'q' from 'probe': answered city='Oslo'"
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert not form.submit() and not form.cancel()  # settled once: further clicks do nothing
    assert isinstance(form.outcome(), T.ElicitResult)
