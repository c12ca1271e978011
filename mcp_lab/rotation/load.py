"""Rotation under load: many concurrent two-round flows across every phase step, each loss predicted.

Spec context: the SDK docs' three-phase key rotation ("each step fully rolled out before the next") and
their warning about retries reaching another instance behind a load balancer. For every batch, flows
mint their token (first leg), one rotation step is applied, and the flows retry (second leg) through the
round-robin router -- so every retry meets a ring one step newer than the one that sealed it.

A loss is *predicted* from the rings alone -- the key that sealed the token (the minting instance's
`keys[0]` then) must be in the verifying instance's ring now -- and compared with what the real
servers did. In the right order nothing is lost; in a wrong order exactly the predicted retries are.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TypedDict

from mcp_lab.errors import LabError
from mcp_lab.flow.flow import Flow, Round
from mcp_lab.json_types import JsonObject
from mcp_lab.markup import MimeBundle
from mcp_lab.rotation.fleet import PROBE_TOOL
from mcp_lab.rotation.record import RotationLoadRecord
from mcp_lab.rotation.stepper import PHASES, RotationStepper

__all__ = ["RIGHT_ORDER", "WRONG_ORDER", "LoadReport", "run_rotation_load", "tally_step"]

Step = tuple[int, int | None]
"""(phase, instance): put `instance` (None: every instance) in `phase` between mint and retry."""

RIGHT_ORDER: list[Step] = [(1, None), (2, None), (3, None), (3, None)]
"""Each step rolled to every instance before the next; the last batch sees no change."""

WRONG_ORDER: list[Step] = [(2, 0), (2, 1), (2, None), (3, None)]
"""NEW promoted to seal (phase 2) one instance at a time, skipping phase 1: the others cannot verify it."""

_SEALS_NEW = {0: False, 1: False, 2: True, 3: True}
_VERIFIES = {0: {"OLD"}, 1: {"OLD", "NEW"}, 2: {"OLD", "NEW"}, 3: {"NEW"}}


class Mismatch(TypedDict):
    """A flow whose fate the phase table did not predict."""

    flow: str
    minted_by: str | None
    retried_on: str | None
    ok: bool


class LoadStep(TypedDict):
    """One rollout step of a load run: each instance's phase before and after, and the flows it lost."""

    before: list[str]
    after: list[str]
    lost: int


@dataclass
class LoadReport:
    """What happened to every flow, next to what the rings predicted."""

    order: str
    flows: int = 0
    finished: int = 0
    lost: int = 0
    predicted_lost: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)
    steps: list[LoadStep] = field(default_factory=list)
    wall: float = 0.0
    legs: int = 0

    @property
    def agrees(self) -> bool:
        return not self.mismatches

    @property
    def throughput(self) -> float:
        return self.legs / self.wall if self.wall else 0.0

    def record(self) -> RotationLoadRecord:
        data = asdict(self)
        data.update(agrees=self.agrees, summary=self.text())
        return RotationLoadRecord.model_validate(data)

    def to_dict(self) -> JsonObject:
        return self.record().dump()

    def text(self) -> str:
        verdict = "as predicted" if self.agrees else f"{len(self.mismatches)} flow(s) differ from the prediction"
        reasons = ", ".join(f"{k}: {v}" for k, v in sorted(self.reasons.items())) or "none"
        return (
            f"{self.order}: {self.flows} flows, {self.finished} finished, {self.lost} lost "
            f"(predicted {self.predicted_lost}; {verdict}); rejection reasons: {reasons}"
        )

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        from mcp_lab.rotation.view import load_bundle

        return load_bundle(self.record())


def _index(label: str | None) -> int:
    return int((label or "#0").rsplit("#", 1)[1])


