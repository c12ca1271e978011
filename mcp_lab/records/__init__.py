"""What every displayed record shares (`base`: strict pydantic models, kinds, versions, embedding caps) and the
one JSON Schema that holds them all (`mcp_lab.record_schema`, written by `python -m mcp_lab.record_schema`).

Each feature keeps its own record module beside its model and view (`mcp_lab.flow.record`,
`mcp_lab.tokens.record`, ...); `mcp_lab.record_schema.KINDS` lists them by vendor MIME kind. Nothing is imported here, so a
feature's record loads only the base it builds on.
"""
