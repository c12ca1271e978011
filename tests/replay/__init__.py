"""Tests of mcp_lab/replay/ (the package layout is mirrored here)."""
