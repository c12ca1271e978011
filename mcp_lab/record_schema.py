"""The JSON Schema of every record the lab displays: one typed, versioned record per vendor MIME kind.

`python -m mcp_lab.record_schema [--check]` writes (or checks) labextension/schema/records.schema.json. It
stands on the top floor, beside the public API, because it gathers every feature's record.

Spec context: see `mcp_lab.records.base`. `KINDS` maps every `application/vnd.mcp-lab.<kind>+json` the lab
emits to its record class; `schema_document()` is the one JSON Schema that holds them all, written to
`labextension/schema/records.schema.json` by `python -m mcp_lab.record_schema` (a test fails when it is stale),
from which the labextension build generates its TypeScript types.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mcp_lab.audit.model import AuditRecord
from mcp_lab.flow.record import FlowRecord
from mcp_lab.headers.record import HeaderTableRecord, ListFirstRecord, MismatchRecord, SchemaLookupRecord
from mcp_lab.json_types import JsonObject
from mcp_lab.records.base import Record, mime
from mcp_lab.replay.record import ReplayRecord
from mcp_lab.rotation.record import RotationLoadRecord, RotationRecord
from mcp_lab.servers.record import ConnectionLogRecord, ConnectionRecord, ServerDescriptionRecord, ServersRecord
from mcp_lab.tokens.record import TamperRecord, TokenRecord

__all__ = ["KINDS", "SCHEMA_PATH", "main", "schema_document", "schema_text"]

KINDS: dict[str, type[Record]] = {
    "flow": FlowRecord,
    "token": TokenRecord,
    "tamper": TamperRecord,
    "headers": HeaderTableRecord,
    "header-mismatch": MismatchRecord,
    "list-first": ListFirstRecord,
    "schema-lookups": SchemaLookupRecord,
    "rotation": RotationRecord,
    "rotation-load": RotationLoadRecord,
    "servers": ServersRecord,
    "connection": ConnectionRecord,
    "connection-log": ConnectionLogRecord,
    "server-description": ServerDescriptionRecord,
    "replay": ReplayRecord,
    "audit": AuditRecord,
}
SCHEMA_PATH = Path(__file__).resolve().parents[1] / "labextension" / "schema" / "records.schema.json"


def schema_document() -> JsonObject:
    """One JSON Schema: a property per kind (its MIME type) referring to that record's definition."""
    from pydantic.json_schema import models_json_schema

    _, defs = models_json_schema([(cls, "serialization") for cls in KINDS.values()], ref_template="#/$defs/{model}")
    for definition in defs["$defs"].values():
        _untitled(definition.get("properties", {}))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://mcp-lab/records.schema.json",
        "title": "McpLabRecords",
        "description": "Every application/vnd.mcp-lab.<kind>+json record, by MIME type.",
        "type": "object",
        "properties": {mime(kind): {"$ref": f"#/$defs/{cls.__name__}"} for kind, cls in KINDS.items()},
        "additionalProperties": False,
        "$defs": defs["$defs"],
    }


def _untitled(node: object) -> None:
    """Make field schemas read well to the TypeScript generator: drop the per-field titles pydantic adds (it
    would name a type after each), mark `Any` as `unknown`, and spell a (name, value) pair as a 2-tuple."""
    if isinstance(node, dict):
        for value in node.values():
            if isinstance(value, dict):
                value.pop("title", None)
                if not value.keys() - {"description", "default"}:
                    value["tsType"] = "unknown"
                prefix = value.get("prefixItems")
                if isinstance(prefix, list) and prefix and all(p == prefix[0] for p in prefix):
                    value["tsType"] = (
                        "[" + ", ".join(["string"] * len(prefix)) + "]"
                        if prefix[0] == {"type": "string"}
                        else "unknown[]"
                    )
                _untitled(value)
            elif isinstance(value, list):
                for item in value:
                    _untitled(item)
    elif isinstance(node, list):
        for item in node:
            _untitled(item)


def schema_text() -> str:
    return json.dumps(schema_document(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = schema_text()
    if "--check" in argv:
        current = SCHEMA_PATH.read_text(encoding="utf-8") if SCHEMA_PATH.exists() else ""
        if current != text:
            print(f"{SCHEMA_PATH} is stale: run python -m mcp_lab.record_schema", file=sys.stderr)
            return 1
        return 0
    SCHEMA_PATH.parent.mkdir(parents=True, exist_ok=True)
    SCHEMA_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
