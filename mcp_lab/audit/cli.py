"""`python -m mcp_lab audit COLLECTION --server URL | --stdio "CMD"`: the audit as a CI step.

Spec context: the 2026-07-28 rules for multi round-trip requests and header parameters (`mcp_lab.audit.rules`),
checked against a server reached over Streamable HTTP or stdio by repeating the calls of a saved collection.
Why these exit codes: a CI job should fail on a broken MUST and only then -- 0 when no MUST rule is broken
(broken SHOULDs and warnings are in the report), 1 when one is, 2 when the audit could not run (bad usage, a
missing or malformed collection, a server that cannot be reached), with one line saying why. The text report
goes to stdout; `--json FILE` and `--junit FILE` write the record and JUnit XML for CI systems. The parser,
the option checks and an unknown check id need none of the SDK: the audit's engine loads once they pass.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import TYPE_CHECKING, Any

from mcp_lab.audit.selection import CHECK_IDS, DEFAULT_MAX_WAIT, select
from mcp_lab.errors import LabError
from mcp_lab.servers.credentials import header_arguments, redact

if TYPE_CHECKING:  # imported when the audit runs: `python -m mcp_lab --help` stays quick
    from mcp_lab.audit.report import AuditReport
    from mcp_lab.flow.flow import Flow

__all__ = ["EXIT_BROKEN", "EXIT_CANNOT_RUN", "EXIT_KEPT", "add_parser", "run"]

EXIT_KEPT, EXIT_BROKEN, EXIT_CANNOT_RUN = 0, 1, 2


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """The `audit` subcommand of `python -m mcp_lab`."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "audit",
        help="audit a server against the 2026-07-28 rules by repeating a saved collection; exit 1 on a broken MUST",
        description=(
            "Repeat the calls of a collection saved with mcp_lab.save_flows against a server, changed the way "
            "each rule of the 2026-07-28 specification is about, and report which rules it keeps. "
            f"Checks: {', '.join(CHECK_IDS)}."
        ),
    )
    parser.add_argument("collection", help="a JSON file written by mcp_lab.save_flows")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--server", metavar="URL", help="a Streamable HTTP endpoint, e.g. http://127.0.0.1:8000/mcp")
    target.add_argument("--stdio", metavar='"COMMAND ARGS"', help="start the server as a subprocess over stdio")
    parser.add_argument(
        "--header",
        action="append",
        default=[],
        metavar='"NAME: VALUE"',
        help='an HTTP header for --server, e.g. "Authorization: Bearer ..." (repeatable; never printed)',
    )
    parser.add_argument(
        "--header-file",
        action="append",
        default=[],
        metavar="FILE",
        help="HTTP headers for --server, one \"Name: value\" a line (the file %%mcp_server url NAME writes)",
    )
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE", help="environment for --stdio")
    parser.add_argument("--cwd", help="working directory for --stdio")
    parser.add_argument("--only", action="append", default=[], metavar="CHECK[,CHECK]", help="run only these checks")
    parser.add_argument("--skip", action="append", default=[], metavar="CHECK[,CHECK]", help="leave these checks out")
    parser.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    parser.add_argument("--junit", metavar="FILE", help="also write the report as JUnit XML")
    parser.add_argument(
        "--lifetime", type=float, metavar="SECONDS", help="how long the server's requestState plausibly lives"
    )
    parser.add_argument(
        "--max-wait",
        type=float,
        default=DEFAULT_MAX_WAIT,
        metavar="SECONDS",
        help=f"the longest the lifetime check may wait (default {DEFAULT_MAX_WAIT:g}); longer: skipped",
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds each request may take")
    parser.add_argument("--connect-timeout", type=float, default=30.0, help="seconds to wait for the server")
    return parser


async def _audit(
    args: argparse.Namespace, flows: list[Flow], env: dict[str, str], headers: dict[str, str]
) -> AuditReport:
    from mcp_lab.audit.runner import audit
    from mcp_lab.protocol.eras import MODERN
    from mcp_lab.servers.connect import connect
    from mcp_lab.servers.sandbox import sandbox

    name = "audit-target"
    connection = await connect(
        name, args.server, stdio=args.stdio, env=env, cwd=args.cwd, timeout=args.connect_timeout, headers=headers
    )
    try:
        report = await audit(
            connection,
            flows,
            only=args.only or None,
            skip=args.skip or None,
            lifetime=args.lifetime,
            max_wait=args.max_wait,
            timeout=args.timeout,
        )
        info = (await connection.session(MODERN)).server_info
        if info is not None and info.name:  # the server's own name reads better in a CI log than ours
            report.rename(info.name)
        return report
    finally:
        await sandbox.stop(name)


def run(args: argparse.Namespace) -> int:
    """Run the audit the arguments describe; print the report; the exit code."""
    secrets: list[str] = []
    try:
        for option in ("timeout", "connect_timeout", "max_wait", "lifetime"):
            value = getattr(args, option)
            if value is not None and (not math.isfinite(value) or value <= 0):
                raise LabError(f"--{option.replace('_', '-')} must be a positive number of seconds")
        if (args.header or args.header_file) and not args.server:
            raise LabError("--header is for --server URL (so is --header-file)")
        headers = header_arguments(args.header, args.header_file)
        secrets = [part for value in headers.values() for part in (value, *(w for w in value.split() if len(w) >= 8))]
        select(args.only or None, args.skip or None)  # an unknown check is bad usage: before anything starts
        import asyncio

        from mcp_lab.replay.collection import load_flows
        from mcp_lab.servers.connect import parse_environment

        flows = load_flows(args.collection)
        report = asyncio.run(_audit(args, flows, parse_environment(args.env), headers))
        report.write(json_path=args.json, junit_path=args.junit)
    except LabError as exc:
        print(redact(f"mcp_lab audit: error: {exc}", secrets), file=sys.stderr)
        return EXIT_CANNOT_RUN
    except Exception as exc:  # whatever else stopped the audit: one line, never a traceback
        detail = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        print(redact(f"mcp_lab audit: error: the audit could not run: {detail}", secrets), file=sys.stderr)
        return EXIT_CANNOT_RUN
    print(redact(f"server: {report.record.where}", secrets))
    print(redact(report.text(), secrets))
    return EXIT_BROKEN if report.exit_code else EXIT_KEPT
