"""IPython magics: parse, then delegate to the sandbox and the flow API. Nothing else lives here.

Spec context: the magics start 2026-07-28 servers in the kernel (`%%mcp_server`) and drive multi round-trip
calls against them (`%mcp_call`, `%mcp_prompt`, `%mcp_read`). Magic functions are synchronous and cannot
await, so a call magic starts the flow as a task and returns a `FlowRun`: awaited
(`flow = await %mcp_call ...`, or a bare `%mcp_call ...` line, made possible by a small input transformer)
the cell waits for it -- and a live form can be answered meanwhile; assigned without `await`
(`run = %mcp_call ...`) it runs in the background and its view updates in place as the rounds arrive.
"""

from __future__ import annotations

import argparse
import asyncio
import math
from typing import TYPE_CHECKING, Any

from IPython.core.magic import Magics, line_cell_magic, line_magic, magics_class, no_var_expand
from IPython.core.magic_arguments import argument, magic_arguments

from mcp_lab.background import background
from mcp_lab.deployment.source import remember_adopted, remember_cell
from mcp_lab.errors import LabError
from mcp_lab.flow import calls as api
from mcp_lab.flow.flow import Flow
from mcp_lab.flow.live import FlowRun
from mcp_lab.json_types import JsonObject
from mcp_lab.magics.await_line import await_magic_transformer
from mcp_lab.magics.call_line import parse_arguments, parse_call_line
from mcp_lab.magics.magic_line import expand_for, magic_args, refuse_options, shell_words
from mcp_lab.protocol.keys import KeyRing
from mcp_lab.servers.adopt import adopt, adoption_note, is_server, load_server, offers_nothing
from mcp_lab.servers.sandbox import sandbox

if TYPE_CHECKING:
    from mcp_lab.servers.access import ServingRules

__all__ = ["FlowRun", "LabMagics", "await_magic_transformer", "parse_arguments"]

LOWLEVEL_HANDLERS = (
    "on_list_tools",
    "on_call_tool",
    "on_list_resources",
    "on_list_resource_templates",
    "on_read_resource",
    "on_list_prompts",
    "on_get_prompt",
    "on_completion",
    "get_tool_input_schema",
)


_MANAGE_USAGE = {
    "list": "%mcp_server list",
    "serve": "%mcp_server serve NAME [--port N] [--no-auth] [--allow-origin ORIGIN]",
    "url": "%mcp_server url NAME",
    "log": "%mcp_server log NAME",
    "stop": "%mcp_server stop NAME",
    "restart": "%mcp_server restart NAME [--keep-secret]",
}
_MANAGE_OPTIONS = {
    "serve": frozenset({"port", "no_auth", "allow_origin"}),
    "restart": frozenset({"keep_secret"}),
}
"""The options each `%mcp_server` subcommand takes (the others are for defining a server)."""


