"""Recording what crosses the loopback HTTP connection, leg by leg, from both ends.

Spec context: on 2026-07-28 Streamable HTTP every request is one POST whose headers repeat parts of the
body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, and an `Mcp-Param-<Name>` for each argument marked
`x-mcp-header`) so that gateways can route without parsing JSON. The lab shows those exchanges: the client
side through httpx2 event hooks (what the SDK sent: method, URL, headers, body; the status and headers that
came back), the server side through an ASGI wrapper (the body it sent back, chunk by chunk, without ever
delaying a stream -- a pre-2026 back-channel elicitation travels inside a response that must stay open).

Attribution. A flow's leg runs inside `leg_scope(capture)`, which sets a context variable. The SDK carries
the sender's context to the task that POSTs (its context streams), so the request hook knows the leg even
when several flows share one client concurrently. The hook then tags the request with one extra header,
`x-mcp-lab-exchange`, so the server thread -- which has no access to the kernel's context -- finds the same
exchange record; the wrapper removes the tag before the app sees the request, and recorded headers omit
it. It is the only thing the lab adds to the wire. The server thread also sets the leg in its own context,
so log records the server emits while handling the request (its request_state rejection reasons) reach
that leg and no other.
"""

from __future__ import annotations

import contextvars
import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcp_lab.flow import LegCapture

if TYPE_CHECKING:
    import httpx2

__all__ = ["TAG_HEADER", "Exchange", "ExchangeRecorder", "SchemaBook", "current_capture", "http_hooks", "leg_scope"]

TAG_HEADER = "x-mcp-lab-exchange"
_TAG_BYTES = TAG_HEADER.encode()
BODY_LIMIT = 256 * 1024
"""Bodies are kept up to this many bytes (a listing of many tools still fits; a runaway stream does not)."""


class _Leg:
    __slots__ = ("capture", "exchanges", "open")

    def __init__(self, capture: LegCapture) -> None:
        self.capture = capture
        self.exchanges: list[Exchange] = []
        self.open = True


_LEG: contextvars.ContextVar[_Leg | None] = contextvars.ContextVar("mcp_lab_leg", default=None)


def current_capture() -> LegCapture | None:
    """The capture of the leg running in this context (kernel task or server request), if still open."""
    leg = _LEG.get()
    return leg.capture if leg is not None and leg.open else None


class leg_scope:  # lower case: it reads as the function it replaced, `with leg_scope(capture) as capture:`
    """Attribute every HTTP exchange started in this context to `capture` until the block ends.

    A class rather than a generator-based context manager: every leg of every flow enters one.
    """

    __slots__ = ("_capture", "_leg", "_token")

    def __init__(self, capture: LegCapture) -> None:
        self._capture = capture

    def __enter__(self) -> LegCapture:
        self._leg = _Leg(self._capture)
        self._token = _LEG.set(self._leg)
        return self._capture

    def __exit__(self, *exc: object) -> None:
        _LEG.reset(self._token)
        leg = self._leg
        leg.open = False
        if leg.exchanges:
            self._capture.http.extend(exchange.to_dict() for exchange in leg.exchanges)


class SchemaBook:
    """Input schemas learnt from the tools/list responses a served server sent (what clients learn too).

    Used to say which argument went into which `Mcp-Param-*` header; filled from the server thread.
    """

    def __init__(self) -> None:
        self.schemas: dict[str, Any] = {}

    def learn(self, listing: Any) -> None:
        tools = listing.get("result", {}).get("tools") if isinstance(listing, dict) else None
        if isinstance(tools, list):
            for tool in tools:
                if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                    self.schemas[tool["name"]] = tool.get("inputSchema")


_SEQ = itertools.count(1)
_PENDING: dict[str, Exchange] = {}
_PENDING_LOCK = threading.Lock()


@dataclass(eq=False)
class Exchange:
    """One request/response pair while it is in flight; `to_dict()` is the plain record kept in a Round."""

    method: str
    path: str
    request_headers: list[tuple[str, str]]
    request_body: bytes
    leg: _Leg | None = None
    book: SchemaBook | None = None
    started: float = field(default_factory=time.perf_counter)
    status: int | None = None
    response_headers: list[tuple[str, str]] = field(default_factory=list)
    response_body: bytearray = field(default_factory=bytearray)
    responded: float | None = None
    finished: float | None = None
    seen_by: set[str] = field(default_factory=set)
    error: str | None = None

    def header(self, name: str) -> str | None:
        lower = name.lower()
        return next((v for k, v in self.request_headers if k.lower() == lower), None)

    def to_dict(self) -> dict[str, Any]:
        from mcp_lab.inspect.headers import param_header_usage

        request_body = _decode(bytes(self.request_body))
        content_type = next((v for k, v in self.response_headers if k.lower() == "content-type"), "")
        response_body = _decode(bytes(self.response_body), sse="text/event-stream" in content_type)
        record: dict[str, Any] = {
            "method": self.method,
            "path": self.path,
            "request": {"headers": [list(h) for h in self.request_headers], "body": request_body},
            "response": {
                "status": self.status,
                "headers": [list(h) for h in self.response_headers],
                "body": response_body,
            },
            "rpc": self.header("mcp-method") or _rpc_method(request_body),
            "seen_by": sorted(self.seen_by),
            "elapsed_ms": round(((self.finished or self.responded or self.started) - self.started) * 1000, 2),
        }
        if self.error is not None:
            record["error"] = self.error
        # Only 2026-07-28 requests (they carry Mcp-Method) mirror arguments into headers.
        if self.header("mcp-method") == "tools/call" and isinstance(request_body, dict):
            params = request_body.get("params") or {}
            schema = self.book.schemas.get(str(params.get("name"))) if self.book is not None else None
            usage = param_header_usage(schema, params.get("arguments") or {}, self.request_headers)
            if usage:
                record["param_headers"] = usage
        return record


