"""Which view draws a model: filled in once when mcp_lab is imported (`mcp_lab.renderers`), asked by the models.

A model is drawn by a view that reads it (or its record), so the view sits above the model; the model's
`_repr_mimebundle_` cannot import that view without tying the two into a cycle. It asks here instead, by the
qualified name of its class (a subclass finds its base's view). Nothing here imports a feature.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp_lab.json_types import JsonValue

__all__ = ["bundle", "register_bundle", "register_text", "registered", "text"]

_BUNDLES: dict[str, Callable[[Any], dict[str, JsonValue]]] = {}
_TEXTS: dict[tuple[str, str], Callable[[Any], str]] = {}
"""Process-wide by nature: which function draws which class, the same for every Lab and every kernel reset."""


def _names(obj: object) -> list[str]:
    return [f"{cls.__module__}.{cls.__qualname__}" for cls in type(obj).__mro__]


def register_bundle(model: str, view: Callable[[Any], dict[str, JsonValue]]) -> None:
    """`view(obj)` draws instances of the class named `model` ("package.module.Class") as a MIME bundle."""
    _BUNDLES[model] = view


def register_text(model: str, part: str, view: Callable[[Any], str]) -> None:
    """`view(obj)` writes one named piece of text (a summary, an HTML table) for the class named `model`."""
    _TEXTS[(model, part)] = view


def registered() -> set[str]:
    """The class names that have a view."""
    return set(_BUNDLES) | {model for model, _ in _TEXTS}


def bundle(obj: object) -> dict[str, JsonValue]:
    for name in _names(obj):
        if name in _BUNDLES:
            return _BUNDLES[name](obj)
    return {"text/plain": repr(obj)}


def text(obj: object, part: str) -> str:
    for name in _names(obj):
        if (name, part) in _TEXTS:
            return _TEXTS[(name, part)](obj)
    raise LookupError(f"no view registered for the {part} of {type(obj).__qualname__}")
