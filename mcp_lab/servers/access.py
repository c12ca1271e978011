"""Who may call a server the kernel serves over HTTP: a per-server bearer secret and an Origin allowlist.

Spec context: the Streamable HTTP transport's security warning -- a server must validate `Origin` (DNS
rebinding), should bind to localhost only, and should authenticate its callers. Binding 127.0.0.1 is not
enough on its own: every process of every user on the machine (a class sharing one JupyterHub host) reaches
127.0.0.1, and so does every page a browser there opens, which sends an `Origin` header. So each served
server gets a random secret that callers send as `Authorization: Bearer ...`, and a request that carries an
`Origin` is refused unless the user allowed that origin.

The SDK's own machinery does the checks. Origins: `TransportSecuritySettings` with an explicit allowlist
(its default for a loopback host allows every `http://localhost:*` origin -- any local dev server's page),
checked by its `TransportSecurityMiddleware`. The secret: the SDK's `BearerAuthBackend` asks a
`TokenVerifier`, and `RequireAuthMiddleware` answers a missing or wrong one with its 401. They are composed
here, in front of whatever app is served (also an app the user's code built), instead of passing `auth=`/
`token_verifier=` to `streamable_http_app`, because that path also publishes the caller as the request's
authenticated
principal (`AuthContextMiddleware`), and `RequestStateSecurity`'s default `bind_principal` would then bind
every token sealed over HTTP to "whoever holds the secret": the secret gates the transport, it is nobody's
identity, and a flow must stay resumable when its server moves between in-process and HTTP.

The secret is shown only by a fingerprint; it never enters a flow, a capture, a collection or a view (the
HTTP recorders redact `Authorization`). `%mcp_server url NAME` prints it once, on request, for outside
clients.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from mcp_lab.errors import LabError
from mcp_lab.given import shown

if TYPE_CHECKING:
    from mcp.server.transport_security import TransportSecuritySettings

__all__ = [
    "Access",
    "AccessGate",
    "AccessSecret",
    "OpenServerWarning",
    "SecretVerifier",
    "ServingRules",
    "authenticates_itself",
    "check_origin",
    "no_auth_warning",
]

LOOPBACK_HOSTS = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
"""Host headers accepted (DNS rebinding protection: a rebound name arrives with its own Host)."""


class AccessSecret:
    """A random bearer secret; its repr is a fingerprint, and it cannot be pickled or saved."""

    __slots__ = ("_value", "fingerprint")

    def __init__(self) -> None:
        self._value = secrets.token_urlsafe(32)
        self.fingerprint = hashlib.sha256(b"mcp-lab/access:" + self._value.encode()).hexdigest()[:8]
        """Eight hex digits that identify the secret without revealing it."""

    def matches(self, token: str) -> bool:
        return hmac.compare_digest(token.encode("utf-8", "surrogateescape"), self._value.encode())

    def header_value(self) -> str:
        """`Bearer <secret>`: the value of the `Authorization` header. Never display it in a view."""
        return f"Bearer {self._value}"

    def __repr__(self) -> str:
        return f"AccessSecret({self.fingerprint})"

    __str__ = __repr__

    def __getstate__(self) -> None:
        raise TypeError("an AccessSecret is a credential and cannot be pickled or saved")


class SecretVerifier:
    """The SDK's `TokenVerifier` protocol for one secret (constant-time comparison)."""

    def __init__(self, secret: AccessSecret) -> None:
        self._secret = secret

    async def verify_token(self, token: str) -> Any:
        from mcp.server.auth.provider import AccessToken

        if not self._secret.matches(token):
            return None
        return AccessToken(token="<mcp_lab access secret>", client_id="mcp-lab", scopes=[])


class AccessGate:
    """ASGI, in front of any served app (the lab's fresh one or the caller's own): for HTTP requests the
    SDK's Host/Origin check (`TransportSecurityMiddleware`: 421, 403), then its bearer check
    (`BearerAuthBackend` + `RequireAuthMiddleware`: 401); the lifespan passes through."""

    def __init__(self, app: ASGIApp, access: Access) -> None:
        from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend, RequireAuthMiddleware
        from mcp.server.transport_security import TransportSecurityMiddleware

        self.app = app
        self._origins = TransportSecurityMiddleware(access.transport_security())
        self._secret = access.secret
        self._backend = BearerAuthBackend(SecretVerifier(access.secret)) if access.secret is not None else None
        # With no authenticated user in the scope it answers 401 + WWW-Authenticate, and never calls the app.
        self._refuse = RequireAuthMiddleware(app, required_scopes=[])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        from starlette.requests import HTTPConnection, Request

        refused = await self._origins.validate_request(Request(scope), is_post=False)
        if refused is not None:
            await refused(scope, receive, send)
            return
        if (
            self._backend is not None
            and not self._carries_secret(scope)
            and await self._backend.authenticate(HTTPConnection(scope)) is None
        ):
            await self._refuse({k: v for k, v in scope.items() if k != "user"}, receive, send)
            return
        await self.app(scope, receive, send)

    def _carries_secret(self, scope: Scope) -> bool:
        """The request's first Authorization header is `Bearer <the secret>`, read as the SDK's bearer backend
        reads it (every request of the lab's own clients: no models built for it). Anything else goes to the
        SDK's backend, which decides -- and answers a refusal -- as before."""
        secret = self._secret
        if secret is None:
            return False
        for name, value in scope.get("headers", ()):
            if name == b"authorization":
                return value[:7].lower() == b"bearer " and secret.matches(value[7:].decode("latin-1"))
        return False


