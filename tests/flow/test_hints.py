"""Hints where the lab knows better (issue 14, item 4): a 2025-11-25 back-channel tool called on a
2026-07-28 connection fails with the SDK's -32600, and the flow names the way out in one line."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

import mcp_lab
from mcp_lab.errors import FlowError
from mcp_lab.flow.legs import BACKCHANNEL_HINT
from mcp_lab.servers.sandbox import sandbox
from tests.sample_servers.own import shop


@pytest.fixture
async def own_shop() -> AsyncIterator[None]:
    mcp_lab.adopt(shop.mcp, name="shop")
    try:
        yield
    finally:
        await sandbox.stop_all()


async def test_a_back_channel_tool_on_2026_names_legacy_in_one_line(own_shop: None) -> None:
    flow = await mcp_lab.call("shop", "newsletter", {"email": "ada@example.com"})
    assert flow.status == "error"
    assert flow.notes == [BACKCHANNEL_HINT]
    assert "--legacy" in BACKCHANNEL_HINT and "legacy=True" in BACKCHANNEL_HINT
    assert f"note: {BACKCHANNEL_HINT}" in flow._repr_mimebundle_()["text/plain"]
    with pytest.raises(FlowError, match="--legacy"):
        flow.raise_for_status()


async def test_the_same_tool_with_legacy_works_and_gets_no_hint(own_shop: None) -> None:
    flow = await mcp_lab.call(
        "shop", "newsletter", {"email": "ada@example.com"}, legacy=True, answers={"consent": {"ok": True}}
    )
    assert flow.status == "done", flow.summary()
    assert flow.text == "ada@example.com: subscribed" and flow.notes == []


async def test_other_errors_get_no_hint(own_shop: None) -> None:
    flow = await mcp_lab.call("shop", "forecast", {"region": "eu-west", "days": "many"})
    assert flow.status == "error" and flow.notes == []
