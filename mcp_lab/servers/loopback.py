"""A server served over loopback Streamable HTTP from a background thread (`HttpServing`).

Spec context: header parameters (`Mcp-Param-*`) and the routing headers (`Mcp-Method`, `Mcp-Name`) exist only
on the Streamable HTTP transport, so the lab must really serve HTTP to show them. Settled by experiment:
- uvicorn runs in a daemon thread with its own event loop: it installs no signal handlers there, so
  "interrupt kernel" still interrupts the cell, and the kernel's loop is never blocked.
- The listening socket is created with `IPPROTO_TCP`: asyncio only sets TCP_NODELAY when `proto` says TCP,
  and without it every request waits ~45 ms for Nagle and delayed ACKs.
- A `streamable_http_app()` can be served once, so every start builds a fresh one.
- Only 127.0.0.1 is ever bound, and binding loopback is not access control: every served server requires
  its own bearer secret and refuses requests from browser pages (`Origin`) unless allowed (access.py).

The socket is bound and listening before the thread starts, so the URL works at once (connections wait in
the backlog while uvicorn starts) and a port in use is reported immediately as one line. Stopping never
waits on the kernel's loop: it wakes the server thread and returns an awaitable for the thread's end.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import errno
import socket
import threading
from collections.abc import AsyncIterator, Generator
from contextlib import asynccontextmanager, suppress
from typing import Any

from mcp_lab.errors import ConnectionFailed, LabError
from mcp_lab.exchanges.client_tls import tls_context
from mcp_lab.exchanges.recorder import ExchangeRecorder, SchemaBook, http_hooks
from mcp_lab.servers.access import Access
from mcp_lab.servers.http_protocol import bounded_h11

__all__ = [
    "HOST",
    "PATH",
    "HttpServing",
    "Servings",
    "Stopped",
    "check_port",
    "live_servings",
    "register_exit_hook",
    "servings",
    "stop_all_servings",
    "stopping_on",
]

HOST = "127.0.0.1"
PATH = "/mcp"


class Servings:
    """The loopback HTTP servings whose thread has not ended yet; server threads remove themselves (locked)."""

    def __init__(self) -> None:
        self.live: set[HttpServing] = set()
        self.lock = threading.Lock()
        self.exit_hooked = False
        """Interpreter exit stops the serving threads (registered once per process)."""

    def add(self, serving: HttpServing) -> None:
        with self.lock:
            self.live.add(serving)

    def discard(self, serving: HttpServing) -> None:
        with self.lock:
            self.live.discard(serving)

    def snapshot(self) -> list[HttpServing]:
        with self.lock:
            return list(self.live)


servings = Servings()
"""The kernel's one set of live servings (part of `mcp_lab.servers.registry`)."""


def live_servings() -> list[HttpServing]:
    """Servings whose thread has not ended yet (including those asked to stop)."""
    return servings.snapshot()


def check_port(port: object) -> int:
    if port is None:
        return 0
    if isinstance(port, bool) or not isinstance(port, int):
        try:
            port = int(str(port), 10)
        except ValueError:
            raise LabError(
                f"invalid port {port!r}: expected a number from 1 to 65535 (or 0 for any free port)"
            ) from None
    if not 0 <= port <= 65535:
        raise LabError(f"invalid port {port}: expected a number from 1 to 65535 (or 0 for any free port)")
    return int(port)