def check_origin(origin: object) -> str:
    """`scheme://host[:port]` (a port may be `*`), as browsers send it; one clear error otherwise."""
    if not isinstance(origin, str) or not origin:
        raise LabError(f"an allowed origin is text such as 'http://localhost:6274', not {origin!r}")
    value = origin.rstrip("/")
    wildcard = value.endswith(":*")
    parts = urlsplit(value[:-2] if wildcard else value)
    try:
        parts.port  # noqa: B018 - raises on a malformed port
    except ValueError:
        parts = parts._replace(netloc="")
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query or parts.fragment:
        raise LabError(
            f"{origin!r} is not an origin: expected scheme://host[:port] such as 'http://localhost:6274' "
            "(a port may be '*')"
        )
    return value


class ServingRules(TypedDict):
    """Who may call a served server, as `Access.make(**rules)` takes it (`%mcp_server --no-auth/--allow-origin`)."""

    auth: bool | None
    allow_origins: list[str]


@dataclass(frozen=True)
class Access:
    """How one serving admits requests: its secret (None: `--no-auth`, or a server that authenticates its
    callers itself) and the origins it allows."""

    secret: AccessSecret | None
    origins: tuple[str, ...] = ()
    own_auth: bool = False
    """The server checks callers itself (an MCPServer built with OAuth `auth=`/`token_verifier=`): its
    `Authorization` header is its own, so the lab adds no secret of its own."""

    @classmethod
    def make(
        cls, *, auth: bool | None = None, allow_origins: Iterable[str] | str = (), own_auth: bool = False
    ) -> Access:
        """`auth=None`: the lab's secret, unless the server authenticates its callers itself (`own_auth`)."""
        if auth is not None and not isinstance(auth, bool):
            raise LabError(f"auth must be True or False, not {auth!r}")
        if auth and own_auth:
            raise LabError(
                "this server authenticates its callers itself (OAuth); the lab's secret would compete for its "
                "Authorization header: serve it without auth=True"
            )
        if isinstance(allow_origins, bytes | Mapping) or not isinstance(allow_origins, Iterable):
            example = "such as ['http://localhost:6274']"
            raise LabError(f"allow_origins is an origin or a list of them, {example}, not {shown(allow_origins)}")
        items = [allow_origins] if isinstance(allow_origins, str) else list(allow_origins)
        secret = AccessSecret() if (not own_auth if auth is None else auth) else None
        return cls(secret, tuple(dict.fromkeys(check_origin(o) for o in items)), own_auth)

    @property
    def open(self) -> bool:
        """Nothing checks who calls: any local process can."""
        return self.secret is None and not self.own_auth

    def renewed(self) -> Access:
        """The same rules with a new secret (a restart, unless the user keeps the secret)."""
        return Access(AccessSecret() if self.secret is not None else None, self.origins, self.own_auth)

    def same_rules(self, other: Access) -> bool:
        same_secret = (self.secret is None) == (other.secret is None)
        return same_secret and self.origins == other.origins and self.own_auth == other.own_auth

    def transport_security(self) -> TransportSecuritySettings:
        """The SDK's settings: loopback Host names only, and only the allowed origins."""
        from mcp.server.transport_security import TransportSecuritySettings

        return TransportSecuritySettings(
            enable_dns_rebinding_protection=True, allowed_hosts=list(LOOPBACK_HOSTS), allowed_origins=list(self.origins)
        )

    def wrap(self, app: ASGIApp) -> AccessGate:
        return AccessGate(app, self)

    def headers(self) -> dict[str, str]:
        """What the lab's own clients send."""
        return {} if self.secret is None else {"Authorization": self.secret.header_value()}

    def describe(self) -> str:
        if self.secret is not None:
            who = f"bearer secret {self.secret.fingerprint}"
        else:
            who = "the server's own authentication" if self.own_auth else "no auth: any local process"
        origins = f"; origins {', '.join(self.origins)}" if self.origins else ""
        return who + origins


class OpenServerWarning(UserWarning):
    """A server was served with `--no-auth`: every local process may call it."""


def no_auth_warning(name: str, url: str, own_app: bool = False) -> str:
    if own_app:
        return (
            f"{name!r} at {url} is served without the lab's secret: only your app's own authentication checks callers"
        )
    return (
        f"{name!r} at {url} accepts calls without a secret (--no-auth): any process on this machine -- "
        "other users' too -- can call its tools"
    )


def authenticates_itself(server: object) -> bool:
    """An MCPServer built with its own `auth=` (OAuth) or `token_verifier=` checks its callers itself."""
    return getattr(getattr(server, "settings", None), "auth", None) is not None or (
        getattr(server, "_token_verifier", None) is not None
    )


def write_header_file(name: str, access: Access) -> Path | None:
    """Write this kernel's header file for `name` (servers/header_files.py); None when it takes no lab secret."""
    from mcp_lab.servers.header_files import forget_header_file
    from mcp_lab.servers.header_files import write_header_file as write

    header = access.headers().get("Authorization")
    if header is None:
        forget_header_file(name)
        return None
    return write(name, header)
