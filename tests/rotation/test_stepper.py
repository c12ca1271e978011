"""Key rotation measured on real SDK instances: the phase matrix, partial rollouts, in-flight flows."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from mcp_lab.rotation.fleet import Fleet
from mcp_lab.rotation.stepper import RotationStepper


@pytest.fixture
async def fleet4() -> AsyncIterator[Fleet]:
    fleet = Fleet("svc", instances=4, keys=[b"s" * 32])
    try:
        yield fleet
    finally:
        await fleet.close()


async def test_phase_matrix_from_real_servers_matches_the_sdk_notes(fleet4: Fleet) -> None:
    stepper = RotationStepper(fleet4, old=b"O" * 32, new=b"N" * 32)
    for phase in range(4):
        stepper.set_phase(phase, phase)
    matrix = await stepper.matrix()
    assert matrix.accepted() == [
        [True, True, False, False],
        [True, True, True, True],
        [True, True, True, True],
        [False, False, True, True],
    ]
    assert {c.reason for row in matrix.cells for c in row if not c.accepted} == {"unknown key"}
    assert matrix.notes == ["OLD = key 61fd740c, NEW = key a053f2e4"]
    text = matrix._repr_mimebundle_()["text/plain"]
    assert "#0 [OLD]" in text and "✘ unknown key" in text


async def test_right_order_drops_no_in_flight_flow(fleet4: Fleet) -> None:
    stepper = RotationStepper(fleet4)
    dropped = []
    for _ in range(3):
        await stepper.start_flows(4)
        await stepper.next_phase()
        dropped += [o for h in stepper.history[-1:] for o in h["in_flight"] if o["outcome"] == "dropped"]
    assert stepper.done
    assert dropped == []
    assert all(f.status == "done" for f in stepper.in_flight)


async def test_wrong_order_drops_exactly_the_predicted_rounds(fleet4: Fleet) -> None:
    stepper = RotationStepper(fleet4)
    stepper.set_phase(2, 0)  # instance 0 seals with NEW while the others cannot verify it yet
    await stepper.start_flows(3)  # round-robin: first legs on #0, #1, #2
    outcomes = await stepper.continue_flows()  # retries on #3, #0, #1: every leg lands elsewhere
    assert [(o["minted_by"], o["retried_on"]) for o in outcomes] == [
        ("svc#0", "svc#3"),
        ("svc#1", "svc#0"),
        ("svc#2", "svc#1"),
    ]
    # Predicted: only state sealed with NEW (on #0) and verified where NEW is unknown (#3) is dropped.
    assert [(o["outcome"], o["reason"]) for o in outcomes] == [
        ("dropped", "unknown key"),
        ("finished", None),
        ("finished", None),
    ]


async def test_retiring_old_too_early_drops_state_sealed_with_old(fleet4: Fleet) -> None:
    stepper = RotationStepper(fleet4)
    await stepper.next_phase()  # [OLD, NEW] everywhere: still sealing with OLD
    await stepper.start_flows(2)  # tokens sealed with OLD, well within their TTL
    stepper.set_phase(3)  # straight to [NEW]: OLD retired less than one TTL later
    outcomes = await stepper.continue_flows()
    assert [(o["outcome"], o["reason"]) for o in outcomes] == [("dropped", "unknown key")] * 2


async def test_partial_rollout_moves_one_instance(fleet4: Fleet) -> None:
    stepper = RotationStepper(fleet4)
    matrix = await stepper.next_phase(instance=2)
    assert stepper.phases == [0, 0, 1, 0]
    assert matrix.rows[2] == "#2 [OLD, NEW]"
    assert matrix.accepted()[0] == [True, True, False, False]


async def test_ephemeral_keys_reject_each_others_tokens_shared_keys_do_not() -> None:
    from mcp_lab.flow.flow import Flow
    from mcp_lab.rotation.fleet import PROBE_TOOL

    ephemeral = Fleet("eph", instances=2)
    shared = Fleet("eph", instances=2, keys=[b"k" * 32])
    try:
        assert ephemeral.instances[0].ring != ephemeral.instances[1].ring
        flow = Flow(server="eph", method="tools/call", target=PROBE_TOOL, start_over=True).bind(ephemeral)
        await flow.run(answers={"probe": {"ok": True}})
        # Every retry lands on the other instance, whose process-local key never sealed it.
        assert [(r.served_by, r.outcome, (r.error or {}).get("reason")) for r in flow.rounds] == [
            ("eph#0", "input_required", None),
            ("eph#1", "error", "unknown key"),
            ("eph#0", "input_required", None),
            ("eph#1", "error", "unknown key"),
        ]
        assert flow.rounds[2].started_over and flow.status == "error"
        good = Flow(server="eph", method="tools/call", target=PROBE_TOOL).bind(shared)
        await good.run(answers={"probe": {"ok": True}})
        assert good.status == "done" and [r.served_by for r in good.rounds] == ["eph#0", "eph#1"]
    finally:
        await ephemeral.close()
        await shared.close()


async def test_restarting_an_ephemeral_instance_invalidates_its_tokens_and_the_flow_starts_over() -> None:
    from mcp_lab.flow.flow import Flow
    from mcp_lab.rotation.fleet import PROBE_TOOL

    single = Fleet("solo", instances=1)
    try:
        flow = Flow(server="solo", method="tools/call", target=PROBE_TOOL, start_over=True).bind(single)
        await flow.step()
        await single.restart(0)
        await flow.run(answers={"probe": {"ok": True}})
        assert [(r.outcome, r.started_over) for r in flow.rounds] == [
            ("input_required", False),
            ("error", False),
            ("input_required", True),
            ("result", False),
        ]
        assert flow.rounds[1].error is not None and flow.rounds[1].error["reason"] == "unknown key"
    finally:
        await single.close()


async def test_stepper_widget_drives_the_same_stepper(fleet4: Fleet) -> None:
    from mcp_lab.rotation.widget import StepperWidget

    widget = StepperWidget(RotationStepper(fleet4), flows_per_step=2)
    for _ in range(3):
        await widget.next_phase()
    assert widget.stepper.done and widget.button.disabled
    assert "rotation complete" in widget.status.value
    assert len(widget.output.outputs) == 6  # a matrix and a summary per step
    assert all(o["outcome"] == "finished" for h in widget.stepper.history for o in h["in_flight"])
