"""Collections: a set of recorded flows saved to a JSON file, to be replayed later as a regression test.

Spec context: a multi round-trip request is fully described by its request (method, target, arguments), the
questions the server embedded (`input_requests`), the answers the client sent back (`input_responses`), and
the final result. Those are saved -- the answers are what the user typed. The sealed `request_state` tokens
are not: they expire (600 s by default) and belong to the server that minted them, so each is replaced by a
marker, and the HTTP exchanges (which carry the tokens in headers and bodies) are dropped. Keys are never in
a flow to begin with.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from mcp_lab.errors import LabError
from mcp_lab.flow.flow import Flow

__all__ = ["FORMAT", "SEALED_MARKER", "TOKEN_MARKER", "collection_dict", "load_flows", "save_flows", "scrub_flow"]

FORMAT = "mcp-lab/flows"
VERSION = 1
SEALED_MARKER = "<sealed token, not saved>"
TOKEN_MARKER = "<request_state, not saved>"
"""For plaintext state (a lowlevel server without the sealing boundary): not sealed, still not saved."""

_MIN_TOKEN_LEN = 8
"""Tokens at least this long are also scrubbed wherever else they appear (logs, error data)."""


def _marker(token: str) -> str:
    return SEALED_MARKER if token.startswith("v1.") else TOKEN_MARKER


def scrub_flow(flow: Flow) -> dict[str, Any]:
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
    scrubbed: dict[str, Any] = json.loads(text)
    return scrubbed


def _flows(flows: Flow | Iterable[Flow]) -> list[Flow]:
    if isinstance(flows, Flow):
        return [flows]
    if isinstance(flows, Mapping | str | bytes):
        raise LabError("save_flows takes a list of flows (each from mcp_lab.call, %mcp_call, ...)")
    items = list(flows)
    for item in items:
        if not isinstance(item, Flow):
            hint = " (await it first: flow = await %mcp_call ...)" if hasattr(item, "__await__") else ""
            raise LabError(f"save_flows takes flows, not {type(item).__name__}{hint}")
    return items


def collection_dict(flows: Flow | Iterable[Flow]) -> dict[str, Any]:
    """The JSON document `save_flows` writes."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "not_saved": "request_state tokens (they expire; replaced by a marker) and HTTP exchanges",
        "flows": [scrub_flow(f) for f in _flows(flows)],
    }


def save_flows(path: str | Path, flows: Flow | Iterable[Flow]) -> Path:
    """Write `flows` (arguments, questions, the answers given, results) to a JSON file; returns its path.

    A relative path is relative to the kernel's working directory: next to the notebook.
    """
    document = collection_dict(flows)
    target = Path(path)
    if target.is_dir():
        raise LabError(f"{str(target)!r} is a directory; give a file name such as flows.json")
    try:
        target.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise LabError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
    return target


def load_flows(path: str | Path) -> list[Flow]:
    """Read a collection written by `save_flows`: the recorded flows, ready to replay or inspect."""
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LabError(f"no such collection: {str(source)!r}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LabError(f"cannot read {str(source)!r}: {exc}") from None
    try:
        document = json.loads(text)
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
    return flows
