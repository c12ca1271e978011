"""mcp_lab: see and try the Model Context Protocol's 2026-07-28 features in a notebook.

Spec context: multi round-trip requests (InputRequiredResult, sealed request_state) and header parameters
(x-mcp-header / Mcp-Param-*), as the MCP Python SDK (mcp==2.3.0) implements them. `%load_ext mcp_lab`
registers the magics; the Python API below is what they delegate to.

The names in `__all__` are imported on first use (PEP 562 `__getattr__`): `import mcp_lab` and
`%load_ext mcp_lab` pay only for the flow engine the magics need, not for the HTTP, connection, inspector,
replay and widget modules a notebook may never touch (bench/startup.py measures this).
"""

import importlib as _importlib
import sys as _sys
import types as _types
import typing as _typing

from mcp_lab.renderers import register_views as _register_views

# The SDK validates tool results with jsonschema, imported lazily on the first call. jsonschema then
# imports rfc3987_syntax when installed (jupyterlab pulls it in), whose grammar takes ~2.5 s to build
# (measured in this kernel) -- all on the kernel's loop, in the first call. It only adds the rarely used
# "iri" formats, so the kernel goes without it; jsonschema skips those formats on ImportError.
if "jsonschema" not in _sys.modules:
    _sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]

if _typing.TYPE_CHECKING:  # `name as name`: an explicit re-export for type checkers (the table is the source)
    from mcp_lab import forms as forms
    from mcp_lab.audit import audit as audit
    from mcp_lab.audit.report import AuditReport as AuditReport
    from mcp_lab.deployment.check import DeploymentReport as DeploymentReport
    from mcp_lab.deployment.check import check_deployment as check_deployment
    from mcp_lab.deployment.fleet import ProcessFleet as ProcessFleet
    from mcp_lab.deployment.fleet import live_fleets as live_fleets
    from mcp_lab.deployment.fleet import start_fleet as start_fleet
    from mcp_lab.deployment.gateway import lying_client as lying_client
    from mcp_lab.deployment.gateway import unlisted_call as unlisted_call
    from mcp_lab.deployment.rolling import rolling_rotation as rolling_rotation
    from mcp_lab.errors import ConnectionFailed as ConnectionFailed
    from mcp_lab.errors import FlowError as FlowError
    from mcp_lab.errors import FlowInterrupted as FlowInterrupted
    from mcp_lab.errors import LabError as LabError
    from mcp_lab.exercise import ExerciseIncomplete as ExerciseIncomplete
    from mcp_lab.exercise import exercise_needs as exercise_needs
    from mcp_lab.flow.answers import AnswerContext as AnswerContext
    from mcp_lab.flow.answers import Answerer as Answerer
    from mcp_lab.flow.answers import CallbackAnswerer as CallbackAnswerer
    from mcp_lab.flow.answers import ChainAnswerer as ChainAnswerer
    from mcp_lab.flow.answers import ScriptedAnswerer as ScriptedAnswerer
    from mcp_lab.flow.answers import Unanswered as Unanswered
    from mcp_lab.flow.answers import cancel as cancel
    from mcp_lab.flow.answers import decline as decline
    from mcp_lab.flow.calls import call as call
    from mcp_lab.flow.calls import flows as flows
    from mcp_lab.flow.calls import get_prompt as get_prompt
    from mcp_lab.flow.calls import last as last
    from mcp_lab.flow.calls import read_resource as read_resource
    from mcp_lab.flow.calls import resume as resume
    from mcp_lab.flow.calls import start as start
    from mcp_lab.flow.flow import Flow as Flow
    from mcp_lab.flow.flow import Round as Round
    from mcp_lab.headers.experiments import list_first_lab as list_first_lab
    from mcp_lab.headers.experiments import mismatch_lab as mismatch_lab
    from mcp_lab.headers.experiments import schema_lookup_lab as schema_lookup_lab
    from mcp_lab.headers.params import header as header
    from mcp_lab.headers.params import header_table as header_table
    from mcp_lab.protocol.keys import KeyRing as KeyRing
    from mcp_lab.protocol.keys import key_id as key_id
    from mcp_lab.replay.collection import load_flows as load_flows
    from mcp_lab.replay.collection import save_flows as save_flows
    from mcp_lab.replay.run import ReplayReport as ReplayReport
    from mcp_lab.replay.run import replay as replay
    from mcp_lab.rotation.fleet import Fleet as Fleet
    from mcp_lab.rotation.load import LoadReport as LoadReport
    from mcp_lab.rotation.load import run_rotation_load as run_rotation_load
    from mcp_lab.rotation.stepper import RotationMatrix as RotationMatrix
    from mcp_lab.rotation.stepper import RotationStepper as RotationStepper
    from mcp_lab.rotation.widget import StepperWidget as StepperWidget
    from mcp_lab.servers.adopt import adopt as adopt
    from mcp_lab.servers.connect import connect as connect
    from mcp_lab.servers.connect import disconnect as disconnect
    from mcp_lab.servers.connect import server_log as server_log
    from mcp_lab.servers.describe import describe as describe
    from mcp_lab.servers.outside import OutsideServer as OutsideServer
    from mcp_lab.servers.sandbox import sandbox as sandbox
    from mcp_lab.servers.serving import auth_headers as auth_headers
    from mcp_lab.servers.serving import client_transport as client_transport
    from mcp_lab.servers.serving import serve as serve
    from mcp_lab.tokens.example_codecs import EnvelopeCodec as EnvelopeCodec
    from mcp_lab.tokens.example_codecs import HMACSignOnlyCodec as HMACSignOnlyCodec
    from mcp_lab.tokens.example_codecs import use_codec as use_codec
    from mcp_lab.tokens.inspector import inspect_token as inspect_token
    from mcp_lab.tokens.principal import header_principal as header_principal
    from mcp_lab.tokens.principal import lab_principal as lab_principal
    from mcp_lab.tokens.principal import set_principal as set_principal
    from mcp_lab.tokens.report import TokenReport as TokenReport
    from mcp_lab.tokens.tamper import TamperReport as TamperReport
    from mcp_lab.tokens.tamper import tamper_lab as tamper_lab

