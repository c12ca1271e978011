"""Reading recorded HTTP exchanges (`mcp_lab.exchanges.record.HttpExchange` dumps) in tests."""

from __future__ import annotations

from typing import Any


def sent_headers(exchange: dict[str, Any]) -> dict[str, str]:
    """Request headers by lowercase name."""
    return {name.lower(): value for name, value in exchange["request"]["headers"]}


def request_json(exchange: dict[str, Any]) -> Any:
    body = exchange["request"]["body"]
    assert body["kind"] == "json", body
    return body["value"]


def response_messages(exchange: dict[str, Any]) -> list[Any]:
    """The JSON-RPC messages of the response: one for JSON, one per event for SSE."""
    body = exchange["response"]["body"]
    if body["kind"] == "json":
        return [body["value"]]
    return [event["data"] for event in body["events"]]
