"""Run All twice in one kernel, under nbval: each tutorial's cells run again after nbval has checked them.

Spec context: a reader may run a whole tutorial twice in one kernel (Run All, then Run All again): re-running
a `%%mcp_server` cell replaces the server, as re-running a `def` redefines a function, and the lab's hooks
are installed once per kernel. `./dev test` loads this plugin (`-p tests.nbval_twice`) into its nbval run
over the reference tutorials: after a notebook's last cell was run and compared with its saved output, every
code cell runs a second time in the same kernel, as `<cell> again` items. An again item fails when its cell
raises (nbval's own check), and when it prints more `[server log]` lines than the same cell printed on the
first run (a logging handler installed twice). Its output is not compared with the saved one: the second run
rightly differs where a cell shows the kernel's state (`%mcp_server list` names the servers the first run
started later; `%load_ext` says the extension is already loaded).

Why here and not in a test of its own: the first run is the one nbval makes anyway (the same notebook, with
MCP_LAB_UNATTENDED=1, in a fresh kernel), so the tutorials run three times rather than four.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
from nbval.plugin import IPyNbCell, IPyNbFile

MARK = "[server log]"


class AgainCell(IPyNbCell):
    """A code cell run the second time: it must not raise, nor log more than it did the first time."""

    first: IPyNbCell

    def runtest(self) -> None:
        super().runtest()
        once, again = logged_lines(self.first.test_outputs), logged_lines(self.test_outputs)
        assert len(again) <= len(once), (self.cell.get("id"), once, again)


def logged_lines(outputs: list[Any] | None) -> list[str]:
    """The `[server log]` lines a cell printed (their count shows a handler installed twice)."""
    text = "".join(o.get("text", "") for o in outputs or [] if o.get("output_type") == "stream")
    return [line for line in text.splitlines() if line.startswith(MARK)]


def pytest_report_collectionfinish(items: list[pytest.Item]) -> str:
    again = sum(isinstance(item, AgainCell) for item in items)
    return f"nbval_twice: {again} of these {len(items)} are the cells' second run in the same kernel"


@pytest.hookimpl(trylast=True)  # after nbval and notebooks/conftest.py have set each notebook's items up
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    result: list[pytest.Item] = []
    for index, item in enumerate(items):
        result.append(item)
        parent = item.parent
        last_of_notebook = isinstance(parent, IPyNbFile) and (
            index + 1 == len(items) or items[index + 1].parent is not parent
        )
        if not last_of_notebook:
            continue
        firsts = [i for i in items if i.parent is parent and isinstance(i, IPyNbCell)]
        for first in firsts:
            # A cell nbval skips (an NBVAL_SKIP marker) is skipped again; nothing else is copied but the cell.
            options = defaultdict(bool, {**first.options, "check": False})
            again = AgainCell.from_parent(
                parent, name=f"{first.name} again", cell_num=first.cell_num, cell=first.cell, options=options
            )
            again.first = first
            result.append(again)
    items[:] = result