def _rpc_method(body: Any) -> str | None:
    """The JSON-RPC method from the body (pre-2026 requests carry no Mcp-Method header), or which
    server request a client's JSON-RPC response answers."""
    if isinstance(body, dict) and isinstance(body.get("method"), str):
        return str(body["method"])
    if isinstance(body, dict) and ("result" in body or "error" in body):
        return f"response #{body.get('id')}"  # a pre-2026 client answering a back-channel request
    return None


def _decode(body: bytes, *, sse: bool = False) -> Any:
    """JSON when it parses, a list of SSE events for a stream, else text (bodies are UTF-8 JSON-RPC)."""
    if not body:
        return None
    truncated = len(body) > BODY_LIMIT
    text = body[:BODY_LIMIT].decode("utf-8", errors="replace")
    if sse:
        events = []
        for block in text.replace("\r\n", "\n").split("\n\n"):
            data = "\n".join(line[5:].lstrip() for line in block.split("\n") if line.startswith("data:"))
            if data:
                try:
                    events.append(json.loads(data))
                except json.JSONDecodeError:
                    events.append(data)
        return {"events": events, "truncated": True} if truncated else {"events": events}
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text + ("..." if truncated else "")


REDACTED = "<redacted>"
_CREDENTIALS = frozenset({b"authorization", b"proxy-authorization", b"cookie", b"set-cookie"})


def _shown(name: bytes, value: bytes) -> str:
    """A header value as recorded: credentials (the server's bearer secret) are never kept."""
    return REDACTED if name.lower() in _CREDENTIALS else value.decode("latin-1")


def http_hooks(book: SchemaBook | None = None) -> dict[str, list[Callable[[Any], Any]]]:
    """httpx2 `event_hooks` that record the exchanges of the leg running in the caller's context."""

    async def on_request(request: httpx2.Request) -> None:
        leg = _LEG.get()
        if leg is None or not leg.open:
            return
        try:
            body = request.content
        except Exception:  # a streaming request body: nothing to show without consuming it
            body = b""
        path = request.url.raw_path.decode("ascii", errors="replace")
        headers = [(k.decode("latin-1"), _shown(k, v)) for k, v in request.headers.raw]  # names as sent
        exchange = Exchange(request.method, path, headers, body, leg=leg, book=book)
        exchange.seen_by.add("client")
        tag = str(next(_SEQ))
        with _PENDING_LOCK:
            if len(_PENDING) > 1000:  # requests that never reached a lab server (connection refused ...)
                _PENDING.clear()
            _PENDING[tag] = exchange
        request.headers[TAG_HEADER] = tag
        request.extensions["mcp_lab_exchange"] = exchange
        leg.exchanges.append(exchange)

    async def on_response(response: httpx2.Response) -> None:
        exchange = response.request.extensions.get("mcp_lab_exchange")
        if isinstance(exchange, Exchange):
            exchange.status = response.status_code
            exchange.response_headers = [(k.decode("latin-1"), _shown(k, v)) for k, v in response.headers.raw]
            exchange.responded = time.perf_counter()

    return {"request": [on_request], "response": [on_response]}


Receive = Callable[[], Any]
Send = Callable[[dict[str, Any]], Any]


class ExchangeRecorder:
    """ASGI wrapper: strips the lab's tag, completes the tagged exchange, learns tool schemas."""

    def __init__(self, app: Any, book: SchemaBook) -> None:
        self.app = app
        self.book = book

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        tag: str | None = None
        kept: list[tuple[bytes, bytes]] = []
        for name, value in scope.get("headers", []):
            if name == _TAG_BYTES:
                tag = value.decode("latin-1")
            else:
                kept.append((name, value))
        exchange = None
        if tag is not None:
            with _PENDING_LOCK:
                exchange = _PENDING.pop(tag, None)
            scope = dict(scope, headers=kept)
        method_header = next((v for k, v in kept if k == b"mcp-method"), b"").decode("latin-1")
        listing = method_header == "tools/list"
        if exchange is None and not listing:
            await self.app(scope, receive, send)
            return
        if exchange is None:  # an untagged listing: kept only long enough to learn the schemas
            exchange = Exchange(scope.get("method", ""), scope.get("path", ""), [], b"")
        else:
            exchange.seen_by.add("server")
            if exchange.leg is not None:
                _LEG.set(exchange.leg)
        await self.app(scope, receive, self._recording_send(exchange, send, listing))

    def _recording_send(self, exchange: Exchange, send: Send, listing: bool) -> Send:
        async def recording_send(message: dict[str, Any]) -> None:
            # Recorded before forwarding: by the time the client has read the last byte, it is in the record.
            kind = message.get("type")
            if kind == "http.response.start":
                if exchange.status is None:
                    exchange.status = int(message.get("status", 0))
                if not exchange.response_headers:
                    exchange.response_headers = [
                        (k.decode("latin-1"), _shown(k, v)) for k, v in message.get("headers", [])
                    ]
            elif kind == "http.response.body":
                if len(exchange.response_body) <= BODY_LIMIT:
                    exchange.response_body += message.get("body", b"")
                if not message.get("more_body", False):
                    exchange.finished = time.perf_counter()
                    if listing:
                        self._learn(exchange)
            await send(message)

        return recording_send

    def _learn(self, exchange: Exchange) -> None:
        content_type = next((v for k, v in exchange.response_headers if k.lower() == "content-type"), "")
        body = _decode(bytes(exchange.response_body), sse="text/event-stream" in content_type)
        messages = body.get("events", []) if isinstance(body, dict) and "events" in body else [body]
        for message in messages:
            self.book.learn(message)
