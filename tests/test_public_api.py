"""The public API is exactly what `__all__` lists, and all of it imports."""

from __future__ import annotations

import mcp_lab


def test_all_is_sorted_and_importable() -> None:
    names = [n for n in mcp_lab.__all__ if n != "__version__"]
    assert names == sorted(names, key=str.lower) or names == sorted(names)
    for name in mcp_lab.__all__:
        assert hasattr(mcp_lab, name), name


def test_no_private_names_leak() -> None:
    assert not [n for n in mcp_lab.__all__ if n.startswith("_") and n != "__version__"]
