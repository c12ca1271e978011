"""What an instance process serves: `uvicorn --factory mcp_lab.deployment.app:instance_app`.

Spec context: a deployed 2026-07-28 server is an ordinary ASGI app (`streamable_http_app()`, path `/mcp`) run by
uvicorn; its `request_state` key is process-local unless every instance is given the same `keys=[...]`.

The kernel hands each instance its configuration in environment variables that hold names and paths only:
the server (`module:attribute`), a directory to import it from, the instance's label, and -- for shared keys --
the path of a 0600 file holding them (key material never travels in argv, the environment or a log). Without
a keys file the server keeps its own request-state configuration (for a `%%mcp_server` cell: the SDK's
default, a random key of this process). SIGHUP re-reads the keys file (a rotation step, applied without a
restart); after each load the instance writes the key ids and the file's generation to its state file, so
the kernel knows when the new ring is live. Every response carries `Mcp-Lab-Instance: <label>`, so a client
behind the proxy can see which instance answered.
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mcp_lab.deployment.guard import die_with_parent

__all__ = [
    "ENV_KEYS",
    "ENV_LABEL",
    "ENV_PATH",
    "ENV_STATE",
    "ENV_TARGET",
    "ENV_TTL",
    "ENV_WORKERS",
    "INSTANCE_HEADER",
    "InstanceHeader",
    "instance_app",
    "load_keys",
    "load_target",
]

ENV_TARGET = "MCP_LAB_DEPLOY_TARGET"
ENV_PATH = "MCP_LAB_DEPLOY_PATH"
ENV_LABEL = "MCP_LAB_DEPLOY_LABEL"
ENV_KEYS = "MCP_LAB_DEPLOY_KEYS_FILE"
ENV_STATE = "MCP_LAB_DEPLOY_STATE_FILE"
ENV_TTL = "MCP_LAB_DEPLOY_TTL"
ENV_WORKERS = "MCP_LAB_DEPLOY_WORKERS"
INSTANCE_HEADER = "Mcp-Lab-Instance"



class InstanceHeader:
    """ASGI middleware: every HTTP response names the instance (and, under `--workers`, the worker's pid)."""

    def __init__(self, app: ASGIApp, label: str) -> None:
        self.app = app
        self.value = label.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def tagged(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((INSTANCE_HEADER.lower().encode(), self.value))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, tagged)


def _fail(line: str) -> None:
    sys.stderr.write(f"mcp_lab: {line}\n")
    sys.stderr.flush()
    raise SystemExit(3)


def load_target(spec: str) -> Any:
    """`module:attribute` -> the server (a zero-argument factory is called once); one stderr line on failure."""
    from mcp.server import Server
    from mcp.server.mcpserver import MCPServer

    module_name, _, attribute = spec.partition(":")
    try:
        value: object = importlib.import_module(module_name)
        for part in attribute.split("."):
            value = getattr(value, part)
        if not isinstance(value, MCPServer | Server) and callable(value):
            value = value()
    except SystemExit:
        raise
    except BaseException as exc:  # the user's module: whatever it raises is one line, never a traceback
        detail = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
        _fail(f"cannot import the server {spec} in the instance process: {detail}")
    if not isinstance(value, MCPServer | Server):
        _fail(f"{spec} is a {type(value).__name__}, not an MCPServer or a lowlevel Server")
    return value


def load_keys(path: Path) -> tuple[int, list[bytes]]:
    """(generation, keys) from the kernel's 0600 keys file."""
    data = json.loads(path.read_text())
    return int(data["generation"]), [bytes.fromhex(k) for k in data["keys"]]


def _install(server: Any, keys: list[bytes], ttl: float | None) -> None:
    """Swap the server's RequestStateBoundary for one under `keys`, keeping its audience and principal binding."""
    from mcp.server.mcpserver import MCPServer, RequestStateBoundary, RequestStateSecurity

    lowlevel = server._lowlevel_server if isinstance(server, MCPServer) else server  # SDK-private, pinned
    chain = lowlevel.middleware
    old = next((m for m in chain if isinstance(m, RequestStateBoundary)), None)
    options: dict[str, Any] = {}
    if old is not None:
        options["bind_principal"] = old._security.bind_principal  # SDK-private, pinned (mcp==2.3.0)
        ttl = ttl if ttl is not None else float(old._security.ttl)
    security = RequestStateSecurity(keys=keys, ttl=ttl if ttl is not None else 600.0, **options)
    audience = old._audience if old is not None else None
    boundary = RequestStateBoundary(security, default_audience=audience or server.name)
    if old is None:
        chain.append(boundary)
    else:
        chain[chain.index(old)] = boundary


def _add_probe(server: object) -> None:
    """The lab's two-round probe tool (the in-process fleet's instances have it too): the rotation matrix and
    the deployment check measure with it. Added only where the server does not define that name itself."""
    from mcp.server.mcpserver import MCPServer

    from mcp_lab.rotation.probe import PROBE_TOOL, add_probe_tool

    if isinstance(server, MCPServer) and PROBE_TOOL not in {t.name for t in server._tool_manager.list_tools()}:
        add_probe_tool(server)


def _key_ids(keys: list[bytes]) -> list[str]:
    from mcp_lab.protocol.keys import key_id

    return [key_id(k) for k in keys]


def _write_state(path: str | None, generation: int, ids: list[str], server: str) -> None:
    if not path:
        return
    target = Path(path)
    if os.environ.get(ENV_WORKERS, "1") != "1":  # one state file per worker: the kernel waits for all of them
        target = target.with_name(f"{target.name}.{os.getpid()}")
    temporary = target.with_name(target.name + f".{os.getpid()}.tmp")
    state = {"generation": generation, "key_ids": ids, "pid": os.getpid(), "server": server}
    temporary.write_text(json.dumps(state))
    os.replace(temporary, target)


def instance_app() -> InstanceHeader:
    """The uvicorn factory: the server's streamable HTTP app, its keys installed, its responses labelled."""
    die_with_parent()  # under --workers this is a worker: it goes when its supervisor goes
    env = os.environ
    for directory in reversed((env.get(ENV_PATH) or "").split(os.pathsep)):
        if directory:
            sys.path.insert(0, directory)
    server = load_target(env.get(ENV_TARGET, ""))
    _add_probe(server)
    logging.basicConfig(level=logging.WARNING, format="%(message)s", stream=sys.stderr, force=True)
    # Importing the lab (for the probe) routed the SDK's rejection reasons to in-kernel legs; a process of its
    # own logs them to its stderr, its log file, as any deployed server would.
    rejections = logging.getLogger("mcp.server.request_state")
    rejections.handlers.clear()
    rejections.propagate = True
    ttl = float(env[ENV_TTL]) if env.get(ENV_TTL) else None
    keys_file = env.get(ENV_KEYS)

    def load() -> None:
        if keys_file:
            generation, keys = load_keys(Path(keys_file))
            _install(server, keys, ttl)
            _write_state(env.get(ENV_STATE), generation, _key_ids(keys), server.name)
        else:
            _write_state(env.get(ENV_STATE), 0, [], server.name)

    load()
    if keys_file:
        signal.signal(signal.SIGHUP, lambda *_: load())
    label = env.get(ENV_LABEL, server.name)
    if env.get(ENV_WORKERS, "1") != "1":
        label = f"{label}/pid{os.getpid()}"
    return InstanceHeader(server.streamable_http_app(), label)
