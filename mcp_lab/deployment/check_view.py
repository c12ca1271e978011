"""The deployment check's report as HTML: the counts, where retries were refused, the instance pairs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_lab.markup import code, e, tone, wrap

if TYPE_CHECKING:
    from mcp_lab.deployment.check import DeploymentReport

__all__ = ["report_html"]


def report_html(report: DeploymentReport) -> str:
    title, *lines = report.text().splitlines()
    verdict = tone("ok" if report.ok else "err", ("✓ " if report.ok else "✗ ") + title)
    served = "".join(f"<tr><td>{code(k)}</td><td>{v}</td></tr>" for k, v in sorted(report.served.items()))
    refused = "".join(
        f"<tr><td>{code(k)}</td><td>{tone('err', v)}</td></tr>" for k, v in sorted(report.refused_on().items())
    )
    table = (
        f"<table><thead><tr><th>instance</th><th>responses</th></tr></thead><tbody>{served}</tbody></table>"
        if served
        else ""
    )
    if refused:
        table += f"<table><thead><tr><th>refused on</th><th>flows</th></tr></thead><tbody>{refused}</tbody></table>"
    rest = "".join(f"<div>{e(line.strip())}</div>" for line in lines[:1])
    return wrap(f"<div>{verdict}</div>{rest}{table}", "mcp-lab-deployment-check")
