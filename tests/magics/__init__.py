"""Tests of mcp_lab/magics/ (the package layout is mirrored here)."""
