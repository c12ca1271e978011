"""The HTTP exchange record: one request and its response, as every flow, lab and view shows it.

Spec context: 2026-07-28 Streamable HTTP. Each request repeats parts of its JSON-RPC body in headers
(`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, one `Mcp-Param-<Name>` per `x-mcp-header` argument) so
gateways can route without parsing JSON; the response is JSON or an SSE stream. One record serves servers
the lab serves and servers it only connects to (`mcp_lab.exchanges.recorder` records both the same way): headers in
the order and spelling sent (credentials redacted), the status, the JSON-RPC method, id and error, the
SSE events, which argument travelled in which header, and bodies capped with a visible `truncated` mark.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from mcp_lab.exchanges.bodies import BODY_CAP, body_dict, body_messages, rpc_facts, rpc_method_of
from mcp_lab.json_types import JsonObject
from mcp_lab.records.base import Clipped, Model

__all__ = [
    "BODY_CAP",
    "Body",
    "ExchangeFacts",
    "Header",
    "HttpExchange",
    "HttpRecords",
    "HttpRequestRecord",
    "HttpResponseRecord",
    "KeptExchange",
    "LegCapture",
    "ParamHeaderUsage",
    "RawHeader",
    "RpcError",
    "SseEvent",
    "body_dict",
    "body_messages",
    "decode_body",
    "exchange_facts",
    "exchange_record",
    "given_credentials",
    "hand_on_http",
    "keep_exchanges",
    "kept_exchanges",
    "redact",
    "redacted_pairs",
    "rpc_facts",
    "text_headers",
]

REDACTED = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key"})
"""Credentials never enter a record: the header stays visible, its value does not."""
GIVEN_CREDENTIALS: set[str] = set()
"""Lower-cased names of headers a person gave as a credential (`%mcp_connect --header`, `connect(headers=)`):
whatever their name, their values are recorded as `<redacted>` too (`keep_out_of_records`)."""


def keep_out_of_records(names: Iterable[str]) -> None:
    """Record these headers' values as `<redacted>` from now on (they were given as credentials)."""
    GIVEN_CREDENTIALS.update(name.lower() for name in names)


Header = tuple[str, str]
"""(name, value) as sent: names keep their spelling, the order is the wire order."""
RawHeader = tuple[bytes, bytes]
"""A header as httpx2 holds it (`Headers.raw`): kept undecoded until a record is built (Latin-1, as HTTP)."""


def text_headers(headers: Sequence[Header] | Sequence[RawHeader]) -> list[Header]:
    """Headers as text: raw byte pairs decoded as Latin-1 (every byte a character), text pairs as they are."""
    if headers and isinstance(headers[0][0], bytes):
        return [(k.decode("latin-1"), v.decode("latin-1")) for k, v in headers]  # type: ignore[union-attr]
    return list(headers)  # type: ignore[arg-type]


class SseEvent(Model):
    """One server-sent event; `data` is the JSON-RPC message when it parses."""

    event: str | None = None
    id: str | None = None
    data: Any = None


class Body(Model):
    """A message body: parsed JSON, SSE events, or text; `size` bytes crossed, the first `BODY_CAP` kept."""

    kind: Literal["empty", "json", "sse", "text"]
    content_type: str = ""
    size: int = 0
    truncated: bool = False
    value: Any = None
    """kind json: the parsed message (long strings clipped)."""
    events: list[SseEvent] = []
    """kind sse: the events seen so far (a stream may still be open when the leg ends)."""
    text: str | Clipped | None = None
    """kind text: the body as text."""

    def messages(self) -> list[Any]:
        """The JSON-RPC messages the body carries (one for JSON, one per event for SSE)."""
        if self.kind == "json":
            return [self.value]
        if self.kind == "sse":
            return [e.data for e in self.events]
        return []


class RpcError(Model):
    code: int | None = None
    message: str = ""


class ParamHeaderUsage(Model):
    """One `x-mcp-header` argument of a `tools/call`: the header it should travel in, and what was sent."""

    argument: str
    header: str
    value: Any = None
    sent: str | None = None
    decoded: Any = None
    expected: str | None = None
    encoding: str
    verdict: Literal["ok", "absent", "missing", "mismatch", "unexpected", "malformed", "duplicate"]
    reason: str | None = None
    """The server's -32020 message for a bad one."""


class HttpRequestRecord(Model):
    headers: list[Header] = []
    body: Body


class HttpResponseRecord(Model):
    status: int
    headers: list[Header] = []
    body: Body


