"""Renderings of a fleet: its processes, its proxy, and the proxy's configuration file as deployed.

Spec context: instances behind a load balancer (the MRTR page's warning) and a gateway routing on `Mcp-Param-*`
headers. A person sees which process is which (label, region, pid, port), how each one protects its
request_state (its own default key, or the shared ring by key id -- never a key), the commands that run them,
and the Caddyfile a deployment could use as it is.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from mcp_lab.json_types import JsonObject
from mcp_lab.markup import code, e, table, table_row, wrap

if TYPE_CHECKING:
    from mcp_lab.deployment.fleet import ProcessFleet

__all__ = ["fleet_bundle", "fleet_rows", "fleet_text"]


def _keys(fleet: ProcessFleet) -> str:
    if fleet.ring is None:
        return "its own default key (process-local)"
    return f"shared ring [{', '.join(fleet.ring.ids)}]"


def fleet_rows(fleet: ProcessFleet) -> list[dict[str, str]]:
    rows = []
    for process in fleet.processes:
        rows.append(
            {
                "instance": process.label,
                "pool": process.region or "-",
                "pid": str(process.pid) if process.running else "stopped",
                "url": process.url,
                "workers": str(process.workers),
                "restarts": str(process.restarts),
            }
        )
    return rows


def fleet_text(fleet: ProcessFleet) -> str:
    routing = (
        f"routes on {fleet.route_header} to pools {', '.join(fleet.regions)} (default {fleet.regions[0]})"
        if fleet.regions
        else "round-robin, no session affinity"
    )
    proxy = f"Caddy at {fleet.url}, {routing}" if fleet.proxy is not None else f"no proxy ({fleet.url})"
    lines = [f"Fleet {fleet.name}: {len(fleet.processes)} instance(s) of {fleet.source.shown}; {proxy}"]
    lines.append(f"  request_state: {_keys(fleet)}")
    for row in fleet_rows(fleet):
        extra = f", {row['workers']} workers" if row["workers"] != "1" else ""
        pool = f" [{row['pool']}]" if row["pool"] != "-" else ""
        lines.append(f"  {row['instance']}{pool}: pid {row['pid']}, {row['url']}{extra}")
    if fleet.processes:
        lines.append("  command: " + shlex.join(["uvicorn", *fleet.processes[0].command()[3:]]))
    return "\n".join(lines)


def fleet_html(fleet: ProcessFleet) -> str:
    head = ["instance", "pool", "process", "url", "workers", "restarts"]
    rows = [{**row, "pid": f"pid {row['pid']}" if row["pid"].isdigit() else row["pid"]} for row in fleet_rows(fleet)]
    body = [table_row(*(code(v) for v in fields.values())) for fields in rows]
    title, *rest = fleet_text(fleet).splitlines()
    return wrap(
        f"<div><b>{e(title)}</b></div><div>request_state: {e(_keys(fleet))}</div>"
        f"{table(head, body)}"
        f"<div>{e(rest[-1].strip()) if rest else ''}</div>",
        "mcp-lab-fleet",
    )


def fleet_bundle(fleet: ProcessFleet) -> JsonObject:
    return {"text/plain": fleet_text(fleet), "text/html": fleet_html(fleet)}
