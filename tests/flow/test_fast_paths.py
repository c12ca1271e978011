"""The call path's exact-type fast paths (flow/answers.py, flow/legs.py, flow/calls.py) answer as the general
checks they stand in front of: the same answer looked up under the same name, the same response built, the
same leg outcome told -- also for the subclasses and other mappings the fast paths let through to them.
"""

from __future__ import annotations

from collections import OrderedDict
from types import MappingProxyType
from typing import Any

import mcp.types as T
import pytest

from mcp_lab.errors import LabError
from mcp_lab.flow.answers import ScriptedAnswerer, request_kind, to_input_response
from mcp_lab.flow.legs import _asks
from mcp_lab.json_types import JsonValue


def candidates(key: str) -> list[str]:
    """The names a scripted answer may be given under, in order (the lookup's documented rule, as a list)."""
    names = [key]
    if ":" in key:
        qualname = key.rsplit(":", 1)[1]
        bare = qualname.rsplit(".", 1)[-1]
        names += [n for n in dict.fromkeys((qualname, bare, bare.split("#", 1)[0])) if n != key]
    return names


KEYS = [
    "ask_region",
    "mod:ask_region",
    "pkg.mod:make_server.<locals>.ask_size",
    "pkg.mod:make_server.<locals>.ask_size#1",
    "a:b:c",
    "mod:",
    ":",
    "q1",
]
GIVEN: list[dict[str, JsonValue]] = [
    {},
    {"ask_region": 1},
    {"mod:ask_region": 1, "ask_region": 2},
    {"make_server.<locals>.ask_size": 1, "ask_size": 2},
    {"ask_size#1": 1, "ask_size": 2},
    {"ask_size": 2},
    {"c": 1, "b:c": 2},
    {"": 1},
    {"q1": 1},
]


@pytest.mark.parametrize("answers", GIVEN)
def test_lookup_finds_the_first_candidate_given(answers: dict[str, JsonValue]) -> None:
    scripted = ScriptedAnswerer(answers)
    for key in KEYS:
        expected = next(((name, answers[name]) for name in candidates(key) if name in answers), None)
        assert scripted.lookup(key) == expected, key


ASK = T.ElicitRequest(
    params=T.ElicitRequestFormParams(message="Which region?", requested_schema={"type": "object", "properties": {}})
)


def test_an_elicitation_answer_is_the_same_response_whatever_mapping_gives_it() -> None:
    content = {"region": "eu", "n": 2}
    built = [to_input_response("k", ASK, m) for m in (content, OrderedDict(content), MappingProxyType(content))]
    assert all(type(r) is T.ElicitResult for r in built)
    assert built[0] == built[1] == built[2] == T.ElicitResult(action="accept", content=content)
    assert built[0].content is not content  # a copy: the script's dict is not what the record holds


class MyElicitRequest(T.ElicitRequest):
    pass


class MyCallToolResult(T.CallToolResult):
    pass


class MyInputRequired(T.InputRequiredResult):
    pass


def test_request_kind_of_subclasses_and_the_other_kinds() -> None:
    sample = T.CreateMessageRequest(params=T.CreateMessageRequestParams(messages=[], max_tokens=5))
    assert request_kind(ASK) == request_kind(MyElicitRequest(params=ASK.params)) == "elicitation"
    assert request_kind(sample) == "sampling" and request_kind(T.ListRootsRequest()) == "roots"
    with pytest.raises(LabError, match="must be the assistant's reply"):
        to_input_response("k", sample, {"region": "eu"})  # a dict answers an elicitation only
    assert to_input_response("k", T.ListRootsRequest(), ["file:///tmp"]) == T.ListRootsResult(
        roots=[T.Root(uri="file:///tmp")]  # type: ignore[arg-type]
    )


def test_a_leg_asks_exactly_when_its_result_is_an_input_required_result() -> None:
    asking: list[Any] = [T.InputRequiredResult(input_requests={"k": ASK}), MyInputRequired(request_state="s")]
    final: list[Any] = [
        T.CallToolResult(content=[]),
        MyCallToolResult(content=[]),
        T.GetPromptResult(messages=[]),
        T.ReadResourceResult(contents=[]),
        {"resultType": "input_required"},
        None,
    ]
    for result in asking + final:
        assert _asks(result) is isinstance(result, T.InputRequiredResult), result


class SessionReading(ScriptedAnswerer):
    """A script of its own kind that reads the context's session: it must still be handed the live one."""

    async def answer(self, key: str, request: T.InputRequest, context: Any) -> Any:
        assert context.session is not None and context.round_index in (0, 1)
        return await super().answer(key, request, context)


async def test_a_call_with_only_scripted_answers_answers_and_labels_as_a_chain_did(demo: Any) -> None:
    import mcp_lab
    from mcp_lab.flow.history import history

    assert history.fallback_answerers == []  # the chain of one the fast path serves
    answers = {"ask_region": {"region": "eu"}, "ask_ok": lambda request: {"ok": True}, "typo": {}}
    flow = await mcp_lab.call("demo", "book", {"city": "Paris"}, answers=answers)
    assert flow.status == "done" and flow.text == "Booked Paris in eu (ok=True)"
    assert [r.answered_by for r in flow.rounds] == [{}, {next(iter(flow.rounds[0].input_requests or {})): "script"},
                                                    {next(iter(flow.rounds[1].input_requests or {})): "script"}]
    assert flow.unused_answers() == ["typo"]
    mine = await mcp_lab.call("demo", "book", {"city": "Rome"}, answers=SessionReading(answers))
    assert mine.status == "done" and [set(r.answered_by.values()) for r in mine.rounds[1:]] == [{"script"}] * 2
    stopped = await mcp_lab.call("demo", "book", {"city": "Oslo"}, answers={"ask_region": {"region": "eu"}})
    assert stopped.status == "input_required" and "no answer for" in (stopped.stop_reason or "")
    legacy = await mcp_lab.call("demo", "book", {"city": "Bonn"}, answers=answers, legacy=True)
    assert legacy.status == "done" and legacy.text == "Booked Bonn in eu (ok=True)"


