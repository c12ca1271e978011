"""Tests of mcp_lab/exchanges/ (the package layout is mirrored here)."""
