"""Your own deployment: does every instance verify what its siblings sealed? (`mcp_lab.check_deployment`)

Spec context: the SDK docs' "Protecting requestState" -- behind a load balancer a retry reaches whichever
instance the balancer picks; unless every instance shares the keys (and, during a rotation, every instance
already verifies the key that now seals), that retry is refused with the frozen -32602 and the flow is lost.

The check replays a recorded collection (`mcp_lab.save_flows`) through the deployment's proxy `times` times,
answering every question from the recording, and counts the flows whose retries were all verified and the
ones refused, with the instance that sealed and the one that refused where the responses name their instance
(an `Mcp-Lab-Instance` header, as the lab's fleets send). Given the instances' own URLs as well, it also
sends each recorded flow's first leg to one instance and its retries to another, for every ordered pair: a
matrix of who verifies whom that needs no header at all. Nothing it prints carries a token or a key.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mcp.types as T
from mcp.client.session import ClientSession

import mcp_lab.view_registry as view_registry
from mcp_lab.deployment.connection import ProxiedServer
from mcp_lab.errors import LabError
from mcp_lab.exchanges.record import LegCapture
from mcp_lab.flow.flow import Flow
from mcp_lab.given import check_text_map, shown
from mcp_lab.json_types import JsonObject
from mcp_lab.markup import MimeBundle
from mcp_lab.replay.collection import Collection, load_collection
from mcp_lab.replay.run import replay_flow
from mcp_lab.servers.sandbox import sandbox

__all__ = ["DeploymentReport", "Loss", "check_deployment"]

REFUSED = -32602


@dataclass
class Loss:
    flow: str
    sealed_on: str | None
    refused_on: str | None
    reason: str | None


@dataclass
class DeploymentReport:
    """Flows replayed through a deployment: verified, refused (and where), could not finish."""

    url: str
    runs: int = 0
    flows: int = 0
    verified: int = 0
    refused: int = 0
    unfinished: int = 0
    losses: list[Loss] = field(default_factory=list)
    served: dict[str, int] = field(default_factory=dict)
    """Responses each identifiable instance sent (a leg re-sent after a re-listing counts each answer)."""
    pairs: list[JsonObject] = field(default_factory=list)
    """With instance URLs: `{sealed_on, verified_on, ok}` for every ordered pair and recorded flow."""

    @property
    def ok(self) -> bool:
        return self.refused == 0 and self.unfinished == 0 and all(p["ok"] for p in self.pairs)

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def refused_on(self) -> dict[str, int]:
        return dict(Counter(loss.refused_on or "unidentified instance" for loss in self.losses))

    def text(self) -> str:
        verdict = "every retry verified" if self.ok else "some retries were refused"
        lines = [
            f"Deployment {self.url}: {verdict}",
            f"  {self.flows} flow(s) in {self.runs} run(s): {self.verified} verified, {self.refused} refused, "
            f"{self.unfinished} unfinished for another reason",
        ]
        if self.served:
            lines.append("  responses per instance: " + ", ".join(f"{k} {v}" for k, v in sorted(self.served.items())))
        else:
            lines.append("  the responses name no instance (no Mcp-Lab-Instance header): give --instance URLs")
        for where, count in sorted(self.refused_on().items()):
            lines.append(f"  refused on {where}: {count}")
        for loss in self.losses[:5]:
            lines.append(f"    {loss.flow}: sealed on {loss.sealed_on}, refused on {loss.refused_on} ({loss.reason})")
        bad = [p for p in self.pairs if not p["ok"]]
        if self.pairs:
            lines.append(f"  instance pairs: {len(self.pairs) - len(bad)} of {len(self.pairs)} verify each other")
            lines += [f"    sealed on {p['sealed_on']}, refused on {p['verified_on']}" for p in bad[:10]]
        return "\n".join(lines)

    def to_dict(self) -> JsonObject:
        return {
            "url": self.url,
            "ok": self.ok,
            "runs": self.runs,
            "flows": self.flows,
            "verified": self.verified,
            "refused": self.refused,
            "unfinished": self.unfinished,
            "served": self.served,
            "refused_on": self.refused_on(),
            "losses": [loss.__dict__ for loss in self.losses],
            "pairs": self.pairs,
        }

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> MimeBundle:
        return {"text/plain": self.text(), "text/html": view_registry.text(self, "html")}


def _refusal(flow: Flow) -> tuple[int, Any] | None:
    for index, rnd in enumerate(flow.rounds):
        if rnd.error is not None and rnd.error.get("code") == REFUSED:
            return index, rnd
    return None


class _Pair:
    """A connection that sends a flow's first leg to one instance and every later leg to another."""

    def __init__(self, first: ProxiedServer, then: ProxiedServer) -> None:
        self.name = first.name
        self.first, self.then = first, then
        self.legs = 0
        self.current = first

    def capture(self) -> AbstractContextManager[LegCapture]:
        self.current = self.first if self.legs == 0 else self.then
        self.legs += 1
        return self.current.capture()

    async def session(self, era: str) -> ClientSession:
        return await self.current.session(era)

    def legacy_session(
        self, answer: Callable[[str, T.InputRequest], Awaitable[Any]]
    ) -> AbstractAsyncContextManager[ClientSession]:
        return self.current.legacy_session(answer)


