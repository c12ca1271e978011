"""Notebook fixtures for the browser tests, written fresh into Lab's root dir by each test.

Kept as code (not committed .ipynb files) so no stale outputs or widget state ride along, and the tool
each scenario talks to sits next to the assertions about it. Spec context: a tool whose resolver asks
one elicitation question -- the smallest multi round-trip request (two legs, one sealed request_state).
"""

from __future__ import annotations

import base64
import os
from typing import Any

from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

SERVER_CELL = '''%%mcp_server demo
from typing import Annotated
from pydantic import BaseModel, Field
from mcp.server.mcpserver import Elicit, Resolve

class Region(BaseModel):
    region: str = Field(title="Region")

async def ask_region(city: str) -> Elicit[Region]:
    return Elicit(f"Which region for {city}?", Region)

@mcp.tool()
async def book(city: str, region: Annotated[Region, Resolve(ask_region)]) -> str:
    return f"Booked {city} in {region.region}"'''


def _notebook(cells: list[Any]) -> Any:
    return new_notebook(
        cells=cells,
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"},
            "language_info": {"name": "python"},
        },
    )


def scripted_flow_notebook() -> Any:
    """A flow answered by script: runs headless-safe, and its output goes through the extension."""
    return _notebook(
        [
            new_markdown_cell("# A scripted round trip"),
            new_code_cell("%load_ext mcp_lab\nimport mcp_lab"),
            new_code_cell(SERVER_CELL),
            new_code_cell(
                'flow = await %mcp_call demo book city=Paris --answers \'{"ask_region": {"region": "eu-west"}}\''
            ),
            new_code_cell("flow"),
            new_code_cell("%mcp_server list"),
        ]
    )


def _fake_token(kid: bytes, body: int = 48) -> str:
    raw = kid + bytes(range(12)) + os.urandom(body)
    return "v1." + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def token_report_sample() -> dict[str, Any]:
    return {
        "token": _fake_token(bytes.fromhex("5eed0a11")),
        "server": "demo",
        "kid": "5eed0a11",
        "key_slot": "previous",
        "claims": {"aud": "demo", "exp": 1790000000, "iat": 1789999400, "tool": "book", "state": {"city": "Paris"}},
        "checklist": [
            {"check": "format v1.", "ok": True},
            {"check": "key id in the ring", "ok": True, "reason": "slot previous"},
            {"check": "AES-GCM tag authentic", "ok": True},
            {"check": "audience is this server", "ok": True},
            {"check": "not expired", "ok": False, "reason": "expired 12 s ago"},
        ],
        "verdict": "rejected: expired",
        "future_field": {"added": "by a later mcp_lab"},
    }


def header_table_sample() -> dict[str, Any]:
    return {
        "tool": "search",
        "rows": [
            {"argument": "region", "header": "Mcp-Param-Region", "json_type": "string", "encoding": "eu-west"},
            {"argument": "limit", "header": "Mcp-Param-Limit", "json_type": "integer", "encoding": "10"},
            {
                "argument": "query",
                "header": "Mcp-Param-Query",
                "json_type": "string",
                "encoding": "=?base64?w6l0w6k=?=",
            },
            {
                "argument": "filters",
                "header": "Mcp-Param-Filters",
                "json_type": "object",
                "invalid": "objects cannot be headers",
            },
        ],
    }


def rotation_sample() -> dict[str, Any]:
    """The real producer's shape (mcp_lab.inspect.rotation), filled by hand: no fleet needed to draw it."""
    from mcp_lab.inspect.rotation import PHASES, Cell, RotationMatrix

    ok, unknown = Cell(True), Cell(False, "unknown key id 5eed0a11")
    matrix = RotationMatrix(
        title="Retiring OLD too early",
        rows=["a [NEW]", "b [NEW, OLD]"],
        columns=list(PHASES),
        cells=[[unknown, unknown, ok, ok], [ok, ok, ok, ok]],
        notes=["a dropped OLD before every OLD-sealed token expired"],
    )
    return matrix.to_dict()


