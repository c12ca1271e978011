"""Key rotation, one phase at a time, measured on real server instances.

Spec context: the SDK docs' key rotation -- `keys[0]` seals, every key in the ring unseals, and a
zero-downtime rotation is three steps, each fully rolled out before the next:
`[OLD]` -> `[OLD, NEW]` (every instance can verify NEW) -> `[NEW, OLD]` (NEW starts sealing) ->
`[NEW]` (OLD retired, at least one TTL after the previous step finished).

The matrix is never a lookup table: for each phase a server with that phase's ring mints a real token
(the first leg of the probe tool), and every instance is asked to accept it (the second leg, sent to that
instance only); a cell is the instance's actual answer and, when it refuses, the reason it logged.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypedDict

import mcp.types as T
from mcp import MCPError

from mcp_lab.errors import LabError
from mcp_lab.flow.flow import Connection, Flow
from mcp_lab.json_types import JsonObject
from mcp_lab.markup import MimeBundle
from mcp_lab.protocol.eras import MODERN
from mcp_lab.protocol.keys import KeyRing, checked_key
from mcp_lab.rotation.fleet import PROBE_TOOL, add_probe_tool
from mcp_lab.rotation.record import CellRecord, RotationRecord
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.outside import OutsideServer
from mcp_lab.servers.sandbox import sandbox

__all__ = [
    "PHASES",
    "Cell",
    "RotatingFleet",
    "RotationMatrix",
    "RotationStepper",
    "mint_token",
    "phase_ring",
    "verify_token",
]

PHASES = ("[OLD]", "[OLD, NEW]", "[NEW, OLD]", "[NEW]")
_PROBE_ANSWER: T.InputResponses = {"probe": T.ElicitResult(action="accept", content={"ok": True})}


class RotatingFleet(Connection, Protocol):
    """What the stepper rotates: the in-process `Fleet`, or a fleet of real processes (mcp_lab.deployment)."""

    @property
    def instances(self) -> Sequence[LabServer | OutsideServer]: ...

    def set_ring(self, index: int, ring: KeyRing) -> None: ...

    def route(self) -> object: ...

    async def settled(self) -> None:
        """Return once every instance runs on the ring `set_ring` last gave it."""
        ...


def phase_ring(phase: int, old: bytes, new: bytes) -> KeyRing:
    """The ring an instance holds in `phase` (0..3)."""
    keys = ([old], [old, new], [new, old], [new])[phase]
    return KeyRing(keys)


@dataclass
class Cell:
    accepted: bool
    reason: str | None = None
    """The instance's logged reason when it refused (e.g. `unknown key`)."""

    @property
    def mark(self) -> str:
        return "✔" if self.accepted else f"✘ {self.reason or 'rejected'}"


@dataclass
class RotationMatrix:
    """Which instance (row) accepts a token minted in which phase (column)."""

    title: str
    rows: list[str]
    columns: list[str]
    cells: list[list[Cell]]
    notes: list[str] = field(default_factory=list)

    def record(self) -> RotationRecord:
        return RotationRecord(
            title=self.title,
            rows=list(self.rows),
            columns=list(self.columns),
            cells=[[CellRecord(accepted=c.accepted, reason=c.reason, mark=c.mark) for c in row] for row in self.cells],
            notes=list(self.notes),
        )

    def to_dict(self) -> JsonObject:
        return self.record().dump()

    def accepted(self) -> list[list[bool]]:
        return [[c.accepted for c in row] for row in self.cells]

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        from mcp_lab.rotation.view import matrix_bundle

        return matrix_bundle(self.record())


async def mint_token(name: str, ring: KeyRing, ttl: float = 600.0) -> str:
    """A real token: the probe's first leg on a scratch server named `name` holding `ring`."""
    minter = sandbox.new_mcpserver(name, keys=ring, ttl=ttl)
    add_probe_tool(minter.server)  # type: ignore[arg-type]
    try:
        session = await minter.session(MODERN)
        first = await session.call_tool(PROBE_TOOL, None, allow_input_required=True)
        assert isinstance(first, T.InputRequiredResult) and first.request_state is not None
        return first.request_state
    finally:
        await minter.close_clients()


async def verify_token(instance: LabServer | OutsideServer, token: str) -> Cell:
    """Send `token` as the probe's second leg to `instance`; its verdict and logged reason."""
    session = await instance.session(MODERN)
    refused: MCPError | None = None
    with instance.capture() as capture:
        try:
            result = await session.call_tool(
                PROBE_TOOL, None, input_responses=_PROBE_ANSWER, request_state=token, allow_input_required=True
            )
        except MCPError as exc:
            refused = exc
    if refused is not None:  # read once the leg is over: an instance in another process logs it by then
        reason = capture.server_log[-1].rsplit(": ", 1)[-1] if capture.server_log else refused.error.message
        return Cell(accepted=False, reason=reason)
    return Cell(accepted=isinstance(result, T.CallToolResult) and not result.is_error)


