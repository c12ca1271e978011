"""Rolling key rotation on real processes, under load through the proxy, phase by phase.

Spec context: the SDK docs' recipe -- `[OLD, NEW]` everywhere, then `[NEW, OLD]` everywhere, then `[NEW]` one
ttl later -- "each step fully rolled out before the next". Here each step is rolled *instance by instance*, as
a deploy does it: the instance's keys file is replaced and the process reloads (SIGHUP), while a batch of
two-round flows is in flight through Caddy (each batch mints its tokens, one instance takes the step, then the
batch retries). In the right order nothing is lost; promoting NEW first (skipping `[OLD, NEW]`) loses exactly
the retries the rings predict (the rotation load runner compares every flow with its prediction).

Caddy's round-robin sends a batch's retries `flows_per_step` requests after their first legs, so each retry
lands `flows_per_step mod N` instances further on. With the default 20 over three instances that is two on:
the tokens of an instance promoted early reach one not yet updated, as they would under real traffic (a
shift of zero would keep every retry on its own minting instance, and no rollout order could ever bite).

Concurrent legs reach the proxy in whatever order the network makes, so which flow's retry meets which
instance -- and how many the wrong order loses -- changes from run to run. `ordered=True` sends each batch's
legs one after another, the retries starting with the second flow (the first comes back last): every retry
then lands on the instance just before its minting one, and with `flows_per_step` a multiple of the fleet's
size every instance mints the same share, so the counts are exactly what the rings predict, every run.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Any

from mcp_lab.errors import LabError
from mcp_lab.flow.flow import Flow, Round
from mcp_lab.given import shown
from mcp_lab.rotation.load import LoadReport, Step, run_rotation_load, tally_step
from mcp_lab.rotation.probe import PROBE_TOOL
from mcp_lab.rotation.stepper import PHASES, RotationStepper

if TYPE_CHECKING:
    from mcp_lab.deployment.fleet import ProcessFleet

__all__ = ["ordered_rotation_load", "phase_counts", "rolling_restart", "rolling_rotation", "rolling_schedule"]


def rolling_schedule(instances: int, order: str = "right") -> list[Step]:
    """Each phase rolled one instance at a time; `wrong`: NEW promoted first, `[OLD, NEW]` skipped."""
    phases = {"right": (1, 2, 3), "wrong": (2, 3)}.get(order)
    if phases is None:
        raise LabError(f"order is 'right' or 'wrong', not {order!r}")
    return [(phase, index) for phase in phases for index in range(instances)]


def phase_counts(report: LoadReport, flows_per_step: int) -> dict[str, dict[str, int]]:
    """Per phase rolled out: flows, finished and lost (a step's phase is the one its instance moved to)."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: {"flows": 0, "finished": 0, "lost": 0})
    for step in report.steps:
        moved = [after for before, after in zip(step["before"], step["after"], strict=True) if before != after]
        phase = moved[0] if moved else step["after"][0]
        counts[phase]["flows"] += flows_per_step
        counts[phase]["finished"] += flows_per_step - int(step["lost"])
        counts[phase]["lost"] += int(step["lost"])
    return {p: counts[p] for p in PHASES if p in counts}


def _keys(phase: int) -> list[str]:
    return PHASES[phase].strip("[]").split(", ")  # "[NEW, OLD]": NEW seals, both verify


def _instance(label: str | None) -> int:
    return int((label or "#0").rsplit("#", 1)[1])


def _ring_predicts(before: list[int], after: list[int], first: Round, last: Round) -> bool:
    """Whether the retry's instance (`after` the step) holds the key the minting instance sealed with."""
    return _keys(before[_instance(first.served_by)])[0] in _keys(after[_instance(last.served_by)])


async def ordered_rotation_load(
    stepper: RotationStepper, schedule: list[Step], *, flows_per_step: int, order: str
) -> LoadReport:
    """`run_rotation_load`'s batches with every leg sent in a fixed order (see the module's docstring)."""
    fleet = stepper.fleet
    report = LoadReport(order=order)
    reasons: Counter[str] = Counter()
    started = time.perf_counter()
    for phase, index in schedule:
        before = list(stepper.phases)
        batch = [Flow(server=fleet.name, method="tools/call", target=PROBE_TOOL).bind(fleet) for _ in range(flows_per_step)]
        for flow in batch:
            await flow.step()
        stepper.set_phase(phase, index)
        await fleet.settled()
        after = list(stepper.phases)
        for flow in batch[1:] + batch[:1]:
            await flow.step(answers={"probe": {"ok": True}})
        tally_step(report, reasons, batch, before, after, _ring_predicts)
    report.wall = time.perf_counter() - started
    report.reasons = dict(reasons)
    return report


async def rolling_rotation(
    fleet: ProcessFleet,
    order: str = "right",
    *,
    flows_per_step: int = 20,
    stepper: RotationStepper | None = None,
    ordered: bool = False,
) -> tuple[LoadReport, dict[str, Any]]:
    """Rotate `fleet`'s shared keys instance by instance under load; the report and its per-phase counts.
    `ordered=True`: each batch's legs one after another in a fixed order, so the counts repeat exactly."""
    if not hasattr(fleet, "shared_keys") or not hasattr(fleet, "processes"):
        raise LabError(f"rolling_rotation rolls a fleet of processes (mcp_lab.start_fleet(...)), not {shown(fleet)}")
    if not isinstance(order, str):
        raise LabError(f"order= is 'right' or 'wrong', not {shown(order)}")
    if not isinstance(ordered, bool):
        raise LabError(f"ordered= is True or False, not {shown(ordered)}")
    if stepper is not None and not isinstance(stepper, RotationStepper):
        raise LabError(f"stepper= is a RotationStepper of this fleet or None, not {shown(stepper)}")
    if not fleet.shared_keys:
        raise LabError(f"{fleet.name} runs on each process's own key: rotation needs keys= (shared keys)")
    if isinstance(flows_per_step, bool) or not isinstance(flows_per_step, int) or not 1 <= flows_per_step <= 200:
        raise LabError("flows_per_step is from 1 to 200 concurrent flows")
    stepper = stepper or RotationStepper(fleet)
    schedule = rolling_schedule(len(fleet.processes), order)
    label = f"{order} order, rolled instance by instance over {len(fleet.processes)} processes"
    if ordered:
        report = await ordered_rotation_load(stepper, schedule, flows_per_step=flows_per_step, order=label)
    else:
        report = await run_rotation_load(stepper, schedule, flows_per_step=flows_per_step, order=label)
    return report, phase_counts(report, flows_per_step)


async def rolling_restart(fleet: ProcessFleet, *, flows_per_step: int = 20) -> dict[str, Any]:
    """Restart every process in turn (a deploy) while a batch of two-round flows is in flight through the
    proxy: each batch takes its first leg, one process restarts, the batch retries. With shared keys nothing
    is lost; with the default key every retry that reaches the restarted process or a sibling of the one that
    sealed it is refused (`predicted_lost` counts those from where each leg was served)."""
    if not 1 <= flows_per_step <= 200:
        raise LabError("flows_per_step is from 1 to 200 concurrent flows")
    counts: dict[str, Any] = {"flows": 0, "finished": 0, "lost": 0, "predicted_lost": 0, "steps": []}
    reasons: Counter[str] = Counter()
    for process in list(fleet.processes):
        batch = [Flow(server=fleet.name, method="tools/call", target=PROBE_TOOL).bind(fleet) for _ in range(flows_per_step)]
        await asyncio.gather(*(flow.step() for flow in batch))
        await fleet.restart(process.index)
        await asyncio.gather(*(flow.step(answers={"probe": {"ok": True}}) for flow in batch))
        lost = [f for f in batch if f.rounds[-1].outcome != "result"]
        if not fleet.shared_keys:  # a process-local key: lost unless the retry met the very process that sealed
            counts["predicted_lost"] += sum(
                f.rounds[0].served_by != f.rounds[-1].served_by or f.rounds[-1].served_by == process.label for f in batch
            )
        reasons.update(str((f.rounds[-1].error or {}).get("reason")) for f in lost)
        counts["flows"] += len(batch)
        counts["finished"] += len(batch) - len(lost)
        counts["lost"] += len(lost)
        counts["steps"].append({"restarted": process.label, "flows": len(batch), "lost": len(lost)})
    counts["reasons"] = dict(reasons)
    return counts
