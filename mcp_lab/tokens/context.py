"""What `inspect_token` needs to know besides the token: the server's policy, the ring or codec, the call.

Spec context: the SDK docs' "Protecting requestState". A token verifies only against its server's keys,
audience (the server name, or `RequestStateSecurity(audience=...)`), principal binding and the request it
was minted for. The lab reads the first three from the sandbox server's `RequestStateBoundary` (private
`_security` / `_audience`, pinned to mcp==2.3.0) and the last from a Flow, a tuple or a dict. Whatever is
not given stays UNKNOWN, and the report says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver import AESGCMRequestStateCodec, authenticated_principal

from mcp_lab.errors import LabError
from mcp_lab.flow.flow import Flow, Round
from mcp_lab.protocol.keys import KeyRing, codec_key_ids
from mcp_lab.servers.adopt import boundary_of
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.tokens.claims import UNKNOWN, request_identity
from mcp_lab.tokens.codec import Codec, is_codec
from mcp_lab.tokens.principal import current_principal
from mcp_lab.tokens.rows import question_texts

if TYPE_CHECKING:
    from mcp_lab.servers.outside import OutsideServer

__all__ = ["INFER", "Context", "from_flow", "resolve_context"]


class _Infer:
    def __repr__(self) -> str:
        return "<infer>"


INFER: object = _Infer()
"""Default of `principal=` and `audience=`: let the lab work it out from the server."""


class RingFacts:
    """What a report says about a key ring: key ids and slots, never key material."""

    __slots__ = ("can_open", "ids")

    def __init__(self, ids: Sequence[str]) -> None:
        self.ids = tuple(ids)
        self.can_open = f"the ring's {len(self.ids)} key(s) [{', '.join(self.ids)}]: slot 0 seals, every slot opens"


class Context:
    """What the lab knows about the server and the request, resolved once per call."""

    __slots__ = (
        "audience",
        "call",
        "codec",
        "facts",
        "notes",
        "opener",
        "principal",
        "principal_assumed",
        "principal_note",
        "ring_ids",
        "server",
        "texts",
    )

    def __init__(self) -> None:
        self.server: str | None = None
        self.opener = "keyless"
        self.codec: Codec | None = None
        self.ring_ids: Sequence[str] = ()
        self.facts: RingFacts | None = None
        """Set with opener "ring": the ring's ids, slots and the checks they pass."""
        self.audience: Any = UNKNOWN
        self.principal: object = UNKNOWN
        self.principal_note = "pass server= or principal= to check it"
        self.principal_assumed = False
        self.call: tuple[str, str, str] | None = None
        self.texts: dict[str, str] | None = None
        self.notes: list[str] | None = None


@lru_cache(maxsize=32)
def _ring_codec(keys: tuple[bytes, ...]) -> AESGCMRequestStateCodec:
    return AESGCMRequestStateCodec(list(keys))


_RINGS: dict[int, tuple[KeyRing, RingFacts, list[AESGCMRequestStateCodec]]] = {}


def _ring_entry(ring: KeyRing) -> tuple[KeyRing, RingFacts, list[AESGCMRequestStateCodec]]:
    """Per ring identity (a KeyRing never changes its keys): its facts, and its SDK codec once built."""
    hit = _RINGS.get(id(ring))
    if hit is None or hit[0] is not ring:
        if len(_RINGS) >= 32:
            _RINGS.clear()
        hit = _RINGS[id(ring)] = (ring, RingFacts(ring.ids), [])
    return hit


def _ring_opener(ring: KeyRing) -> tuple[AESGCMRequestStateCodec, RingFacts]:
    """The SDK codec for a ring (built once per ring: key derivation is the slow part) and its facts."""
    _, facts, codec = _ring_entry(ring)
    if not codec:
        codec.append(_ring_codec(tuple(ring.secret_keys())))
    return codec[0], facts


def _own_ring(codec: AESGCMRequestStateCodec) -> RingFacts:
    """An adopted server's own AES-GCM ring: its ids, and that the lab opens with it in this kernel."""
    facts = RingFacts(codec_key_ids(codec))
    facts.can_open = (
        f"the server's own {len(facts.ids)} key(s) [{', '.join(facts.ids)}]: it runs in this kernel, so the lab "
        "opens with its codec; slot 0 seals, every slot opens"
    )
    return facts


def _lab_server(server: object) -> LabServer | OutsideServer:
    from mcp_lab.servers.outside import OutsideServer

    if isinstance(server, str):
        return sandbox.get(server)
    if isinstance(server, LabServer | OutsideServer):
        return server
    raise LabError(f"server= takes a sandbox server's name, LabServer or OutsideServer, not {type(server).__name__}")


def _outside(entry: OutsideServer, ctx: Context) -> None:
    """A server the lab connected to: its keys live in its own process, so the report is the keyless one."""
    ctx.server = entry.name
    where = f" ({entry.where})" if entry.where else ""
    ctx.notes = [
        f"{entry.name!r} is a server the lab connected to{where}: its keys stay with it, so only the keyless "
        "view is possible (pass ring= or codec= if you hold its keys)"
    ]