def checked_schedule(schedule: object, instances: int) -> list[Step]:
    """A list of (phase 0..3, instance index or None for all) steps; one clear error for anything else."""
    usage = "schedule= is a list of (phase, instance) steps, phase 0..3, instance an index or None (all)"
    if not isinstance(schedule, list | tuple):
        raise LabError(f"{usage}; not {type(schedule).__name__}")
    steps: list[Step] = []
    for position, step in enumerate(schedule):
        if not isinstance(step, list | tuple) or len(step) != 2:
            raise LabError(f"{usage}; step {position} is {step!r}")
        phase, instance = step
        if isinstance(phase, bool) or not isinstance(phase, int) or not 0 <= phase < len(PHASES):
            raise LabError(f"{usage}; step {position} has phase {phase!r}")
        if instance is not None and (
            isinstance(instance, bool) or not isinstance(instance, int) or not 0 <= instance < instances
        ):
            raise LabError(f"{usage}; step {position} names instance {instance!r} (0..{instances - 1})")
        steps.append((phase, instance))
    return steps


async def run_rotation_load(
    stepper: RotationStepper,
    schedule: list[Step] | None = None,
    *,
    flows_per_step: int = 100,
    order: str | None = None,
) -> LoadReport:
    """Run `schedule` (default: the right order) with `flows_per_step` concurrent flows per batch."""
    if not isinstance(stepper, RotationStepper):
        raise LabError(f"run_rotation_load drives a RotationStepper, not {type(stepper).__name__}")
    if isinstance(flows_per_step, bool) or not isinstance(flows_per_step, int) or not 1 <= flows_per_step <= 10_000:
        raise LabError(f"flows_per_step is a whole number from 1 to 10000, not {flows_per_step!r}")
    if order is not None and not isinstance(order, str):
        raise LabError(f"order= is a label (str) for the report, not {type(order).__name__}")
    schedule = RIGHT_ORDER if schedule is None else checked_schedule(schedule, len(stepper.phases))
    label = order or ("right order" if schedule == RIGHT_ORDER else "custom order")
    report = LoadReport(order=label)
    fleet = stepper.fleet
    started = time.perf_counter()
    reasons: Counter[str] = Counter()
    for phase, instance in schedule:
        before = list(stepper.phases)
        batch = [
            Flow(server=fleet.name, method="tools/call", target=PROBE_TOOL).bind(fleet) for _ in range(flows_per_step)
        ]
        await asyncio.gather(*(flow.step() for flow in batch))
        stepper.set_phase(phase, instance)
        await fleet.settled()
        after = list(stepper.phases)
        # Other traffic passes the balancer between the two legs -- half a lap of it -- so each retry lands on
        # the instance opposite the one that minted it (with a batch that is a multiple of the fleet size,
        # every retry would otherwise meet its own minting instance, and no rollout could ever bite).
        for _ in range(max(1, len(fleet.instances) // 2)):
            fleet.route()
        await asyncio.gather(*(flow.step(answers={"probe": {"ok": True}}) for flow in batch))
        tally_step(report, reasons, batch, before, after, _matrix_predicts)
    report.wall = time.perf_counter() - started
    report.reasons = dict(reasons)
    return report


def _matrix_predicts(before: list[int], after: list[int], first: Round, last: Round) -> bool:
    """Whether the instance that met the retry (`after` the step) verifies what the minting one sealed."""
    sealed_with = "NEW" if _SEALS_NEW[before[_index(first.served_by)]] else "OLD"
    return sealed_with in _VERIFIES[after[_index(last.served_by)]]


def tally_step(
    report: LoadReport,
    reasons: Counter[str],
    batch: list[Flow],
    before: list[int],
    after: list[int],
    predicted_ok: Callable[[list[int], list[int], Round, Round], bool],
) -> None:
    """Count one rollout step's flows into `report`: finished or lost (and why), against what the rotation
    matrix predicts from the instance that minted each token (`first` leg) and the one that met the retry."""
    step_lost = 0
    for flow in batch:
        first, last = flow.rounds[0], flow.rounds[-1]
        predicted, ok = predicted_ok(before, after, first, last), last.outcome == "result"
        report.flows += 1
        report.legs += len(flow.rounds)
        report.finished += ok
        report.lost += not ok
        step_lost += not ok
        report.predicted_lost += not predicted
        if not ok:
            reasons[str((last.error or {}).get("reason"))] += 1
        if ok != predicted:
            report.mismatches.append({"flow": flow.id, "minted_by": first.served_by, "retried_on": last.served_by, "ok": ok})
    report.steps.append({"before": [PHASES[p] for p in before], "after": [PHASES[p] for p in after], "lost": step_lost})
