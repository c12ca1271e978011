"""`%mcp_audit NAME [COLLECTION]`: parse, then delegate to `mcp_lab.audit`. Nothing else lives here.

Spec context: the 2026-07-28 rules for multi round-trip requests and header parameters, checked against a
sandbox server or connection by repeating this kernel's recorded calls for it (or a saved collection's).
Magic functions are synchronous and cannot await: the audit runs as a task and the magic returns a `Pending` --
`report = await %mcp_audit shop` waits for the report; a bare `%mcp_audit shop` shows "auditing..." and then
the report, in place.
"""

from __future__ import annotations

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_magic, magics_class, no_var_expand
from IPython.core.magic_arguments import argument, magic_arguments

from mcp_lab.magics.connect import Pending
from mcp_lab.magics.magic_line import magic_args

__all__ = ["AuditMagics"]


def _unquoted(value: str) -> str:
    """IPython's argument splitter keeps the quotes around `--header "NAME: VALUE"`; drop the outer pair."""
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"" else value


@magics_class
class AuditMagics(Magics):
    """The audit."""

    @no_var_expand
    @magic_arguments()
    @argument("name", help="the server's name in the lab (%%mcp_server, %%mcp_connect, mcp_lab.sandbox.add)")
    @argument("collection", nargs="?", help="a collection saved with mcp_lab.save_flows (default: this kernel's calls)")
    @argument("--only", action="append", default=[], metavar="CHECK[,CHECK]", help="run only these checks")
    @argument("--skip", action="append", default=[], metavar="CHECK[,CHECK]", help="leave these checks out")
    @argument("--header", action="append", default=[], metavar='"NAME: VALUE"', help="an extra HTTP header (never shown)")
    @argument("--header-file", action="append", default=[], metavar="FILE", help='a file of "Name: value" lines')
    @argument("--lifetime", type=float, help="seconds the server's requestState plausibly lives")
    @argument("--max-wait", type=float, default=30.0, help="the longest the lifetime check waits (default 30 s)")
    @line_magic
    def mcp_audit(self, line: str) -> object:
        """Audit a server against the 2026-07-28 rules by repeating the calls recorded for it.

        %mcp_audit NAME [COLLECTION] [--only CHECK,...] [--skip CHECK,...] [--lifetime S] [--max-wait S]
                   [--header "NAME: VALUE"]... [--header-file FILE]...
        """
        from mcp_lab.audit.runner import audit, select
        from mcp_lab.servers.credentials import header_arguments, redact
        from mcp_lab.servers.sandbox import sandbox

        try:
            args = magic_args(self.shell, self.mcp_audit, line)
        except UsageError as exc:  # argparse quotes what it did not understand: maybe an unquoted secret
            raise UsageError(redact(str(exc), line.split())) from None
        headers = header_arguments([_unquoted(h) for h in args.header], [_unquoted(f) for f in args.header_file])
        select(args.only or None, args.skip or None)  # one clear line for an unknown check, before anything runs
        connection = sandbox.get(args.name)
        work = audit(
            connection,
            args.collection,
            only=args.only or None,
            skip=args.skip or None,
            lifetime=args.lifetime,
            max_wait=args.max_wait,
            headers=headers or None,
        )
        return Pending(work, f"auditing {args.name!r}", lambda report: report)
