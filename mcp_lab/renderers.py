"""The views that draw the models, registered with `mcp_lab.view_registry` by `mcp_lab/__init__.py` on import.

This module stands on the top floor, beside the public API: its imports run down into the features, and each
view module is imported on first display (inside the function), so `import mcp_lab` and `%load_ext` stay
lazy. A model never imports the view that reads it; it asks the registry, which this module fills.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_lab.markup import MimeBundle
from mcp_lab.view_registry import register_bundle, register_text

if TYPE_CHECKING:
    from mcp_lab.deployment.check import DeploymentReport
    from mcp_lab.deployment.fleet import ProcessFleet
    from mcp_lab.flow.flow import Flow
    from mcp_lab.flow.round import Round
    from mcp_lab.replay.run import ReplayReport
    from mcp_lab.servers.outside import OutsideServer

__all__ = ["register_views"]


def _flow(flow: Flow) -> MimeBundle:
    from mcp_lab.flow.view import flow_bundle

    return flow_bundle(flow)


def _flow_summary(flow: Flow) -> str:
    from mcp_lab.flow.view import flow_summary

    return flow_summary(flow)


def _round(rnd: Round) -> MimeBundle:
    from mcp_lab.flow.view import round_bundle

    return round_bundle(rnd)


def _connection(server: OutsideServer) -> MimeBundle:
    from mcp_lab.servers.connection_view import connection_bundle

    return connection_bundle(server)


def _deployment_html(report: DeploymentReport) -> str:
    from mcp_lab.deployment.check_view import report_html

    return report_html(report)


def _fleet(fleet: ProcessFleet) -> MimeBundle:
    from mcp_lab.deployment.view import fleet_bundle

    return fleet_bundle(fleet)


def _replay(report: ReplayReport) -> MimeBundle:
    from mcp_lab.replay.view import replay_bundle

    return replay_bundle(report.record())


def _replay_text(report: ReplayReport) -> str:
    from mcp_lab.replay.view import replay_text

    return replay_text(report.record())


def register_views() -> None:
    register_bundle("mcp_lab.flow.flow.Flow", _flow)
    register_text("mcp_lab.flow.flow.Flow", "summary", _flow_summary)
    register_bundle("mcp_lab.flow.round.Round", _round)
    register_bundle("mcp_lab.servers.outside.OutsideServer", _connection)
    register_text("mcp_lab.deployment.check.DeploymentReport", "html", _deployment_html)
    register_bundle("mcp_lab.deployment.fleet.ProcessFleet", _fleet)
    register_bundle("mcp_lab.replay.run.ReplayReport", _replay)
    register_text("mcp_lab.replay.run.ReplayReport", "text", _replay_text)

