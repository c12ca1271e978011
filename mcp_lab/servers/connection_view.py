"""A connection to an outside server, its stdio server's stderr log, and any server's own log (`server_log`),
as text, HTML and plain data.

Spec context: a server reached over Streamable HTTP or stdio that the lab did not start. The view says where
it is, which protocol era was negotiated, and -- because the lab holds no keys for it -- that its sealed
request_state tokens get the keyless view only. `text/plain` carries no pids or paths (nbval-stable).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcp_lab.json_types import JsonObject
from mcp_lab.markup import code, e, wrap
from mcp_lab.servers.record import ConnectionLogRecord, ConnectionRecord

if TYPE_CHECKING:
    from mcp_lab.servers.outside import OutsideServer

__all__ = ["CONNECTION_MIME", "LOG_MIME", "ConnectionLog", "connection_bundle"]

CONNECTION_MIME = "application/vnd.mcp-lab.connection+json"
LOG_MIME = "application/vnd.mcp-lab.connection-log+json"

_LOG_LINES_IN_VIEW = 10
_LOG_CHARS = 64 * 1024
"""A saved notebook keeps the end of a long log, not all of it."""


def connection_record(entry: OutsideServer) -> ConnectionRecord:
    tail = [line[:400] for line in entry.log().splitlines() if line.strip()][-_LOG_LINES_IN_VIEW:]
    return ConnectionRecord(
        name=entry.name,
        transport=entry.transport,
        where=entry.where,
        protocol_version=entry.protocol_version,
        legacy_only=entry.legacy_only,
        note="not ours: keyless view only",
        pids=entry.pids,
        log_tail=tail if entry.transport == "stdio" else [],
    )


def connection_text(record: ConnectionRecord) -> str:
    era = record.protocol_version or "connecting..."
    forced = " (--legacy)" if record.legacy_only else ""
    lines = [
        f"connection {record.name!r}: {record.where}, protocol {era}{forced}",
        "  not ours: keyless view only (the lab holds no keys: tokens show format, key id and size)",
    ]
    if record.transport == "stdio":
        lines.append(f"  stderr log: %mcp_connect log {record.name}")
    return "\n".join(lines)


def connection_html(record: ConnectionRecord) -> str:
    era = record.protocol_version or "connecting..."
    forced = " (--legacy)" if record.legacy_only else ""
    pids = ", ".join(str(p) for p in record.pids) or "-"
    log_html = (
        f"<details><summary>stderr (last {len(record.log_tail)} lines)</summary><pre>{e(chr(10).join(record.log_tail))}</pre>"
        "</details>"
        if record.transport == "stdio"
        else ""
    )
    return wrap(
        f"<b>{e(record.name)}</b>: {code(record.where)} &middot; protocol {e(era)}{e(forced)}"
        + (f" &middot; pid {e(pids)}" if record.transport == "stdio" else "")
        + "<br><i>not ours: keyless view only</i> (the lab holds no keys for this server; its tokens show"
        f" format, key id and size only){log_html}",
        "mcp-lab-connection",
    )


def connection_bundle(entry: OutsideServer) -> JsonObject:
    record = connection_record(entry)
    return record.bundle(connection_text(record), connection_html(record))


@dataclass(frozen=True)
class ConnectionLog:
    """What a stdio server wrote to stderr (`%mcp_connect log NAME`), or a server's log (`%mcp_server log NAME`)."""

    name: str
    text: str
    empty: str = ""
    """Shown when there is no text (default: the stdio server wrote nothing to stderr)."""

    def record(self) -> ConnectionLogRecord:
        shown = self.text if len(self.text) <= _LOG_CHARS else "…" + self.text[-_LOG_CHARS:]
        return ConnectionLogRecord(name=self.name, text=shown, source="log" if self.empty else "stderr")

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> JsonObject:
        record = self.record()
        shown = record.text if record.text.strip() else (self.empty or f"({self.name!r} wrote nothing to stderr)")
        return record.bundle(shown.rstrip("\n"), wrap(f"<pre class='mcp-lab-log'>{e(shown)}</pre>", "mcp-lab-log"))
