"""Why a server refused a request_state, read from its own log.

Spec context: a server that refuses a sealed request_state says only "Invalid or expired
requestState" (-32602); the server's real reason ("seal", "expired", "binding", ...) goes to the
`mcp.server.request_state` logger, which the lab captures for the servers it owns.
"""

from __future__ import annotations

__all__ = ["rejection_reason"]

_REJECTED = "requestState rejected on "


def rejection_reason(lines: list[str]) -> str | None:
    """The bare reason ("seal", "expired", ...) of the last rejection in captured log lines."""
    for line in reversed(lines):
        if line.startswith(_REJECTED):
            return line[len(_REJECTED) :].partition(": ")[2] or line
    return None
