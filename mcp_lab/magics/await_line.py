"""The input transformer that lets a cell await a call magic: `flow = await %mcp_call ...`, or a bare call line."""

from __future__ import annotations

import re

__all__ = ["await_magic_transformer"]

_AWAIT_MAGIC = re.compile(r"^(?P<head>.*?\bawait\s+)%(?P<name>mcp_\w+)(?P<rest>.*)$")
_BARE_CALL = re.compile(r"^%(?:mcp_call|mcp_prompt|mcp_read|mcp_describe)\b")


def await_magic_transformer(lines: list[str]) -> list[str]:
    """`x = await %mcp_call ...` -> `x = await get_ipython().run_line_magic('mcp_call', '...')`.

    A bare call on a line of its own (`%mcp_call demo book city=Paris`) is awaited too: its cell waits,
    shows the forms, and ends with the flow, like any other cell -- under Run All as well. (Assigned without
    `await`, `run = %mcp_call ...` still runs in the background.)
    """
    out = []
    for line in lines:
        if _BARE_CALL.match(line):
            line = "await " + line
        match = _AWAIT_MAGIC.match(line.rstrip("\n"))
        if match:
            rest = match["rest"].strip()
            newline = "\n" if line.endswith("\n") else ""
            line = f"{match['head']}get_ipython().run_line_magic({match['name']!r}, {rest!r}){newline}"
        out.append(line)
    return out
