"""Adopting a server built elsewhere: `mcp_lab.adopt(server, name=...)` and `%mcp_server NAME --from mod:attr`.

Spec context: a 2026-07-28 server seals `request_state` under its own `RequestStateSecurity` -- keys, ttl,
audience (its name, or `audience=`), principal binding -- or, a lowlevel server without the
`RequestStateBoundary`, sends it in plaintext. A developer's server is theirs: adopting it into the lab must
not change any of that. So by default the lab keeps the server's own boundary, and because the server runs
in this kernel, the lab can still reach its codec: `inspect_token` opens and verifies its tokens with the
server's own keys, and the views show their key ids (never the keys). Only on request (`take_keys=True`,
`--lab-keys`, or `keys=`) does the lab take over the key ring -- the server's audience and principal binding
stay as they were. A server running elsewhere (another process, HTTP or stdio) is connected, not adopted:
its keys are out of reach, and the views say so.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any, Literal

from mcp.server import Server
from mcp.server.mcpserver import MCPServer, RequestStateBoundary
from typing_extensions import TypeIs

from mcp_lab.errors import LabError
from mcp_lab.protocol.keys import KeyRing, checked_ttl, codec_key_ids
from mcp_lab.servers.lab_server import LabServer, check_name
from mcp_lab.servers.log_book import contained, take_sdk_handlers
from mcp_lab.servers.sandbox import sandbox

__all__ = ["adopt", "adoption_note", "boundary_of", "is_server", "load_server", "offers_nothing", "sealing_of"]


def is_server(value: object) -> TypeIs[MCPServer | Server[Any]]:
    return isinstance(value, MCPServer | Server)


def offers_nothing(server: object) -> bool:
    """An MCPServer with no tool, prompt, resource or template registered (its managers: private, mcp==2.3.0)."""
    if not isinstance(server, MCPServer):
        return False
    resources = server._resource_manager
    return not (
        server._tool_manager.list_tools()
        or server._prompt_manager.list_prompts()
        or resources.list_resources()
        or resources.list_templates()
    )


def boundary_of(entry: LabServer) -> RequestStateBoundary | None:
    """The RequestStateBoundary in a sandbox server's middleware chain (None: plaintext state)."""
    for middleware in entry.lowlevel.middleware:
        if isinstance(middleware, RequestStateBoundary):
            return middleware
    return None


def sealing_of(entry: LabServer) -> tuple[str, list[str], float | None]:
    """How `entry` protects its request_state, for views: (description, key ids, ttl in seconds)."""
    if entry.ring is not None:
        return ("lab-generated key" if entry.ring.generated else "given keys"), list(entry.ring.ids), entry.ttl
    boundary = boundary_of(entry)
    if boundary is None:
        return "plaintext (no boundary)", [], None
    security = boundary._security  # private, pinned to mcp==2.3.0
    ids = codec_key_ids(security.codec)
    if ids:
        return "its own keys", ids, float(security.ttl)
    return f"its own codec ({type(security.codec).__name__})", [], float(security.ttl)


def adoption_note(entry: LabServer) -> str:
    """One line: what the lab can see of an adopted server's tokens, and how to change it."""
    described, ids, _ = sealing_of(entry)
    boundary = boundary_of(entry)
    audience = f" and audience {boundary._audience!r}" if boundary is not None else ""
    if entry.ring is not None:
        return (
            f"{entry.name!r} seals under a ring the lab holds [{', '.join(ids)}]{audience}; "
            "tokens it minted before adoption no longer verify"
        )
    if boundary is None:
        return (
            f"{entry.name!r} has no RequestStateBoundary: its request_state travels in plaintext "
            "(take_keys=True / --lab-keys adds one under a lab-held ring)"
        )
    if ids:
        return (
            f"{entry.name!r} keeps its own request_state keys [{', '.join(ids)}]{audience}; the lab reaches them "
            "in this kernel, so inspect_token opens its tokens (take_keys=True / --lab-keys hands the ring to the lab)"
        )
    return (
        f"{entry.name!r} keeps {described}{audience}: the lab cannot "
        "read its keys, so it opens tokens only through that codec's unseal()"
    )


