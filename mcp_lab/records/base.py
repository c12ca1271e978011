"""What every view record shares: strict pydantic models, a kind and a version, and embedding caps.

Spec context: none of the protocol's own -- this is how the lab's views stay honest. Every rich object the
lab displays (a flow, a token report, a header table, a lab's results ...) is rendered from ONE record: the
`text/plain` and `text/html` fallbacks are made from it in Python, and the same record, dumped as JSON, is
the `application/vnd.mcp-lab.<kind>+json` output the JupyterLab extension draws. Its JSON Schema is
exported to `labextension/schema/` and the extension's TypeScript types are generated from it, so the two
renderers cannot drift apart unnoticed.

Caps: a notebook keeps every output it shows. A token or argument of a few MiB must not make a notebook of
a few MiB, so strings longer than `CLIP_CHARS` are embedded as a `Clipped` marker (head, length, SHA-256)
in every rendering. No record ever holds key material: key ids and ring slots only.
"""

from __future__ import annotations

import hashlib
import math
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from mcp_lab.json_types import JsonObject

__all__ = [
    "CLIP_CHARS",
    "HEAD_CHARS",
    "Clipped",
    "Model",
    "Record",
    "clip",
    "clip_json",
    "clipped_text",
    "fitted",
    "mime",
    "shorten",
]

_M = TypeVar("_M", bound=BaseModel)

CLIP_CHARS = 4096
"""Strings longer than this are embedded clipped (a few KiB: every real token and argument fits)."""
HEAD_CHARS = 160
"""How much of a clipped string is kept, so a person still recognises it."""
MIME_PREFIX = "application/vnd.mcp-lab."


def mime(kind: str) -> str:
    return f"{MIME_PREFIX}{kind}+json"


class Model(BaseModel):
    """A plain record: unknown fields are an error, and every field is always present once dumped."""

    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)

    def dump(self) -> dict[str, Any]:
        """The JSON-ready form (what the vendor MIME output carries)."""
        return self.model_dump(mode="json")


class Record(Model):
    """A top-level record: one vendor MIME kind. Subclasses pin `kind` and `version` with Literals."""

    def mime(self) -> str:
        return mime(str(getattr(self, "kind", "")))

    def bundle(self, text: str, html: str) -> JsonObject:
        """The display bundle: both fallbacks and this record, all three made from the same data."""
        return {"text/plain": text, "text/html": html, self.mime(): self.dump()}


class Clipped(Model):
    """A string too long to embed: its first characters, its length and its SHA-256 (of the UTF-8)."""

    clipped: Literal[True] = True
    head: str
    length: int
    sha256: str

    def describe(self) -> str:
        return f"{self.head}… ({self.length:,} chars, sha256 {self.sha256[:16]}…)"


def clip(text: str | Clipped) -> str | Clipped:
    """`text` itself, or a `Clipped` marker when it is longer than `CLIP_CHARS` (a marker stays as it is)."""
    if isinstance(text, Clipped) or len(text) <= CLIP_CHARS:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return Clipped(head=text[:HEAD_CHARS], length=len(text), sha256=digest)


def clipped_text(value: str | Clipped | None) -> str:
    """How a possibly clipped string reads in a text or HTML view."""
    if value is None:
        return ""
    return value if isinstance(value, str) else value.describe()


def clip_json(value: object, depth: int = 0) -> Any:
    """A JSON-safe copy of `value` for embedding: long strings clipped (as `Clipped` dicts), non-finite
    floats spelled as strings, dataclasses as dicts, odd objects as their repr, nesting bounded."""
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, str):
        clipped = clip(value)
        return clipped if isinstance(clipped, str) else clipped.dump()
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if depth > 40:
        return "…"
    if isinstance(value, BaseModel):
        return clip_json(value.model_dump(mode="json", by_alias=True, exclude_none=True), depth + 1)
    if isinstance(value, dict):
        return {str(k): clip_json(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clip_json(v, depth + 1) for v in value]
    fields = getattr(value, "__dataclass_fields__", None)
    if fields is not None and not isinstance(value, type):
        return {name: clip_json(getattr(value, name), depth + 1) for name in fields}
    return repr(value)


def shorten(text: str) -> str:
    """`text`, or its start and its length when longer than `CLIP_CHARS` -- still a `str` (for fields that
    hold a line of text: a label, a message)."""
    if len(text) <= CLIP_CHARS:
        return text
    return f"{text[: CLIP_CHARS - 32]}… ({len(text):,} chars)"


def fitted(model: type[_M], data: Mapping[str, Any]) -> _M:
    """`model` validated from `data` with every long string capped by what its field takes: a `Clipped`
    marker where the field allows one, a `shorten`ed `str` where it takes only text, and `clip_json` in
    free-form (`Any`) fields. Clipping never changes a record's types, however long the input."""
    return model.model_validate(_fit_fields(model, data))


def _fit_fields(model: type[BaseModel], data: Mapping[str, Any]) -> dict[str, Any]:
    fields = model.model_fields
    return {k: (_fit(fields[k].annotation, v) if k in fields else v) for k, v in data.items()}


def _fit(annotation: object, value: object) -> Any:
    if annotation is Any:
        return clip_json(value)
    if value is None or isinstance(value, bool | int | float):
        return value
    origin = typing.get_origin(annotation)
    members = typing.get_args(annotation) if origin in (typing.Union, types.UnionType) else (annotation,)
    if isinstance(value, str):
        if Clipped in members:
            return clip(value)
        return shorten(value) if str in members else clip_json(value)
    for member in members:
        inner = typing.get_origin(member)
        if isinstance(member, type) and issubclass(member, BaseModel) and isinstance(value, Mapping):
            return _fit_fields(member, value)
        if inner is list and isinstance(value, list | tuple):
            (item,) = typing.get_args(member) or (Any,)
            return [_fit(item, v) for v in value]
        if inner is dict and isinstance(value, Mapping):
            _key, item = typing.get_args(member) or (str, Any)
            return {str(k): _fit(item, v) for k, v in value.items()}
    return clip_json(value)
