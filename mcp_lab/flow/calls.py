"""The Python API behind the magics: start a flow against a sandbox server and run it.

Spec context: the three methods that may answer with `InputRequiredResult` on 2026-07-28 -- `tools/call`,
`prompts/get`, and `resources/read` of a template resource. Each function returns the `Flow`, whatever
happened: a server error, a round cap or a missing answer is recorded in it (and shown by its view)
rather than raised, so no work is lost; `flow.raise_for_status()` turns it into an exception.
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping

from mcp import MCPError
from mcp.types import METHOD_NOT_FOUND

from mcp_lab.bounded_json import check_text
from mcp_lab.errors import LabError
from mcp_lab.flow.answers import Answerer, ChainAnswerer, ScriptedAnswerer
from mcp_lab.flow.flow import Connection, Flow, running_message
from mcp_lab.flow.history import history
from mcp_lab.flow.interrupts import before_first_leg, run_interruptibly
from mcp_lab.given import plain_arguments, wire_arguments
from mcp_lab.json_types import JsonValue
from mcp_lab.protocol.eras import LEGACY, MODERN
from mcp_lab.protocol.limits import DEFAULT_MAX_ROUNDS, check_max_rounds, check_timeout
from mcp_lab.servers.sandbox import sandbox

__all__ = ["call", "flows", "get_prompt", "last", "read_resource", "resume", "run_flow", "start"]

flows = history.flows
"""Every flow this kernel started or resumed, newest last (kept even when `f = await ...` never assigned)."""


def last() -> Flow | None:
    """The flow this kernel started or resumed last -- also one that was interrupted before it returned."""
    return history.last()


def _answerer(answers: Mapping[str, JsonValue] | Answerer | None) -> tuple[Answerer | None, ScriptedAnswerer | None]:
    if answers is None:
        chain: list[Answerer] = []
        scripted = None
    elif type(answers) is dict or isinstance(answers, Mapping):  # ABCs' isinstance costs a call: dict first
        scripted = ScriptedAnswerer(answers)
        chain = [scripted]
    elif isinstance(answers, Answerer):
        return ChainAnswerer([answers, *history.fallback_answerers]), None
    else:
        raise LabError(
            f"answers must be a dict keyed by input-request key or an Answerer, not {type(answers).__name__}"
        )
    chain.extend(history.fallback_answerers)
    if len(chain) == 1 and chain[0] is scripted:  # a chain of one answers, and labels, as that one does
        return scripted, scripted
    return (ChainAnswerer.of(chain) if chain else None), scripted


def _connection(server: str | Connection) -> Connection:
    if isinstance(server, str):
        return sandbox.get(server)
    if not callable(getattr(server, "session", None)) or not isinstance(getattr(server, "name", None), str):
        raise LabError(f"server must be a server's name (str) or a connection, not {type(server).__name__}")
    return server


async def _listing_note(connection: Connection, target: str) -> str | None:
    """A tool the client's listing lacks is still sent: the server decides (the spec lets a client call a tool
    it has not listed; a mock may list none). The note says why the lab could not check it first: absent from
    the server's tools/list, or listed but dropped by the SDK's client for an invalid `x-mcp-header` mark."""
    tool_names = getattr(connection, "tool_names", None)
    if tool_names is None:
        return None
    try:
        names: set[str] = await tool_names()
        if target not in names:
            names = await tool_names(refresh=True)
    except MCPError as exc:
        if exc.error.code == METHOD_NOT_FOUND:  # e.g. a lowlevel Server without on_list_tools
            return None
        return f"tools/list failed ({exc.error.code} {exc.error.message}); {target!r} sent anyway: the server decides"
    if target in names:
        return None
    dropped = await _dropped_for(connection, target)
    if dropped is not None:
        return (
            f"the SDK client dropped {target!r} from its tool listing: {dropped} -- sent anyway without "
            "Mcp-Param-* headers for it; the server decides (%mcp_describe shows the mark)"
        )
    listed = ", ".join(sorted(names)) or "none"
    return f"{target!r} is not in the tools/list of {connection.name!r} (tools: {listed}): sent anyway, the server decides"


async def _dropped_for(connection: Connection, target: str) -> str | None:
    """Why the SDK's client dropped `target` (an invalid x-mcp-header), when the raw listing has it."""
    from mcp.shared.inbound import find_invalid_x_mcp_header

    from mcp_lab.servers.listing import raw_tool_listing

    try:
        _, _, tools = await raw_tool_listing(connection)
    except Exception:  # the raw listing is only for the explanation
        return None
    for tool in tools:
        if tool.get("name") == target and isinstance(tool.get("inputSchema"), dict):
            reason = find_invalid_x_mcp_header(tool["inputSchema"])
            return f"invalid x-mcp-header ({reason})" if reason else "listed, but not kept by the client"
    return None


