"""Replay against a user's own servers, in-process: each deliberately changed copy is caught, by its path.

The recording is made against the originals (tests/sample_servers/own, imported as `tests.sample_servers.own.*`); each
changed copy is imported under another module name, so its resolver keys differ in the module part only
-- as between a notebook and the same file run as a script -- and must still be matched.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import mcp_lab
from mcp_lab.replay.collection import load_collection
from tests.sample_servers.changes import CHANGES, FINER, Change, changed_copy, import_copy
from tests.sample_servers.own import desk, shop


async def test_the_collection_keeps_the_called_tools_schemas_and_header_maps(own_recording: dict[str, Path]) -> None:
    document = json.loads(own_recording["shop"].read_text())
    tools = document["tools"]["shop"]
    assert sorted(tools) == ["book", "forecast", "poem", "signin", "workspace"]
    assert tools["forecast"]["headers"] == {"region": "Region"}
    assert tools["book"]["headers"] == {"city": "City"}
    assert tools["forecast"]["inputSchema"]["properties"]["region"]["x-mcp-header"] == "Region"
    desk_tools = load_collection(own_recording["desk"]).tools["desk"]
    assert desk_tools["ticket"]["headers"] == {"priority": "Priority"} and desk_tools["login"]["headers"] == {}


async def test_the_originals_replay_the_same(own_recording: dict[str, Path]) -> None:
    mcp_lab.adopt(shop.mcp, name="shop")
    mcp_lab.adopt(desk.server, name="desk")
    for path in own_recording.values():
        report = await mcp_lab.replay(path)
        assert report.ok, report.text()


async def test_a_copy_under_another_module_name_replays_the_same(
    own_recording: dict[str, Path], tmp_path: Path
) -> None:
    """Only the resolver keys' module part differs (`shop_copy:write_poem`): still the same questions."""
    copy = tmp_path / "copy" / "shop.py"
    copy.parent.mkdir()
    copy.write_text(Path(shop.__file__).read_text())
    module = import_copy(copy, "shop_copy")
    try:
        mcp_lab.adopt(module.mcp, name="shop-copy")
        report = await mcp_lab.replay(own_recording["shop"], server="shop-copy")
        assert report.ok, report.text()
        keys = {k for e in report.entries if e.replayed for r in e.replayed.rounds for k in r.input_requests or {}}
        assert "shop_copy:write_poem" in keys and "shop_copy:ask_traveller" in keys
    finally:
        del sys.modules["shop_copy"]


@pytest.mark.parametrize("change", CHANGES + FINER, ids=[c.name for c in CHANGES + FINER])
async def test_each_change_is_caught_and_named_by_its_path(
    change: Change, own_recording: dict[str, Path], tmp_path: Path
) -> None:
    module_name = f"changed_{change.server}_{abs(hash(change.name))}"
    module = import_copy(changed_copy(change, tmp_path / "changed"), module_name)
    try:
        server = module.mcp if change.server == "shop" else module.server
        mcp_lab.adopt(server, name=f"{change.server}-changed")
        report = await mcp_lab.replay(own_recording[change.server], server=f"{change.server}-changed")
    finally:
        del sys.modules[module_name]
    assert not report.ok
    differing = [e for e in report.entries if e.status != "same"]
    assert len(differing) == 1, report.text()
    assert tuple(d.where for d in differing[0].differences) == change.where, report.text()
    assert all(d.message.startswith(d.where) for d in differing[0].differences)
