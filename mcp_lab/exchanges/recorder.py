"""Recording what crosses an HTTP connection, leg by leg: one recorder for every server the lab talks to.

Spec context: on 2026-07-28 Streamable HTTP every request is one POST whose headers repeat parts of the
body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, and an `Mcp-Param-<Name>` for each argument marked
`x-mcp-header`) so that gateways can route without parsing JSON. The lab shows those exchanges as one
record (`mcp_lab.exchanges.record.HttpExchange`), whoever runs the server: httpx2 event hooks on the lab's
client record the request (method, URL, headers, body) and the response (status, headers), and a tee on
the response stream keeps its body chunk by chunk as the SDK reads it -- never delaying a stream (a
pre-2026 back-channel elicitation travels inside a response that must stay open).

Attribution. A flow's leg runs inside `leg_scope(capture)`, which sets a context variable. The SDK carries
the sender's context to the task that POSTs (its context streams), so the request hook knows the leg even
when several flows share one client concurrently. For a server the lab serves itself, the hook also tags
the request with one extra header, `x-mcp-lab-exchange`, so the server thread -- which has no access to
the kernel's context -- finds the same exchange: the ASGI wrapper removes the tag before the app sees the
request (recorded headers omit it; it is the only thing the lab adds to the wire, and only to its own
servers) and sets the leg in the server's context, so log records the server emits while handling the
request (its request_state rejection reasons) reach that leg and no other. Outside servers get no tag.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mcp_lab.exchanges.pending import PendingExchanges
from mcp_lab.exchanges.record import (
    BODY_CAP,
    Header,
    HttpExchange,
    KeptExchange,
    LegCapture,
    RawHeader,
    body_dict,
    exchange_record,
    given_credentials,
    keep_exchanges,
    text_headers,
)
from mcp_lab.exchanges.schema_book import SchemaBook
from mcp_lab.exchanges.wire_headers import header_facts, wire_headers
from mcp_lab.json_types import JsonObject

if TYPE_CHECKING:
    import httpx2

__all__ = [
    "TAG_HEADER",
    "Exchange",
    "ExchangeRecorder",
    "Leg",
    "SchemaBook",
    "current_capture",
    "http_hooks",
    "leg_scope",
    "pending_exchanges",
]

TAG_HEADER = "x-mcp-lab-exchange"
_TAG_BYTES = TAG_HEADER.encode()
LISTING_LIMIT = 4 * 1024 * 1024
"""A tools/list response is read up to this size to learn the input schemas (the record keeps less)."""


class Leg:
    """One leg begun: every HTTP exchange started in this context is attributed to `capture` until `end()`."""

    __slots__ = ("capture", "exchanges", "open", "token")

    def __init__(self, capture: LegCapture) -> None:
        self.capture: LegCapture | None = capture
        """None once the leg ended: contexts copied during the leg may outlive it, and must not keep what
        the leg recorded (the round holds it now)."""
        self.exchanges: list[Exchange] = []
        self.open = True
        self.token: contextvars.Token[Leg | None] = _LEG.set(self)

    def end(self) -> None:
        """The leg has ended: its exchanges go to its capture, kept (their records unbuilt until read)."""
        _LEG.reset(self.token)
        capture = self.capture
        self.open = False
        self.capture = None
        # Each exchange points back at its leg: let go of them, so that no cycle waits for the collector.
        exchanges, self.exchanges = self.exchanges, []
        if exchanges and capture is not None:
            keep_exchanges(capture, tuple(map(Exchange.kept, exchanges)))  # no comprehension: no function made


_LEG: contextvars.ContextVar[Leg | None] = contextvars.ContextVar("mcp_lab_leg", default=None)


def current_capture() -> LegCapture | None:
    """The capture of the leg running in this context (kernel task or server request), if still open."""
    leg = _LEG.get()
    return leg.capture if leg is not None and leg.open else None


class leg_scope:  # lower case: it reads as the function it replaced, `with leg_scope(capture) as capture:`
    """Attribute every HTTP exchange started in this context to `capture` until the block ends.

    A class rather than a generator-based context manager: every leg of every flow enters one.
    """

    __slots__ = ("_capture", "_leg")

    def __init__(self, capture: LegCapture) -> None:
        self._capture = capture

    def __enter__(self) -> LegCapture:
        self._leg = Leg(self._capture)
        return self._capture

    def __exit__(self, *exc: object) -> None:
        self._leg.end()


class Exchange:
    """One request/response pair while it is in flight; `record()` is the plain record kept in a Round.

    Headers are held as given -- text pairs, or the raw byte pairs the client hooks take from httpx2 -- and
    decoded only when read (`request_headers`) or when the record is built: most legs' records never are."""

    __slots__ = (
        "_request_raw", "_response_raw", "book", "content_type", "finished", "leg", "method", "path",
        "request_body", "request_type", "response_body", "response_size", "rpc_method", "seen_by", "started",
        "status", "url",
    )  # fmt: skip

    def __init__(
        self,
        method: str,
        url: str,
        path: str,
        request_headers: Sequence[tuple[str, str]] | Sequence[RawHeader],
        request_body: bytes,
        leg: Leg | None = None,
        book: SchemaBook | None = None,
        facts: tuple[str | None, str] | None = None,
    ) -> None:
        self.method = method
        self.url = url
        self.path = path
        self._request_raw = request_headers
        self.request_body = request_body
        self.leg = leg
        self.book = book
        self.started = time.perf_counter()
        self.status: int | None = None
        self._response_raw: Sequence[tuple[str, str]] | Sequence[RawHeader] = ()
        self.response_body = bytearray()
        self.response_size = 0
        self.finished: float | None = None
        self.seen_by: set[str] = {"client"}
        if facts is None:  # the client hook reads them with the headers (`wire_headers`)
            facts = header_facts(request_headers)
        self.rpc_method: str | None = facts[0]
        """The request's `Mcp-Method` header (2026-07-28 requests carry one), read once."""
        self.request_type: str = facts[1]
        """The request's `Content-Type`."""
        self.content_type = ""
        """The response's `Content-Type` (set with its headers)."""

    @property
    def request_headers(self) -> list[tuple[str, str]]:
        """The request's headers as text, in the order and spelling sent."""
        return text_headers(self._request_raw)

    @property
    def response_headers(self) -> list[tuple[str, str]]:
        return text_headers(self._response_raw)

    def header(self, name: str) -> str | None:
        lower = name.lower()
        return next((v for k, v in self.request_headers if k.lower() == lower), None)

    def responded(
        self, status: int, headers: Sequence[tuple[str, str]] | Sequence[RawHeader], content_type: str | None = None
    ) -> None:
        """The response's status and headers arrived (its body follows, through `keep`); `content_type` when
        the caller has read it already."""
        self.status = status
        self._response_raw = headers
        self.content_type = header_facts(headers)[1] if content_type is None else content_type

    def keep(self, chunk: bytes) -> None:
        self.response_size += len(chunk)
        room = (LISTING_LIMIT if self.rpc_method == "tools/list" else BODY_CAP) - len(self.response_body)
        if room > 0:
            self.response_body += chunk[:room]

    def record(self) -> HttpExchange:
        """The exchange as its record model (what views validate `dump()` into)."""
        return HttpExchange.model_validate(self.dump())

    def dump(self) -> JsonObject:
        """`record().dump()`, built directly as plain data (`exchange_record` of what `kept()` takes now)."""
        return exchange_record(self.kept())

    def kept(self) -> KeptExchange:
        """What the record is built from, as it is now (`KeptExchange`): a leg takes it when it ends and
        builds the record only when someone reads it."""
        end = self.finished or time.perf_counter()
        usage: list[JsonObject] | None = None
        # Only 2026-07-28 requests (they carry Mcp-Method) mirror arguments into headers, and only for a
        # schema that marks one: the body is read here only when a listing learnt one.
        if self.rpc_method == "tools/call" and self.book is not None and not self.book.marks_nothing():
            message = body_dict(self.request_body, self.request_type)["value"]
            if isinstance(message, dict):
                params = message.get("params") or {}
                usage = self.book.param_headers(params if isinstance(params, dict) else {}, self.request_headers)
        got = bytes(self.response_body[:BODY_CAP]) if self.status is not None else b""
        return (
            self.method,
            self.url,
            self.path,
            _frozen(self._request_raw),
            self.request_body,
            self.request_type,
            self.rpc_method,
            self.status,
            _frozen(self._response_raw),
            got,
            self.content_type,
            self.response_size,
            tuple(sorted(self.seen_by)),
            (end - self.started) * 1000,
            given_credentials(),
            usage,
        )

    def done(self) -> None:
        """The response body ended (or the SDK gave up on it)."""
        if self.finished is None:
            self.finished = time.perf_counter()
            if self.book is not None and self.rpc_method == "tools/list":
                self.book.learn_body(bytes(self.response_body), self.content_type)


