"""`mcp_lab.describe(NAME)` / `%mcp_describe NAME`: what a server says about itself, and all it offers.

Spec context: the 2026-07-28 `server/discover` result (supported versions, capabilities, instructions, the
`serverInfo` stamp) or the 2025-11-25 `initialize` result, then `tools/list`, `prompts/list`,
`resources/list` and `resources/templates/list` -- every page. None of it needs a key, so it works the same
for a server the lab runs and for one it only connected to (HTTP or stdio). Each tool is shown with its
input and output schemas and its header parameters: which argument a 2026-07-28 client also sends as
`Mcp-Param-<Name>` (the SDK's own `x_mcp_header_map`), or why its marks are invalid (clients drop such a
tool). The tool listing is read raw, so a tool the SDK's client would drop is described too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import mcp.types as T
from mcp.client.session import ClientSession
from mcp.shared.inbound import find_invalid_x_mcp_header, x_mcp_header_map

from mcp_lab.errors import LabError
from mcp_lab.json_types import JsonObject
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.servers.listing import raw_tool_listing
from mcp_lab.servers.record import (
    PromptArgumentDescription,
    PromptDescription,
    ResourceDescription,
    ServerDescriptionRecord,
    ToolDescription,
)
from mcp_lab.servers.sandbox import sandbox

if TYPE_CHECKING:
    from mcp_lab.servers.outside import OutsideServer

__all__ = ["ServerDescription", "describe", "signature"]

PAGES = 100
"""The most pages of one listing the lab reads (the SDK's own internal listing stops there too)."""


class ServerDescription:
    """A server's description; renders as text, HTML and `application/vnd.mcp-lab.server-description+json`."""

    def __init__(self, record: ServerDescriptionRecord) -> None:
        self.record = record

    def tool(self, name: str) -> ToolDescription:
        for tool in self.record.tools:
            if tool.name == name:
                return tool
        known = ", ".join(t.name for t in self.record.tools) or "none"
        raise LabError(f"{self.record.name!r} has no tool {name!r} (tools: {known})")

    def __repr__(self) -> str:
        r = self.record
        return f"<ServerDescription {r.name!r}: {len(r.tools)} tools, {len(r.prompts)} prompts, {len(r.resources)} resources>"

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> JsonObject:
        from mcp_lab.servers.describe_view import description_html, description_text

        return self.record.bundle(description_text(self.record), description_html(self.record))


async def describe(server: str | LabServer | OutsideServer) -> ServerDescription:
    """Describe a server in the lab (one it started, adopted or connected to) by name. `await` it."""
    from mcp_lab.servers.outside import OutsideServer

    entry = sandbox.get(server) if isinstance(server, str) else server
    if not isinstance(entry, LabServer | OutsideServer):
        raise LabError(f"describe() takes a server's name in the lab, not {type(server).__name__}")
    legacy = isinstance(entry, OutsideServer) and entry.legacy_only
    session = await entry.session("2025-11-25" if legacy else "2026-07-28")
    where = entry.where if isinstance(entry, OutsideServer) else _where(entry)
    record = ServerDescriptionRecord(name=entry.name, server_kind=entry.kind, where=where)
    _handshake(record, session)
    _, _, tools = await raw_tool_listing(entry)
    record.tools = [_tool(t) for t in tools]
    caps = record.capabilities
    if "prompts" in caps:
        prompts = await _pages(session, T.ListPromptsRequest, T.ListPromptsResult, lambda page: page.prompts)
        record.prompts = [_prompt(p) for p in prompts]
    else:
        record.notes.append("no prompts capability: the server offers no prompts")
    if "resources" in caps:
        listed = await _pages(session, T.ListResourcesRequest, T.ListResourcesResult, lambda page: page.resources)
        templates = await _pages(
            session, T.ListResourceTemplatesRequest, T.ListResourceTemplatesResult, lambda page: page.resource_templates
        )
        record.resources = [_resource(r, False) for r in listed] + [_resource(t, True) for t in templates]
    else:
        record.notes.append("no resources capability: the server offers no resources")
    return ServerDescription(record)


def _where(entry: LabServer) -> str:
    if entry.http is not None:
        return entry.http.describe()
    return entry.url or "in-process"


def _handshake(record: ServerDescriptionRecord, session: ClientSession) -> None:
    record.protocol_version = session.protocol_version
    info = session.server_info
    record.server_info = info.model_dump(mode="json", by_alias=True, exclude_none=True) if info is not None else None
    if info is None:
        record.notes.append("the server does not say its name and version (no serverInfo stamp)")
    caps = session.server_capabilities
    if caps is not None:
        record.capabilities = caps.model_dump(mode="json", by_alias=True, exclude_none=True)
    record.instructions = session.instructions
    discovered = session.discover_result
    if discovered is not None:
        record.supported_versions = list(discovered.supported_versions)


_Page = TypeVar("_Page", bound=T.PaginatedResult)
_Item = TypeVar("_Item")


async def _pages(
    session: ClientSession,
    request: Callable[..., T.ClientRequest],
    result: type[_Page],
    items_of: Callable[[_Page], Sequence[_Item]],
) -> list[_Item]:
    """Every item of a paginated listing (at most PAGES pages)."""
    items: list[_Item] = []
    cursor: str | None = None
    for _ in range(PAGES):
        params = T.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.send_request(request(params=params), result)
        items += items_of(page)
        cursor = page.next_cursor
        if not cursor:
            break
    return items


def _type(schema: object) -> str:
    if not isinstance(schema, dict):
        return "?"
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(str(k) for k in kind)
    if isinstance(kind, str):
        return kind
    if "anyOf" in schema and isinstance(schema["anyOf"], list):
        return " | ".join(_type(s) for s in schema["anyOf"])
    if "enum" in schema:
        return "enum"
    return "object" if "$ref" in schema else "any"


def signature(tool: ToolDescription) -> str:
    """`name(arg: type [Mcp-Param-X], opt?: type) -> type`."""
    schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    required = set(schema.get("required") or [])
    parts = []
    for name, prop in (props or {}).items():
        header = tool.headers.get(name)
        mark = f" [{header}]" if header else ""
        parts.append(f"{name}{'' if name in required else '?'}: {_type(prop)}{mark}")
    out = tool.output_schema
    returns = ""
    if isinstance(out, dict):
        props_out: JsonObject = out["properties"] if isinstance(out.get("properties"), dict) else {}
        # MCPServer wraps a plain return type as {"result": ...}; the signature shows what the function returns.
        wrapped = set(props_out) == {"result"} and out.get("required") == ["result"]
        returns = f" -> {_type(props_out['result']) if wrapped else _type(out)}"
    return f"{tool.name}({', '.join(parts)}){returns}"


def _tool(tool: dict[str, Any]) -> ToolDescription:
    schema = tool.get("inputSchema")
    problem = find_invalid_x_mcp_header(schema) if isinstance(schema, dict) else None
    headers: dict[str, str] = {}
    if isinstance(schema, dict) and problem is None:
        headers = {".".join(path): f"Mcp-Param-{name}" for path, name in x_mcp_header_map(schema).items()}
    described = ToolDescription(
        name=str(tool.get("name")),
        title=tool.get("title"),
        description=tool.get("description"),
        input_schema=schema,
        output_schema=tool.get("outputSchema"),
        headers=headers,
        header_problem=problem,
        annotations=tool.get("annotations"),
    )
    described.signature = signature(described)
    return described


def _prompt(prompt: T.Prompt) -> PromptDescription:
    arguments = [
        PromptArgumentDescription(name=a.name, description=a.description, required=bool(a.required))
        for a in prompt.arguments or []
    ]
    return PromptDescription(name=prompt.name, title=prompt.title, description=prompt.description, arguments=arguments)


def _resource(item: T.Resource | T.ResourceTemplate, template: bool) -> ResourceDescription:
    uri = item.uri_template if isinstance(item, T.ResourceTemplate) else str(item.uri)
    return ResourceDescription(
        uri=uri,
        template=template,
        name=item.name,
        title=item.title,
        description=item.description,
        mime_type=item.mime_type,
    )
