"""Tests of mcp_lab/rotation/ (the package layout is mirrored here)."""
