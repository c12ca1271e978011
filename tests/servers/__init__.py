"""Tests of mcp_lab/servers/ (the package layout is mirrored here)."""
