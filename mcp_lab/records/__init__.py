"""Typed, versioned records: one per vendor MIME kind the lab displays (see `mcp_lab.records.base`)."""
