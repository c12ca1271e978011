"""`python -m mcp_lab replay COLLECTION --server URL`: a notebook's recorded flows as a CI regression test.
(`python -m mcp_lab audit ...`, the 2026-07-28 rules checked by repeating them, lives in `mcp_lab.audit.cli`;
`python -m mcp_lab deploy-check ...`, shared keys across a deployment's instances, in `mcp_lab.deployment.cli`.)

Spec context: multi round-trip requests replayed against a server reached over Streamable HTTP (`--server`)
or stdio (`--stdio "COMMAND ARGS"`), the questions answered from the recording. The command prints the replay
report -- each difference named by its JSON path -- and exits 0 when every flow matches, 1 when anything
differs (or a flow could not run), and 2 on bad input (usage, a missing, unreadable or structurally wrong
collection, a server that cannot be reached) with one line saying why, never a traceback.

Why the imports wait: the SDK costs about a CPU-second to import, and `--help` or a mistyped option needs
none of it. Parsing and the checks that come before any collection is read use the standard library and the
lab's light modules only; each command imports its engine once its arguments are known to be usable.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from mcp_lab.audit.cli import add_parser as add_audit
from mcp_lab.deployment.cli import add_parser as add_deploy_check
from mcp_lab.errors import LabError
from mcp_lab.servers.credentials import SafeArgumentParser, header_arguments, redact_url

if TYPE_CHECKING:
    from mcp_lab.replay.collection import Collection
    from mcp_lab.replay.run import ReplayReport

__all__ = ["main"]

EXIT_SAME, EXIT_DIFFERENT, EXIT_BAD_INPUT = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    # Its error lines never repeat a typed header value or URL password (SafeArgumentParser).
    parser = SafeArgumentParser(prog="python -m mcp_lab", description="mcp_lab from the command line")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rp = commands.add_parser(
        "replay",
        help="replay a saved collection against a server; non-zero exit on any difference",
        description="Replay the flows saved with mcp_lab.save_flows, answering every question from the recording.",
    )
    rp.add_argument("collection", help="a JSON file written by mcp_lab.save_flows")
    target = rp.add_mutually_exclusive_group(required=True)
    target.add_argument("--server", metavar="URL", help="a Streamable HTTP endpoint, e.g. http://127.0.0.1:8000/mcp")
    target.add_argument("--stdio", metavar='"COMMAND ARGS"', help="start the server as a subprocess over stdio")
    rp.add_argument("--legacy", action="store_true", help="speak 2025-11-25 only (the pre-2026 back channel)")
    rp.add_argument("--env", action="append", default=[], metavar="KEY=VALUE", help="environment for --stdio")
    rp.add_argument("--cwd", help="working directory for --stdio")
    rp.add_argument(
        "--header",
        action="append",
        default=[],
        metavar='"NAME: VALUE"',
        help='an HTTP header for --server, e.g. "Authorization: Bearer ..." (never printed)',
    )
    rp.add_argument(
        "--header-file",
        action="append",
        default=[],
        metavar="FILE",
        help="HTTP headers for --server, one \"Name: value\" a line (the file %%mcp_server url NAME writes)",
    )
    # None: replay's own default (mcp_lab.replay.run.DEFAULT_TIMEOUT), read once the command runs.
    rp.add_argument("--timeout", type=float, default=None, help="seconds each flow may take")
    rp.add_argument("--connect-timeout", type=float, default=30.0, help="seconds to wait for the server")
    rp.add_argument("--json", action="store_true", help="print the report as JSON instead of text")
    add_audit(commands)
    add_deploy_check(commands)
    return parser


async def _replay(args: argparse.Namespace, collection: Collection, env: dict[str, str]) -> ReplayReport:
    from mcp_lab.replay.run import DEFAULT_TIMEOUT, replay
    from mcp_lab.servers.connect import connect
    from mcp_lab.servers.sandbox import sandbox

    name = "replay-target"
    connection = await connect(
        name,
        args.server,
        stdio=args.stdio,
        legacy=args.legacy,
        env=env,
        cwd=args.cwd,
        timeout=args.connect_timeout,
        headers=header_arguments(args.header, args.header_file),
    )
    try:
        timeout = DEFAULT_TIMEOUT if args.timeout is None else args.timeout
        report = await replay(collection, server=connection, timeout=timeout)
        report.server = connection.where
        return report
    finally:
        await sandbox.stop(name)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)  # bad usage: argparse prints the usage and one error line, exit 2
    if args.command == "audit":
        from mcp_lab.audit.cli import run

        return run(args)
    if args.command == "deploy-check":
        from mcp_lab.deployment.cli import run as run_deploy_check

        return run_deploy_check(args)
    return _run_replay(args)


def _run_replay(args: argparse.Namespace) -> int:
    try:
        for timeout in (args.timeout, args.connect_timeout):
            if timeout is not None and (not math.isfinite(timeout) or timeout <= 0):
                raise LabError("timeouts must be positive numbers of seconds")
        if (args.header or args.header_file) and not args.server:
            raise LabError("--header is for --server URL (so is --header-file)")
        header_arguments(args.header, args.header_file)
        import asyncio

        from mcp_lab.replay.collection import load_collection
        from mcp_lab.servers.connect import parse_environment

        collection = load_collection(args.collection)  # checked before anything is started
        if not collection.flows:
            raise LabError(f"{args.collection!r} holds no flows")
        report = asyncio.run(_replay(args, collection, parse_environment(args.env)))
    except LabError as exc:
        print(redact_url(f"mcp_lab replay: error: {exc}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:  # whatever else made the collection unusable: one line, never a traceback
        detail = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        print(redact_url(f"mcp_lab replay: error: could not replay {args.collection!r}: {detail}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    report.source = args.collection
    if args.json:
        print(json.dumps(report.to_dict(), indent=1, ensure_ascii=False, default=str))
    else:
        print(report.text())
    return EXIT_SAME if report.ok else EXIT_DIFFERENT


if __name__ == "__main__":
    sys.exit(main())
