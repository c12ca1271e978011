"""The protocol's facts as plain functions: eras, error codes, result text, rejection reasons, header values."""

from __future__ import annotations

import ast
from pathlib import Path

from mcp.shared.inbound import encode_header_value

import mcp_lab
from mcp_lab.protocol.codes import HEADER_MISMATCH, INVALID_PARAMS
from mcp_lab.protocol.eras import LEGACY, METHODS, MODERN
from mcp_lab.protocol.header_values import encoding_of, header_text, other_value, param_header_usage
from mcp_lab.protocol.rejections import rejection_reason
from mcp_lab.protocol.results import result_texts

PROTOCOL = Path(mcp_lab.__file__).parent / "protocol"
BELOW = {"mcp_lab.errors", "mcp_lab.json_types"}
"""What protocol/ may import besides itself: the error types and the JSON type names."""


def test_protocol_imports_no_feature() -> None:
    found = set()
    for path in PROTOCOL.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mcp_lab"):
                found.add(node.module or "")
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.startswith("mcp_lab")}
    assert {m for m in found if not m.startswith("mcp_lab.protocol")} <= BELOW


def test_eras_methods_and_codes() -> None:
    assert (MODERN, LEGACY) == ("2026-07-28", "2025-11-25")
    assert METHODS == ("tools/call", "prompts/get", "resources/read")
    assert (INVALID_PARAMS, HEADER_MISMATCH) == (-32602, -32020)


def test_result_texts_reads_tools_prompts_and_resources() -> None:
    assert result_texts({"content": [{"type": "text", "text": "a"}, {"type": "image", "data": ""}]}) == ["a"]
    assert result_texts({"messages": [{"role": "user", "content": {"type": "text", "text": "b"}}]}) == ["b"]
    assert result_texts({"contents": [{"uri": "x://", "text": "c"}, {"uri": "y://", "blob": ""}]}) == ["c"]
    assert result_texts(None) == [] and result_texts("text") == []


def test_rejection_reason_is_the_last_one_logged() -> None:
    lines = ["other", "requestState rejected on tools/call: seal", "requestState rejected on tools/call: expired"]
    assert rejection_reason(lines) == "expired"
    assert rejection_reason(["nothing here"]) is None


def test_header_values_are_spelled_as_the_sdk_sends_them() -> None:
    assert header_text(True) == "true" and header_text(7) == "7"
    assert other_value(True) is False and other_value(1) == 2 and other_value("eu") == "eu-other"
    assert encoding_of("é", encode_header_value("é")) == "base64 sentinel"
    schema = {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}
    [ok] = param_header_usage(schema, {"region": "eu"}, [("Mcp-Param-Region", "eu")])
    assert (ok["header"], ok["verdict"]) == ("Mcp-Param-Region", "ok")
    [bad] = param_header_usage(schema, {"region": "eu"}, [("mcp-param-region", "us")])
    assert bad["verdict"] == "mismatch" and bad["reason"]
