"""Collections: a set of recorded flows saved to a JSON file, to be replayed later as a regression test.

Spec context: a multi round-trip request is fully described by its request (method, target, arguments), the
questions the server embedded (`input_requests`), the answers the client sent back (`input_responses`), and
the final result. Those are saved -- the answers are what the user typed. The sealed `request_state` tokens
are not: they expire (600 s by default) and belong to the server that minted them, so each is replaced by a
marker, and the HTTP exchanges (which carry the tokens in headers and bodies) are dropped. Keys are never in
a flow to begin with.

A tool's contract is part of its behaviour too: the collection also keeps each called tool's input schema
and the header map its `x-mcp-header` marks make (which argument a 2026-07-28 client sends as which
`Mcp-Param-*` header), from the server's listing, under `"tools"` (server -> tool -> `{inputSchema,
headers}`). Collections saved before that have no `"tools"` and still load; their tools are not compared.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mcp_lab.bounded_json as bounded_json
from mcp_lab.bounded_json import RECORD_DEPTH
from mcp_lab.errors import LabError
from mcp_lab.flow.flow import Flow
from mcp_lab.given import check_path, json_safe, shown
from mcp_lab.json_types import JsonObject, JsonValue
from mcp_lab.replay.diff import header_map

__all__ = [
    "FORMAT",
    "SEALED_MARKER",
    "TOKEN_MARKER",
    "Collection",
    "called_tools",
    "collection_dict",
    "flow_label",
    "load_collection",
    "load_flows",
    "save_flows",
    "scrub_flow",
]

ToolListing = dict[str, dict[str, JsonObject]]
"""server name -> tool name -> {"inputSchema": ..., "headers": {argument path: header name}}."""

FORMAT = "mcp-lab/flows"
VERSION = 1
SEALED_MARKER = "<sealed token, not saved>"
TOKEN_MARKER = "<request_state, not saved>"
"""For plaintext state (a lowlevel server without the sealing boundary): not sealed, still not saved."""

_MIN_TOKEN_LEN = 8
"""Tokens at least this long are also scrubbed wherever else they appear (logs, error data)."""


def _marker(token: str) -> str:
    return SEALED_MARKER if token.startswith("v1.") else TOKEN_MARKER


def scrub_flow(flow: Flow) -> JsonObject:
    """The flow as plain data without its tokens or HTTP exchanges."""
    data = flow.to_dict()
    tokens: set[str] = set()
    for rnd in data["rounds"]:
        for name in ("request_state", "sent_request_state"):
            token = rnd.get(name)
            if isinstance(token, str):
                tokens.add(token)
                rnd[name] = _marker(token)
        rnd.pop("http", None)
    text = json.dumps(data, ensure_ascii=False)
    for token in sorted(tokens, key=len, reverse=True):
        if len(token) >= _MIN_TOKEN_LEN:
            text = text.replace(json.dumps(token)[1:-1], _marker(token))
    scrubbed: JsonObject = json.loads(text)
    return scrubbed


def _flows(flows: Flow | Iterable[Flow]) -> list[Flow]:
    if isinstance(flows, Flow):
        return [flows]
    if isinstance(flows, Mapping | str | bytes) or not isinstance(flows, Iterable):
        raise LabError(f"save_flows takes a list of flows (each from mcp_lab.call, %mcp_call, ...), not {shown(flows)}")
    items = list(flows)
    for item in items:
        if not isinstance(item, Flow):
            hint = " (await it first: flow = await %mcp_call ...)" if hasattr(item, "__await__") else ""
            raise LabError(f"save_flows takes flows, not {type(item).__name__}{hint}")
    return items


def tool_entry(schema: Any) -> JsonObject:
    return {"inputSchema": schema, "headers": header_map(schema)}


def called_tools(flows: Iterable[Flow]) -> ToolListing:
    """The input schema and header map of every tool the flows call, from the lab's latest listing of each
    server (taken when a call starts); a server or tool the lab has not listed is left out."""
    from mcp_lab.servers.sandbox import sandbox

    found: ToolListing = {}
    for flow in flows:
        connection = sandbox.servers.get(flow.server)
        schemas: Mapping[str, JsonValue] = getattr(connection, "tool_schemas", None) or {}
        if flow.method == "tools/call" and flow.target in schemas:
            found.setdefault(flow.server, {})[flow.target] = tool_entry(schemas[flow.target])
    return found


def _scrubbed(index: int, flow: Flow) -> JsonObject:
    try:
        return scrub_flow(flow)
    except (TypeError, ValueError, RecursionError) as exc:  # a Flow built by hand with values JSON cannot hold
        detail = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        raise LabError(f"flow {index} cannot be saved as JSON: {detail}") from None


def collection_dict(flows: Flow | Iterable[Flow]) -> JsonObject:
    """The JSON document `save_flows` writes."""
    items = _flows(flows)
    return {
        "format": FORMAT,
        "version": VERSION,
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "not_saved": "request_state tokens (they expire; replaced by a marker) and HTTP exchanges",
        "flows": [_scrubbed(i, f) for i, f in enumerate(items)],
        "tools": called_tools(items),
    }


def save_flows(path: str | Path, flows: Flow | Iterable[Flow]) -> Path:
    """Write `flows` (arguments, questions, the answers given, results) to a JSON file; returns its path.

    A relative path is relative to the kernel's working directory: next to the notebook. The file is
    replaced atomically: a full disk or any other failure leaves the collection that was there intact.
    """
    target = check_path(path, "save_flows")
    document = collection_dict(flows)
    if target.is_dir():
        raise LabError(f"{str(target)!r} is a directory; give a file name such as flows.json")
    if target.exists() and not target.is_file():
        raise LabError(f"{str(target)!r} is not a regular file ({file_kind(target)}); give a file name such as flows.json")
    try:
        write_atomically(target, collection_text(document))
    except OSError as exc:
        raise LabError(f"cannot write {str(target)!r}: {exc.strerror or exc}; nothing there was changed") from None
    return target


def collection_text(document: Mapping[str, JsonValue]) -> bytes:
    """The document as strict JSON, UTF-8: NaN and infinities (which JSON has not) as null, as the SDK sends
    them; a string the UTF-8 codec refuses (a lone surrogate) escaped instead of failing."""
    try:
        text = json.dumps(json_safe(document), indent=1, ensure_ascii=False, allow_nan=False) + "\n"
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(json_safe(document), indent=1, allow_nan=False) + "\n").encode("ascii")
    except RecursionError:
        raise LabError("these flows are nested too deeply to save as JSON") from None


def write_atomically(target: Path, data: bytes) -> None:
    """Write `data` to a new file next to `target`, flush it to disk, then rename it over `target`: a reader
    sees the old file or the new one, never a cut one. The new file keeps the old one's permissions."""
    final = Path(os.path.realpath(target))  # through a symlink: replace the file it names, keep the link
    temporary = final.with_name(f".{final.name[:200]}.{os.urandom(4).hex()}.tmp")  # within NAME_MAX (255)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        try:
            with contextlib.suppress(FileNotFoundError, AttributeError):  # no fchmod: the umask's mode stands
                os.fchmod(fd, stat.S_IMODE(os.stat(final).st_mode))
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, final)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    with contextlib.suppress(OSError):  # the rename itself survives a crash once the directory is synced
        directory = os.open(final.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


def file_kind(path: Path) -> str:
    """What a non-regular file is, in words."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return "unreadable"
    kinds = {stat.S_ISFIFO: "a FIFO", stat.S_ISSOCK: "a socket", stat.S_ISCHR: "a device", stat.S_ISBLK: "a device"}
    return next((name for test, name in kinds.items() if test(mode)), "not a regular file")


@dataclass
class Collection:
    """A saved collection: the recorded flows and the called tools' schemas and header maps."""

    flows: list[Flow]
    tools: ToolListing = field(default_factory=dict)
    source: str | None = None


def load_flows(path: str | Path) -> list[Flow]:
    """Read a collection written by `save_flows`: the recorded flows, ready to replay or inspect."""
    return load_collection(check_path(path, "load_flows")).flows


def read_collection_text(source: Path) -> str:
    """The file's text; a FIFO, socket or device is refused before anything waits on it."""
    # O_NONBLOCK: opening a FIFO no one writes to would otherwise wait forever (a regular file ignores it).
    fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise LabError(f"cannot read {str(source)!r}: it is a directory, not a collection file")
        if not stat.S_ISREG(mode):
            kind = file_kind(source)
            raise LabError(f"cannot read {str(source)!r}: it is {kind}, not a regular file; give a collection file")
        with os.fdopen(fd, "rb", closefd=True) as stream:
            fd = -1
            return stream.read().decode("utf-8")
    finally:
        if fd >= 0:
            os.close(fd)


def _tools(document: Mapping[str, JsonValue], source: str) -> ToolListing:
    listing = document.get("tools", {})
    shape = f"{source!r}: 'tools' must map server -> tool -> {{inputSchema, headers}}"
    if not isinstance(listing, dict) or not all(isinstance(v, dict) for v in listing.values()):
        raise LabError(shape)
    tools: ToolListing = {}
    for server, entries in listing.items():
        for name, entry in entries.items():
            if not isinstance(entry, dict) or not isinstance(entry.get("inputSchema"), dict | None):
                raise LabError(f"{shape}; tool {name!r} of {server!r} is not")
            headers = entry.get("headers", header_map(entry.get("inputSchema")))
            if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
                raise LabError(f"{shape}; the headers of tool {name!r} of {server!r} are not")
            tools.setdefault(server, {})[name] = {"inputSchema": entry.get("inputSchema"), "headers": headers}
    return tools


def load_collection(path: str | Path) -> Collection:
    """Read a collection written by `save_flows`: its flows and the called tools' listing (empty for
    collections saved before tools were recorded)."""
    source = check_path(path, "load_collection")
    try:
        text = read_collection_text(source)
    except FileNotFoundError:
        raise LabError(f"no such collection: {str(source)!r}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LabError(f"cannot read {str(source)!r}: {exc}") from None
    try:  # a hostile file nested past any real record is one line, never a RecursionError
        document = bounded_json.loads(text, f"{str(source)!r} is", RECORD_DEPTH + 2)
    except json.JSONDecodeError as exc:
        raise LabError(f"{str(source)!r} is not JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise LabError(f'{str(source)!r} is not an mcp_lab collection (expected "format": {FORMAT!r})')
    if document.get("version") != VERSION:
        raise LabError(f"{str(source)!r} is collection version {document.get('version')!r}; this lab reads {VERSION}")
    items = document.get("flows", [])
    if not isinstance(items, list):
        raise LabError(f"{str(source)!r}: 'flows' must be a list of flows, not {type(items).__name__}")
    flows: list[Flow] = []
    for index, item in enumerate(items):
        if not isinstance(item, dict) or not {"server", "method", "target"} <= item.keys():
            raise LabError(f"{str(source)!r}: flow {index} lacks server, method or target")
        try:
            flows.append(Flow.from_dict(item))
        except (TypeError, ValueError, LabError) as exc:
            raise LabError(f"{str(source)!r}: flow {index} is malformed: {exc}") from None
    return Collection(flows, _tools(document, str(source)), str(source))


_LABEL_CHARS = 200
"""A flow's label is one line of the report: its arguments are cut after this many characters."""


def flow_label(flow: Flow) -> str:
    args = f" {json.dumps(flow.arguments, ensure_ascii=False, sort_keys=True, default=repr)}" if flow.arguments else ""
    label = f"{flow.method} {flow.target}{args}"
    return label if len(label) <= _LABEL_CHARS else f"{label[: _LABEL_CHARS - 1]}…"
