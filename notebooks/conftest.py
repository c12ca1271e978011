"""nbval settings for the tutorials: compare the stable `text/plain` of every output, nothing richer.

mcp_lab's views put times, nonces and tokens in their HTML and vendor JSON on purpose (the reader should
see them); their `text/plain` is kept stable for exactly this comparison (plus notebooks/sanitize.cfg).
"""

from __future__ import annotations

from typing import Any

RICH = ("text/html", "text/markdown")
VENDOR_PREFIX = "application/vnd.mcp-lab."


def pytest_collection_modifyitems(items: list[Any]) -> None:
    for item in items:
        notebook = getattr(item, "parent", None)
        skip = getattr(notebook, "skip_compare", None)
        if skip is None or "text/html" in skip:
            continue
        vendor = tuple(
            key
            for cell in getattr(notebook, "nb", {}).get("cells", [])
            for output in cell.get("outputs", [])
            for key in output.get("data", {})
            if key.startswith(VENDOR_PREFIX)
        )
        notebook.skip_compare = (*skip, *RICH, *sorted(set(vendor)))
