"""One leg of a multi round-trip request as plain data (`Round`), and what a leg is sent over (`Connection`).

Spec: 2026-07-28 multi round-trip requests (SEP-2322). Each leg sends a request -- with the previous leg's
`input_responses` and `request_state` echoed byte for byte -- and gets back an `InputRequiredResult`, a
final result or an error. A `Round` records one such leg as JSON, so a flow can be written down between
legs and resumed elsewhere; the SDK models a leg was sent or received as are kept beside the record, never
in it. Its own module so the leg sender (legs.py) and the flow (flow.py) both build on it, one way.
"""

from __future__ import annotations

import functools
import json
import re
import reprlib
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal, Protocol, TypeVar

import mcp.types as T
from mcp.client.session import ClientSession
from pydantic import TypeAdapter, ValidationError

import mcp_lab.bounded_json as bounded_json
import mcp_lab.view_registry as view_registry
from mcp_lab.bounded_json import RECORD_DEPTH
from mcp_lab.errors import LabError
from mcp_lab.exchanges.record import HttpRecords, LegCapture
from mcp_lab.flow.answers import InputResponse
from mcp_lab.flow.leg_data import BackchannelEntry, LegError
from mcp_lab.json_types import JsonObject, JsonValue
from mcp_lab.protocol.codes import INVALID_PARAMS
from mcp_lab.protocol.eras import LEGACY, MODERN
from mcp_lab.protocol.limits import MAX_FLOW_ROUNDS, check_saved_size

__all__ = [
    "START_OVER_HINT",
    "Connection",
    "LegCapture",
    "Request",
    "Round",
    "saved_json",
    "short",
]

_REQUEST_MODELS = "_request_models"
_RESPONSE_MODELS = "_response_models"
"""Where a Round keeps SDK models beside its fields (so `asdict` and the record never see them)."""

