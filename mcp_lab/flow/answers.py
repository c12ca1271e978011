"""Answerers: who fills in the `input_requests` of an `InputRequiredResult`.

Spec: 2026-07-28 multi round-trip requests (SEP-2322). Each key of `input_requests` must come back
under the same key of `input_responses`; the payloads are the same ElicitRequest / CreateMessageRequest
/ ListRootsRequest the pre-2026 back channel carried. mcp_lab separates *who answers* (this module: a
script, the SDK's own callbacks, or -- in `mcp_lab.forms` -- a person) from *the loop* (`flow.py`), so
the same flow engine can be driven by any of them.

No widgets here: forms build on the `Answerer` protocol from outside.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import mcp.types as T
from mcp.client import ClientRequestContext
from mcp.client.session import ClientSession

from mcp_lab.bounded_json import check_text
from mcp_lab.errors import LabError
from mcp_lab.json_types import JsonValue

__all__ = [
    "AnswerContext",
    "Answerer",
    "CallbackAnswerer",
    "CallbackRefused",
    "ChainAnswerer",
    "ScriptedAnswerer",
    "Unanswered",
    "cancel",
    "decline",
    "request_kind",
    "to_input_response",
]

InputResponse = T.CreateMessageResult | T.CreateMessageResultWithTools | T.ListRootsResult | T.ElicitResult


class Unanswered(LookupError):
    """An answerer has no answer for this key; a `ChainAnswerer` then asks the next one."""


@dataclass(frozen=True)
class AnswerContext:
    """What an answerer may know about the question besides the request itself."""

    server: str
    """The sandbox name of the server asking (forms show it with a trust note)."""
    method: str
    """`tools/call`, `prompts/get` or `resources/read`."""
    target: str
    """Tool or prompt name, or resource URI."""
    round_index: int
    """Which leg of the flow produced the request (0-based)."""
    session: ClientSession | None = None
    """The client session, for SDK-style callbacks that expect a `ClientRequestContext`."""
    backchannel: bool = False
    """A 2025-11-25 server->client request: its key is a JSON-RPC id, not the server's input-request key."""
    flow: Any = None
    """The `Flow` asking, when there is one: a non-blocking answerer (a form on a kernel that cannot
    deliver widget events while a cell waits) uses it to continue the flow once the person answers."""

    @classmethod
    def of(
        cls,
        server: str,
        method: str,
        target: str,
        round_index: int,
        session: ClientSession | None = None,
        *,
        backchannel: bool = False,
        flow: Any = None,
    ) -> AnswerContext:
        """The context `AnswerContext(...)` makes, equal to it in every way, built without the frozen
        dataclass's one `object.__setattr__` per field (every round a flow answers makes one)."""
        context = object.__new__(cls)
        context.__dict__.update(
            server=server,
            method=method,
            target=target,
            round_index=round_index,
            session=session,
            backchannel=backchannel,
            flow=flow,
        )
        return context


@runtime_checkable
class Answerer(Protocol):
    """One input-request key and its request in, one InputResponse out (or `Unanswered`)."""

    async def answer(self, key: str, request: T.InputRequest, context: AnswerContext) -> InputResponse: ...


def request_kind(request: T.InputRequest) -> str:
    """`elicitation`, `sampling` or `roots`: the three kinds of question a server can embed."""
    kind = type(request)  # the exact type first: pydantic's isinstance is a call of its own (every answer asks)
    if kind is T.ElicitRequest:
        return "elicitation"
    if kind is T.CreateMessageRequest:
        return "sampling"
    if isinstance(request, T.ElicitRequest):
        return "elicitation"
    if isinstance(request, T.CreateMessageRequest):
        return "sampling"
    return "roots"


def decline() -> T.ElicitResult:
    """The user said no: `ElicitResult(action="decline")`."""
    return T.ElicitResult(action="decline")


def cancel() -> T.ElicitResult:
    """The user dismissed the question: `ElicitResult(action="cancel")`."""
    return T.ElicitResult(action="cancel")


def _roots(value: Sequence[object]) -> T.ListRootsResult:
    roots: list[T.Root] = []
    for item in value:
        if isinstance(item, T.Root):
            roots.append(item)
        elif isinstance(item, str):
            roots.append(T.Root(uri=item))  # type: ignore[arg-type]
        elif isinstance(item, Mapping):
            roots.append(T.Root.model_validate(item))
        else:
            raise LabError(f"a root must be a file:// URI string or a dict with 'uri' and 'name', not {item!r}")
    return T.ListRootsResult(roots=roots)