__version__ = "0.1.0"

# Every public name, declared once: name -> the module that defines it ("": the name is a subpackage of its
# own). `__all__` and the lazy `__getattr__` derive from it.
_SOURCES = {
    "AnswerContext": "mcp_lab.flow.answers",
    "AuditReport": "mcp_lab.audit.report",
    "Answerer": "mcp_lab.flow.answers",
    "CallbackAnswerer": "mcp_lab.flow.answers",
    "ChainAnswerer": "mcp_lab.flow.answers",
    "ConnectionFailed": "mcp_lab.errors",
    "DeploymentReport": "mcp_lab.deployment.check",
    "EnvelopeCodec": "mcp_lab.tokens.example_codecs",
    "ExerciseIncomplete": "mcp_lab.exercise",
    "Fleet": "mcp_lab.rotation.fleet",
    "Flow": "mcp_lab.flow.flow",
    "FlowError": "mcp_lab.errors",
    "FlowInterrupted": "mcp_lab.errors",
    "HMACSignOnlyCodec": "mcp_lab.tokens.example_codecs",
    "KeyRing": "mcp_lab.protocol.keys",
    "LabError": "mcp_lab.errors",
    "LoadReport": "mcp_lab.rotation.load",
    "OutsideServer": "mcp_lab.servers.outside",
    "ProcessFleet": "mcp_lab.deployment.fleet",
    "ReplayReport": "mcp_lab.replay.run",
    "RotationMatrix": "mcp_lab.rotation.stepper",
    "RotationStepper": "mcp_lab.rotation.stepper",
    "Round": "mcp_lab.flow.flow",
    "ScriptedAnswerer": "mcp_lab.flow.answers",
    "StepperWidget": "mcp_lab.rotation.widget",
    "TamperReport": "mcp_lab.tokens.tamper",
    "TokenReport": "mcp_lab.tokens.report",
    "Unanswered": "mcp_lab.flow.answers",
    "audit": "mcp_lab.audit",
    "adopt": "mcp_lab.servers.adopt",
    "auth_headers": "mcp_lab.servers.serving",
    "call": "mcp_lab.flow.calls",
    "cancel": "mcp_lab.flow.answers",
    "check_deployment": "mcp_lab.deployment.check",
    "client_transport": "mcp_lab.servers.serving",
    "connect": "mcp_lab.servers.connect",
    "decline": "mcp_lab.flow.answers",
    "describe": "mcp_lab.servers.describe",
    "disconnect": "mcp_lab.servers.connect",
    "exercise_needs": "mcp_lab.exercise",
    "flows": "mcp_lab.flow.calls",
    "forms": "",
    "get_prompt": "mcp_lab.flow.calls",
    "header": "mcp_lab.headers.params",
    "header_principal": "mcp_lab.tokens.principal",
    "header_table": "mcp_lab.headers.params",
    "inspect_token": "mcp_lab.tokens.inspector",
    "key_id": "mcp_lab.protocol.keys",
    "last": "mcp_lab.flow.calls",
    "lab_principal": "mcp_lab.tokens.principal",
    "list_first_lab": "mcp_lab.headers.experiments",
    "live_fleets": "mcp_lab.deployment.fleet",
    "load_flows": "mcp_lab.replay.collection",
    "lying_client": "mcp_lab.deployment.gateway",
    "mismatch_lab": "mcp_lab.headers.experiments",
    "read_resource": "mcp_lab.flow.calls",
    "replay": "mcp_lab.replay.run",
    "rolling_rotation": "mcp_lab.deployment.rolling",
    "resume": "mcp_lab.flow.calls",
    "run_rotation_load": "mcp_lab.rotation.load",
    "sandbox": "mcp_lab.servers.sandbox",
    "save_flows": "mcp_lab.replay.collection",
    "schema_lookup_lab": "mcp_lab.headers.experiments",
    "serve": "mcp_lab.servers.serving",
    "server_log": "mcp_lab.servers.connect",
    "set_principal": "mcp_lab.tokens.principal",
    "start": "mcp_lab.flow.calls",
    "start_fleet": "mcp_lab.deployment.fleet",
    "tamper_lab": "mcp_lab.tokens.tamper",
    "unlisted_call": "mcp_lab.deployment.gateway",
    "use_codec": "mcp_lab.tokens.example_codecs",
}

