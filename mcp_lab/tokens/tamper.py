"""The tamper experiment: variants of a real flow's token sent to the real server, beside the inspector's prediction.

Spec context: the SDK docs' "On verification failure" and "What a seal binds". Every variant below is
answered on the wire by the same frozen `-32602 Invalid or expired requestState`; the lab owns the server,
so it captures the reason the server logged and checks that `inspect_token` predicted exactly that:

flipped byte -> `seal`; other arguments or another tool -> `request binding`; another server with the same
keys -> `audience`; a token minted under a short ttl and retried late -> `expired`; a restart with a new
key -> `unknown key`; another lab user on a principal-bound server -> `principal` / `principal drift`; and
the same valid token twice -> accepted both times: the seal stops forgery, not replay before `exp`.

Scratch servers (a twin under another name, the same server after a restart, the same server with a
short ttl) are lowlevel servers with the real server's codec and policy; the real server is never
restarted or re-keyed. Nothing blocks the loop: the ttl wait is `anyio.sleep`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import anyio
import mcp.types as T
from mcp.server import Server
from mcp.server.mcpserver import AESGCMRequestStateCodec, RequestStateBoundary, RequestStateSecurity

from mcp_lab.errors import LabError
from mcp_lab.flow.flow import Flow, Round
from mcp_lab.flow.legs import send_leg
from mcp_lab.json_types import JsonObject, JsonValue
from mcp_lab.markup import MimeBundle
from mcp_lab.protocol.anatomy import AES_PREFIX
from mcp_lab.protocol.keys import KeyRing
from mcp_lab.protocol.token_parts import b64u, b64u_decode_explained
from mcp_lab.servers.adopt import boundary_of
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.sandbox import sandbox
from mcp_lab.tokens.inspector import inspect_token
from mcp_lab.tokens.principal import current_principal, set_principal
from mcp_lab.tokens.record import TamperCaseRecord, TamperRecord

__all__ = ["TamperCase", "TamperReport", "flip_byte", "tamper_lab"]

REPLAY_NOTE = (
    "accepted both times: the seal binds time, request, audience and principal, not a use count. "
    "A token replays freely until exp; if a round must be single-use, that is the server's job "
    "(e.g. remember a nonce from its own state)"
)


@dataclass
class TamperCase:
    """One variant: what changed, what the wire said, what the server logged, what was predicted."""

    case: str
    changed: str
    expected: str
    """The reason this lesson expects ("ok" when it should be accepted)."""
    wire: str
    logged: str | None
    predicted: str
    agree: bool
    note: str = ""


@dataclass
class TamperReport:
    server: str
    method: str
    target: str
    cases: list[TamperCase] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def all_agree(self) -> bool:
        return all(c.agree for c in self.cases)

    def case(self, name: str) -> TamperCase:
        return next(c for c in self.cases if c.case == name)

    def record(self) -> TamperRecord:
        return TamperRecord(
            server=self.server,
            method=self.method,
            target=self.target,
            agreed=sum(c.agree for c in self.cases),
            cases=[TamperCaseRecord.model_validate(asdict(c)) for c in self.cases],
            notes=list(self.notes),
        )

    def to_dict(self) -> JsonObject:
        return self.record().dump()

    def __repr__(self) -> str:
        agreed = sum(c.agree for c in self.cases)
        return f"<TamperReport {self.server!r} {self.target!r}: {agreed}/{len(self.cases)} predictions agree>"

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        from mcp_lab.tokens.tamper_view import tamper_bundle

        return tamper_bundle(self.record())


def flip_byte(token: str) -> str:
    """The token with one bit of its last byte (the GCM tag) flipped, still well-formed base64url."""
    if token.startswith(AES_PREFIX):
        raw, _ = b64u_decode_explained(token[len(AES_PREFIX) :])
        if raw:
            return AES_PREFIX + b64u(raw[:-1] + bytes([raw[-1] ^ 1]))
    if not token:
        return "x"
    i = len(token) // 2
    swap = {"0": "1", "1": "0", "a": "b", "b": "a", "A": "B", "B": "A"}.get(token[i], "0" if token[i] != "0" else "1")
    return token[:i] + swap + token[i + 1 :]


def _other_arguments(arguments: Mapping[str, JsonValue]) -> JsonObject:
    changed = dict(arguments)
    if not changed:
        return {"tampered": True}
    key = next(iter(changed))
    value = changed[key]
    if isinstance(value, bool):
        changed[key] = not value
    elif isinstance(value, int | float):
        changed[key] = value + 1
    elif isinstance(value, str):
        changed[key] = value + "!"
    else:
        changed[key] = "tampered"
    return changed


def _scratch(
    name: str,
    security: RequestStateSecurity,
    *,
    ring: KeyRing | None,
    ttl: float,
    inner: str,
    own_audience: bool = False,
) -> LabServer:
    """A lowlevel server with the real one's policy: it answers every carrier with state `inner`.

    `own_audience`: the scratch server stands for another service, so it never shares the real server's
    audience (a configured `audience=` included); it stamps and expects its own name.
    """

    async def ask(ctx: object, params: object) -> T.InputRequiredResult:
        return T.InputRequiredResult(request_state=inner)

    server: Server[Any] = Server(name, on_call_tool=ask, on_get_prompt=ask, on_read_resource=ask)
    codec = AESGCMRequestStateCodec(ring.secret_keys()) if ring is not None else security.codec
    policy = RequestStateSecurity(
        codec=codec,
        ttl=ttl,
        bind_principal=security.bind_principal,
        audience=None if own_audience else security.audience,
    )
    server.middleware.append(RequestStateBoundary(policy, default_audience=name))
    return LabServer(name=name, server=server, kind="lowlevel", ring=ring, ttl=ttl)


class _Bench:
    """Sends one leg through the flow engine and compares the outcome with the inspector's prediction."""

    def __init__(self, flow: Flow, entry: LabServer) -> None:
        self.flow, self.entry = flow, entry
        self.report = TamperReport(server=entry.name, method=flow.method, target=flow.target)

    async def send(self, conn: LabServer, target: str, arguments: Mapping[str, JsonValue], token: str | None) -> Round:
        probe = Flow(server=conn.name, method=self.flow.method, target=target, arguments=dict(arguments))
        probe.bind(conn)
        rnd = Round(index=0, sent_request_state=token)
        await send_leg(probe, rnd, conn, None)
        return rnd

    async def case(
        self,
        case: str,
        changed: str,
        expected: str,
        token: str,
        *,
        conn: LabServer | None = None,
        target: str | None = None,
        arguments: Mapping[str, JsonValue] | None = None,
        note: str = "",
    ) -> TamperCase:
        conn = conn or self.entry
        if boundary_of(self.entry) is None:
            expected = "ok"  # nothing checks: every variant is handed to the handler
        target = self.flow.target if target is None else target
        arguments = self.flow.arguments if arguments is None else arguments
        call = (self.flow.method, target, _as_sent(self.flow.method, arguments))
        predicted = inspect_token(token, server=conn, call=call, now=time.time()).verdict
        rnd = await self.send(conn, target, arguments, token)
        error = rnd.error or {}
        if rnd.outcome == "error":
            wire = f"{error.get('code')} {error.get('message', '')}".strip()
            logged = error.get("reason")
        else:
            wire, logged = f"accepted ({rnd.outcome})", None
        observed = logged if rnd.outcome == "error" else "ok"
        row = TamperCase(case, changed, expected, wire, logged, predicted, predicted == observed, note)
        self.report.cases.append(row)
        return row


