"""Tests of mcp_lab/flow/ (the package layout is mirrored here)."""
