"""Serving a lab server over loopback Streamable HTTP: `mcp_lab.serve`, and what a client of it sends.

Spec context: header parameters (`Mcp-Param-*`) and the routing headers (`Mcp-Method`, `Mcp-Name`) exist only
on the Streamable HTTP transport, so the lab must really serve HTTP to show them. The thread that serves is
loopback.py's; starting, stopping and restarting are the server's own (`LabServer.serve_on`, `stop_http`,
`restart_http`); this module finds the server by name, makes its access rules and warns when it is open.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING

from mcp_lab.errors import LabError
from mcp_lab.servers.access import Access, OpenServerWarning, authenticates_itself, no_auth_warning
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.loopback import HOST, HttpServing, live_servings
from mcp_lab.servers.sandbox import sandbox

if TYPE_CHECKING:
    from mcp.client import Transport

__all__ = ["HOST", "HttpServing", "auth_headers", "client_transport", "live_servings", "serve", "served_entry"]


def serve(
    server: str | LabServer,
    port: int | str | None = None,
    *,
    app: object = None,
    auth: bool | None = None,
    allow_origins: str | Iterable[str] = (),
) -> str:
    """Serve a sandbox server over Streamable HTTP on 127.0.0.1 (port 0 or None: any free port); its URL.

    Callers must send the server's bearer secret (`mcp_lab.auth_headers(NAME)`; the lab's own clients do);
    `auth=False` serves it open, with a warning. A server that authenticates its callers itself (built with
    OAuth `auth=`/`token_verifier=`) gets no lab secret: the `Authorization` header is its own. Requests from browser pages (with an `Origin` header) are
    refused unless `allow_origins` lists that origin. Every call path (magics, `mcp_lab.call`, step mode, both
    protocol eras) then goes over HTTP, and each flow's rounds record the exchanges.
    `%mcp_server stop NAME` or `entry.stop_http()` ends it.

    `app`: the server's ASGI app as your own code built it (the SDK docs end with
    `app = server.streamable_http_app()`), served as it is instead of a fresh one -- behind the same secret
    and Origin checks; it must answer at `/mcp`, and it can be served once (a restart builds a fresh app).
    """
    entry = served_entry(server)
    access = Access.make(auth=auth, allow_origins=allow_origins, own_auth=authenticates_itself(entry.server))
    url = entry.serve_on(port, access, app)
    if access.open:
        warning = no_auth_warning(entry.name, url, own_app=app is not None)
        warnings.warn(warning, OpenServerWarning, stacklevel=2)
    return url


def served_entry(server: object) -> LabServer:
    """The lab server `server` names (or is); a connected outside server or another object is refused."""
    if isinstance(server, str):
        return sandbox.lab_server(server)
    if not isinstance(server, LabServer):
        raise LabError(f"serve takes a server's name (str), not {type(server).__name__}")
    return server


def _served(server: object) -> HttpServing:
    entry = served_entry(server)
    if entry.http is None or not entry.http.alive:
        raise LabError(f"{entry.name!r} is not served over HTTP; serve it first (mcp_lab.serve({entry.name!r}))")
    return entry.http


def auth_headers(server: object) -> dict[str, str]:
    """The headers a client of a served lab server must send (`{}` when served with --no-auth): for your
    own code in this kernel (raw httpx2); never print them into a notebook you share."""
    return _served(server).access.headers()


def client_transport(server: object) -> Transport:
    """The SDK's Streamable HTTP transport to a served lab server, its secret attached:
    `async with Client(mcp_lab.client_transport("demo")) as client: ...`."""
    return _served(server).transport()