class _Short(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxstring = self.maxother = 48
        self.maxdict = self.maxlist = self.maxtuple = self.maxset = 3
        self.maxlevel = 2


def short(value: object) -> str:
    """`repr(value)` within about a hundred characters (long text clipped, big containers elided): a record
    with one 40,000-character argument must not print 40 KB wherever it is repr'd (a list, a debugger)."""
    return _Short().repr(value)


def short_repr(kind: str, legs: int, **fields: object) -> str:
    """`Kind(name=short(value), ..., N legs)`: a record's repr, bounded whatever its fields hold."""
    shown = ", ".join(f"{name}={short(value)}" for name, value in fields.items())
    return f"{kind}({shown}, {legs} leg{'s' if legs != 1 else ''})"


START_OVER_HINT = "start it over with `await mcp_lab.resume(flow)`"
"""What a flow that failed on a refused token says (new keys after a restart, expired, altered): the SDK docs'
advice on the frozen -32602 is to start over, and `resume` sends the original request afresh."""


class Connection(Protocol):
    """How a flow reaches its server: the sandbox (or an outside connection) implements this."""

    name: str

    async def session(self, era: str) -> ClientSession: ...

    def capture(self) -> AbstractContextManager[LegCapture]: ...

    def legacy_session(
        self, answer: Callable[[str, T.InputRequest], Awaitable[InputResponse | T.ErrorData]]
    ) -> AbstractAsyncContextManager[ClientSession]:
        """A 2025-11-25 session whose back-channel requests go to `answer` (one per leg)."""
        ...


_Saved = TypeVar("_Saved")


@functools.cache
def _adapter(kind: type[Any]) -> TypeAdapter[Any]:
    return TypeAdapter(kind)  # built once per class: pydantic compiles the dataclass's validator here


def from_saved(kind: type[_Saved], data: Mapping[str, object], where: str) -> _Saved:
    """A dataclass (`Round`, `Flow`) from saved plain data, each field checked against the class's own
    annotations by pydantic in strict mode, as strict as JSON itself (a bool is no number, "3" no int): the
    dataclass is the one declaration of what a saved flow holds. Anything malformed is one `LabError` line."""
    try:
        text = json.dumps(dict(data), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise LabError(f"{where}: holds a value a saved flow cannot ({exc})") from None
    try:
        adapter = _adapter(kind)  # type: ignore[arg-type]  # a class is hashable; the TypeVar hides it from mypy
        saved: _Saved = adapter.validate_json(text, strict=True)
    except ValidationError as exc:
        raise LabError(validation_line(exc, kind)) from None
    return saved


_WANTED = {
    "int_type": "int",
    "int_from_float": "int",
    "string_type": "str",
    "bool_type": "bool",
    "float_type": "int or float",
    "dict_type": "dict",
    "list_type": "list",
}
"""What a field of a saved flow must be, by pydantic's error type, in the words of Python's own types."""


class _SavedFlow(Protocol):
    era: str
    max_rounds: int
    rounds: list[Round]


_Flow = TypeVar("_Flow", bound=_SavedFlow)


def read_saved(kind: type[_Flow], data: Mapping[str, object]) -> _Flow:
    """A saved flow, within the bounds a file may hold (checked before anything is validated), each field
    as its dataclass declares it, then what the annotations do not say (`check_saved_values`)."""
    check_saved_size(data)
    flow = from_saved(kind, data, "flow")
    check_saved_values(flow.era, flow.max_rounds, flow.rounds)
    return flow


def saved_json(text: str) -> Mapping[str, object]:
    """The plain data of a saved flow's text (`flow.to_json()`), within the depth a record may have: what is
    not one is one `LabError` line."""
    if not isinstance(text, str):
        raise LabError(f"a saved flow is the text of flow.to_json(), not {type(text).__name__}")
    try:
        data = bounded_json.loads(text, "the saved flow is", RECORD_DEPTH)
    except json.JSONDecodeError as exc:
        raise LabError(f"not a saved flow (invalid JSON: {exc.msg} at position {exc.pos})") from None
    if not isinstance(data, dict) or not {"server", "method", "target"} <= data.keys():
        raise LabError("not a saved flow: expected a JSON object with server, method, target and rounds")
    return data


def check_saved_values(era: str, max_rounds: int, rounds: list[Round]) -> None:
    """What the annotations do not say of a saved flow: a known era, the round cap within its bounds, and
    questions that parse as the SDK's input requests."""
    if era not in (MODERN, LEGACY):
        raise LabError(f"flow: era must be {MODERN} or {LEGACY}, not {era!r}")
    if max_rounds < 0:
        raise LabError(f"flow: max_rounds must be >= 0, not {max_rounds}")
    if max_rounds > MAX_FLOW_ROUNDS:
        raise LabError(f"flow: max_rounds must be at most {MAX_FLOW_ROUNDS}, not {max_rounds}")
    for index, rnd in enumerate(rounds):
        rnd.check_requests(f"round {index}")


def validation_line(exc: ValidationError, kind: type) -> str:
    """pydantic's first complaint about saved `kind` data as one line: where, what it must be, what it is."""
    errors = exc.errors()
    if not errors:
        return str(exc).splitlines()[0]
    first = errors[0]
    loc = list(first["loc"])
    where = "flow" if kind.__name__ == "Flow" else "round"
    if len(loc) >= 2 and loc[0] == "rounds" and isinstance(loc[1], int):
        where, loc, kind = f"round {loc[1]}", loc[2:], Round
    got = first.get("input")
    shown = "null" if got is None else type(got).__name__
    name = ".".join(str(p) for p in loc)
    if not loc:
        return f"{where} must be an object, not {shown}"
    if first["type"] == "missing":
        return f"{where}: {name!r} is missing"
    if first["type"] == "literal_error":
        allowed = ", ".join(re.findall(r"'([^']*)'", str((first.get("ctx") or {}).get("expected", ""))))
        return f"{where}: {name} must be one of {allowed}, not {got!r}"
    if loc[0] == "sent_input_responses" and len(loc) == 2:
        return f"{where}: the answer sent for {loc[1]!r} must be an object, not {shown}"
    wanted = _WANTED.get(first["type"])
    if wanted is None:
        return f"{where}: {name}: {first['msg']}"
    declared = next((f.type for f in fields(kind) if f.name == loc[0]), "")
    nullable = len(loc) == 1 and isinstance(declared, str) and declared.endswith("| None")
    return f"{where}: {name!r} must be {wanted}{' or null' if nullable else ''}, not {shown}"


def _sdk_line(exc: ValidationError) -> str:
    first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": str(exc)}
    loc = ".".join(str(p) for p in first.get("loc", ()))
    return f"{first.get('msg', 'invalid')}" + (f" at {loc}" if loc else "")


@dataclass
class Round:
    """One leg: what the client sent and what came back."""

    index: int
    sent_input_responses: dict[str, JsonObject] | None = None
    """Wire form of the answers sent with this leg (to the previous leg's input_requests)."""
    sent_request_state: str | None = None
    """The token echoed exactly as it was on the wire."""
    answered_by: dict[str, str] = field(default_factory=dict)
    """Which answerer produced each answer (script, callback, form, ...)."""
    outcome: Literal["input_required", "result", "error"] = "result"
    input_requests: dict[str, Any] | None = None
    request_state: str | None = None
    result: JsonObject | None = None
    error: LegError | None = None
    backoff: float = 0.0
    """Seconds slept before this leg because the previous one carried state only."""
    started: float = 0.0
    elapsed: float = 0.0
    relisted: bool = False
    """The server answered -32020 (header mismatch); tools were re-listed and the leg resent once."""
    started_over: bool = False
    """The previous leg's state was rejected, so this leg sent the original request afresh (the SDK docs'
    advice: on the frozen -32602 a client starts the flow over)."""
    served_by: str | None = None
    http: list[JsonObject] = HttpRecords()  # type: ignore[assignment]  # noqa: RUF009  # a list when read
    """The leg's HTTP exchanges (`HttpExchange` dumps), built from their kept form on first read."""
    server_log: list[str] = field(default_factory=list)
    backchannel: list[BackchannelEntry] = field(default_factory=list)
    """Pre-2026 era only: server-to-client requests sent during the leg, with the answers given."""

    def to_dict(self) -> JsonObject:
        return asdict(self)

    @classmethod
    def blank(cls, index: int) -> Round:
        """`Round(index=index)`, equal to it in every way (the same fields in the same order, fresh
        containers), made by copying a blank round's fields instead of running the dataclass's `__init__`
        of eighteen fields (every leg makes one)."""
        rnd = object.__new__(cls)
        state = _BLANK.copy()
        state["index"] = index
        state["answered_by"] = {}
        state["server_log"] = []
        state["backchannel"] = []
        rnd.__dict__ = state
        return rnd

    @property
    def state_rejected(self) -> bool:
        """The server refused the echoed request_state (the one frozen wire error for every reason)."""
        return (
            self.outcome == "error"
            and (self.error or {}).get("code") == INVALID_PARAMS
            and ((self.error or {}).get("message") == "Invalid or expired requestState")
        )

    @property
    def transport_failed(self) -> bool:
        """The leg never got an answer (connection refused or closed): the flow is retryable from here."""
        return self.outcome == "error" and (self.error or {}).get("where") == "transport"

    @classmethod
    def from_dict(cls, data: Mapping[str, JsonValue], where: str = "round") -> Round:
        """A round from plain data, validated against this dataclass's own fields (see `from_saved`)."""
        if not isinstance(data, Mapping):
            raise LabError(f"{where} must be an object, not {type(data).__name__}")
        rnd = from_saved(cls, data, where)
        rnd.check_requests(where)
        return rnd

    def check_requests(self, where: str) -> None:
        """Saved questions must parse as the SDK's input requests (they are answered from that form)."""
        if self.input_requests:
            try:
                T.InputRequiredResult.model_validate({"inputRequests": self.input_requests, "resultType": "input_required"})
            except ValidationError as exc:
                raise LabError(f"{where}: its input requests are malformed: {_sdk_line(exc)}") from None

    def requests(self) -> dict[str, T.InputRequest]:
        """This leg's input requests as SDK models (kept from the wire when this process received them)."""
        models: dict[str, T.InputRequest] | None = self.__dict__.get(_REQUEST_MODELS)
        if models is not None:
            return models
        if not self.input_requests:
            return {}
        parsed = T.InputRequiredResult.model_validate(
            {"inputRequests": self.input_requests, "resultType": "input_required"}
        )
        return dict(parsed.input_requests or {})

    def keep_request_models(self, models: Mapping[str, T.InputRequest]) -> None:
        """Keep the SDK models of this leg's input requests as received (not part of the record)."""
        self.__dict__[_REQUEST_MODELS] = dict(models)

    def keep_response_models(self, models: Mapping[str, InputResponse]) -> None:
        """Keep the answers sent with this leg as the SDK models they were sent as (not part of the record)."""
        self.__dict__[_RESPONSE_MODELS] = dict(models)

    def drop_models(self) -> None:
        """Forget the kept SDK models once no leg can be sent from this one (the next leg answered its questions,
        or the flow ended with it): the record holds everything, and a kernel keeps a thousand flows, each of
        whose objects the collector visits."""
        self.__dict__.pop(_REQUEST_MODELS, None)
        self.__dict__.pop(_RESPONSE_MODELS, None)

    def response_models(self) -> dict[str, InputResponse] | None:
        """The answers kept by `keep_response_models`, if this process sent them."""
        models: dict[str, InputResponse] | None = self.__dict__.get(_RESPONSE_MODELS)
        return models

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> JsonObject:
        return view_registry.bundle(self)

    def __repr__(self) -> str:
        """Short and bounded (the dataclass's repr printed every field in full); the view shows the leg."""
        asked = f", input_requests={len(self.input_requests)}" if self.input_requests else ""
        return f"Round(index={self.index!r}, outcome={short(self.outcome)}{asked}, elapsed={self.elapsed:.3f})"


_BLANK = Round(index=0).__dict__
"""The fields of a blank round, in their order, copied by `Round.blank` (its containers replaced)."""


class Request(Protocol):
    """What a leg needs to know of its flow: the request it repeats, to which server, in which era."""

    server: str
    method: str
    target: str
    arguments: JsonObject
    era: str