class HttpExchange(Model):
    """One request/response pair of a leg."""

    method: str
    url: str
    path: str
    request: HttpRequestRecord
    response: HttpResponseRecord | None = None
    """None when no response arrived (a refused connection, a stream cut before its headers)."""
    rpc: str | None = None
    """`Mcp-Method`, else the body's JSON-RPC method, else `response #id` for a client's answer to a
    pre-2026 back-channel request."""
    rpc_id: int | str | None = None
    rpc_error: RpcError | None = None
    """The JSON-RPC error the response carried, if any."""
    param_headers: list[ParamHeaderUsage] = []
    seen_by: list[Literal["client", "server"]] = ["client"]
    elapsed_ms: float | None = None

    @property
    def status_text(self) -> str:
        return str(self.response.status) if self.response is not None else "no response"

    def request_header(self, name: str) -> str | None:
        lower = name.lower()
        return next((v for k, v in self.request.headers if k.lower() == lower), None)


def redact(headers: Sequence[tuple[str, str]]) -> list[Header]:
    hidden = REDACTED | GIVEN_CREDENTIALS
    return [(k, "<redacted>" if k.lower() in hidden else v) for k, v in headers]


def decode_body(raw: bytes, content_type: str, size: int | None = None) -> Body:
    """A body record from the bytes kept (at most `BODY_CAP`) of `size` bytes seen."""
    return Body.model_validate(body_dict(raw, content_type, size))


def redacted_pairs(headers: Sequence[tuple[str, str]], given: frozenset[str] | None = None) -> list[list[str]]:
    """`redact(headers)` as the record dumps it (each header a two-item list); `given`: the names given as
    credentials when the exchange was kept (`given_credentials`), else those given by now."""
    extra = GIVEN_CREDENTIALS if given is None else given
    hidden = REDACTED.union(extra) if extra else REDACTED
    return [[k, "<redacted>" if k.lower() in hidden else v] for k, v in headers]


def given_credentials() -> frozenset[str] | None:
    """The names given as credentials so far (None: none), as an exchange kept now is to be redacted."""
    return frozenset(GIVEN_CREDENTIALS) if GIVEN_CREDENTIALS else None


KeptExchange = tuple[
    str,  # method
    str,  # url
    str,  # path
    tuple[Header, ...] | tuple[RawHeader, ...],  # request headers, as sent (raw: decoded when built)
    bytes,  # request body
    str,  # request Content-Type
    str | None,  # Mcp-Method
    int | None,  # status (None: no response)
    tuple[Header, ...] | tuple[RawHeader, ...],  # response headers
    bytes,  # response body kept (at most BODY_CAP)
    str,  # response Content-Type
    int,  # response bytes seen
    tuple[str, ...],  # seen by
    float,  # elapsed ms, unrounded (rounded when the record is built: `round` formats the float as text)
    frozenset[str] | None,  # the names given as credentials by then (`given_credentials`)
    list[JsonObject] | None,  # the Mcp-Param-* usage worked out then (None: there can be none)
]
"""An exchange as a leg keeps it: what its record is built from, taken when the leg ended (so the record
built on a later first read is the one built then), of types `marshal` packs (flow/kept.py)."""


_NONE_GIVEN: frozenset[str] = frozenset()


def exchange_record(kept: KeptExchange) -> JsonObject:
    """The `HttpExchange` dump of a kept exchange, built directly as plain data (views validate it anyway;
    tests/exchanges hold the two equal)."""
    (method, url, path, sent, sent_body, sent_type, rpc_method, status, got, got_body, got_type, got_size,
     seen_by, elapsed_ms, given, usage) = kept  # fmt: skip
    request_body = body_dict(sent_body, sent_type)
    response: dict[str, Any] | None = None
    if status is not None:
        body = body_dict(got_body, got_type, got_size)
        response = {"status": status, "headers": redacted_pairs(text_headers(got), given or _NONE_GIVEN), "body": body}
    rpc_id, rpc_error = rpc_facts(request_body, response["body"] if response is not None else None)
    return {
        "method": method,
        "url": url,
        "path": path,
        "request": {"headers": redacted_pairs(text_headers(sent), given or _NONE_GIVEN), "body": request_body},
        "response": response,
        "rpc": rpc_method or rpc_method_of(request_body["value"]),
        "rpc_id": rpc_id,
        "rpc_error": rpc_error,
        "param_headers": [ParamHeaderUsage.model_validate(u).dump() for u in usage or ()],
        "seen_by": list(seen_by),
        "elapsed_ms": round(elapsed_ms, 2),
    }


