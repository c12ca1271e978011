"""The roots editor: which folders the person lets the server treat as its roots.

Spec: `roots/list` (ListRootsRequest; a server->client request through 2025-11-25, embedded in
`InputRequiredResult` on 2026-07-28, deprecated there by SEP-2577). The answer is a `ListRootsResult` of
`file://` URIs with optional names. The editor starts with the notebook's folder (the kernel's working
directory), lets the person add and remove rows, and refuses anything that is not a `file://` URI before
sending. Refuse answers with an error (`ErrorData(code=-1, ...)`): there is no "decline" for roots.

A server-side example that produces this form::

    def my_roots() -> ListRoots:
        return ListRoots()

    @mcp.tool()
    async def scan(roots: Annotated[ListRootsResult, Resolve(my_roots)]) -> str:
        return ", ".join(str(r.uri) for r in roots.roots)

Headless: `form.fill(roots=["file:///data", {"uri": "file:///tmp", "name": "scratch"}]).submit()`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

import mcp.types as T
from pydantic import ValidationError

from mcp_lab.errors import LabError
from mcp_lab.flow.answers import InputResponse
from mcp_lab.forms.base import Form
from mcp_lab.json_types import JsonObject, JsonValue

__all__ = ["REFUSED", "RootsForm", "default_roots"]

REFUSED = "User refused to share roots"


def default_roots() -> list[tuple[str, str]]:
    """The notebook's folder (the kernel's cwd), as one (uri, name) row."""
    here = Path(os.getcwd())
    return [(here.as_uri(), here.name or str(here))]


def _row(item: object) -> tuple[str, str]:
    if isinstance(item, Path):
        return item.resolve().as_uri(), item.name
    if isinstance(item, str):
        return item, ""
    if isinstance(item, T.Root):
        return str(item.uri), item.name or ""
    if isinstance(item, Mapping) and "uri" in item:
        return str(item["uri"]), str(item.get("name") or "")
    raise LabError(f"a root is a file:// URI, a Path or a dict with 'uri' (and 'name'), not {item!r}")


class RootsForm(Form):
    """Edit the list of roots; Send or Refuse."""

    kind: ClassVar[str] = "roots"
    record_kind: ClassVar[str] = "roots"
    button_labels: ClassVar[tuple[str, str | None, str | None]] = ("Send", "Refuse", None)

    def initial_values(self) -> JsonObject:
        return {"roots": [{"uri": uri, "name": name} for uri, name in default_roots()]}

    @property
    def rows(self) -> list[tuple[str, str]]:
        """(uri, name) per row, as the editor holds them now."""
        roots = self.values.get("roots")
        return [_row(item) for item in roots] if isinstance(roots, list) else []

    def fields(self) -> list[JsonObject]:
        return [
            {
                "name": "roots",
                "label": "Roots",
                "kind": "roots",
                "required": False,
                "description": "",
                "note": "",
                "placeholder": "file:///path/to/folder",
                "options": [],
            }
        ]

    def intro(self) -> str:
        return (
            "The server asks which folders it may work in (its roots). Share only folders you want this server to see."
        )

    def message(self) -> str:
        return ""

    def fill(self, **values: JsonValue) -> RootsForm:
        """`roots=[...]`: replaces every row (file:// URI strings, Paths, dicts with uri and name)."""
        self._check_open()
        if set(values) - {"roots"}:
            raise LabError(f"a roots form has one field, roots, not {', '.join(sorted(set(values) - {'roots'}))}")
        if "roots" in values:
            items = values["roots"]
            if not isinstance(items, list | tuple):
                raise LabError("roots must be a list of file:// URIs, Paths or dicts")
            rows = [_row(item) for item in items]
            super().fill(roots=[{"uri": uri, "name": name} for uri, name in rows])
        return self

    def check(self, values: Mapping[str, JsonValue]) -> tuple[InputResponse | None, dict[str, str]]:
        items = values.get("roots") or []
        if not isinstance(items, list):
            return None, {"roots": "a list of roots"}
        roots: list[T.Root] = []
        problems: list[str] = []
        for i, item in enumerate(items):
            try:
                uri, name = _row(item)
            except LabError as exc:
                problems.append(f"root {i + 1}: {exc}")
                continue
            uri, name = uri.strip(), name.strip()
            if not uri and not name:
                continue
            if not uri.startswith("file://"):
                problems.append(f"root {i + 1}: {uri or '(empty)'!r} is not a file:// URI")
                continue
            try:
                roots.append(T.Root(uri=uri, name=name or None))  # type: ignore[arg-type]
            except ValidationError:
                problems.append(f"root {i + 1}: {uri!r} is not a valid file:// URI")
        if problems:
            return None, {"roots": "; ".join(problems)}
        return T.ListRootsResult(roots=roots), {}

    def refuse(self) -> bool:
        return self.decline()

    def _refusal(self) -> InputResponse:
        if self.state == "timed out":
            return self._refuse(f"No roots given within {self.timeout or 0:g} s")
        return self._refuse(REFUSED)

    def answer_text(self) -> str:
        response = self.response
        if isinstance(response, T.ListRootsResult):
            return ", ".join(str(r.uri) + (f" ({r.name})" if r.name else "") for r in response.roots) or "(no roots)"
        return ""
