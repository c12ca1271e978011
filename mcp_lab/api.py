"""The Python API behind the magics: start a flow against a sandbox server and run it.

Spec context: the three methods that may answer with `InputRequiredResult` on 2026-07-28 -- `tools/call`,
`prompts/get`, and `resources/read` of a template resource. Each function returns the `Flow`, whatever
happened: a server error, a round cap or a missing answer is recorded in it (and shown by its view)
rather than raised, so no work is lost; `flow.raise_for_status()` turns it into an exception.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcp_lab.answers import Answerer, ChainAnswerer, ScriptedAnswerer
from mcp_lab.errors import LabError
from mcp_lab.flow import DEFAULT_MAX_ROUNDS, LEGACY, MODERN, Connection, Flow
from mcp_lab.interrupts import run_interruptibly
from mcp_lab.lab import lab
from mcp_lab.sandbox import sandbox

__all__ = ["call", "flows", "get_prompt", "last", "read_resource", "resume", "start"]

flows = lab.flows
"""Every flow this kernel started or resumed, newest last (kept even when `f = await ...` never assigned)."""


def last() -> Flow | None:
    """The flow this kernel started or resumed last -- also one that was interrupted before it returned."""
    return lab.last()


fallback_answerers: list[Answerer] = []
"""Answerers consulted when no scripted answer covers a request (mcp_lab.forms registers the live form)."""


def _answerer(answers: Mapping[str, Any] | Answerer | None) -> tuple[Answerer | None, ScriptedAnswerer | None]:
    if answers is None:
        chain: list[Answerer] = []
        scripted = None
    elif isinstance(answers, Mapping):
        scripted = ScriptedAnswerer(answers)
        chain = [scripted]
    elif isinstance(answers, Answerer):
        return ChainAnswerer([answers, *fallback_answerers]), None
    else:
        raise LabError(
            f"answers must be a dict keyed by input-request key or an Answerer, not {type(answers).__name__}"
        )
    chain.extend(fallback_answerers)
    return (ChainAnswerer(chain) if chain else None), scripted


def _connection(server: str | Connection) -> Connection:
    return sandbox.get(server) if isinstance(server, str) else server


async def start(
    server: str | Connection,
    method: str,
    target: str,
    arguments: Mapping[str, Any] | None = None,
    *,
    answers: Mapping[str, Any] | Answerer | None = None,
    legacy: bool = False,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
) -> Flow:
    """A bound, not yet started flow (step it yourself, or `await flow.run()`)."""
    if arguments is not None and not isinstance(arguments, Mapping):
        raise LabError(f"arguments must be a dict, not {type(arguments).__name__}")
    connection = _connection(server)
    if method == "tools/call":
        tool_names = getattr(connection, "tool_names", None)
        if tool_names is not None:
            names: set[str] = await tool_names()
            if target not in names:
                names = await tool_names(refresh=True)
            if target not in names:
                listed = ", ".join(sorted(names)) or "none"
                raise LabError(f"server {connection.name!r} has no tool {target!r} (tools: {listed})")
    flow = Flow(
        server=connection.name,
        method=method,
        target=target,
        arguments=dict(arguments or {}),
        # A connection made with --legacy speaks 2025-11-25 only (connect.py): its flows use the back channel.
        era=LEGACY if legacy or getattr(connection, "legacy_only", False) else MODERN,
        max_rounds=max_rounds,
    )
    answerer, scripted = _answerer(answers)
    flow.bind(connection, answerer)
    flow._scripted = scripted  # type: ignore[attr-defined, assignment]
    lab.remember(flow, new=True)
    return flow


async def _run(flow: Flow, timeout: float | None) -> Flow:
    await run_interruptibly(flow, lambda: flow.run(timeout=timeout))
    unused = flow.unused_answers()
    if unused and flow.done:
        flow.notes.append(f"answers given for keys never asked: {', '.join(unused)}")
    return flow


async def call(
    server: str | Connection,
    tool: str,
    arguments: Mapping[str, Any] | None = None,
    *,
    answers: Mapping[str, Any] | Answerer | None = None,
    legacy: bool = False,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    timeout: float | None = None,
) -> Flow:
    """Call `tool` on a sandbox server, answering its questions; returns the recorded `Flow`."""
    flow = await start(server, "tools/call", tool, arguments, answers=answers, legacy=legacy, max_rounds=max_rounds)
    return await _run(flow, timeout)


async def get_prompt(
    server: str | Connection,
    prompt: str,
    arguments: Mapping[str, Any] | None = None,
    *,
    answers: Mapping[str, Any] | Answerer | None = None,
    legacy: bool = False,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    timeout: float | None = None,
) -> Flow:
    """`prompts/get`, which may ask like a tool does."""
    flow = await start(server, "prompts/get", prompt, arguments, answers=answers, legacy=legacy, max_rounds=max_rounds)
    return await _run(flow, timeout)


async def read_resource(
    server: str | Connection,
    uri: str,
    *,
    answers: Mapping[str, Any] | Answerer | None = None,
    legacy: bool = False,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    timeout: float | None = None,
) -> Flow:
    """`resources/read`: template resources may ask; static resources cannot."""
    flow = await start(server, "resources/read", uri, None, answers=answers, legacy=legacy, max_rounds=max_rounds)
    return await _run(flow, timeout)


async def resume(
    saved: str | Flow,
    *,
    answers: Mapping[str, Any] | Answerer | None = None,
    server: str | Connection | None = None,
    step: bool = False,
    timeout: float | None = None,
) -> Flow:
    """Continue a flow written down with `flow.to_json()` -- possibly by another process.

    The server must accept the echoed token: the same name (audience) and a ring that holds the sealing key.
    """
    flow = Flow.from_json(saved) if isinstance(saved, str) else saved
    if flow.done:
        raise LabError(f"flow {flow.id} already ended ({flow.status}); nothing to resume")
    answerer, scripted = _answerer(answers)
    flow.bind(_connection(server if server is not None else flow.server), answerer)
    flow._scripted = scripted  # type: ignore[attr-defined, assignment]
    if flow.status in ("stopped", "interrupted"):
        flow.status = "input_required" if flow.request_state is not None else "new"
        flow.stop_reason = None
    if step:
        lab.remember(flow)
        await flow.step()
        return flow
    return await _run(flow, timeout)
