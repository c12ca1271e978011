"""Each model finds its view through mcp_lab.view_registry, filled by mcp_lab.renderers when mcp_lab is imported."""

from __future__ import annotations

import importlib

import mcp_lab  # noqa: F401  (importing the package registers the views)
from mcp_lab import view_registry
from mcp_lab.flow.flow import Flow
from mcp_lab.flow.round import Round


def test_every_registered_model_is_a_class_that_exists() -> None:
    assert len(view_registry.registered()) >= 6
    for name in view_registry.registered():
        module, _, cls = name.rpartition(".")
        assert isinstance(getattr(importlib.import_module(module), cls), type), name


def test_a_flow_and_its_round_are_drawn_by_the_flow_view() -> None:
    flow = Flow("demo", "tools/call", "forecast", {"region": "eu"})
    bundle = flow._repr_mimebundle_()
    assert {"text/plain", "text/html", "application/vnd.mcp-lab.flow+json"} <= set(bundle)
    assert flow.summary().startswith("tools/call 'forecast' on 'demo'")
    assert "leg 1" in Round(index=0)._repr_mimebundle_()["text/plain"]


def test_an_object_with_no_view_is_drawn_as_its_repr() -> None:
    assert view_registry.bundle(3) == {"text/plain": "3"}
