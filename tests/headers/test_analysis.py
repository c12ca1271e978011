"""The header inspector over plain schemas: every verdict is the SDK's own (mcp.shared.inbound)."""

from __future__ import annotations

from typing import Any

from mcp.shared.inbound import encode_header_value

from mcp_lab.headers.analysis import DROPPED, header_rows, header_table_from_tools
from mcp_lab.protocol.header_values import encoding_of, param_header_usage


def _schema(**props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": props}


REGION = {"type": "string", "x-mcp-header": "Region"}


def test_valid_marks_with_samples_for_each_type() -> None:
    tool = header_rows(
        "t",
        _schema(
            region=REGION,
            n={"type": "integer", "x-mcp-header": "N", "default": 5},
            fast={"type": "boolean", "x-mcp-header": "Fast"},
            color={"type": "string", "enum": ["red", "blue"], "x-mcp-header": "Color"},
            title={"type": "string"},
        ),
    )
    assert not tool.dropped and tool.reason is None
    rows = {r.argument: r for r in tool.rows}
    assert set(rows) == {"region", "n", "fast", "color"}
    assert rows["region"].header == "Mcp-Param-Region" and rows["region"].json_type == "string"
    assert rows["region"].samples == [
        {"value": "eu-west", "header_value": "eu-west", "encoding": "plain"},
        {"value": "São Paulo", "header_value": encode_header_value("São Paulo"), "encoding": "base64 sentinel"},
    ]
    assert rows["n"].samples == [{"value": 5, "header_value": "5", "encoding": "plain"}]
    assert [s["header_value"] for s in rows["fast"].samples] == ["true", "false"]
    assert {s["encoding"] for s in rows["fast"].samples} == {"boolean as true/false"}
    assert [s["value"] for s in rows["color"].samples] == ["red", "blue"]


def test_each_invalid_kind_is_flagged_with_the_sdk_reason() -> None:
    cases = {
        "number": _schema(amount={"type": "number", "x-mcp-header": "Amount"}),
        "token": _schema(region={"type": "string", "x-mcp-header": "Bad Name"}),
        "optional": _schema(region={"anyOf": [{"type": "string"}, {"type": "null"}], "x-mcp-header": "Region"}),
        "nested": {
            "type": "object",
            "properties": {"where": {"type": "array", "items": {"type": "string", "x-mcp-header": "Where"}}},
        },
    }
    expected = {
        "number": "(got 'number')",
        "token": "'Bad Name' is not an RFC 9110 token",
        "optional": "the type keyword is NoneType",
        "nested": "not reachable via a pure `properties` chain",
    }
    for case, schema in cases.items():
        tool = header_rows(case, schema)
        assert tool.dropped and tool.reason is not None and expected[case] in tool.reason, case
        assert len(tool.rows) == 1 and not tool.rows[0].valid
        assert tool.rows[0].reason is not None and expected[case] in tool.rows[0].reason
        assert tool.rows[0].samples == []
    nested = header_rows("nested", cases["nested"])
    assert nested.rows[0].argument == "?"


def test_case_insensitive_duplicates_flag_the_second_mark() -> None:
    tool = header_rows(
        "t", _schema(a={"type": "string", "x-mcp-header": "Dup"}, b={"type": "string", "x-mcp-header": "dup"})
    )
    assert tool.dropped and "duplicates" in (tool.reason or "")
    first, second = tool.rows
    assert first.valid and not second.valid and "duplicates" in (second.reason or "")


def test_marks_inside_instance_data_are_not_marks() -> None:
    tool = header_rows("t", _schema(cfg={"type": "object", "default": {"x-mcp-header": "Nope"}}))
    assert tool.rows == [] and not tool.dropped


def test_table_from_wire_listing() -> None:
    table = header_table_from_tools(
        "shop",
        [
            {"name": "check_stock", "inputSchema": _schema(title={"type": "string"}, region=REGION)},
            {"name": "plain", "inputSchema": _schema(x={"type": "integer"})},
            {"name": "bad", "inputSchema": _schema(amount={"type": "number", "x-mcp-header": "Amount"})},
        ],
        kind="lowlevel",
    )
    assert [t.name for t in table.tools] == ["check_stock", "plain", "bad"]
    assert [t.dropped for t in table.tools] == [False, False, True]
    assert len(table.rows) == 2
    data = table.to_dict()
    assert data["server"] == "shop" and data["tools"][2]["reason"].startswith("property 'amount'")
    assert DROPPED == "2026-07-28 clients drop this whole tool"


def test_param_header_usage_verdicts() -> None:
    schema = _schema(
        region=REGION, n={"type": "integer", "x-mcp-header": "N"}, fast={"type": "boolean", "x-mcp-header": "Fast"}
    )
    args = {"region": "São Paulo", "n": 3}
    ok = param_header_usage(
        schema, args, [("Mcp-Param-Region", encode_header_value("São Paulo")), ("mcp-param-n", "3.0")]
    )
    by = {u["argument"]: u for u in ok}
    assert by["region"]["verdict"] == "ok" and by["region"]["decoded"] == "São Paulo"
    assert by["region"]["encoding"] == "base64 sentinel"
    assert by["n"]["verdict"] == "ok"  # integers compare numerically (the spec's SHOULD)
    assert by["fast"]["verdict"] == "absent" and by["fast"]["sent"] is None
    bad = {
        u["argument"]: u
        for u in param_header_usage(schema, {"region": "eu", "fast": False}, [("Mcp-Param-Region", "us")])
    }
    assert bad["region"]["verdict"] == "mismatch"
    assert bad["region"]["reason"] == "Mcp-Param-Region header does not match the request body's 'region' argument"
    assert bad["fast"]["verdict"] == "missing" and bad["fast"]["expected"] == "false"
    extra = param_header_usage(schema, {}, [("Mcp-Param-N", "1")])
    assert {u["argument"]: u["verdict"] for u in extra}["n"] == "unexpected"
    assert param_header_usage(_schema(a={"type": "number", "x-mcp-header": "A"}), {"a": 1.5}, []) == []
    assert param_header_usage(None, {}, []) == []


def test_encoding_words() -> None:
    assert encoding_of(True, "true") == "boolean as true/false"
    assert encoding_of("x", "x") == "plain"
    assert encoding_of("é", encode_header_value("é")) == "base64 sentinel"
    assert encoding_of("x", None) == "not sent"