async def _open(name: str, url: str, headers: dict[str, str] | None) -> ProxiedServer:
    if not url.startswith(("http://", "https://")):
        raise LabError(f"not an http(s) URL: {url!r}")
    connection = ProxiedServer(name=name, transport="http", url=url, timeout=15.0)
    connection.headers = dict(headers or {})
    sandbox.register(connection, replace=True)
    sandbox.begin_connect(connection)
    await connection.ready()
    return connection


async def check_deployment(
    url: str,
    collection: str | Path | Collection | Sequence[Flow],
    *,
    instances: Sequence[str] = (),
    times: int = 10,
    headers: dict[str, str] | None = None,
    timeout: float = 60.0,
) -> DeploymentReport:
    """Replay `collection` through the deployment at `url` `times` times; with `instances` (their own URLs),
    also every ordered pair of instances. Raises LabError when it cannot run (nothing answers, no flows)."""
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        raise LabError(f"url= is the deployment's URL such as 'http://127.0.0.1:8080/mcp', not {shown(url)}")
    if isinstance(instances, str) or not isinstance(instances, list | tuple) or not all(isinstance(u, str) for u in instances):
        raise LabError(f"instances= is a list of the instances' own URLs (str), not {shown(instances)}")
    if isinstance(times, bool) or not isinstance(times, int) or times < 1:
        raise LabError("times= is a positive number of runs")
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not math.isfinite(timeout) or timeout <= 0:
        raise LabError(f"timeout= is a positive number of seconds, not {shown(timeout)}")
    check_text_map(headers, "headers")
    if isinstance(collection, Collection):
        loaded = collection
    elif isinstance(collection, str | Path):
        loaded = load_collection(collection)
    elif isinstance(collection, list | tuple) and all(isinstance(f, Flow) for f in collection):
        loaded = Collection(list(collection))
    else:
        raise LabError(f"the collection is a saved collection's path or a list of flows, not {shown(collection)}")
    flows = [f for f in loaded.flows if f.method in ("tools/call", "prompts/get", "resources/read")]
    if not flows:
        raise LabError("the collection holds no flows to replay")
    report = DeploymentReport(url=url)
    opened: list[ProxiedServer] = []
    try:
        proxy = await _open("deployment-check", url, headers)
        opened.append(proxy)
        served: Counter[str] = Counter()
        for _ in range(times):
            report.runs += 1
            for recorded in flows:
                tool = loaded.tools.get(recorded.server, {}).get(recorded.target)
                entry = await replay_flow(recorded, server=proxy, timeout=timeout, tool=tool)
                replayed = entry.replayed
                report.flows += 1
                if replayed is None:
                    report.unfinished += 1
                    continue
                served.update(i for r in replayed.rounds for i in (r.served_by or "").split(" then ") if i)
                refusal = _refusal(replayed)
                if refusal is not None:
                    index, rnd = refusal
                    sealed = replayed.rounds[index - 1].served_by if index else None
                    reason = rnd.error.get("reason") if rnd.error else None
                    report.refused += 1
                    report.losses.append(Loss(entry.label, sealed, rnd.served_by, reason))
                elif replayed.status == "done":
                    report.verified += 1
                else:
                    report.unfinished += 1
        report.served = dict(served)
        members = [await _open(f"deployment-check.{i}", u, headers) for i, u in enumerate(instances)]
        opened += members
        multi = [f for f in flows if len(f.rounds) > 1]
        for i, first in enumerate(members):
            for j, then in enumerate(members):
                if i == j:
                    continue
                for recorded in multi:
                    tool = loaded.tools.get(recorded.server, {}).get(recorded.target)
                    entry = await replay_flow(recorded, server=_Pair(first, then), timeout=timeout, tool=tool)
                    ok = entry.replayed is not None and _refusal(entry.replayed) is None
                    report.pairs.append({"sealed_on": instances[i], "verified_on": instances[j], "ok": ok})
    finally:
        for connection in opened:
            if sandbox.servers.get(connection.name) is connection:
                await sandbox.stop(connection.name)
    return report
