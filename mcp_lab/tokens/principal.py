"""A lab identity for principal-bound request_state: "who is calling" without setting up OAuth.

Spec context: the SDK docs' "What a seal binds" -- the authenticated principal. `RequestStateSecurity`'s
default `bind_principal=authenticated_principal` reads the OAuth access token the SDK verified
(`get_access_token()`, set per HTTP request by `AuthContextMiddleware`), and returns None on in-process and
unauthenticated transports: the lab's servers would never bind a principal. The docs' escape hatch is
`bind_principal=` fed from your own identity signal; these are two such signals:

- `lab_principal`: the user name the notebook set with `set_principal("alice")` (process-wide, so the
  in-process server task sees it too -- a contextvar set in a cell would not reach that task).
- `header_principal("x-mcp-lab-user")`: an HTTP request header (None in-process).

Either is passed as `entry.install_ring(entry.ring, bind_principal=lab_principal)`. The SDK then writes a
salted tag of the principal into the `p` claim and rejects a round whose principal differs (`principal`),
or appears or disappears (`principal drift`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp_lab.errors import LabError

__all__ = ["Principal", "current_principal", "header_principal", "lab_principal", "principal", "set_principal"]


class Principal:
    """The lab identity servers bound with `lab_principal` see: process-wide on purpose, so the in-process
    server task sees what a cell set."""

    def __init__(self) -> None:
        self.name: str | None = None


principal = Principal()
"""The kernel's one lab identity (composed by `mcp_lab.lab.Lab`)."""


def set_principal(name: str | None) -> str | None:
    """Set the lab identity servers bound with `lab_principal` see; returns the previous one."""
    if name is not None and (not isinstance(name, str) or not name):
        raise LabError("a principal is a non-empty user name (str), or None for nobody")
    previous = principal.name
    principal.name = name
    return previous


def current_principal() -> str | None:
    return principal.name


def lab_principal(ctx: object) -> str | None:
    """`bind_principal=` callback: the notebook's current lab identity."""
    return principal.name


lab_principal.mcp_lab_kind = "lab"  # type: ignore[attr-defined]


def header_principal(header: str = "x-mcp-lab-user") -> Callable[[Any], str | None]:
    """A `bind_principal=` callback reading one HTTP request header (None for in-process requests)."""
    if not isinstance(header, str) or not header.strip():
        raise LabError(f"header_principal takes an HTTP header name such as 'x-mcp-lab-user', not {header!r}")
    name = header.strip().lower()

    def from_header(ctx: object) -> str | None:
        headers = getattr(getattr(ctx, "request", None), "headers", None)
        value = headers.get(name) if headers is not None else None
        return str(value) if value else None

    from_header.mcp_lab_kind = "header"  # type: ignore[attr-defined]
    from_header.mcp_lab_header = name  # type: ignore[attr-defined]
    return from_header