async def start(
    server: str | Connection,
    method: str,
    target: str,
    arguments: Mapping[str, JsonValue] | None = None,
    *,
    answers: Mapping[str, JsonValue] | Answerer | None = None,
    legacy: bool = False,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
) -> Flow:
    """A bound, not yet started flow (step it yourself, or `await flow.run()`)."""
    flow = _started(server, method, target, arguments, answers, legacy, max_rounds)
    return flow if isinstance(flow, Flow) else await flow


def _started(
    server: str | Connection,
    method: str,
    target: str,
    arguments: Mapping[str, JsonValue] | None,
    answers: Mapping[str, JsonValue] | Answerer | None,
    legacy: bool,
    max_rounds: int,
) -> Flow | Awaitable[Flow]:
    """`start(...)`: the flow, checked, bound and remembered -- or, when the tool must be looked up in the
    server's listing first, the coroutine that does so (most calls need none: no coroutine of their own)."""
    if arguments is not None and type(arguments) is not dict and not isinstance(arguments, Mapping):
        raise LabError(f"arguments must be a dict, not {type(arguments).__name__}")
    if not isinstance(legacy, bool):
        raise LabError(f"legacy= is True or False, not {legacy!r}")
    sent = plain_arguments(arguments)  # what the server receives (NaN: null), hence what is recorded and saved
    if sent is None:
        check_text(arguments, "the arguments")  # a lone surrogate (or too deep a value) named before the JSON fails
        sent = wire_arguments(arguments or {})
    if not isinstance(target, str) or not target:
        raise LabError(f"the tool, prompt or URI must be a non-empty str, not {target!r}")
    check_max_rounds(max_rounds)
    answerer, scripted = _answerer(answers)  # checked before anything is sent
    connection = _connection(server)
    # A connection made with --legacy speaks 2025-11-25 only (connect.py): its flows use the back channel.
    era = LEGACY if legacy or getattr(connection, "legacy_only", False) else MODERN
    flow = Flow.new(connection.name, method, target, sent, era, max_rounds).bind(connection, answerer, scripted)
    # A tool the last listing holds needs neither a listing nor a note.
    if method == "tools/call" and target not in getattr(connection, "listed", ()):
        return _listed(flow, connection, target)
    history.remember(flow, new=True)
    return flow


async def _listed(flow: Flow, connection: Connection, target: str) -> Flow:
    """The rest of `start` for a tool the last listing lacks: the listing may connect first, and Interrupt
    during it ends the call as later."""
    note = await before_first_leg(flow, _listing_note(connection, target))
    if note is not None:
        flow.notes.append(note)
    history.remember(flow, new=True)
    return flow


def run_flow(flow: Flow, timeout: float | None) -> Awaitable[Flow]:
    """Run `flow` until it ends or stops (interruptible; unused scripted answers are named afterwards)."""
    return _run(flow, check_timeout(timeout))


async def _run(flow: Flow | Awaitable[Flow], timeout: float | None) -> Flow:
    """`run_flow`, its `timeout` checked; `flow` may be the coroutine that starts it (`_started`'s), awaited
    here: `call` and its kin hand theirs over rather than awaiting in a coroutine of their own, around the
    legs (each leg resumes through every coroutine it runs in)."""
    if not isinstance(flow, Flow):
        flow = await flow
    try:
        await run_interruptibly(flow, timeout)
    finally:  # however the flow stopped (done, failed, interrupted, waiting for an answer)
        note_unused_answers(flow)
        history.finished(flow)
    return flow


