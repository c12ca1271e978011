"""Routing on Mcp-Param-Region to regional pools, the gateway mismatch case, a fleet change, restarts."""

from __future__ import annotations

import mcp_lab
from mcp_lab.deployment.fleet import start_fleet
from mcp_lab.deployment.gateway import lying_client, unlisted_call
from mcp_lab.servers.sandbox import sandbox
from tests.deployment.helpers import SERVER, SIZE, refused


async def test_regional_pools_the_lying_header_and_a_graceful_reload() -> None:
    fleet = await start_fleet(SERVER, name="shop-geo", regions={"eu-west": 2, "us-east": 1}, keys="shared")
    try:
        config = fleet.config_text()
        assert "@region_eu_west header Mcp-Param-Region eu-west" in config
        assert "@region_us_east header Mcp-Param-Region us-east" in config
        eu = [await mcp_lab.call(fleet.name, "forecast", {"region": "eu-west"}) for _ in range(4)]
        us = [await mcp_lab.call(fleet.name, "forecast", {"region": "us-east"}) for _ in range(2)]
        assert {f.rounds[-1].served_by for f in eu} == {"shop-geo@eu-west#0", "shop-geo@eu-west#1"}
        assert {f.rounds[-1].served_by for f in us} == {"shop-geo@us-east#2"}
        assert all(f.status == "done" for f in eu + us)

        # The header says us-east, the body eu-west: routed on the header, refused by the instance.
        liar = lying_client(fleet, "shop-geo-liar", {"Mcp-Param-Region": "us-east"})
        try:
            lied = await mcp_lab.call(liar, "forecast", {"region": "eu-west"})
        finally:
            await sandbox.stop(liar.name)
        first = lied.rounds[0]
        assert first.served_by is not None and first.served_by.startswith("shop-geo@us-east#2")
        assert first.error is not None and first.error.get("code") == -32020, first.error
        statuses = [x["response"]["status"] for x in first.http if x.get("response")]
        assert 400 in statuses
        sent = [dict((k.lower(), v) for k, v in x["request"]["headers"]) for x in first.http]
        assert any(h.get("mcp-param-region") == "us-east" for h in sent)  # the record shows what went out
        assert "served by shop-geo@us-east#2" in lied._repr_mimebundle_()["text/plain"]

        # No header (the SDK client had not listed the tool): the default pool refuses, the SDK re-lists, resends.
        unlisted = await unlisted_call(fleet, "forecast", {"region": "us-east"})
        steps = [(p["method"], p["header"], p["status"], p["code"]) for p in unlisted.posts]
        assert steps == [
            ("tools/call", None, 400, -32020),
            ("tools/list", None, 200, None),
            ("tools/call", "us-east", 200, None),
        ], unlisted.text()
        assert unlisted.posts[0]["served_by"].startswith("shop-geo@eu-west#")  # the default pool
        assert unlisted.posts[2]["served_by"] == "shop-geo@us-east#2" and unlisted.result == "sunny in us-east"

        # A fleet change: one more us-east instance, the proxy reloaded without a restart.
        caddy = fleet.proxy.pid if fleet.proxy else None
        await fleet.add_instance(region="us-east")
        assert fleet.proxy is not None and fleet.proxy.pid == caddy and fleet.proxy.reloads == 1
        us = [await mcp_lab.call(fleet.name, "forecast", {"region": "us-east"}) for _ in range(4)]
        assert {f.rounds[-1].served_by for f in us} == {"shop-geo@us-east#2", "shop-geo@us-east#3"}
        await fleet.remove_instance(0)
        eu = [await mcp_lab.call(fleet.name, "forecast", {"region": "eu-west"}) for _ in range(3)]
        assert {f.rounds[-1].served_by for f in eu} == {"shop-geo@eu-west#1"}
    finally:
        await fleet.stop()


async def test_a_restart_between_legs_loses_the_default_key_but_not_shared_keys() -> None:
    lonely = await start_fleet(SERVER, name="shop-one", instances=1)
    shared = await start_fleet(SERVER, name="shop-one-shared", instances=1, keys="shared")
    try:
        pending = await mcp_lab.start(lonely.name, "tools/call", "order", {"item": "socks"})
        await pending.step()
        await lonely.restart(0)
        await pending.step(answers=SIZE)
        assert refused(pending) and pending.status != "done"
        again = await mcp_lab.start(lonely.name, "tools/call", "order", {"item": "socks"})
        again.start_over = True
        await again.step()
        await lonely.restart(0)
        await again.run(answers=SIZE)
        assert again.status == "done" and any(r.started_over for r in again.rounds), again.summary()

        kept = await mcp_lab.start(shared.name, "tools/call", "order", {"item": "socks"})
        await kept.step()
        await shared.restart(0)
        await kept.run(answers=SIZE)
        assert kept.status == "done" and not refused(kept)
        assert shared.processes[0].restarts == 1
    finally:
        await lonely.stop()
        await shared.stop()
