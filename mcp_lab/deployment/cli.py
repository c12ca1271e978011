"""`python -m mcp_lab deploy-check URL COLLECTION [--instance URL ...]`: the deployment check for CI.

Spec context: shared request_state keys across instances, and a key rotation rolled out one step at a time;
a team runs this before and during a rotation. Exit 0: every retry verified; 1: some were refused (or a flow
could not finish); 2: the check could not run (bad input, nothing answers), with one line saying why.
The options are checked before the check's engine (and the SDK under it) is imported.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mcp_lab.errors import LabError
from mcp_lab.servers.credentials import header_arguments

__all__ = ["add_parser", "run"]

EXIT_BAD_INPUT = 2


def add_parser(commands: Any) -> None:
    check = commands.add_parser(
        "deploy-check",
        help="replay a collection through a deployment; non-zero exit when an instance refuses a sibling's token",
        description="Does every instance verify what its siblings sealed? Replays a collection saved with "
        "mcp_lab.save_flows through the proxy, and (with --instance) across every pair of instances.",
    )
    check.add_argument("url", help="the deployment's MCP endpoint, e.g. http://127.0.0.1:8080/mcp (its proxy)")
    check.add_argument("collection", help="a JSON file written by mcp_lab.save_flows")
    check.add_argument("--instance", action="append", default=[], metavar="URL", help="an instance's own URL")
    check.add_argument("--times", type=int, default=10, help="how many times to replay the collection")
    check.add_argument("--header", action="append", default=[], metavar='"NAME: VALUE"', help="sent, never printed")
    check.add_argument("--timeout", type=float, default=60.0, help="seconds each flow may take")
    check.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    try:
        headers = header_arguments(args.header)
        if not args.timeout > 0:
            raise LabError("--timeout must be a positive number of seconds")
        import asyncio

        from mcp_lab.deployment.check import check_deployment

        report = asyncio.run(
            check_deployment(
                args.url, args.collection, instances=args.instance, times=args.times, headers=headers, timeout=args.timeout
            )
        )
    except LabError as exc:
        print(f"mcp_lab deploy-check: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:  # whatever else stopped the check: one line, never a traceback
        detail = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        print(f"mcp_lab deploy-check: error: {detail}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(json.dumps(report.to_dict(), indent=1) if args.json else report.text())
    return report.exit_code