def _as_sent(method: str, arguments: Mapping[str, JsonValue]) -> JsonObject:
    # The flow engine sends prompt arguments as strings; the binding digests what was sent.
    return {k: str(v) for k, v in arguments.items()} if method == "prompts/get" else dict(arguments)


def _flow_token(flow: Flow) -> str:
    for rnd in reversed(flow.rounds):
        if rnd.request_state is not None:
            return rnd.request_state
    raise LabError(
        "this flow carries no request_state: step it until the server asks (await flow.step()); "
        "an InputRequiredResult with questions only carries no token to tamper with"
    )


async def tamper_lab(flow: Flow, *, ttl: float = 0.3) -> TamperReport:
    """Send tampered variants of `flow`'s latest token to its sandbox server; one row per case."""
    if not isinstance(flow, Flow):
        raise LabError(f"tamper_lab takes a Flow (from mcp_lab.start/call), not {type(flow).__name__}")
    if isinstance(ttl, bool) or not isinstance(ttl, int | float) or not 0 < ttl <= 5:
        raise LabError("ttl is the scratch server's token lifetime in seconds: between 0 and 5")
    token = _flow_token(flow)
    entry = sandbox.lab_server(flow.server)  # the lab must own the server (and its keys) to tamper
    bench = _Bench(flow, entry)
    flipped = "one bit of the tag flipped" if token.startswith(AES_PREFIX) else "one character changed"
    refused = "seal" if entry.ring is not None else "the codec's refusal"
    await bench.case("flipped byte", flipped, refused, flip_byte(token))
    if flow.method != "resources/read":
        other = _other_arguments(flow.arguments)
        await bench.case("other arguments", f"arguments {other}", "request binding", token, arguments=other)
    case, changed, other_target = await _other_target(flow, entry)
    await bench.case(case, changed, "request binding", token, target=other_target)
    boundary = boundary_of(entry)
    if boundary is None:
        bench.report.notes.append("no RequestStateBoundary: the twin, ttl and restart cases need one")
    else:
        await _scratch_cases(bench, boundary._security, entry, token, ttl)  # private, pinned to mcp==2.3.0
        await _principal_cases(bench, boundary._security, token)
    first = await bench.case("replay (1st)", "nothing: the valid token", "ok", token)
    second = await bench.case("replay (2nd)", "nothing: the same token again", "ok", token)
    if boundary is not None and first.logged is None and second.logged is None:
        second.note = REPLAY_NOTE
    return bench.report


