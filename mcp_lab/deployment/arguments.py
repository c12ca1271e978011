"""What `start_fleet` is given, checked before anything starts: one `LabError` line for each wrong argument."""

from __future__ import annotations

import math

from mcp_lab.deployment.proxy import check_region
from mcp_lab.errors import LabError
from mcp_lab.given import shown

__all__ = ["check_arguments", "fleet_pools"]


def check_arguments(
    server: object, name: object, source: object, ttl: object, proxy: object, port: object, route_header: object
) -> None:
    """One line for a wrong type, before anything is started."""
    if not isinstance(server, str) or not server:
        raise LabError(f"the server is 'module:attribute' or a %%mcp_server cell's name (str), not {shown(server)}")
    for what, value in (("name", name), ("source", source), ("proxy", proxy)):
        if value is not None and not isinstance(value, str):
            raise LabError(f"{what}= is text (str) or None, not {shown(value)}")
    if ttl is not None and (isinstance(ttl, bool) or not isinstance(ttl, int | float) or not math.isfinite(ttl) or ttl <= 0):
        raise LabError(f"ttl= is a positive number of seconds or None, not {shown(ttl)}")
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise LabError(f"port= is a port number from 1 to 65535 (or 0: any free port), not {shown(port)}")
    if not isinstance(route_header, str) or not route_header.strip() or "\0" in route_header:
        raise LabError(f"route_header= is an HTTP header name such as 'Mcp-Param-Region', not {shown(route_header)}")


def fleet_pools(instances: int, regions: dict[str, int] | None) -> dict[str | None, int]:
    if regions is not None:
        if not isinstance(regions, dict) or not regions:
            raise LabError("regions= maps each region to its number of instances, e.g. {'eu-west': 2, 'us-east': 1}")
        pools: dict[str | None, int] = {check_region(r): n for r, n in regions.items()}
    else:
        pools = {None: instances}
    counts = list(pools.values())
    if any(isinstance(n, bool) or not isinstance(n, int) for n in counts):
        raise LabError(f"a pool's size is a whole number of instances, not {shown(counts if regions else instances)}")
    if any(n < 1 for n in counts) or sum(counts) < 1:
        raise LabError(f"a fleet needs at least one instance per pool (got {counts if regions else instances})")
    if sum(counts) > 16:
        raise LabError("a fleet has at most 16 instances on this machine")
    return pools