class Shout(str):
    pass


ANSWERS_SENT: list[Any] = [
    T.ElicitResult(action="accept", content={"region": "eu"}),
    T.ElicitResult(action="accept", content={"a": None, "b": 1.5, "c": True, "d": "x", "e": 3, "f": 10**30, "g": -0.0}),
    T.ElicitResult(action="accept", content={"nan": float("nan"), "inf": float("-inf")}),
    T.ElicitResult(action="accept", content={"many": ["a", "b"]}),
    T.ElicitResult(action="accept", content={"loud": Shout("HI")}),
    T.ElicitResult(action="accept", content={}),
    T.ElicitResult(action="accept", content={"ünï": "ćödé \U0001f600"}),
    T.ElicitResult.model_validate({"action": "accept", "content": {"x": 1}, "_meta": {"k": "v"}}),
    T.ElicitResult(action="decline"),
    T.ElicitResult(action="cancel"),
    T.CreateMessageResult(role="assistant", content=T.TextContent(type="text", text="hi"), model="m"),
    T.ListRootsResult(roots=[T.Root(uri="file:///tmp")]),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("response", ANSWERS_SENT)
def test_an_answer_is_recorded_as_pydantic_puts_it_on_the_wire(response: Any) -> None:
    from mcp_lab.flow.legs import wire
    from mcp_lab.flow.stepping import answer_wire

    recorded, expected = answer_wire(response), wire(response)
    assert recorded == expected and list(recorded) == list(expected)
    assert {k: type(v) for k, v in (recorded.get("content") or {}).items()} == {
        k: type(v) for k, v in (expected.get("content") or {}).items()
    }
    if isinstance(response, T.ElicitResult) and isinstance(response.content, dict):
        assert recorded.get("content") is not response.content  # a copy: the model is not the record


ARGUMENTS: list[Any] = [
    {"city": "P", "n": 2, "ok": True, "none": None, "x": 1.5},
    {},
    {"city": "Zürich"},  # not ASCII: checked, and sent as it is
    {"ünï": 1},
    {"bad": "\ud800"},  # a lone surrogate: named before the JSON fails
    {"nan": float("nan"), "inf": float("inf")},
    {"nested": {"a": [1, 2]}},
    {"many": (1, 2)},
    {"loud": Shout("HI")},
    {1: "a"},
    OrderedDict(city="P"),
]


@pytest.mark.parametrize("arguments", ARGUMENTS)
def test_plain_arguments_are_what_the_checks_and_the_wire_form_make_of_them(arguments: Any) -> None:
    from mcp_lab.bounded_json import check_text
    from mcp_lab.given import plain_arguments, wire_arguments

    plain = plain_arguments(arguments)
    assert (plain is not None) == (arguments is ARGUMENTS[0] or arguments is ARGUMENTS[1])
    if plain is None:  # the general path decides (the call's own order: the text first, then the JSON)
        return
    check_text(arguments, "the arguments")  # nothing to name
    assert plain == wire_arguments(arguments) and plain is not arguments
    assert {k: type(v) for k, v in plain.items()} == {k: type(v) for k, v in wire_arguments(arguments).items()}
    assert all(type(k) is str and k.isascii() for k in plain)


async def test_scripted_answers_at_once_are_the_answers_and_labels_one_by_one() -> None:
    from mcp_lab.flow.answers import AnswerContext, ChainAnswerer
    from mcp_lab.flow.asking import answer_round, scripted_answers

    requests: dict[str, T.InputRequest] = {"mod:ask_region": ASK, "ask_ok": ASK}
    given: dict[str, JsonValue] = {"ask_region": {"region": "eu"}, "ask_ok": {"ok": True}, "typo": {}}
    context = AnswerContext.of("s", "tools/call", "t", 0)
    for chained in (False, True):
        fast, slow = ScriptedAnswerer(given), ScriptedAnswerer(given)
        fast_asked: Any = ChainAnswerer([fast]) if chained else fast
        slow_asked: Any = ChainAnswerer([slow]) if chained else slow
        assert scripted_answers(fast_asked, fast, requests) == await answer_round(slow_asked, requests, context)
        assert fast.used == slow.used == {"ask_region", "ask_ok"} and fast.unused() == slow.unused() == ["typo"]
        if chained:
            assert fast_asked.answered_by == {key: fast for key in requests}
    # What it cannot say at once is left to answer_round, nothing marked used: a missing key, a callable,
    # a value the SDK's model refuses, a script asked after another answerer.
    partials: list[Any] = [
        {"ask_region": {"region": "eu"}},
        {**given, "ask_ok": lambda request: {"ok": True}},
        {**given, "ask_ok": {"ok": {"deep": 1}}},
    ]
    for partial in partials:
        scripted = ScriptedAnswerer(partial)
        assert scripted_answers(scripted, scripted, requests) is None and scripted.used == set()
    scripted = ScriptedAnswerer(given)
    assert scripted_answers(ChainAnswerer([ScriptedAnswerer({}), scripted]), scripted, requests) is None
