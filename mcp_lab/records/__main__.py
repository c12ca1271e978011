"""`python -m mcp_lab.records [--check]`: write (or check) labextension/schema/records.schema.json."""

from __future__ import annotations

import sys

from mcp_lab.records.schema import SCHEMA_PATH, schema_text


def main(argv: list[str]) -> int:
    text = schema_text()
    if "--check" in argv:
        current = SCHEMA_PATH.read_text(encoding="utf-8") if SCHEMA_PATH.exists() else ""
        if current != text:
            print(f"{SCHEMA_PATH} is stale: run python -m mcp_lab.records", file=sys.stderr)
            return 1
        return 0
    SCHEMA_PATH.parent.mkdir(parents=True, exist_ok=True)
    SCHEMA_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