_EXTENSION = ["load_ipython_extension", "unload_ipython_extension", "__version__"]
"""Public names this module defines itself."""

__all__ = sorted([*_SOURCES, *_EXTENSION], key=str.casefold)
"""Derived from the table above: a public name is declared once (tests/test_public_api.py checks the
TYPE_CHECKING imports against the table)."""


if not _typing.TYPE_CHECKING:  # type checkers see the imports above; a module __getattr__ would hide typos from them

    def __getattr__(name: str) -> _typing.Any:
        """Import a public name's module on first access and keep the name (later lookups are plain)."""
        source = _SOURCES.get(name)
        if source is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        module = _importlib.import_module(source or f"{__name__}.{name}")
        value = getattr(module, name) if source else module
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(_types.ModuleType):
    """`mcp_lab.replay` and `mcp_lab.audit` are public functions named like their features' packages.

    Importing a submodule sets it as an attribute of its package; for such a name that would hide the
    object (`mcp_lab.replay(...)` would find the package). The public object always wins; the package stays
    reachable through `sys.modules` and `from`-imports.
    """

    def __setattr__(self, name: str, value: _typing.Any) -> None:
        if isinstance(value, _types.ModuleType) and _SOURCES.get(name):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package

_register_views()  # each model's view, imported on first display (mcp_lab.renderers)


def _jupyter_labextension_paths() -> list[dict[str, str]]:
    """Where JupyterLab finds the prebuilt renderer for `application/vnd.mcp-lab.*+json` (labextension/)."""
    return [{"src": "labextension", "dest": "mcp-lab"}]


def load_ipython_extension(ipython: _typing.Any) -> None:
    """`%load_ext mcp_lab`: the magics, the form fallback, the lab's logging hooks and the signal waker -- the
    flow engine and the SDK load now, everything else on first use. Nothing is installed when a module is imported."""
    import asyncio
    import contextlib

    from mcp_lab.flow.waking import waker
    from mcp_lab.forms import install
    from mcp_lab.magics.extension import register
    from mcp_lab.servers import logging_hooks
    from mcp_lab.servers.sandbox import sandbox

    logging_hooks.install(sandbox.servers)  # server reasons to legs; SDK notices, serializer warnings off cells
    register(ipython)
    install(ipython)  # in a kernel only: a person answers what no script covers
    with contextlib.suppress(RuntimeError):  # no running loop: the first guarded flow sets the waker up
        waker.watch(asyncio.get_running_loop())  # Interrupt wakes the kernel's loop, whichever thread gets it


def unload_ipython_extension(ipython: _typing.Any) -> None:
    """`%unload_ext mcp_lab` (and the first half of `%reload_ext`): undo everything loading did. The kernel's
    flows, servers and forms stay (`mcp_lab.flows` still holds what ran)."""
    from mcp_lab.flow.waking import waker
    from mcp_lab.forms import uninstall
    from mcp_lab.magics.extension import unregister
    from mcp_lab.servers import logging_hooks

    uninstall(ipython)
    unregister(ipython)
    logging_hooks.uninstall()
    waker.remove()
