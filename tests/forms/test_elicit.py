"""Every schema kind of the elicitation subset -> the input the front end draws -> the content the server receives.

Each case plays the browser at the protocol level: it sends the Submit message the front end sends (every
field's value as typed, in one message -- labextension/src/forms/render.ts), or leaves the pre-filled
default, and checks what a real in-process server received. tests/browser types into the real page.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

import mcp.types as T
import pytest

from mcp_lab.flow.answers import AnswerContext
from mcp_lab.forms.elicit import ElicitForm
from tests.forms.conftest import Probe, ask_with_form, obj

UTC = dt.UTC
UUID = "123e4567-e89b-12d3-a456-426614174000"


@dataclass
class Case:
    id: str
    prop: dict[str, Any]
    widget: str
    """The front end's input kind (FieldRecord.kind)."""
    act: Any
    """What the browser sends for the field on Submit; None submits what is pre-filled."""
    sent: Any
    """The value the server must receive; `...` for "left out of the content"."""
    required: bool = False
    description: str | None = None


def put(value: Any) -> Any:
    """The value as the browser's Submit message carries it (JSON: dates as ISO text, lists)."""
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, tuple):
        return list(value)
    return value


CASES = [
    Case("string", {"type": "string", "title": "Name"}, "text", put("Ada"), "Ada", True, "Name"),
    Case("string, no title", {"type": "string"}, "text", put("Ada"), "Ada", description="f"),
    Case("string default", {"type": "string", "default": "Bob"}, "text", None, "Bob"),
    Case("string lengths", {"type": "string", "minLength": 2, "maxLength": 4}, "text", put("abcd"), "abcd"),
    Case("email", {"type": "string", "format": "email"}, "email", put("ada@example.org"), "ada@example.org"),
    Case(
        "uri",
        {"type": "string", "format": "uri"},
        "uri",
        put("https://example.org/x?y=1"),
        "https://example.org/x?y=1",
    ),
    Case("date", {"type": "string", "format": "date"}, "date", put(dt.date(2026, 7, 28)), "2026-07-28"),
    Case("date default", {"type": "string", "format": "date", "default": "2026-01-02"}, "date", None, "2026-01-02"),
    Case("date left empty", {"type": "string", "format": "date"}, "date", None, ...),
    Case(
        "date-time",
        {"type": "string", "format": "date-time"},
        "date-time",
        put(dt.datetime(2026, 7, 28, 9, 30, tzinfo=UTC)),
        "2026-07-28T09:30:00+00:00",
    ),
    Case(
        "date-time default",
        {"type": "string", "format": "date-time", "default": "2026-07-28T09:30:00Z"},
        "date-time",
        None,
        "2026-07-28T09:30:00Z",
    ),
    Case("integer", {"type": "integer", "minimum": 1, "maximum": 99}, "integer", put("42"), 42, True),
    Case("integer default", {"type": "integer", "default": 3}, "integer", None, 3),
    Case("number", {"type": "number", "minimum": 0}, "number", put("2.5"), 2.5),
    Case("number, whole", {"type": "number"}, "number", put(" 7 "), 7),
    Case("number left empty", {"type": "number"}, "number", None, ...),
    Case("boolean, unanswered choice", {"type": "boolean", "title": "OK?"}, "boolean", put(True), True, True),
    Case("boolean no", {"type": "boolean"}, "boolean", put(False), False, True),
    Case("boolean default", {"type": "boolean", "default": False}, "checkbox", None, False),
    Case("boolean default ticked", {"type": "boolean", "default": False}, "checkbox", put(True), True),
    Case("enum", {"type": "string", "enum": ["a", "b", "c"]}, "choice", put("b"), "b", True),
    Case("enum default", {"type": "string", "enum": ["a", "b"], "default": "b"}, "choice", None, "b"),
    Case("enum optional empty", {"type": "string", "enum": ["a", "b"]}, "choice", None, ...),
    Case(
        "oneOf",
        {"type": "string", "oneOf": [{"const": "x", "title": "Ex"}, {"const": "y", "title": "Why"}]},
        "choice",
        put("y"),
        "y",
        True,
    ),
    Case(
        "enumNames", {"type": "string", "enum": ["s", "m"], "enumNames": ["Small", "Medium"]}, "choice", put("m"), "m"
    ),
    Case(
        "multi enum",
        {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2},
        "choices",
        put(("a", "c")),
        ["a", "c"],
        True,
    ),
    Case(
        "multi anyOf",
        {"type": "array", "items": {"anyOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]}},
        "choices",
        put(("g",)),
        ["g"],
    ),
    Case(
        "multi default",
        {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "default": ["b"]},
        "choices",
        None,
        ["b"],
    ),
    Case("outside: free array", {"type": "array", "items": {"type": "string"}}, "json", put('["p", "q"]'), ["p", "q"]),
    Case("outside: uuid format", {"type": "string", "format": "uuid"}, "text", put(UUID), UUID),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_schema_kind_to_widget_to_content(probe: Probe, case: Case) -> None:
    task, panel = await ask_with_form(obj(*(["f"] if case.required else []), f=case.prop))
    form = panel[0]
    assert isinstance(form, ElicitForm)
    field = form.fields()[0]
    assert field["kind"] == case.widget
    assert field["label"] == (case.description or case.prop.get("title") or "f")
    values = dict(form.display_values())  # what the page shows before the person types: the defaults
    if case.act is not None:
        values["f"] = case.act
    assert form.submit(values), form.errors
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
    record = form.record()
    size, color = record["fields"]
    assert size["options"] == [["Small", "s"], ["Medium", "m"]] and "size" not in record["values"]  # nothing chosen
    assert color["options"] == [["Red", "r"]] and not color["required"]  # optional: the page offers "—"
    assert size["required"] and size["label"] == "Size"
    assert record["server"] == "probe" and record["message"] == "Tell me"
    assert "Answer only what you would tell this server" in record["trust"]
    assert record["buttons"] == {"submit": "Submit", "decline": "Decline", "cancel": "Cancel"}
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
    assert any("nested objects are outside the elicitation subset" in note for note in form.notes())
    assert form.fields()[0]["kind"] == "json"
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
    assert any("JSON object" in note or "not object" in note for note in form.notes())
    assert not form.fill(**{"": "[1]"}).submit() and form.errors == {"": "enter one JSON object"}
    assert not form.fill(**{"": "{oops"}).submit() and form.errors[""].startswith("not valid JSON")
    assert form.fill(a="b").submit()
    assert form.outcome() == T.ElicitResult(action="accept", content={"a": "b"})


async def test_after_submitting_the_form_is_a_read_only_record(probe: Probe) -> None:
    task, panel = await ask_with_form(obj("city", city={"type": "string", "title": "City"}))
    form = panel[0]
    form.fill(city="Oslo").submit()
    await task
    assert form.record()["state"] == "accepted" and "answered city='Oslo'" in form.record()["summary"]
    assert form.summary() == "elicitation form 'q' from 'probe': answered city='Oslo'"
    bundle = panel._repr_mimebundle_()
    assert bundle["text/plain"] == "round 1 from 'probe':\n  elicitation form 'q' from 'probe': answered city='Oslo'"
    assert "application/vnd.jupyter.widget-view+json" not in bundle  # a static record: no widget model to lose
    assert "answered city=&#x27;Oslo&#x27;" in bundle["text/html"]
    assert not form.submit() and not form.cancel()  # settled once: further clicks do nothing
    assert isinstance(form.outcome(), T.ElicitResult)