def _bind(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise LabError(f"port {port} on {HOST} is in use; pick another with --port N (or 0 for any)") from None
        raise LabError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from None
    return sock


class Stopped:
    """Awaitable end of a serving thread (`await entry.stop_http()`); never blocks the loop."""

    def __init__(self, done: concurrent.futures.Future[None], thread: threading.Thread | None) -> None:
        self._done = done
        self._thread = thread

    def done(self) -> bool:
        return self._done.done() and not (self._thread is not None and self._thread.is_alive())

    async def _wait(self) -> None:
        await asyncio.wrap_future(self._done)
        while self._thread is not None and self._thread.is_alive():  # the last microseconds of the thread
            await asyncio.sleep(0.001)

    def __await__(self) -> Generator[Any, None, None]:
        return self._wait().__await__()


def _uvicorn_server(app: Any) -> Any:
    import uvicorn

    class WakeableServer(uvicorn.Server):  # type: ignore[misc]
        """uvicorn polls `should_exit` every 0.1 s; this one also wakes as soon as `wake()` is called."""

        loop: asyncio.AbstractEventLoop | None = None
        exit_event: asyncio.Event | None = None

        async def main_loop(self) -> None:
            self.exit_event = asyncio.Event()
            self.loop = asyncio.get_running_loop()
            while not await self.on_tick(0):  # tick 0 refreshes the Date header each time
                with suppress(TimeoutError):
                    await asyncio.wait_for(self.exit_event.wait(), 1.0)

        def wake(self) -> None:
            self.should_exit = True
            loop, event = self.loop, self.exit_event
            if loop is not None and event is not None:
                with suppress(RuntimeError):  # the loop already closed: the thread is ending anyway
                    loop.call_soon_threadsafe(event.set)

    config = uvicorn.Config(
        app,
        log_level="warning",
        log_config=None,  # leave the kernel's logging alone
        access_log=False,
        lifespan="on",  # the app's lifespan runs its session manager
        ws="none",
        timeout_graceful_shutdown=2,  # an open pre-2026 GET stream must not hold a stop forever
        # Clients keep idle connections 5 s (httpx's keep-alive expiry); a server that also closes them at
        # 5 s races a client reusing one and the request is lost in transit. The server holds them longer.
        timeout_keep_alive=30,
        http=bounded_h11(),  # and a request must arrive whole within a bound (a half-open one is closed)
    )
    return WakeableServer(config)


class HttpServing:
    """One server served on 127.0.0.1:port by uvicorn in a daemon thread."""

    def __init__(self, name: str, server: Any, port: int, app: Any = None, access: Access | None = None) -> None:
        self.name = name
        self.port = port
        self.access = access if access is not None else Access.make()
        """Who may call it: the bearer secret (None with --no-auth) and the allowed origins."""
        self.book = SchemaBook()
        self.failure: str | None = None
        self.done: concurrent.futures.Future[None] = concurrent.futures.Future()
        self.bound: concurrent.futures.Future[None] = concurrent.futures.Future()
        """Resolved once the socket listens (at once, or after a deferred bind)."""
        self._sock: socket.socket | None = None
        # Unless the caller built one, a fresh app every start: an app can be served only once (its
        # session manager runs once).
        if app is None:
            security = self.access.transport_security()
            app = server.streamable_http_app(streamable_http_path=PATH, host=HOST, transport_security=security)
        # The gate checks Origin/Host and the secret in front of any app, the caller's own included.
        self._server = _uvicorn_server(ExchangeRecorder(self.access.wrap(app), self.book))
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}{PATH}"

    @property
    def alive(self) -> bool:
        return not self.done.done()

    @property
    def stopping(self) -> bool:
        """Asked to stop (its thread may still hold the port a little longer)."""
        return bool(self._server.should_exit)

    def describe(self) -> str:
        if self.failure is not None:
            return f"{self.url} (not serving: {self.failure})"
        return f"{self.url} ({self.access.describe()})" if self.alive else f"{self.url} (stopped)"

    def start(self, after: list[HttpServing] | None = None) -> HttpServing:
        """Bind now (a busy port is a LabError here), or, when `after` -- lab servers still stopping on the
        same port -- may hold it, bind in the new thread once they have all ended."""
        if not after:
            self._sock = _bind(self.port)
            self.port = self._sock.getsockname()[1]
            self.bound.set_result(None)
        servings.add(self)
        self._thread = threading.Thread(
            target=self._run, args=(after,), name=f"mcp_lab http {self.name}:{self.port}", daemon=True
        )
        self._thread.start()
        return self

    def _run(self, after: list[HttpServing] | None) -> None:
        try:
            if after:
                for previous in after:
                    previous.done.result(timeout=15)
                if self._server.should_exit:
                    return
                self._sock = _bind(self.port)
                self.bound.set_result(None)
            self._server.run(sockets=[self._sock])
            if not self._server.started and self.failure is None:
                self.failure = "the app failed to start"
        except SystemExit:  # uvicorn's way of reporting a failed app startup
            if not self._server.should_exit:
                self.failure = "the app failed to start"
        except BaseException as exc:  # the thread reports how it died; the kernel never sees it
            self.failure = str(exc) if isinstance(exc, LabError) else f"{type(exc).__name__}: {exc}"
        finally:
            if not self.bound.done():
                self.bound.set_exception(ConnectionFailed(f"{self.name!r} is not serving: {self.failure or 'stopped'}"))
            if self._sock is not None:
                self._sock.close()  # pending connections are refused instead of waiting forever
            servings.discard(self)
            self.done.set_result(None)

    def stop(self) -> Stopped:
        """Ask the thread to stop (returns at once); await the result to know the port is free."""
        self._server.wake()
        return Stopped(self.done, self._thread)

    def join(self, timeout: float) -> None:
        """Blocking wait: only for interpreter exit and tests outside an event loop."""
        if self._thread is not None:
            self._thread.join(timeout)

    async def ready(self) -> None:
        """Wait (without blocking the loop) until the socket listens; LabError if it never will."""
        await asyncio.wrap_future(self.bound)

    @asynccontextmanager
    async def transport(self) -> AsyncIterator[Any]:
        """The SDK's Streamable HTTP client transport on an httpx2 client that records each exchange."""
        import httpx2
        from mcp.client.streamable_http import streamable_http_client

        await self.ready()

        timeout = httpx2.Timeout(30.0, read=300.0)  # the SDK's defaults: SSE streams may stay open long
        async with (
            httpx2.AsyncClient(
                timeout=timeout, event_hooks=http_hooks(self.book), headers=self.access.headers(), verify=tls_context()
            ) as client,
            streamable_http_client(self.url, http_client=client) as streams,
        ):
            yield streams


def stopping_on(port: int) -> list[HttpServing]:
    """Lab servings on `port` still shutting down (any of them may hold the socket a little longer)."""
    return [s for s in live_servings() if s.port == port and s.stopping]


def register_exit_hook() -> None:
    """Once per process: interpreter exit stops the serving threads."""
    if not servings.exit_hooked:
        servings.exit_hooked = True
        atexit.register(stop_all_servings)


def stop_all_servings(timeout: float = 3.0) -> None:
    """Kernel shutdown: stop every serving thread and wait briefly for them (the process is ending)."""
    servings = live_servings()
    for serving in servings:
        serving.stop()
    for serving in servings:
        serving.join(timeout)