_RESULT_TYPES = (T.ElicitResult, T.CreateMessageResult, T.CreateMessageResultWithTools, T.ListRootsResult)


def to_input_response(key: str, request: T.InputRequest, value: object) -> InputResponse:
    """Turn a scripted answer into the InputResponse the request's kind needs.

    dict -> accepted elicitation content; `decline()` / `cancel()` -> those actions; str -> the assistant's
    reply to a sampling request; list -> roots. SDK result objects pass through unchanged.
    """
    kind = request_kind(request)
    if type(value) is dict and kind == "elicitation":  # the common case, told without the isinstance calls below
        return T.ElicitResult(action="accept", content=dict(value))
    if isinstance(value, _RESULT_TYPES):
        expected = {"elicitation": T.ElicitResult, "sampling": T.CreateMessageResult, "roots": T.ListRootsResult}[kind]
        if kind == "sampling" and isinstance(value, T.CreateMessageResultWithTools):
            return value
        if not isinstance(value, expected):
            raise LabError(f"answer for {key!r} is a {type(value).__name__}, but the server asked a {kind} question")
        return value
    if kind == "elicitation":
        if isinstance(value, Mapping):
            return T.ElicitResult(action="accept", content=dict(value))
        raise LabError(
            f"answer for {key!r} must be a dict of form fields, mcp_lab.decline() or mcp_lab.cancel(), not {value!r}"
        )
    if kind == "sampling":
        if isinstance(value, str):
            return T.CreateMessageResult(
                role="assistant",
                content=T.TextContent(type="text", text=value),
                model="mcp-lab-script",
                stop_reason="endTurn",
            )
        raise LabError(f"answer for {key!r} (a sampling request) must be the assistant's reply as a string")
    if isinstance(value, list | tuple):
        return _roots(value)
    raise LabError(f"answer for {key!r} (a roots request) must be a list of file:// URIs or dicts")


@dataclass
class ScriptedAnswerer:
    """Answers keyed by input-request key (or the bare resolver name); records which keys were used."""

    answers: Mapping[str, JsonValue]
    used: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        answers = self.answers
        if type(answers) is not dict and not isinstance(answers, Mapping):
            raise LabError(f"answers must be a dict keyed by input-request key, not {type(answers).__name__}")
        # Checked before anything is sent: a key no question can match would otherwise surface only after
        # the live form waited (and a non-string key breaks naming the unused ones).
        for wrong in answers:  # a loop, not next() over a generator: every call with answers checks them
            if type(wrong) is not str and not isinstance(wrong, str):
                raise LabError(
                    f"answers are keyed by input-request key (a string such as 'ask_region'), not {wrong!r} "
                    f"({type(wrong).__name__})"
                )
        check_text(list(answers.values()), "the answers")

    def lookup(self, key: str) -> tuple[str, Any] | None:
        """The answer given for `key`, and the name it was given under: the exact key first; for resolver keys
        (`module:qualname`), the qualname and the resolver's bare name -- the last segment, as the forms show
        it -- whatever the qualname (`make_server.<locals>.ask_size`), and without the `#1` the SDK adds to a
        second closure of one factory. Asked in that order without building a list of names (every
        question asks)."""
        answers = self.answers
        if key in answers:
            return key, answers[key]
        if ":" not in key:
            return None
        qualname = key.rsplit(":", 1)[1]
        bare = qualname.rsplit(".", 1)[-1]
        for name in (qualname, bare, bare.split("#", 1)[0]):
            if name in answers:
                return name, answers[name]
        return None

    async def answer(self, key: str, request: T.InputRequest, context: AnswerContext) -> InputResponse:
        found = self.lookup(key)
        if found is None and context.backchannel:
            # The pre-2026 back channel names no question, only a JSON-RPC id: use the answers in order.
            unused = [k for k in self.answers if k not in self.used]
            found = (unused[0], self.answers[unused[0]]) if unused else None
        if found is None:
            raise Unanswered(key)
        name, value = found
        if callable(value):
            value = value(request)
            if inspect.isawaitable(value):
                value = await value
        self.used.add(name)
        return to_input_response(key, request, value)

    def answer_now(self, requests: Mapping[str, T.InputRequest]) -> dict[str, InputResponse] | None:
        """Every request's answer at once, when each was given as a plain value that fits its question (the
        common script); else None, and nothing is marked used: `answer` then answers one by one, and says
        what is missing or wrong."""
        responses: dict[str, InputResponse] = {}
        names: list[str] = []
        for key, request in requests.items():
            found = self.lookup(key)
            if found is None or callable(found[1]):
                return None
            try:
                responses[key] = to_input_response(key, request, found[1])
            except Exception:  # e.g. form fields the SDK's model refuses: `answer` raises it again, and it is said
                return None
            names.append(found[0])
        self.used.update(names)
        return responses

    def unused(self) -> list[str]:
        """Keys given that no request matched: usually a typo or a question the server no longer asks."""
        if len(self.used) == len(self.answers):  # each used answer is a key given: every one was used
            return []
        return sorted(set(self.answers) - self.used)


