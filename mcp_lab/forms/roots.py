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

import html
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import mcp.types as T
from pydantic import ValidationError

from mcp_lab.answers import InputResponse
from mcp_lab.errors import LabError
from mcp_lab.forms.base import Form

__all__ = ["REFUSED", "RootsForm", "default_roots"]

REFUSED = "User refused to share roots"


def default_roots() -> list[tuple[str, str]]:
    """The notebook's folder (the kernel's cwd), as one (uri, name) row."""
    here = Path(os.getcwd())
    return [(here.as_uri(), here.name or str(here))]


def _row(item: Any) -> tuple[str, str]:
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
    button_labels: ClassVar[tuple[str, str, str]] = ("Send", "Refuse", "")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._rows: list[tuple[Any, Any, Any]] = []
        self._list: Any = None
        self._error: Any = None

    @property
    def rows(self) -> list[tuple[Any, Any, Any]]:
        """(URI Text, Name Text, Remove Button) per root, built on first use."""
        self.widget  # noqa: B018
        return self._rows

    def message_html(self) -> str:
        return (
            "The server asks which folders it may work in (its roots). Share only folders you want this server to see."
        )

    def _build(self) -> list[Any]:
        import ipywidgets as W

        self._list = W.VBox([])
        self._error = W.HTML("")
        add = W.Button(description="Add root", icon="plus")
        add.on_click(lambda _b: self.add_row("", ""))
        for uri, name in default_roots():
            self.add_row(uri, name)
        return [self._list, add, self._error]

    def add_row(self, uri: str, name: str) -> None:
        import ipywidgets as W

        style = {"description_width": "initial"}
        uri_box = W.Text(
            description="URI",
            value=uri,
            placeholder="file:///path/to/folder",
            layout=W.Layout(width="26em"),
            style=style,
        )
        name_box = W.Text(description="Name", value=name, layout=W.Layout(width="14em"), style=style)
        remove = W.Button(description="Remove", icon="trash")
        row = (uri_box, name_box, remove)
        remove.on_click(lambda _b: self.remove_row(row))
        self._rows.append(row)
        self._list.children = (*self._list.children, W.HBox(list(row)))

    def remove_row(self, row: tuple[Any, Any, Any]) -> None:
        if row in self._rows:
            index = self._rows.index(row)
            self._rows.pop(index)
            children = list(self._list.children)
            children.pop(index)
            self._list.children = tuple(children)

    def fill(self, **values: Any) -> RootsForm:
        """`roots=[...]`: replaces every row (file:// URI strings, Paths, dicts with uri and name)."""
        self._check_open()
        self.widget  # noqa: B018
        if set(values) - {"roots"}:
            raise LabError(f"a roots form has one field, roots, not {', '.join(sorted(set(values) - {'roots'}))}")
        if "roots" in values:
            items = values["roots"]
            if not isinstance(items, list | tuple):
                raise LabError("roots must be a list of file:// URIs, Paths or dicts")
            rows = [_row(item) for item in items]
            for row in list(self.rows):
                self.remove_row(row)
            for uri, name in rows:
                self.add_row(uri, name)
        return self

    def _collect(self) -> tuple[InputResponse | None, dict[str, str]]:
        roots: list[T.Root] = []
        errors: dict[str, str] = {}
        for i, (uri_box, name_box, _) in enumerate(self._rows):
            uri, name = uri_box.value.strip(), name_box.value.strip()
            if not uri and not name:
                continue
            if not uri.startswith("file://"):
                errors[f"root {i + 1}"] = f"{uri or '(empty)'!r} is not a file:// URI"
                continue
            try:
                roots.append(T.Root(uri=uri, name=name or None))  # type: ignore[arg-type]
            except ValidationError:
                errors[f"root {i + 1}"] = f"{uri!r} is not a valid file:// URI"
        self._error.value = "".join(
            f"<div style='color:#b00'>{html.escape(k)}: {html.escape(v)}</div>" for k, v in errors.items()
        )
        if errors:
            return None, errors
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
