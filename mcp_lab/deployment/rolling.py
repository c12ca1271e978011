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
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from mcp_lab.errors import LabError
from mcp_lab.rotation.load import LoadReport, Step, run_rotation_load
from mcp_lab.rotation.stepper import PHASES, RotationStepper

if TYPE_CHECKING:
    from mcp_lab.deployment.fleet import ProcessFleet

__all__ = ["phase_counts", "rolling_rotation", "rolling_schedule"]


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


async def rolling_rotation(
    fleet: ProcessFleet,
    order: str = "right",
    *,
    flows_per_step: int = 20,
    stepper: RotationStepper | None = None,
) -> tuple[LoadReport, dict[str, Any]]:
    """Rotate `fleet`'s shared keys instance by instance under load; the report and its per-phase counts."""
    if not fleet.shared_keys:
        raise LabError(f"{fleet.name} runs on each process's own key: rotation needs keys= (shared keys)")
    if not 1 <= flows_per_step <= 200:
        raise LabError("flows_per_step is from 1 to 200 concurrent flows")
    stepper = stepper or RotationStepper(fleet)
    schedule = rolling_schedule(len(fleet.processes), order)
    label = f"{order} order, rolled instance by instance over {len(fleet.processes)} processes"
    report = await run_rotation_load(stepper, schedule, flows_per_step=flows_per_step, order=label)
    return report, phase_counts(report, flows_per_step)
