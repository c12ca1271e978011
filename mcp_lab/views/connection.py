"""A connection to an outside server, and its stdio server's stderr log, as text, HTML and plain data.

Spec context: a server reached over Streamable HTTP or stdio that the lab did not start. The view says where
it is, which protocol era was negotiated, and -- because the lab holds no keys for it -- that its sealed
request_state tokens get the keyless view only. `text/plain` carries no pids or paths (nbval-stable).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_lab.connect import OutsideServer

__all__ = ["CONNECTION_MIME", "LOG_MIME", "ConnectionLog", "connection_bundle"]

CONNECTION_MIME = "application/vnd.mcp-lab.connection+json"
LOG_MIME = "application/vnd.mcp-lab.connection-log+json"

_LOG_LINES_IN_VIEW = 10


def _data(entry: OutsideServer) -> dict[str, Any]:
    return {
        "name": entry.name,
        "transport": entry.transport,
        "where": entry.where,
        "protocol_version": entry.protocol_version,
        "legacy_only": entry.legacy_only,
        "keys": None,
        "note": "not ours: keyless view only",
        "pids": entry.pids,
        "log_path": str(entry.log_path) if entry.log_path is not None else None,
    }


def connection_bundle(entry: OutsideServer) -> dict[str, Any]:
    data = _data(entry)
    era = entry.protocol_version or "connecting..."
    forced = " (--legacy)" if entry.legacy_only else ""
    lines = [
        f"connection {entry.name!r}: {entry.where}, protocol {era}{forced}",
        "  not ours: keyless view only (the lab holds no keys: tokens show format, key id and size)",
    ]
    if entry.transport == "stdio":
        lines.append(f"  stderr log: %mcp_connect log {entry.name}")
    tail = [line for line in entry.log().splitlines() if line.strip()][-_LOG_LINES_IN_VIEW:]
    pids = ", ".join(str(p) for p in entry.pids) or "-"
    log_html = (
        f"<details><summary>stderr (last {len(tail)} lines)</summary><pre>{html.escape(chr(10).join(tail))}</pre>"
        "</details>"
        if entry.transport == "stdio"
        else ""
    )
    body = (
        f"<div class='mcp-lab-connection'><b>{html.escape(entry.name)}</b>: <code>{html.escape(entry.where)}</code>"
        f" &middot; protocol {html.escape(era)}{forced}"
        + (f" &middot; pid {pids}" if entry.transport == "stdio" else "")
        + "<br><i>not ours: keyless view only</i> (the lab holds no keys for this server; its tokens show"
        f" format, key id and size only){log_html}</div>"
    )
    return {"text/plain": "\n".join(lines), "text/html": body, CONNECTION_MIME: data}


@dataclass(frozen=True)
class ConnectionLog:
    """What a stdio server wrote to stderr (`%mcp_connect log NAME`)."""

    name: str
    text: str

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        shown = self.text if self.text.strip() else f"({self.name!r} wrote nothing to stderr)"
        return {
            "text/plain": shown.rstrip("\n"),
            "text/html": f"<pre class='mcp-lab-log'>{html.escape(shown)}</pre>",
            LOG_MIME: {"name": self.name, "text": self.text},
        }
