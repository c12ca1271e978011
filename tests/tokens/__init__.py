"""Tests of mcp_lab/tokens/ (the package layout is mirrored here)."""