class HttpRecords:
    """The `http` field of a `LegCapture` or a flow's `Round`: its exchanges' records (`HttpExchange` dumps).

    A leg hands its exchanges over in their kept form (`KeptExchange`); the first read builds the records and
    keeps them instead. Most legs' exchanges are never read -- a caller reads the flow's result, a kernel
    keeps its finished flows packed -- and building the records was most of what recording a leg cost.
    Assigning a list keeps that very list, as a plain field would.
    """

    __slots__ = ("name",)

    def __init__(self) -> None:
        self.name = "http"

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: object, owner: type | None = None) -> list[JsonObject]:
        if instance is None:
            return ()  # type: ignore[return-value]  # the dataclass field's default: no exchanges (immutable)
        state = instance.__dict__
        value = state.get(self.name, ())
        if isinstance(value, list):
            return value
        built = [exchange_record(kept) for kept in value]
        state[self.name] = built
        return built

    def __set__(self, instance: object, value: tuple[KeptExchange, ...] | list[JsonObject]) -> None:
        state = instance.__dict__
        state[self.name] = value

    def held(self, instance: object) -> tuple[KeptExchange, ...] | list[JsonObject]:
        """The field as `instance` holds it: still kept (a tuple of `KeptExchange`) or built (a list)."""
        value: tuple[KeptExchange, ...] | list[JsonObject] = instance.__dict__.get(self.name, ())
        return value


_HTTP = HttpRecords()
"""The `http` field of whichever class, for the functions below."""


def hand_on_http(source: object, target: object) -> None:
    """`target.http = source.http` without building the records: they are built when `target.http` is read.
    Both dicts read directly (the descriptor's `held` and `__set__` do no more): every leg hands its exchanges on,
    most legs none, onto a round that holds none either -- then nothing is written."""
    name = _HTTP.name
    value = source.__dict__.get(name, ())
    state = target.__dict__
    if value or state.get(name, ()):
        state[name] = value


def kept_exchanges(holder: object) -> tuple[KeptExchange, ...] | None:
    """`holder.http` still in its kept form (None: its records were built, read them instead)."""
    value = _HTTP.held(holder)
    return None if isinstance(value, list) else value


ExchangeFacts = tuple[str | None, int | None, list[Header]]
"""What a leg's recorder may ask of an exchange without building its record: its `rpc`, the response's status
(None: no response) and the response's headers, each as the record holds it."""


def exchange_facts(holder: object) -> list[ExchangeFacts]:
    """The `ExchangeFacts` of `holder.http`'s exchanges, read from their kept form when it is still kept (the
    records stay unbuilt), else from the records."""
    kept = kept_exchanges(holder)
    if kept is None:
        built: list[JsonObject] = getattr(holder, _HTTP.name)
        facts: list[ExchangeFacts] = []
        for record in built:
            response = record.get("response")
            got = response if isinstance(response, dict) else {}
            pairs = got.get("headers")
            headers = [(str(p[0]), str(p[1])) for p in pairs if isinstance(p, list)] if isinstance(pairs, list) else []
            rpc, status = record.get("rpc"), got.get("status")
            facts.append((rpc if isinstance(rpc, str) else None, status if isinstance(status, int) else None, headers))
        return facts
    return [
        (
            exchange[6] or rpc_method_of(body_dict(exchange[4], exchange[5])["value"]),
            exchange[7],
            _response_headers(exchange),
        )
        for exchange in kept
    ]


def _response_headers(exchange: KeptExchange) -> list[Header]:
    """The response headers as the record will hold them (redacted alike), as pairs."""
    if exchange[7] is None:
        return []
    return [(k, v) for k, v in redacted_pairs(text_headers(exchange[8]), exchange[14] or _NONE_GIVEN)]


def keep_exchanges(holder: object, exchanges: tuple[KeptExchange, ...]) -> None:
    """Add kept exchanges to `holder.http`: kept as they are, unless its records were built (read) already."""
    value = _HTTP.held(holder)
    if isinstance(value, list):
        value.extend(exchange_record(kept) for kept in exchanges)
    else:
        _HTTP.__set__(holder, value + exchanges)


@dataclass(init=False)
class LegCapture:
    """What a connection observed during one leg besides the JSON-RPC result."""

    http: list[JsonObject] = HttpRecords()  # type: ignore[assignment]  # a list whenever read: HttpRecords
    """HTTP exchanges (Streamable HTTP connections only)."""
    server_log: list[str] = field(default_factory=list)
    """The server's logged reasons (e.g. why requestState was rejected), for servers the lab owns."""
    served_by: str | None = None
    """Which instance handled the leg, when the connection is a fleet behind a router."""

    def __init__(
        self,
        http: tuple[KeptExchange, ...] | list[JsonObject] = (),
        server_log: list[str] | None = None,
        served_by: str | None = None,
    ) -> None:
        # Every leg makes one: the fields written straight into the instance's dict (the generated __init__
        # went through the http descriptor's __set__ and the list factory: a fifth of a stdio leg's recording).
        state = self.__dict__
        state["http"] = http
        state["server_log"] = [] if server_log is None else server_log
        state["served_by"] = served_by
