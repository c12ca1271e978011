"""The deployment check's report as HTML: the counts, where retries were refused, the instance pairs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_lab.markup import code, e, table, table_row, tone, wrap

if TYPE_CHECKING:
    from mcp_lab.deployment.check import DeploymentReport

__all__ = ["report_html"]


def report_html(report: DeploymentReport) -> str:
    title, *lines = report.text().splitlines()
    verdict = tone("ok" if report.ok else "err", ("✓ " if report.ok else "✗ ") + title)
    served = [table_row(code(k), str(v)) for k, v in sorted(report.served.items())]
    refused = [table_row(code(k), tone("err", v)) for k, v in sorted(report.refused_on().items())]
    tables = table(["instance", "responses"], served) if served else ""
    if refused:
        tables += table(["refused on", "flows"], refused)
    rest = "".join(f"<div>{e(line.strip())}</div>" for line in lines[:1])
    return wrap(f"<div>{verdict}</div>{rest}{tables}", "mcp-lab-deployment-check")
