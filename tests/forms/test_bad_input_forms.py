"""Bad input to a live form, as the browser (or the side panel) sends it: one inline line, never an exception.

Each case sends the front end's own message (`Panel.handle_event`, the method the widget's comm and the side
panel call) with values a person could type, or a message a stale or broken page could send. The form must
stay open and show one short message for what to fix -- nothing reaches the server -- and a correct answer
afterwards must still complete the flow.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

import pytest

import mcp_lab
from mcp_lab.forms import FormAnswerer, current, prearrange
from mcp_lab.servers.lab_server import LabServer
from tests.forms.conftest import Probe, ask_with_form, next_panel, obj


@dataclass(frozen=True)
class Bad:
    name: str
    schema: dict[str, Any]
    message: Any
    """What the front end sends (a submit of these values, or a whole message when `raw`)."""
    expect: str
    """A piece of the one inline error ("" for a malformed message: ignored, the form stays as it was)."""
    good: dict[str, Any]
    """Values that are then accepted."""
    raw: bool = False


NAME = obj("name", name={"type": "string", "minLength": 2, "maxLength": 8})
AGE = obj("age", age={"type": "integer", "minimum": 1, "maximum": 130})
SCORE = obj("score", score={"type": "number", "minimum": 0, "maximum": 1})
COLOR = obj("color", color={"type": "string", "enum": ["red", "green"]})
TITLED = obj(
    "size", size={"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]}
)
TAGS = obj(
    "tags",
    tags={"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2},
)
EMAIL = obj("email", email={"type": "string", "format": "email"})
URI = obj("site", site={"type": "string", "format": "uri"})
DATE = obj("day", day={"type": "string", "format": "date"})
WHEN = obj("when", when={"type": "string", "format": "date-time"})
OK = obj("ok", ok={"type": "boolean"})


def _submit(**values: Any) -> dict[str, Any]:
    return {"event": "submit", "key": "q", "values": values}


CASES = [
    Bad("too short", NAME, _submit(name="A"), "at least 2", {"name": "Ada"}),
    Bad("too long", NAME, _submit(name="Adalovelace"), "at most 8", {"name": "Ada"}),
    Bad("required left empty", NAME, _submit(name=""), "required", {"name": "Ada"}),
    Bad("a number for text", NAME, _submit(name=5), "must be text", {"name": "Ada"}),
    Bad("a list for text", NAME, _submit(name=["a"]), "must be text", {"name": "Ada"}),
    Bad("null for text", NAME, _submit(name=None), "required", {"name": "Ada"}),
    Bad("only an unknown field", NAME, _submit(nom="Ada"), "required", {"name": "Ada"}),
    Bad("letters for an integer", AGE, _submit(age="abc"), "must be a whole number", {"age": "42"}),
    Bad("a fraction for an integer", AGE, _submit(age="1.5"), "(no decimals)", {"age": "42"}),
    Bad("an integer below minimum", AGE, _submit(age="0"), "must be at least 1", {"age": "42"}),
    Bad("an integer above maximum", AGE, _submit(age="200"), "must be at most 130", {"age": "42"}),
    Bad("an integer too large to be one", AGE, _submit(age="1e400"), "must be a finite number", {"age": "42"}),
    Bad("letters for a number", SCORE, _submit(score="x"), "must be a number", {"score": "0.5"}),
    Bad("nan for a number", SCORE, _submit(score="nan"), "must be a finite number", {"score": "0.5"}),
    Bad("a number above maximum", SCORE, _submit(score="3"), "must be at most 1", {"score": "0.5"}),
    Bad("a choice not offered", COLOR, _submit(color="purple"), "must be one of: red, green", {"color": "green"}),
    Bad("a titled choice not offered", TITLED, _submit(size="xl"), "must be one of: Small, Large", {"size": "l"}),
    Bad("a tag not offered", TAGS, _submit(tags=["z"]), "each choice must be one of", {"tags": ["a"]}),
    Bad("no tags", TAGS, _submit(tags=[]), "required", {"tags": ["a"]}),
    Bad("too many tags", TAGS, _submit(tags=["a", "b", "c"]), "choose at most 2", {"tags": ["a", "b"]}),
    Bad("tags as text", TAGS, _submit(tags="a"), "must be of type array", {"tags": ["a"]}),
    Bad(
        "not an email", EMAIL, _submit(email="not-an-email"), "not a valid email address", {"email": "ada@example.org"}
    ),
    Bad("not a URI", URI, _submit(site="not a uri"), "not a valid URI", {"site": "https://example.org"}),
    Bad("an impossible date", DATE, _submit(day="2026-13-45"), "not a valid date", {"day": "2026-07-28"}),
    Bad(
        "a word for a date-time",
        WHEN,
        _submit(when="yesterday"),
        "not a valid date-time",
        {"when": "2026-07-28T09:30:00Z"},
    ),
    Bad("a word for a boolean", OK, _submit(ok="maybe"), "must be true or false", {"ok": True}),
    Bad("a message that is text", NAME, "submit", "", {"name": "Ada"}, raw=True),
    Bad("a message that is null", NAME, None, "", {"name": "Ada"}, raw=True),
    Bad("an empty message", NAME, {}, "", {"name": "Ada"}, raw=True),
    Bad("an unknown event", NAME, {"event": "explode", "key": "q"}, "", {"name": "Ada"}, raw=True),
    Bad("a form that is not there", NAME, {"event": "submit", "key": "gone", "values": {}}, "", {"name": "Ada"}, True),
    Bad(
        "values that are text",
        NAME,
        {"event": "submit", "key": "q", "values": "Ada"},
        "required",
        {"name": "Ada"},
        True,
    ),
    Bad(
        "submit_all with a bad value",
        NAME,
        {"event": "submit_all", "values": {"q": {"name": "A"}}},
        "at least 2",
        {"name": "Ada"},
        True,
    ),
    Bad("submit_all of text", NAME, {"event": "submit_all", "values": "x"}, "required", {"name": "Ada"}, True),
    Bad("a draft that is a number", NAME, {"event": "draft", "key": "q", "values": 5}, "", {"name": "Ada"}, True),
    Bad(
        "a key that is a number",
        NAME,
        {"event": "submit", "key": 7, "values": {"name": "Ada"}},
        "",
        {"name": "Ada"},
        True,
    ),
]


def test_the_table_is_big_enough() -> None:
    assert len(CASES) >= 30 and len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
async def test_bad_input_to_a_form_is_one_inline_line_and_the_form_still_answers(probe: Probe, case: Bad) -> None:
    task, panel = await ask_with_form(case.schema)
    form = panel["q"]
    panel.handle_event(case.message)  # what the widget's comm (or the side panel) delivers; never raises
    # Events are handled at once: an open form has sent nothing, and the flow waits on it.
    assert form.open and not task.done() and probe.seen == [], case.name
    errors = form.record()["errors"]
    assert all(isinstance(m, str) and m and "\n" not in m for m in errors.values()), errors
    if case.raw and not case.expect:
        assert errors == {}, (case.name, errors)  # a message a stale or broken page sent: ignored
    else:
        assert len(errors) == 1 and case.expect in next(iter(errors.values())), (case.name, errors)
    panel.handle_event({"event": "submit", "key": "q", "values": case.good})
    flow = await asyncio.wait_for(task, 10)
    assert flow.status == "done", flow.summary()
    assert json.loads(flow.text)["action"] == "accept" and len(probe.accepted()) == 1


async def test_bad_roots_and_an_empty_sampling_reply_stay_in_the_form(demo: LabServer) -> None:
    before = current()
    task = asyncio.ensure_future(mcp_lab.call("demo", "poem", answers=FormAnswerer()))
    panel = await next_panel(before)
    roots, sampling = panel["my_roots"], panel["write_haiku"]
    for values in ({"roots": ["https://example.org"]}, {"roots": [{"uri": "ftp://x"}]}, {"roots": "file:///x"}):
        panel.handle_event({"event": "submit", "key": roots.key, "values": values})
        assert roots.open and roots.errors and all("\n" not in m for m in roots.errors.values()), values
    panel.handle_event({"event": "submit", "key": sampling.key, "values": {"reply": ""}})
    assert sampling.open and "reply" in sampling.errors
    assert not task.done()
    prearrange()  # nothing pre-arranged: the person answers
    sampling.fill(reply="old pond")
    roots.fill(roots=["file:///tmp"])
    assert panel.submit_all()
    flow = await asyncio.wait_for(task, 10)
    assert flow.text == "old pond / 1 root(s)"
