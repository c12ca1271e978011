"""`%mcp_server list`: the sandbox's servers as a table (key ids only, never keys).

Spec context: a server's name is its request_state audience and its ring decides which tokens it accepts,
so the list shows both, plus where it is reachable (in-process, or a loopback URL). An adopted server that
keeps its own keys is listed with their ids ("its own keys"); a lowlevel server without the boundary as
plaintext. A server the kernel only
connected to (connect.py) is listed with its URL or command and "not ours": the lab holds no keys for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcp_lab.json_types import JsonObject
from mcp_lab.markup import code, e, table, table_row, tone, wrap
from mcp_lab.servers.record import ServerRowRecord, ServersRecord

if TYPE_CHECKING:
    from mcp_lab.servers.sandbox import Sandbox

__all__ = ["SERVERS_MIME", "ServerList", "ServerRow"]

SERVERS_MIME = "application/vnd.mcp-lab.servers+json"

ServerRow = ServerRowRecord


@dataclass(frozen=True)
class ServerList:
    rows: list[ServerRowRecord]

    @classmethod
    def from_sandbox(cls, sandbox: Sandbox) -> ServerList:
        from mcp_lab.servers.adopt import sealing_of
        from mcp_lab.servers.outside import KEYLESS_NOTE, OutsideServer

        rows = []
        for entry in sandbox.servers.values():
            if isinstance(entry, OutsideServer):
                rows.append(
                    ServerRowRecord(
                        name=entry.name,
                        kind=entry.kind,
                        sealing=KEYLESS_NOTE,
                        ttl=None,
                        where=entry.where,
                        generation=entry.generation,
                        ours=False,
                    )
                )
                continue
            sealing, key_ids, ttl = sealing_of(entry)
            rows.append(
                ServerRowRecord(
                    name=entry.name,
                    kind=entry.kind,
                    sealing=sealing,
                    key_ids=key_ids,
                    ttl=ttl,
                    where=entry.http.describe() if entry.http is not None else (entry.url or "in-process"),
                    generation=entry.generation,
                    ours=True,
                )
            )
        return cls(rows)

    def record(self) -> ServersRecord:
        return ServersRecord(servers=list(self.rows))

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> JsonObject:
        record = self.record()
        return record.bundle(servers_text(record), servers_html(record))


def servers_text(record: ServersRecord) -> str:
    if not record.servers:
        return record.empty_note
    lines = []
    for r in record.servers:
        keys = ", ".join(r.key_ids) or "-"
        if r.ttl is None:
            lines.append(f"{r.name}: {r.kind}, {r.sealing}, {r.where}")
            continue
        lines.append(f"{r.name}: {r.kind}, {r.sealing} [{keys}], ttl {r.ttl:g} s, {r.where}")
    return "\n".join(lines)


def servers_html(record: ServersRecord) -> str:
    if not record.servers:
        return wrap(f"<i>{e(record.empty_note)}</i>", "mcp-lab-servers")
    head = ["name", "kind", "request_state", "key ids", "ttl", "where"]
    body = [
        table_row(
            e(r.name),
            e(r.kind),
            tone("warn", "⚠ " + r.sealing) if "plaintext" in r.sealing else e(r.sealing),
            code(", ".join(r.key_ids) or "-"),
            "-" if r.ttl is None else f"{r.ttl:g} s",
            code(r.where),
        )
        for r in record.servers
    ]
    return wrap(table(head, body), "mcp-lab-servers")