ElicitationCallback = Callable[[ClientRequestContext, T.ElicitRequestParams], Awaitable[Any]]
SamplingCallback = Callable[[ClientRequestContext, T.CreateMessageRequestParams], Awaitable[Any]]
ListRootsCallback = Callable[[ClientRequestContext], Awaitable[Any]]


@dataclass
class CallbackAnswerer:
    """The SDK's own `elicitation_callback` / `sampling_callback` / `list_roots_callback`, unchanged.

    The same callbacks serve the pre-2026 back channel and 2026-07-28 embedded requests; here they see
    `ctx.request_id` equal to the input-request key (2026-07-28) or the JSON-RPC id (2025-11-25), exactly
    as under `Client`.
    """

    elicitation_callback: ElicitationCallback | None = None
    sampling_callback: SamplingCallback | None = None
    list_roots_callback: ListRootsCallback | None = None

    def __post_init__(self) -> None:
        for name in ("elicitation_callback", "sampling_callback", "list_roots_callback"):
            value = getattr(self, name)
            if value is not None and not callable(value):
                raise LabError(f"{name}= is an async function (the SDK's callback), not {type(value).__name__}")

    async def answer(self, key: str, request: T.InputRequest, context: AnswerContext) -> InputResponse:
        if context.session is None:
            raise LabError("callback answerers need a live client session")
        meta = request.params.meta if request.params is not None else None
        # A back-channel request's key is its JSON-RPC id, which the SDK hands callbacks as sent (an int).
        request_id: str | int = int(key) if context.backchannel and key.isdigit() else key
        ctx = ClientRequestContext(session=context.session, request_id=request_id, meta=meta)
        result: Any
        if isinstance(request, T.ElicitRequest):
            if self.elicitation_callback is None:
                raise Unanswered(key)
            result = await self.elicitation_callback(ctx, request.params)
        elif isinstance(request, T.CreateMessageRequest):
            if self.sampling_callback is None:
                raise Unanswered(key)
            result = await self.sampling_callback(ctx, request.params)
        else:
            if self.list_roots_callback is None:
                raise Unanswered(key)
            result = await self.list_roots_callback(ctx)
        if isinstance(result, T.ErrorData):
            raise CallbackRefused(key, result)
        return to_input_response(key, request, result)


class CallbackRefused(Exception):
    """A callback returned `ErrorData`: the SDK aborts the loop with that error; so does the flow."""

    def __init__(self, key: str, error: T.ErrorData) -> None:
        super().__init__(f"answer for {key!r} refused: {error.code} {error.message}")
        self.key = key
        self.error = error


@dataclass
class ChainAnswerer:
    """Ask each answerer in turn; the first that does not raise `Unanswered` answers."""

    answerers: list[Answerer]
    answered_by: dict[str, Answerer] = field(default_factory=dict)
    """Which answerer gave the latest answer for each key (the flow's timeline labels it)."""

    def __post_init__(self) -> None:
        if not isinstance(self.answerers, list | tuple) or not all(
            callable(getattr(a, "answer", None)) for a in self.answerers
        ):
            raise LabError("ChainAnswerer takes a list of answerers (each with an async answer(key, request, context))")
        self.answerers = list(self.answerers)

    @classmethod
    def of(cls, answerers: list[Answerer]) -> ChainAnswerer:
        """A chain of answerers the lab itself checked (the call's scripted answers, the registered
        fallbacks), without checking them again on every call."""
        chain = object.__new__(cls)
        chain.answerers = answerers
        chain.answered_by = {}
        return chain

    async def answer(self, key: str, request: T.InputRequest, context: AnswerContext) -> InputResponse:
        for answerer in self.answerers:
            try:
                response = await answerer.answer(key, request, context)
            except Unanswered:
                continue
            self.answered_by[key] = answerer
            return response
        raise Unanswered(key)
