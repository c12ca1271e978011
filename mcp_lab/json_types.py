"""The one spelling of "a JSON value" for type hints: what a record, an argument or a result holds.

Read-only containers (Mapping / Sequence) so a `dict[str, str]` is one too; code that builds a value returns
a `JsonObject`. `TypeAliasType` (not a bare string) so pydantic and `typing.get_type_hints` can evaluate them
at run time. Nothing here imports the lab: every floor may use them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from typing_extensions import TypeAliasType

__all__ = ["JsonObject", "JsonValue"]

JsonValue = TypeAliasType(
    "JsonValue", "str | int | float | bool | Sequence[JsonValue] | Mapping[str, JsonValue] | None"
)
"""Any JSON value."""
JsonObject = TypeAliasType("JsonObject", "dict[str, JsonValue]")
"""A JSON object built here (mutable)."""