class InFlightOutcome(TypedDict):
    """What became of one in-flight probe flow when its retry went through the router."""

    flow: str
    minted_by: str | None
    retried_on: str | None
    outcome: Literal["finished", "dropped"]
    reason: str | None


class PhaseStep(TypedDict):
    """One step of the rollout as `history` keeps it."""

    phases: list[int]
    matrix: JsonObject
    in_flight: list[InFlightOutcome]


def _text(value: object) -> str | None:
    return None if value is None else str(value)


class RotationStepper:
    """Walks a fleet through the three rotation steps; records a matrix and the in-flight flows at each."""

    def __init__(self, fleet: RotatingFleet, *, old: bytes | None = None, new: bytes | None = None) -> None:
        if not all(hasattr(fleet, attr) for attr in ("instances", "set_ring", "route")):
            raise LabError(f"RotationStepper walks a fleet (mcp_lab.Fleet(...) or mcp_lab.start_fleet(...)), not {type(fleet).__name__}")
        self.fleet = fleet
        self._old = os.urandom(32) if old is None else checked_key(old, "old=")
        self._new = os.urandom(32) if new is None else checked_key(new, "new=")
        if self._old == self._new:
            raise LabError("old= and new= are the same key: a rotation moves to a different key")
        self.old_id = KeyRing([self._old]).ids[0]
        self.new_id = KeyRing([self._new]).ids[0]
        self.phases = [0] * len(fleet.instances)
        for i in range(len(fleet.instances)):
            fleet.set_ring(i, phase_ring(0, self._old, self._new))
        self.in_flight: list[Flow] = []
        self.history: list[PhaseStep] = []

    @property
    def done(self) -> bool:
        return all(p == len(PHASES) - 1 for p in self.phases)

    def describe(self) -> str:
        return ", ".join(f"#{i} {PHASES[p]}" for i, p in enumerate(self.phases))

    def set_phase(self, phase: int, instance: int | None = None) -> None:
        """Put one instance (or all) in `phase` -- also out of order, to show what that breaks."""
        if isinstance(phase, bool) or not isinstance(phase, int) or not 0 <= phase < len(PHASES):
            raise LabError(f"phase is 0..{len(PHASES) - 1} ({', '.join(PHASES)}), not {phase!r}")
        if instance is not None and (
            isinstance(instance, bool) or not isinstance(instance, int) or not 0 <= instance < len(self.phases)
        ):
            raise LabError(f"instance {instance!r} does not exist (0..{len(self.phases) - 1})")
        targets = range(len(self.phases)) if instance is None else [instance]
        for i in targets:
            self.phases[i] = phase
            self.fleet.set_ring(i, phase_ring(phase, self._old, self._new))

    async def start_flows(self, count: int) -> list[Flow]:
        """Start `count` probe flows through the router; each stops after its first leg, token in hand."""
        started = []
        for _ in range(count):
            flow = Flow(server=self.fleet.name, method="tools/call", target=PROBE_TOOL)
            flow.bind(self.fleet)
            await flow.step()
            started.append(flow)
        self.in_flight.extend(started)
        return started

    async def continue_flows(self) -> list[InFlightOutcome]:
        """Send every in-flight flow's retry through the router; report which finished and which were dropped."""
        await self.fleet.settled()
        outcomes: list[InFlightOutcome] = []
        for flow in self.in_flight:
            if flow.status != "input_required":
                continue
            await flow.step(answers={"probe": {"ok": True}})
            last, first = flow.rounds[-1], flow.rounds[0]
            outcomes.append(
                {
                    "flow": flow.id,
                    "minted_by": first.served_by,
                    "retried_on": last.served_by,
                    "outcome": "finished" if last.outcome == "result" else "dropped",
                    "reason": _text((last.error or {}).get("reason")),
                }
            )
        return outcomes

    async def matrix(self, title: str | None = None) -> RotationMatrix:
        # The token's audience is the server's name (a fleet of processes may be registered under another).
        audience = str(getattr(self.fleet, "audience", self.fleet.name))
        await self.fleet.settled()
        tokens = [await mint_token(audience, phase_ring(p, self._old, self._new)) for p in range(len(PHASES))]
        rows, cells = [], []
        for i, instance in enumerate(self.fleet.instances):
            rows.append(f"#{i} {PHASES[self.phases[i]]}")
            cells.append([await verify_token(instance, token) for token in tokens])
        columns = [f"minted in {p}" for p in PHASES]
        notes = [f"OLD = key {self.old_id}, NEW = key {self.new_id}"]
        return RotationMatrix(title or self.describe(), rows, columns, cells, notes)

    async def next_phase(self, instance: int | None = None) -> RotationMatrix:
        """Roll the next step to every instance (or just `instance`: a partial rollout); measure again."""
        targets = range(len(self.phases)) if instance is None else [instance]
        for i in targets:
            self.set_phase(min(self.phases[i] + 1, len(PHASES) - 1), i)
        outcomes = await self.continue_flows()
        matrix = await self.matrix()
        self.history.append({"phases": list(self.phases), "matrix": matrix.to_dict(), "in_flight": outcomes})
        return matrix
