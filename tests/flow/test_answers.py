"""Scripted answers: keys, bare resolver names, value shapes, and clear errors."""

from __future__ import annotations

import mcp.types as T
import pytest

import mcp_lab
from mcp_lab.flow.answers import AnswerContext, ScriptedAnswerer, Unanswered, to_input_response

ELICIT = T.ElicitRequest(
    params=T.ElicitRequestFormParams(message="m", requested_schema={"type": "object", "properties": {}})
)
SAMPLE = T.CreateMessageRequest(
    params=T.CreateMessageRequestParams(
        messages=[T.SamplingMessage(role="user", content=T.TextContent(type="text", text="hi"))], max_tokens=5
    )
)
ROOTS = T.ListRootsRequest()
CTX = AnswerContext(server="s", method="tools/call", target="t", round_index=0)


async def test_bare_resolver_name_matches_the_wire_key() -> None:
    scripted = ScriptedAnswerer({"ask_region": {"region": "eu"}})
    result = await scripted.answer("__main__:ask_region", ELICIT, CTX)
    assert result == T.ElicitResult(action="accept", content={"region": "eu"})
    assert scripted.unused() == []
    with pytest.raises(Unanswered):
        await scripted.answer("__main__:other", ELICIT, CTX)


async def test_exact_key_wins_over_bare_name() -> None:
    scripted = ScriptedAnswerer({"m:ask": {"a": 1}, "ask": {"a": 2}})
    assert (await scripted.answer("m:ask", ELICIT, CTX)) == T.ElicitResult(action="accept", content={"a": 1})


def test_value_shapes_by_request_kind() -> None:
    assert to_input_response("k", ELICIT, mcp_lab.decline()).action == "decline"
    assert to_input_response("k", ELICIT, mcp_lab.cancel()).action == "cancel"
    reply = to_input_response("k", SAMPLE, "hello")
    assert isinstance(reply, T.CreateMessageResult) and reply.role == "assistant"
    roots = to_input_response("k", ROOTS, ["file:///a", {"uri": "file:///b", "name": "b"}])
    assert isinstance(roots, T.ListRootsResult) and [r.name for r in roots.roots] == [None, "b"]


@pytest.mark.parametrize(
    ("request_", "value", "message"),
    [
        (ELICIT, "text", "must be a dict of form fields"),
        (SAMPLE, {"a": 1}, "must be the assistant's reply as a string"),
        (ROOTS, "file:///a", "must be a list of file:// URIs"),
        (ROOTS, [3], "a root must be a file:// URI string"),
        (SAMPLE, T.ElicitResult(action="decline"), "but the server asked a sampling question"),
    ],
)
def test_wrong_shapes_are_one_clear_error(request_: T.InputRequest, value: object, message: str) -> None:
    with pytest.raises(mcp_lab.LabError, match=message):
        to_input_response("k", request_, value)


def test_answers_must_be_a_mapping() -> None:
    with pytest.raises(mcp_lab.LabError):
        ScriptedAnswerer(["x"])  # type: ignore[arg-type]