def legacy_flow_sample() -> dict[str, Any]:
    """A hand-made flow exercising what the live scenarios cannot yet: back channel, HTTP, errors."""
    request = {
        "method": "elicitation/create",
        "params": {
            "message": "Which region?",
            "requestedSchema": {
                "type": "object",
                "properties": {"region": {"type": "string", "title": "Region"}},
                "required": ["region"],
            },
        },
    }
    exchange = {
        "method": "POST",
        "path": "/mcp",
        "headers": {"content-type": "application/json", "mcp-protocol-version": "2025-11-25", "Mcp-Param-Region": "eu"},
        "body": '{"jsonrpc": "2.0", "id": 1, "method": "tools/call"}',
        "status": 200,
        "response_headers": [["content-type", "text/event-stream"]],
        "response_body": None,
        "elapsed": 0.004,
    }
    return {
        "server": "old",
        "method": "tools/call",
        "target": "book",
        "arguments": {"city": "Oslo"},
        "era": "2025-11-25",
        "status": "error",
        "rounds": [
            {
                "index": 0,
                "outcome": "error",
                "error": {"code": -32602, "message": "Invalid or expired requestState", "reason": "tag mismatch"},
                "sent_request_state": "plain-json-state",
                "backchannel": [
                    {
                        "key": "ask",
                        "kind": "elicitation",
                        "request": request,
                        "response": {"action": "accept", "content": {"region": "eu"}},
                    },
                    {"key": "ask2", "kind": "elicitation", "request": request, "error": "no answer"},
                ],
                "http": [exchange],
                "server_log": ["requestState rejected: tag mismatch"],
                "relisted": True,
                "elapsed": 0.012,
                "started": 1789999400.5,
                "something_new": [1, 2, 3],
            }
        ],
        "notes": ["a note"],
        "stop_reason": None,
        "extra_top_level": True,
    }


MALFORMED: dict[str, list[Any]] = {
    "flow": [{}, {"rounds": "nope", "status": 5}, {"rounds": [None, 3, {"outcome": "weird", "index": "x"}]}, []],
    "token": [{}, {"checklist": "x", "token": 5}, {"token": "v1.@@@", "claims": [1]}, {"token": "v1.AAAA"}],
    "headers": [[], {"rows": [1, "a", None]}, {"tables": [{"rows": [{"argument": "x", "weird": 1}]}]}],
    "rotation": [
        {},
        {"instances": ["a"], "phases": ["p"], "cells": "bad"},
        {"rows": [{"name": "a", "cells": {"p": "ok"}}]},
    ],
    "servers": [{}, {"servers": [{}]}, {"servers": "none"}],
}


def _display(mime_kind: str, data: Any, text: str) -> Any:
    return new_output("display_data", data={f"application/vnd.mcp-lab.{mime_kind}+json": data, "text/plain": text})


def saved_views_notebook(flow_bundle: dict[str, Any]) -> tuple[Any, dict[str, int]]:
    """A notebook saved with outputs and *no kernel*: every view, then malformed variants of each.

    Its kernelspec names no installed kernel, so Lab starts none: the renderers must work from the saved
    output alone. Returns the notebook and the number of outputs expected per view kind.
    """
    outputs: list[tuple[str, Any]] = [
        ("flow", new_output("display_data", data=flow_bundle)),
        ("token", _display("token", token_report_sample(), "token report")),
        ("headers", _display("headers", header_table_sample(), "header table")),
        ("rotation", _display("rotation", rotation_sample(), "rotation matrix")),
        (
            "servers",
            _display(
                "servers",
                {
                    "servers": [
                        {
                            "name": "demo",
                            "kind": "mcpserver",
                            "sealing": "lab-generated key",
                            "key_ids": ["5eed0a11"],
                            "ttl": 600,
                            "where": "in-process",
                            "generation": 1,
                        }
                    ]
                },
                "servers",
            ),
        ),
        ("flow", _display("flow", legacy_flow_sample(), "legacy flow")),
    ]
    for kind, variants in MALFORMED.items():
        outputs += [(kind, _display(kind, variant, f"malformed {kind}")) for variant in variants]
    cells = [new_markdown_cell("# Saved mcp_lab views (no kernel)")]
    counts: dict[str, int] = {}
    for n, (kind, output) in enumerate(outputs, start=1):
        cells.append(new_code_cell(f"view_{n}  # {kind}", execution_count=n, outputs=[output]))
        counts[kind] = counts.get(kind, 0) + 1
    notebook = new_notebook(
        cells=cells,
        metadata={"kernelspec": {"name": "mcp-lab-no-such-kernel", "display_name": "none", "language": "none"}},
    )
    return notebook, counts
