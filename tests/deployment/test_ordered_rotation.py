"""A rolling rotation whose legs go out in a fixed order loses exactly what the rings predict, every run.

Tutorial 10 shows these counts and nbval compares them, so they must not depend on the order in which
concurrent requests happen to reach Caddy: `rolling_rotation(..., ordered=True)` sends each batch's legs one
after another, the retries starting with the second flow, so every retry lands on the instance just before
its minting one. With nine flows per step over three instances each instance mints three: in the wrong order
(NEW promoted first) the step that promotes instance 1 loses the three retries of instance 0's NEW tokens
that reach instance 2, still on [OLD] -- and nothing else is lost.
"""

from __future__ import annotations

from mcp_lab.deployment.fleet import start_fleet
from mcp_lab.deployment.rolling import rolling_rotation
from tests.deployment.helpers import SERVER

FLOWS = 9


async def test_ordered_rolling_rotation_loses_exactly_the_predicted_retries_in_both_orders() -> None:
    fleet = await start_fleet(SERVER, name="shop-ordered", instances=3, keys="shared")
    try:
        right, phases = await rolling_rotation(fleet, "right", flows_per_step=FLOWS, ordered=True)
        assert (right.flows, right.finished, right.lost, right.predicted_lost) == (81, 81, 0, 0), right.text()
        assert phases == {p: {"flows": 27, "finished": 27, "lost": 0} for p in ("[OLD, NEW]", "[NEW, OLD]", "[NEW]")}
        wrong, phases = await rolling_rotation(fleet, "wrong", flows_per_step=FLOWS, ordered=True)
        assert wrong.agrees and (wrong.flows, wrong.lost, wrong.predicted_lost) == (54, 3, 3), wrong.text()
        assert wrong.reasons == {"unknown key": 3}
        assert phases == {"[NEW, OLD]": {"flows": 27, "finished": 24, "lost": 3}, "[NEW]": {"flows": 27, "finished": 27, "lost": 0}}
        assert [s["lost"] for s in wrong.steps] == [0, 3, 0, 0, 0, 0]
    finally:
        await fleet.stop()