def _called(factory: Callable[[], object], label: str, name: str) -> object:
    with contained(name):
        try:
            return factory()
        except TypeError as exc:
            if "argument" in str(exc):
                raise LabError(f"{label} is neither a server nor a zero-argument factory ({exc})") from None
            raise LabError(f"{label}() raised TypeError: {exc}") from None
        except Exception as exc:
            raise LabError(f"{label}() raised {type(exc).__name__}: {exc}") from None


def load_server(spec: str, name: str, *, reload: bool = False) -> MCPServer | Server[Any]:
    """`module:attribute` -> the server object it names (an attribute that is a factory is called once, with
    no arguments). The import and the call run with the server's logging contained (log_book)."""
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise LabError(f"--from takes module:attribute (e.g. myserver:mcp or myserver:build_server), not {spec!r}")
    with contained(name):
        try:
            module = sys.modules.get(module_name)
            if module is not None and reload:  # re-running the cell picks up an edited file
                module = importlib.reload(module)
            elif module is None:
                module = importlib.import_module(module_name)
        except Exception as exc:
            raise LabError(f"--from {spec}: importing {module_name!r} raised {type(exc).__name__}: {exc}") from None
    value: object = module
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise LabError(f"--from {spec}: {module_name!r} has no attribute {attribute!r}")
        value = getattr(value, part)
    if not is_server(value) and callable(value):
        value = _called(value, f"{module_name}:{attribute}", name)
    if not is_server(value):
        raise LabError(f"--from {spec}: that is a {type(value).__name__}, not an MCPServer or a lowlevel Server")
    return value


def adopt(
    server: object,
    name: str | None = None,
    *,
    take_keys: bool = False,
    keys: object = None,
    ttl: float | None = None,
) -> LabServer:
    """Bring a server built in Python (an `MCPServer`, a lowlevel `Server`, or a zero-argument factory of one)
    into the lab as `name` (default: the server's own name); re-adopting under a name replaces that server.

    The server keeps its own request_state security (keys, ttl, audience, principal binding) unless
    `take_keys=True` (a fresh lab-held ring) or `keys=` (that ring): then only its keys (and, with `ttl=`, its
    token lifetime) change. Its logging set-up is taken off the root logger (`%mcp_server log NAME`).
    """
    if not isinstance(take_keys, bool):
        raise LabError(f"take_keys= is True or False, not {take_keys!r}")
    if ttl is not None and not (take_keys or keys is not None):
        raise LabError("ttl= changes how the server seals: it needs take_keys=True or keys= (the lab's ring)")
    given = None if keys is None else KeyRing.coerce(keys)  # checked before anything about the server changes
    if ttl is not None:
        checked_ttl(ttl)
    if name is not None and name != "":  # "" means the server's own name, as None does
        check_name(name)
    if not is_server(server) and callable(server):
        server = _called(server, getattr(server, "__name__", "the factory"), name or "adopted")
    if not is_server(server):
        raise LabError(f"adopt() takes an MCPServer, a lowlevel Server or a zero-argument factory, not {type(server).__name__}")
    label = str(name or server.name)
    check_name(label)
    kind: Literal["mcpserver", "lowlevel"] = "mcpserver" if isinstance(server, MCPServer) else "lowlevel"
    entry = LabServer(name=label, server=server, kind=kind, ring=None)
    if isinstance(server, MCPServer):
        take_sdk_handlers(label)  # MCPServer(log_level="INFO") put a handler on the root logger when it was built
    boundary = boundary_of(entry)
    if boundary is not None:
        entry.ttl = float(boundary._security.ttl)
    if take_keys or keys is not None:
        ring = given or KeyRing.fresh()
        policy: dict[str, Any] = {}
        if boundary is not None:  # only the keys change: the audience and the principal binding stay the server's
            policy = {"audience": boundary._audience, "bind_principal": boundary._security.bind_principal}
        entry.install_ring(ring, ttl=ttl if ttl is not None else entry.ttl, **policy)
    return sandbox.register(entry)
