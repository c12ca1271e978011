"""The tamper lab on a server with a configured audience: its "another server" twin keeps its own audience.

Spec context: the SDK docs' "What a seal binds" -- a token carries the server's name (or its configured
`RequestStateSecurity(audience=...)`) as `aud`, so another service that shares the secret refuses it. A
twin standing for another service must therefore not share a configured audience, or the case would
prove nothing (it would be accepted).
"""

from __future__ import annotations

import mcp_lab
from mcp_lab import tamper_lab
from mcp_lab.servers.lab_server import LabServer


async def test_a_configured_audience_is_not_lent_to_the_twin(demo: LabServer) -> None:
    demo.install_ring(demo.ring, audience="orders")  # type: ignore[arg-type]
    flow = await mcp_lab.start("demo", "tools/call", "handmade", {"x": 1})
    await flow.step()
    assert mcp_lab.inspect_token(flow).claims["aud"] == "orders"
    report = await tamper_lab(flow)
    twin = report.case("another server")
    assert (twin.logged, twin.predicted, twin.agree) == ("audience", "audience", True), twin
    # The scratch servers that stand for the same server keep the configured audience.
    assert report.case("expired").logged == "expired"
    assert report.case("restart, new key").logged == "unknown key"
    assert report.case("replay (1st)").logged is None and report.all_agree, report.cases
