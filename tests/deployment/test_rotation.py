"""Rolling key rotation on real processes under load through Caddy, in the right and in the wrong order,
and the rotation matrix measured on the processes themselves."""

from __future__ import annotations

from mcp_lab.deployment.fleet import start_fleet
from mcp_lab.deployment.rolling import rolling_restart, rolling_rotation
from mcp_lab.rotation.stepper import RotationStepper
from mcp_lab.rotation.widget import StepperWidget
from tests.deployment.helpers import SERVER


async def test_rolling_rotation_right_order_loses_nothing_wrong_order_exactly_the_predicted() -> None:
    fleet = await start_fleet(SERVER, name="shop-rot", instances=3, keys="shared")
    try:
        stepper = RotationStepper(fleet)
        matrix = await stepper.matrix()
        assert matrix.accepted() == [[True, True, False, False]] * 3  # all [OLD]: tokens sealed under NEW fail
        assert "unknown key" in matrix.cells[0][2].mark

        widget = StepperWidget(RotationStepper(fleet), flows_per_step=3)  # the stepper widget on real processes
        shown = await widget.next_phase()
        assert shown.accepted() == [[True, True, True, True]] * 3 and "[OLD, NEW]" in repr(widget)

        stepper = RotationStepper(fleet)
        right, phases = await rolling_rotation(fleet, "right", flows_per_step=20, stepper=stepper)
        assert (right.flows, right.finished, right.lost) == (180, 180, 0), right.text()
        assert right.agrees and list(phases) == ["[OLD, NEW]", "[NEW, OLD]", "[NEW]"]
        assert all(c == {"flows": 60, "finished": 60, "lost": 0} for c in phases.values()), phases
        assert stepper.done and (await stepper.matrix()).accepted() == [[False, False, True, True]] * 3
        assert fleet.processes[0].state()["key_ids"] == [stepper.new_id]

        wrong, phases = await rolling_rotation(fleet, "wrong", flows_per_step=20)
        assert wrong.flows == 120 and wrong.agrees, wrong.mismatches
        assert wrong.lost == wrong.predicted_lost > 0, wrong.text()
        assert set(wrong.reasons) == {"unknown key"}
        assert phases["[NEW, OLD]"]["lost"] > 0 and sum(c["lost"] for c in phases.values()) == wrong.lost
    finally:
        await fleet.stop()


async def test_a_rolling_restart_under_load_loses_nothing_with_shared_keys_and_every_retry_without() -> None:
    shared = await start_fleet(SERVER, name="shop-deploy", instances=2, keys="shared")
    alone = await start_fleet(SERVER, name="shop-deploy-default", instances=2)
    try:
        kept = await rolling_restart(shared, flows_per_step=10)
        assert (kept["flows"], kept["finished"], kept["lost"]) == (20, 20, 0), kept
        assert [p.restarts for p in shared.processes] == [1, 1]
        lost = await rolling_restart(alone, flows_per_step=10)
        assert lost["flows"] == 20 and lost["lost"] == lost["predicted_lost"] > 0, lost
        assert set(lost["reasons"]) == {"unknown key"} and kept["predicted_lost"] == 0
    finally:
        await shared.stop()
        await alone.stop()
