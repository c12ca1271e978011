"""Tests of mcp_lab/headers/ (the package layout is mirrored here)."""