def _frozen(headers: Sequence[tuple[str, str]] | Sequence[RawHeader]) -> tuple[Header, ...] | tuple[RawHeader, ...]:
    """Headers as the kept exchange holds them (a tuple of whichever pairs they are)."""
    return cast("tuple[Header, ...] | tuple[RawHeader, ...]", tuple(headers))


pending_exchanges: PendingExchanges[Exchange] = PendingExchanges()
"""The process's one table of tagged exchanges (composed by `mcp_lab.lab.Lab`)."""


def http_hooks(
    book: SchemaBook | None = None, *, tag: bool = True, on_status: Callable[[int], None] | None = None
) -> dict[str, list[Callable[[Any], Any]]]:
    """httpx2 `event_hooks` that record the exchanges of the leg running in the caller's context.

    `tag`: mark each request for the lab's own ASGI wrapper (`ExchangeRecorder`); never for outside servers.
    `on_status`: told every response's status, in a leg or not (in the one response hook: a hook is a
    coroutine per response).
    """
    import httpx2

    class _Tee(httpx2.AsyncByteStream):
        """Hands the response body to the SDK unchanged while keeping a copy for the record. Its own
        iterator rather than an async generator: no generator to register, finalize and close per response."""

        def __init__(self, inner: httpx2.AsyncByteStream, exchange: Exchange) -> None:
            self._inner = inner
            self._exchange = exchange
            self._chunks: AsyncIterator[bytes] | None = None

        def __aiter__(self) -> AsyncIterator[bytes]:
            self._chunks = self._inner.__aiter__()
            return self

        async def __anext__(self) -> bytes:
            assert self._chunks is not None
            try:
                chunk = await self._chunks.__anext__()
            except BaseException:  # the body ended (StopAsyncIteration) or broke off
                self._exchange.done()
                raise
            self._exchange.keep(chunk)
            return chunk

        async def aclose(self) -> None:
            if self._chunks is not None:  # closed before its end: what was read so far is the body seen
                self._exchange.done()
            await self._inner.aclose()

    # The last request's URL, as its parts (httpx2's), its text and its path: a connection posts to one URL,
    # and writing it out again costs more than the rest of recording a request.
    last_url: list[tuple[object, str, str]] = [(None, "", "")]

    async def on_request(request: httpx2.Request) -> None:
        leg = _LEG.get()
        if leg is None or not leg.open:
            return
        try:
            body = request.content
        except httpx2.RequestNotRead:  # a streaming request body: nothing to show without consuming it
            body = b""
        url = request.url
        parts = getattr(url, "_uri_reference", None)
        if parts is None or parts != last_url[0][0]:
            last_url[0] = parts, str(url), url.raw_path.decode("ascii", errors="replace")
        _, text, path = last_url[0]
        headers, facts = wire_headers(request.headers)  # decoded only if the record is built
        exchange = Exchange(request.method, text, path, headers, body, leg=leg, book=book, facts=facts)
        if tag:
            request.headers[TAG_HEADER] = pending_exchanges.tag(exchange)
        request.extensions["mcp_lab_exchange"] = exchange
        leg.exchanges.append(exchange)

    async def on_response(response: httpx2.Response) -> None:
        if on_status is not None:
            on_status(response.status_code)
        exchange = response.request.extensions.get("mcp_lab_exchange")
        if isinstance(exchange, Exchange):
            headers, facts = wire_headers(response.headers)
            exchange.responded(response.status_code, headers, facts[1])
            if isinstance(response.stream, httpx2.AsyncByteStream):
                response.stream = _Tee(response.stream, exchange)

    return {"request": [on_request], "response": [on_response]}