def note_unused_answers(flow: Flow) -> None:
    """A scripted answer no question matched is usually a typo: say so in the flow's notes, once."""
    unused = flow.unused_answers()
    if not unused:
        return
    asked = sorted({key for rnd in flow.rounds for key in rnd.input_requests or {}})
    note = f"answers given for keys never asked: {', '.join(unused)}" + (
        f" (asked: {', '.join(asked)})" if asked else ""
    )
    if note not in flow.notes:
        flow.notes.append(note)


def call(
    server: str | Connection,
    tool: str,
    arguments: Mapping[str, JsonValue] | None = None,
    *,
    answers: Mapping[str, JsonValue] | Answerer | None = None,
    legacy: bool = False,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    timeout: float | None = None,
) -> Awaitable[Flow]:
    """Call `tool` on a sandbox server, answering its questions: awaited, the recorded `Flow`. (Its arguments
    are checked as it is called; it hands back the coroutine that runs the flow, with none of its own around
    the legs.)"""
    timeout = check_timeout(timeout)
    return _run(_started(server, "tools/call", tool, arguments, answers, legacy, max_rounds), timeout)


def get_prompt(
    server: str | Connection,
    prompt: str,
    arguments: Mapping[str, JsonValue] | None = None,
    *,
    answers: Mapping[str, JsonValue] | Answerer | None = None,
    legacy: bool = False,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    timeout: float | None = None,
) -> Awaitable[Flow]:
    """`prompts/get`, which may ask like a tool does (awaited, as `call`)."""
    timeout = check_timeout(timeout)
    return _run(_started(server, "prompts/get", prompt, arguments, answers, legacy, max_rounds), timeout)


def read_resource(
    server: str | Connection,
    uri: str,
    *,
    answers: Mapping[str, JsonValue] | Answerer | None = None,
    legacy: bool = False,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    timeout: float | None = None,
) -> Awaitable[Flow]:
    """`resources/read`: template resources may ask; static resources cannot (awaited, as `call`)."""
    timeout = check_timeout(timeout)
    return _run(_started(server, "resources/read", uri, None, answers, legacy, max_rounds), timeout)


async def resume(
    saved: str | Flow | Mapping[str, JsonValue],
    *,
    answers: Mapping[str, JsonValue] | Answerer | None = None,
    server: str | Connection | None = None,
    step: bool = False,
    timeout: float | None = None,
) -> Flow:
    """Continue a flow written down with `flow.to_json()` -- possibly by another process.

    The server must accept the echoed token: the same name (audience) and a ring that holds the sealing key.
    """
    timeout = check_timeout(timeout)
    if isinstance(saved, str):
        flow = Flow.from_json(saved)
    elif isinstance(saved, Flow):
        flow = saved
    elif isinstance(saved, Mapping):
        flow = Flow.from_dict(saved)
    else:
        raise LabError(f"resume takes a Flow, flow.to_dict() or the text of flow.to_json(), not {type(saved).__name__}")
    # Before binding (the running driver keeps its connection); a copy (flow.to_json()) of a flow this kernel
    # is running counts too: its next leg would run the same tool again.
    if flow.running or flow.id in history.running or any(f.id == flow.id and f.running for f in history.flows):
        raise LabError(running_message(flow))
    restart = flow.status == "error" and flow.last is not None and flow.last.state_rejected
    if flow.done and not restart:
        raise LabError(f"flow {flow.id} already ended ({flow.status}); nothing to resume")
    answerer, scripted = _answerer(answers)
    flow.bind(_connection(server if server is not None else flow.server), answerer, scripted)
    if flow.status in ("stopped", "interrupted"):
        flow.status = "input_required" if flow.request_state is not None else "new"
        flow.stop_reason = None
    elif restart:  # its token was refused (START_OVER_HINT): the next leg sends the original request afresh
        flow.status = "new"
        flow.notes.append(f"started over after leg {len(flow.rounds)}: its request_state was refused")
    if step:
        history.remember(flow)
        await flow.step()
        return flow
    return await run_flow(flow, timeout)