@magics_class
class LabMagics(Magics):
    """`%%mcp_server`, `%mcp_server list|stop|restart`, `%mcp_call`, `%mcp_prompt`, `%mcp_read`, `%mcp_describe`."""

    @no_var_expand
    @magic_arguments()
    @argument(
        "name", help="server name (also the audience its request_state is bound to); or list/serve/url/log/stop/restart"
    )
    @argument("target", nargs="?", help="with serve/url/log/stop/restart: the server's name")
    @argument("--keys", help="a variable (or expression) holding a list of keys, each 32 to 1024 bytes")
    @argument("--ttl", type=float, default=600.0, help="request_state lifetime in seconds (default 600)")
    @argument("--lowlevel", action="store_true", help="a lowlevel Server: the cell defines on_* handlers")
    @argument("--seal", action="store_true", help="lowlevel only: add the RequestStateBoundary it lacks")
    @argument("--replace", action="store_true", help="(the default) re-running the cell replaces the server")
    @argument("--http", action="store_true", help="also serve it over Streamable HTTP on 127.0.0.1")
    @argument("--port", help="with --http or serve: the port (default: any free port)")
    @argument("--no-auth", action="store_true", help="with --http or serve: accept calls without the bearer secret")
    @argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="with --http or serve: accept browser "
        "requests from this origin (e.g. http://localhost:6274); requests with any other Origin are refused",
    )
    @argument("--keep-secret", action="store_true", help="with restart: keep the bearer secret outside clients hold")
    @argument(
        "--from",
        dest="source",
        metavar="MODULE:ATTRIBUTE",
        help="adopt the server object (or zero-argument factory) MODULE:ATTRIBUTE names; it keeps its own keys",
    )
    @argument(
        "--lab-keys", action="store_true", help="with --from: the lab takes over the server's request_state key ring"
    )
    @line_cell_magic
    def mcp_server(self, line: str, cell: str | None = None) -> object:
        """Define a server (cell magic: the body gets `mcp`, an MCPServer) or manage servers (line magic).

        Served over HTTP (`--http`, `serve`), a server requires its own bearer secret (`%mcp_server url NAME`
        shows it for outside clients) and refuses browser pages unless `--allow-origin` names them.
        """
        args = magic_args(self.shell, self.mcp_server, line)
        if args.source is not None:
            if cell is not None and cell.strip():
                raise LabError("%mcp_server NAME --from MODULE:ATTRIBUTE is a line magic: it takes no cell body")
            self._adopt(args)
            return None
        if args.lab_keys:
            raise LabError("--lab-keys goes with --from MODULE:ATTRIBUTE (a %%mcp_server cell's server is the lab's)")
        if cell is None:
            return self._manage(args)
        if args.target:
            raise LabError(f"unexpected argument {args.target!r}; usage: %%mcp_server NAME [--keys VAR] [--ttl S]")
        if not math.isfinite(args.ttl) or args.ttl <= 0:
            raise LabError(f"--ttl must be a positive number of seconds, not {args.ttl!r}")
        rules = self._access(args)
        keys = self._evaluate(args.keys) if args.keys else None
        ns = self.shell.user_ns if self.shell is not None else {}
        if args.lowlevel:
            before = {k: ns.get(k) for k in LOWLEVEL_HANDLERS}
            self._exec(cell, args.name)
            handlers = {k: ns[k] for k in LOWLEVEL_HANDLERS if k in ns and ns[k] is not before[k]}
            entry = sandbox.new_lowlevel(args.name, handlers, seal=args.seal, keys=keys, ttl=args.ttl)
            ns["server"] = entry.server
        else:
            if args.seal:
                raise LabError("--seal is for --lowlevel servers; MCPServer always seals")
            entry = sandbox.new_mcpserver(args.name, keys=keys, ttl=args.ttl)
            had_mcp, previous = "mcp" in ns, ns.get("mcp")
            ns["mcp"] = entry.server
            servers_before = {id(v) for v in ns.values() if is_server(v)}
            try:
                self._exec(cell, args.name)
            except LabError:  # `mcp` is what it was before the cell, not a server nobody registered
                if had_mcp:
                    ns["mcp"] = previous
                else:
                    ns.pop("mcp", None)
                raise
            own = self._own_server(args.name, ns, entry.server, servers_before)
            if own is not None:  # the cell built its own server: that is the one the user means
                entry = adopt(own, name=args.name, keys=keys, ttl=args.ttl if args.keys else None)
                print(f"the cell rebound `mcp` to its own server {own.name!r}: adopted as {args.name!r}")
                print(adoption_note(entry))
        # Re-running the cell replaces the server, as re-running a `def` redefines a function.
        sandbox.register(entry)
        remember_cell(args.name, line, cell)  # so mcp_lab.start_fleet can run this cell in other processes
        if args.http or args.port is not None:
            self._serve(args.name, args.port, rules)
        return None

    def _own_server(self, name: str, ns: JsonObject, made: object, before: set[int]) -> Any:
        """The server a %%mcp_server cell built for itself (`mcp = build_server()`), else None; a one-line
        warning when the cell left the lab's `mcp` empty or rebound it to something else."""
        bound = ns.get("mcp")
        if bound is not made and is_server(bound):
            return bound
        if bound is not made:
            print(
                f"warning: the cell rebound `mcp` to a {type(bound).__name__}; {name!r} is the lab's server as the cell left it"
            )
        elif offers_nothing(made):
            built = [k for k, v in ns.items() if is_server(v) and id(v) not in before and not k.startswith("_")]
            hint = (
                f"; to use the server `{built[0]}` it built: mcp_lab.adopt({built[0]}, name={name!r})" if built else ""
            )
            print(
                f"warning: the cell registered nothing on `mcp`, so {name!r} offers no tools, prompts or resources{hint}"
            )
        return None

    def _adopt(self, args: argparse.Namespace) -> None:
        """%mcp_server NAME --from MODULE:ATTRIBUTE [--lab-keys] [--keys VAR] [--http ...]"""
        if args.target or args.lowlevel or args.seal:
            raise LabError(
                "usage: %mcp_server NAME --from MODULE:ATTRIBUTE [--lab-keys] [--keys VAR] [--ttl S] [--http]"
            )
        rules = self._access(args)
        keys = self._evaluate(args.keys) if args.keys else None
        take = args.lab_keys or keys is not None
        if not math.isfinite(args.ttl) or args.ttl <= 0:
            raise LabError(f"--ttl must be a positive number of seconds, not {args.ttl!r}")
        server = load_server(args.source, args.name, reload=True)
        entry = adopt(server, name=args.name, take_keys=args.lab_keys, keys=keys, ttl=args.ttl if take else None)
        remember_adopted(args.name, args.source)  # mcp_lab.start_fleet(NAME) imports it in each process
        print(f"adopted {args.name!r} ({entry.kind} from {args.source})")
        print(adoption_note(entry))
        if args.http or args.port is not None:
            self._serve(args.name, args.port, rules)

    def _access(self, args: argparse.Namespace) -> ServingRules:
        """--no-auth / --allow-origin, checked before anything runs."""
        from mcp_lab.servers.access import check_origin

        if (args.no_auth or args.allow_origin) and not (args.http or args.port is not None or args.name == "serve"):
            raise LabError("--no-auth and --allow-origin are for serving: add --http (or use %mcp_server serve NAME)")
        return {"auth": False if args.no_auth else None, "allow_origins": [check_origin(o) for o in args.allow_origin]}

    def _serve(self, name: str, port: str | None, rules: ServingRules) -> None:
        from mcp_lab.servers.access import Access, authenticates_itself, no_auth_warning

        entry = sandbox.lab_server(name)
        access = Access.make(**rules, own_auth=authenticates_itself(entry.server))
        try:
            url = entry.serve_on(port, access)
        except LabError as exc:
            raise LabError(f"{name!r} is defined (in-process) but not served: {exc}") from None
        if access.open:
            print(f"serving {name!r} at {url}\nwarning: {no_auth_warning(name, url)}")
        elif access.own_auth:
            print(f"serving {name!r} at {url} (the server authenticates its callers itself)")
        else:
            print(f"serving {name!r} at {url} (callers need its secret: %mcp_server url {name})")

    def _show_url(self, name: str) -> None:
        from mcp_lab.servers.access import no_auth_warning, write_header_file

        entry = sandbox.lab_server(name)
        serving = entry.http
        if serving is None or not serving.alive:
            raise LabError(f"{name!r} is not served over HTTP; serve it with %mcp_server serve {name}")
        lines = [f"{name!r} is served at {serving.url}"]
        if serving.access.origins:
            lines.append(f"browser pages allowed from: {', '.join(serving.access.origins)}")
        header = serving.access.headers().get("Authorization")
        if serving.access.own_auth:
            lines.append("the server authenticates its callers itself: send its own credentials (OAuth)")
        elif header is None:
            lines.append(f"warning: {no_auth_warning(name, serving.url)}")
        else:
            try:
                path = write_header_file(name, serving.access)
            except OSError as exc:
                raise LabError(f"could not write the header file for {name!r}: {exc.strerror or exc}") from None
            lines += [
                f"outside clients send its secret ({serving.access.describe()}) in the header line written to "
                f"{path} (readable by you only; it is never shown, so the notebook can be shared)",
                f"MCP Inspector: npx @modelcontextprotocol/inspector --cli {serving.url} --transport http --protocol-era auto "
                f'--header "$(cat {path})" --method tools/list',
            ]
        print("\n".join(lines))

    def _exec(self, cell: str, name: str) -> None:
        from mcp_lab.servers.containment import describe
        from mcp_lab.servers.log_book import contained

        ns = self.shell.user_ns if self.shell is not None else {}
        try:
            code = compile(cell, f"<%%mcp_server {name}>", "exec")
            with contained(name):  # the cell's logging set-up goes to the server's log, not to every cell
                exec(code, ns)
        except BaseException as exc:  # SystemExit / KeyboardInterrupt from the cell too: one line, no server
            raise LabError(
                f"%%mcp_server {name}: the cell raised {describe(exc)}; the server was not registered"
            ) from None

    def _evaluate(self, expression: str) -> KeyRing:
        """`--keys VAR`: the ring it names, checked before the cell runs (the message never shows a key)."""
        ns = self.shell.user_ns if self.shell is not None else {}
        try:
            value = eval(expression, ns)
        except BaseException as exc:
            raise LabError(f"--keys {expression!r} could not be evaluated: {type(exc).__name__}") from None
        try:
            return KeyRing.coerce(value)
        except LabError as exc:
            raise LabError(f"--keys: {exc}") from None

    def _manage(self, args: argparse.Namespace) -> object:
        command, target = args.name, args.target
        usage = _MANAGE_USAGE.get(command)
        if usage is not None:  # words and options a subcommand does not take are refused, not ignored
            if command == "list" and target:
                raise LabError(f"%mcp_server list takes no server name ({target!r}); usage: {usage}")
            refuse_options(self.mcp_server, args, usage, _MANAGE_OPTIONS.get(command, frozenset()))
        if command == "list":
            from mcp_lab.servers.view import ServerList

            return ServerList.from_sandbox(sandbox)
        if command == "serve":
            if not target:
                raise LabError("usage: %mcp_server serve NAME [--port N] [--no-auth] [--allow-origin ORIGIN]")
            sandbox.get(target)
            self._serve(target, args.port, self._access(args))
            return None
        if command == "log":
            if not target:
                raise LabError("usage: %mcp_server log NAME")
            from mcp_lab.servers.connect import server_log

            return server_log(target)
        if command == "url":
            if not target:
                raise LabError("usage: %mcp_server url NAME")
            self._show_url(target)
            return None
        if command in ("stop", "restart"):
            if not target:
                raise LabError(f"usage: %mcp_server {command} NAME")
            entry = sandbox.get(target)
            loop = asyncio.get_running_loop()
            if command == "stop":
                sandbox.retire(entry)
                print(f"stopped {target!r}")
                return None
            background.keep(loop.create_task(sandbox.restart(target, keep_secret=args.keep_secret)))
            fresh = "a new lab-generated key" if entry.ring is not None and entry.ring.generated else "the same keys"
            if getattr(entry, "http", None) is not None:
                fresh += ", the same bearer secret" if args.keep_secret else ", a new bearer secret"
            print(f"restarting {target!r} with {fresh}; clients reconnect on the next call")
            return None
        raise LabError(
            f"%mcp_server {command}: expected list, serve NAME, url NAME, log NAME, stop NAME or restart NAME "
            "(use %%mcp_server NAME to define one, or %mcp_server NAME --from MODULE:ATTRIBUTE to adopt yours)"
        )

    def _flow_magic(self, method: str, line: str, has_args: bool) -> FlowRun:
        what = {"tools/call": "TOOL", "prompts/get": "PROMPT", "resources/read": "URI"}[method]
        usage = f"NAME {what}" + (" [JSON | key=value ...]" if has_args else "") + " [--answers JSON|VAR] [--timeout S]"
        line = expand_for(self.shell, line)
        call = parse_call_line(line, usage, has_args, self.shell.user_ns if self.shell is not None else {})
        sandbox.get(call.server)  # unknown server: fail now, in the magic, as a UsageError
        run_holder: list[FlowRun] = []

        async def go() -> Flow:
            flow = await api.start(
                call.server,
                method,
                call.target,
                call.arguments,
                answers=call.answers,
                legacy=call.legacy,
                max_rounds=call.max_rounds,
            )
            run_holder[0].attach(flow)
            if call.step:
                await flow.step()
                return flow
            return await api.run_flow(flow, call.timeout)

        run = FlowRun(go(), f"{method} {call.target}")
        run_holder.append(run)
        return run

    @no_var_expand
    @line_magic
    def mcp_call(self, line: str) -> FlowRun:
        """%mcp_call NAME TOOL [JSON | key=value ...] [--answers JSON|VAR] [--timeout S] [--max-rounds N] [--step]
        [--legacy]

        Calls TOOL, answering its input requests (scripted answers first, then a live form).
        `flow = await %mcp_call ...` waits for the flow; a bare `%mcp_call ...` shows it live. No time limit
        by default (`--timeout S` stops the flow after S seconds; Interrupt ends any wait);
        `--max-rounds` defaults to 10, as the SDK's Client.
        """
        return self._flow_magic("tools/call", line, has_args=True)

    @no_var_expand
    @line_magic
    def mcp_prompt(self, line: str) -> FlowRun:
        """%mcp_prompt NAME PROMPT [JSON | key=value ...] [--answers JSON|VAR] [--timeout S] [--max-rounds N] [--step]
        [--legacy]"""
        return self._flow_magic("prompts/get", line, has_args=True)

    @no_var_expand
    @line_magic
    def mcp_describe(self, line: str) -> object:
        """%mcp_describe NAME

        What server NAME (started, adopted or connected) says about itself: server info, capabilities, the
        negotiated protocol version, and every tool (schemas, header parameters), prompt and resource.
        A bare line waits for it; `d = await %mcp_describe NAME` keeps it (`mcp_lab.describe(NAME)` in Python).
        """
        from mcp_lab.magics.connect import Pending
        from mcp_lab.servers.describe import describe

        words = shell_words(expand_for(self.shell, line))
        if len(words) != 1:
            raise LabError("usage: %mcp_describe NAME")
        sandbox.get(words[0])  # unknown server: fail now, in the magic, as a UsageError
        return Pending(describe(words[0]), f"describing {words[0]!r}", lambda d: d)

    @no_var_expand
    @line_magic
    def mcp_read(self, line: str) -> FlowRun:
        """%mcp_read NAME URI [--answers JSON|VAR] [--timeout S] [--max-rounds N] [--step] [--legacy]"""
        return self._flow_magic("resources/read", line, has_args=False)