class ExchangeRecorder:
    """ASGI wrapper for the lab's own servers: strips the lab's tag, attributes the server's work to the
    tagged leg, and learns tool schemas from every listing it serves (also to clients that are not the lab's)."""

    def __init__(self, app: ASGIApp, book: SchemaBook) -> None:
        self.app = app
        self.book = book

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        headers: list[tuple[bytes, bytes]] = scope.get("headers", [])
        tag: str | None = None
        if headers and headers[-1][0] == _TAG_BYTES and all(name != _TAG_BYTES for name, _ in headers[:-1]):
            # The lab's client adds its tag last (a header set after the others): the rest as one slice.
            tag, kept = headers[-1][1].decode("latin-1"), headers[:-1]
        elif any(name == _TAG_BYTES for name, _ in headers):
            kept = []
            for name, value in headers:
                if name == _TAG_BYTES:
                    tag = value.decode("latin-1")
                else:
                    kept.append((name, value))
        else:
            kept = headers
        if tag is not None:
            exchange = pending_exchanges.claim(tag)
            scope = dict(scope, headers=kept)
            if exchange is not None:
                exchange.seen_by.add("server")
                if exchange.leg is not None:
                    _LEG.set(exchange.leg)
        listing = False
        for name, value in kept:
            if name == b"mcp-method":
                listing = value == b"tools/list"
                break
        if not listing:
            await self.app(scope, receive, send)
            return
        await self.app(scope, receive, self._learning_send(send))

    def _learning_send(self, send: Send) -> Send:
        body = bytearray()
        content_type = ""

        async def learning_send(message: Message) -> None:
            nonlocal content_type
            kind = message.get("type")
            if kind == "http.response.start":
                headers = message.get("headers", [])
                content_type = next((v.decode("latin-1") for k, v in headers if k.lower() == b"content-type"), "")
            elif kind == "http.response.body":
                if len(body) < LISTING_LIMIT:
                    body.extend(message.get("body", b""))
                if not message.get("more_body", False):
                    self.book.learn_body(bytes(body), content_type)
            await send(message)

        return learning_send
