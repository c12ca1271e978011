"""`%mcp_server list`: the sandbox's servers as a table (key ids only, never keys).

Spec context: a server's name is its request_state audience and its ring decides which tokens it accepts,
so the list shows both, plus where it is reachable (in-process, or a loopback URL). A server the kernel only
connected to (connect.py) is listed with its URL or command and "not ours": the lab holds no keys for it.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_lab.sandbox import Sandbox

__all__ = ["SERVERS_MIME", "ServerList", "ServerRow"]

SERVERS_MIME = "application/vnd.mcp-lab.servers+json"


@dataclass(frozen=True)
class ServerRow:
    name: str
    kind: str
    sealing: str
    key_ids: list[str]
    ttl: float | None
    """None for a connected server: its token lifetime is its own business."""
    where: str
    generation: int


@dataclass(frozen=True)
class ServerList:
    rows: list[ServerRow]

    @classmethod
    def from_sandbox(cls, sandbox: Sandbox) -> ServerList:
        from mcp_lab.connect import KEYLESS_NOTE, OutsideServer

        rows = []
        for entry in sandbox.servers.values():
            if isinstance(entry, OutsideServer):
                rows.append(ServerRow(entry.name, entry.kind, KEYLESS_NOTE, [], None, entry.where, entry.generation))
                continue
            ring = entry.ring
            sealing = (
                "plaintext (no boundary)" if ring is None else ("lab-generated key" if ring.generated else "given keys")
            )
            rows.append(
                ServerRow(
                    name=entry.name,
                    kind=entry.kind,
                    sealing=sealing,
                    key_ids=list(ring.ids) if ring is not None else [],
                    ttl=entry.ttl if ring is not None else None,
                    where=entry.http.describe() if entry.http is not None else (entry.url or "in-process"),
                    generation=entry.generation,
                )
            )
        return cls(rows)

    def _text(self) -> str:
        if not self.rows:
            return "no servers (define one with %%mcp_server NAME)"
        lines = []
        for r in self.rows:
            keys = ", ".join(r.key_ids) or "-"
            if r.ttl is None:
                lines.append(f"{r.name}: {r.kind}, {r.sealing}, {r.where}")
                continue
            lines.append(f"{r.name}: {r.kind}, {r.sealing} [{keys}], ttl {r.ttl:g} s, {r.where}")
        return "\n".join(lines)

    def _html(self) -> str:
        if not self.rows:
            return f"<i>{html.escape(self._text())}</i>"
        head = "<tr><th>name</th><th>kind</th><th>request_state</th><th>key ids</th><th>ttl</th><th>where</th></tr>"
        body = "".join(
            f"<tr><td>{html.escape(r.name)}</td><td>{r.kind}</td><td>{html.escape(r.sealing)}</td>"
            f"<td><code>{', '.join(r.key_ids) or '-'}</code></td><td>{'-' if r.ttl is None else f'{r.ttl:g} s'}</td><td>{html.escape(r.where)}</td></tr>"
            for r in self.rows
        )
        return f"<table class='mcp-lab-servers'>{head}{body}</table>"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        data = [r.__dict__ for r in self.rows]
        return {"text/plain": self._text(), "text/html": self._html(), SERVERS_MIME: {"servers": data}}
