"""One leg of a multi round-trip request as plain data (`Round`), and what a leg is sent over (`Connection`).

Spec: 2026-07-28 multi round-trip requests (SEP-2322). Each leg sends a request -- with the previous leg's
`input_responses` and `request_state` echoed byte for byte -- and gets back an `InputRequiredResult`, a
final result or an error. A `Round` records one such leg as JSON, so a flow can be written down between
legs and resumed elsewhere; the SDK models a leg was sent or received as are kept beside the record, never
in it. Its own module so the leg sender (legs.py) and the flow (flow.py) both build on it, one way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol

import mcp.types as T
from mcp.client.session import ClientSession

import mcp_lab.view_registry as view_registry
from mcp_lab.exchanges.record import LegCapture
from mcp_lab.flow.answers import InputResponse
from mcp_lab.protocol.codes import INVALID_PARAMS

__all__ = [
    "START_OVER_HINT",
    "Connection",
    "LegCapture",
    "Request",
    "Round",
]

_REQUEST_MODELS = "_request_models"
_RESPONSE_MODELS = "_response_models"
"""Where a Round keeps SDK models beside its fields (so `asdict` and the record never see them)."""

START_OVER_HINT = "start it over with `await mcp_lab.resume(flow)`"
"""What a flow that failed on a refused token says (new keys after a restart, expired, altered): the seeds'
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


@dataclass
class Round:
    """One leg: what the client sent and what came back."""

    index: int
    sent_input_responses: dict[str, Any] | None = None
    """Wire form of the answers sent with this leg (to the previous leg's input_requests)."""
    sent_request_state: str | None = None
    """The token echoed exactly as it was on the wire."""
    answered_by: dict[str, str] = field(default_factory=dict)
    """Which answerer produced each answer (script, callback, form, ...)."""
    outcome: Literal["input_required", "result", "error"] = "result"
    input_requests: dict[str, Any] | None = None
    request_state: str | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    backoff: float = 0.0
    """Seconds slept before this leg because the previous one carried state only."""
    started: float = 0.0
    elapsed: float = 0.0
    relisted: bool = False
    """The server answered -32020 (header mismatch); tools were re-listed and the leg resent once."""
    started_over: bool = False
    """The previous leg's state was rejected, so this leg sent the original request afresh (the seeds'
    advice: on the frozen -32602 a client starts the flow over)."""
    served_by: str | None = None
    http: list[dict[str, Any]] = field(default_factory=list)
    server_log: list[str] = field(default_factory=list)
    backchannel: list[dict[str, Any]] = field(default_factory=list)
    """Pre-2026 era only: server-to-client requests sent during the leg, with the answers given."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

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
    def from_dict(cls, data: Mapping[str, Any]) -> Round:
        from mcp_lab.flow.check import checked_round

        return cls(**checked_round(data))

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

    def keep_response_models(self, models: Mapping[str, Any]) -> None:
        """Keep the answers sent with this leg as the SDK models they were sent as (not part of the record)."""
        self.__dict__[_RESPONSE_MODELS] = dict(models)

    def drop_models(self) -> None:
        """Forget the kept SDK models once no leg can be sent from this one (the flow ended): the record
        holds everything, and a kernel keeps a thousand flows, each of whose objects the collector visits."""
        self.__dict__.pop(_REQUEST_MODELS, None)
        self.__dict__.pop(_RESPONSE_MODELS, None)

    def response_models(self) -> dict[str, Any] | None:
        """The answers kept by `keep_response_models`, if this process sent them."""
        models: dict[str, Any] | None = self.__dict__.get(_RESPONSE_MODELS)
        return models

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return view_registry.bundle(self)


class Request(Protocol):
    """What a leg needs to know of its flow: the request it repeats, to which server, in which era."""

    server: str
    method: str
    target: str
    arguments: dict[str, Any]
    era: str