def from_flow(token: object) -> tuple[object, Flow | None]:
    """A Flow or Round given as the token: its latest sealed token, and the flow as the call."""
    if isinstance(token, str) or token is None:
        return token, None
    if isinstance(token, Round):
        return (token.request_state if token.request_state is not None else token.sent_request_state), None
    if isinstance(token, Flow):
        for rnd in reversed(token.rounds):
            if rnd.request_state is not None:
                return rnd.request_state, token
        return None, token
    return token, None


def _call_identity(call: Any, ctx: Context) -> None:
    rounds = None
    if isinstance(call, (tuple, list)) and len(call) in (2, 3):
        method, target, arguments = (*call, None) if len(call) == 2 else call
    elif isinstance(call, Mapping):
        method = call.get("method", "tools/call")
        target = call.get("target", call.get("name", call.get("uri")))
        arguments = call.get("arguments")
    elif all(hasattr(call, a) for a in ("method", "target", "arguments")):
        method, target, arguments = call.method, call.target, call.arguments
        rounds = getattr(call, "rounds", None)
        if method == "prompts/get":  # the flow engine sends prompt arguments as strings
            arguments = {k: str(v) for k, v in (arguments or {}).items()}
    else:
        raise LabError("call= takes a Flow, (method, target, arguments), or {'method', 'target', 'arguments'}")
    if not isinstance(method, str) or not isinstance(target, str):
        raise LabError("call= needs a method and a target (tool or prompt name, or resource URI) as strings")
    if arguments is not None and not isinstance(arguments, dict) and not isinstance(arguments, Mapping):
        raise LabError(f"call arguments must be a dict, not {type(arguments).__name__}")
    try:
        target, digest = request_identity(method, target, arguments)
    except (TypeError, ValueError) as exc:
        ctx.notes = [f"the call's arguments are not JSON ({exc}); request binding not checked"]
        return
    ctx.call = (method, target, digest)
    ctx.texts = question_texts(rounds)


def _principal_from(bind: object, ctx: Context) -> None:
    if bind is None:
        ctx.principal, ctx.principal_note = None, "the server binds no principal"
    elif bind is authenticated_principal:
        ctx.principal = None
        ctx.principal_note = "authenticated_principal: the lab's transports carry no OAuth token, so none"
    elif getattr(bind, "mcp_lab_kind", None) == "lab":
        ctx.principal = current_principal()
        ctx.principal_note = "the lab identity from set_principal()"
    elif getattr(bind, "mcp_lab_kind", None) == "header":
        ctx.principal_note = f"read per request from header {getattr(bind, 'mcp_lab_header', None)!r}; pass principal="
    else:
        ctx.principal_note = "a custom bind_principal computes it per request; pass principal="


def resolve_context(server: object, ring: object, codec: object, call: object, principal: object, audience: object) -> Context:
    ctx = Context()
    entry = _lab_server(server) if server is not None else None
    if entry is not None and not isinstance(entry, LabServer):
        _outside(entry, ctx)
        entry = None
    boundary = boundary_of(entry) if entry is not None else None
    if entry is not None:
        ctx.server = entry.name
        if boundary is None and ring is None and codec is None:
            ctx.opener = "unprotected"
        elif boundary is not None:
            security = boundary._security  # private, pinned to mcp==2.3.0
            ctx.audience = boundary._audience
            _principal_from(security.bind_principal, ctx)
            ctx.codec = security.codec
            ctx.opener = "codec"
            if entry.ring is not None and isinstance(security.codec, AESGCMRequestStateCodec):
                ctx.opener, ctx.facts = "ring", _ring_entry(entry.ring)[1]
                ctx.ring_ids = ctx.facts.ids
            elif isinstance(security.codec, AESGCMRequestStateCodec):  # an adopted server's own keys
                ctx.facts = _own_ring(security.codec)
                ctx.ring_ids = ctx.facts.ids
    if codec is not None:
        if not is_codec(codec):
            raise LabError("codec= needs an object with seal(bytes) -> str and unseal(str) -> bytes")
        ctx.opener, ctx.codec, ctx.ring_ids, ctx.facts = "codec", codec, (), None
    elif ring is not None:
        ctx.opener = "ring"
        ctx.codec, ctx.facts = _ring_opener(ring if isinstance(ring, KeyRing) else KeyRing.coerce(ring))
        ctx.ring_ids = ctx.facts.ids
    if entry is None and ctx.opener in ("ring", "codec"):
        ctx.principal_assumed = True
        ctx.principal_note = "assumed none (the SDK default without authentication); pass principal= to check"
    if principal is not INFER:
        if principal is not None and not isinstance(principal, str):
            raise LabError("principal= is the string the server's bind_principal returns, or None")
        ctx.principal, ctx.principal_assumed, ctx.principal_note = principal, False, "as given"
    if audience is not INFER:
        if audience is not None and not isinstance(audience, str):
            raise LabError(f"audience= is the server name the token must be bound to (str), or None, not {audience!r}")
        ctx.audience = audience
    if call is not None:
        _call_identity(call, ctx)
    return ctx