async def _other_target(flow: Flow, entry: LabServer) -> tuple[str, str, str]:
    if flow.method == "tools/call":
        names = sorted(n for n in await entry.tool_names() if n != flow.target)
        other = names[0] if names else "no_such_tool"
        return "another tool", f"tool {other!r} instead of {flow.target!r}", other
    if flow.method == "prompts/get":
        return "another prompt", "another prompt name", flow.target + "_other"
    return "another resource", "another resource URI", flow.target + "-other"


async def _scratch_cases(
    bench: _Bench, security: RequestStateSecurity, entry: LabServer, token: str, ttl: float
) -> None:
    opened = inspect_token(token, server=entry).inner_state
    inner = opened if isinstance(opened, str) and opened else "scratch"
    twin = _scratch(f"{entry.name}-twin", security, ring=entry.ring, ttl=security.ttl, inner=inner, own_audience=True)
    short = _scratch(entry.name, security, ring=entry.ring, ttl=ttl, inner=inner)
    restarted = None
    if entry.ring is not None:
        restarted = _scratch(entry.name, security, ring=KeyRing.fresh(), ttl=security.ttl, inner=inner)
    try:
        await bench.case(
            "another server", f"sent to {twin.name!r}: same keys, another name", "audience", token, conn=twin
        )
        minted = await bench.send(short, bench.flow.target, bench.flow.arguments, None)
        if minted.request_state is None:
            bench.report.notes.append(f"the short-ttl server minted no token ({minted.outcome}); expiry not shown")
        else:
            wait = ttl + 0.5  # well past exp, however busy the machine: never a near miss
            await anyio.sleep(wait)  # never time.sleep: the kernel's loop keeps serving widgets meanwhile
            await bench.case(
                "expired", f"minted with ttl {ttl:g} s, retried {wait:g} s later", "expired", minted.request_state
            )
        if restarted is not None:
            await bench.case(
                "restart, new key",
                "the server restarted with a new lab-generated key",
                "unknown key",
                token,
                conn=restarted,
            )
        else:
            bench.report.notes.append("restart case skipped: the server seals with a codec, not a lab key ring")
    finally:
        for scratch in (twin, short, restarted):
            if scratch is not None:
                await scratch.close_clients()


async def _principal_cases(bench: _Bench, security: RequestStateSecurity, token: str) -> None:
    if getattr(security.bind_principal, "mcp_lab_kind", None) != "lab":
        bench.report.notes.append("principal cases skipped: the server does not bind the lab identity")
        return
    me = current_principal()
    other = "mallory" if me != "mallory" else "eve"
    previous = set_principal(other)
    try:
        expected = "principal" if me is not None else "principal drift"
        await bench.case("another user", f"sent as {other!r}, minted for {me!r}", expected, token)
    finally:
        set_principal(previous)
    if me is not None:
        set_principal(None)
        try:
            await bench.case("no user", f"sent with no lab user, minted for {me!r}", "principal drift", token)
        finally:
            set_principal(previous)
