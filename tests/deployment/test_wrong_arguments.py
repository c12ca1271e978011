"""Every argument of the deployment's public functions, given each wrong value of the public-API sweep
(tests/test_hostile_arguments.py), is one LabError line -- and nothing is started to find out.

`resolve_source` and `run_rotation_load` are replaced by a stop sign here: a call whose arguments all pass
the checks stops there, before any process or proxy would start (the real starts are tested beside this).
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest

import mcp_lab
from mcp_lab.deployment import check as check_module
from mcp_lab.deployment import fleet as fleet_module
from mcp_lab.deployment import gateway as gateway_module
from mcp_lab.deployment import rolling as rolling_module
from mcp_lab.deployment.source import ServerSource
from mcp_lab.errors import LabError
from mcp_lab.flow.flow import Flow
from tests.test_hostile_arguments import BAD


class WouldStart(Exception):
    """The arguments passed every check: here the function would start processes or send traffic."""


def _stop(*_args: Any, **_kwargs: Any) -> Any:
    raise WouldStart


class _Fleet:
    """What rolling_rotation needs to look at before it rolls anything."""

    def __init__(self) -> None:
        self.name = "f"
        self.shared_keys = True
        self.processes: list[Any] = []
        self.instances: list[Any] = []

    def set_ring(self, index: int, ring: Any) -> None: ...

    def route(self) -> None: ...

    async def settled(self) -> None: ...


async def _stopped(*_args: Any, **_kwargs: Any) -> Any:
    raise WouldStart


def _no_processes(tmp_path: Any) -> fleet_module.ProcessFleet:
    """A ProcessFleet object with no process (none is started): what the gateway functions check for."""
    source = ServerSource(target="m:mcp", import_path="", shown="m:mcp")
    return fleet_module.ProcessFleet(
        "f", source, tmp_path, pools={}, ring=None, workers=1, ttl=None, proxy="caddy", port=1, route_header="X"
    )


async def _lying_client(*args: Any, **kwargs: Any) -> Any:
    return mcp_lab.lying_client(*args, **kwargs)


def _calls(tmp_path: Any) -> dict[str, tuple[Any, list[Any], dict[str, Any]]]:
    flow = Flow(server="shop", method="tools/call", target="order")
    fleet = _no_processes(tmp_path)
    return {
        "start_fleet": (mcp_lab.start_fleet, ["tests.deployment.shop_server:mcp"], {"instances": 1}),
        "check_deployment": (mcp_lab.check_deployment, ["http://127.0.0.1:1/mcp", [flow]], {}),
        "rolling_rotation": (mcp_lab.rolling_rotation, [_Fleet()], {}),
        "lying_client": (_lying_client, [fleet, "liar", {"Mcp-Param-Region": "us-east"}], {}),
        "unlisted_call": (mcp_lab.unlisted_call, [fleet, "forecast", {"region": "us-east"}], {}),
    }


NAMES = ["start_fleet", "check_deployment", "rolling_rotation", "lying_client", "unlisted_call"]


@pytest.mark.parametrize("name", NAMES)
async def test_each_wrong_argument_is_one_line_and_starts_nothing(
    name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setattr(fleet_module, "resolve_source", _stop)
    monkeypatch.setattr(check_module, "_open", _stopped)
    monkeypatch.setattr(rolling_module, "run_rotation_load", _stopped)
    monkeypatch.setattr(rolling_module, "ordered_rotation_load", _stopped)
    monkeypatch.setattr(gateway_module, "ProxiedServer", _stop)
    monkeypatch.setattr(gateway_module, "streamable_http_client", _stop)
    function, args, kwargs = _calls(tmp_path)[name]
    signed = mcp_lab.lying_client if name == "lying_client" else function
    parameters = list(inspect.signature(signed).parameters.values())
    escaped: list[str] = []
    calls = 0
    for index, parameter in enumerate(parameters):
        for bad in BAD:
            given_args, given_kwargs = list(args), dict(kwargs)
            if index < len(given_args):
                given_args[index] = bad
            else:
                given_kwargs[parameter.name] = bad
            calls += 1
            try:
                await function(*given_args, **given_kwargs)
            except (LabError, WouldStart) as exc:
                assert "\n" not in str(exc), (name, parameter.name, bad, str(exc))
            except Exception as exc:
                escaped.append(f"{name}({parameter.name}={bad!r}): {type(exc).__name__}: {str(exc)[:100]}")
    assert calls == len(parameters) * len(BAD)
    assert escaped == []
    assert fleet_module.live_fleets() == []
