"""mcp_lab: see and try the Model Context Protocol's 2026-07-28 features in a notebook.

Spec context: multi round-trip requests (InputRequiredResult, sealed request_state) and header parameters
(x-mcp-header / Mcp-Param-*), as the MCP Python SDK (mcp==2.3.0) implements them. `%load_ext mcp_lab`
registers the magics; the Python API below is what they delegate to.
"""

from __future__ import annotations

import sys
from typing import Any

# The SDK validates tool results with jsonschema, imported lazily on the first call. jsonschema then
# imports rfc3987_syntax when installed (jupyterlab pulls it in), whose grammar takes ~2.5 s to build
# (sdk-notes §3, §7) -- all on the kernel's loop, in the first call. It only adds the rarely used
# "iri" formats, so the kernel goes without it; jsonschema skips those formats on ImportError.
if "jsonschema" not in sys.modules:
    sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]

from mcp_lab import forms
from mcp_lab.answers import (
    AnswerContext,
    Answerer,
    CallbackAnswerer,
    ChainAnswerer,
    ScriptedAnswerer,
    Unanswered,
    cancel,
    decline,
)
from mcp_lab.api import call, get_prompt, read_resource, resume, start
from mcp_lab.collection import load_flows, save_flows
from mcp_lab.connect import OutsideServer, connect, disconnect
from mcp_lab.errors import FlowError, LabError
from mcp_lab.fleet import Fleet
from mcp_lab.flow import Flow, Round
from mcp_lab.header_labs import list_first_lab, mismatch_lab, schema_lookup_lab
from mcp_lab.headers import header, header_table
from mcp_lab.inspect.codecs import EnvelopeCodec, HMACSignOnlyCodec, use_codec
from mcp_lab.inspect.report import TokenReport
from mcp_lab.inspect.rotation import RotationMatrix, RotationStepper
from mcp_lab.inspect.rotation_load import LoadReport, run_rotation_load
from mcp_lab.inspect.tamper import TamperReport, tamper_lab
from mcp_lab.inspect.tokens import inspect_token
from mcp_lab.keys import KeyRing, key_id
from mcp_lab.principal import header_principal, lab_principal, set_principal
from mcp_lab.replay import ReplayReport, replay
from mcp_lab.sandbox import sandbox
from mcp_lab.serve import serve
from mcp_lab.views.rotation_widget import StepperWidget

__version__ = "0.1.0"

__all__ = [
    "AnswerContext",
    "Answerer",
    "CallbackAnswerer",
    "ChainAnswerer",
    "EnvelopeCodec",
    "Fleet",
    "Flow",
    "FlowError",
    "HMACSignOnlyCodec",
    "KeyRing",
    "LabError",
    "LoadReport",
    "OutsideServer",
    "ReplayReport",
    "RotationMatrix",
    "RotationStepper",
    "Round",
    "ScriptedAnswerer",
    "StepperWidget",
    "TamperReport",
    "TokenReport",
    "Unanswered",
    "__version__",
    "call",
    "cancel",
    "connect",
    "decline",
    "disconnect",
    "forms",
    "get_prompt",
    "header",
    "header_principal",
    "header_table",
    "inspect_token",
    "key_id",
    "lab_principal",
    "list_first_lab",
    "load_flows",
    "load_ipython_extension",
    "mismatch_lab",
    "read_resource",
    "replay",
    "resume",
    "run_rotation_load",
    "sandbox",
    "save_flows",
    "schema_lookup_lab",
    "serve",
    "set_principal",
    "start",
    "tamper_lab",
    "use_codec",
]


def _jupyter_labextension_paths() -> list[dict[str, str]]:
    """Where JupyterLab finds the prebuilt renderer for `application/vnd.mcp-lab.*+json` (labextension/)."""
    return [{"src": "labextension", "dest": "mcp-lab"}]


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext mcp_lab`: register the magics (imported only now, so `import mcp_lab` stays light)."""
    from mcp_lab.magics import register

    register(ipython)
    forms.install(ipython)  # in a kernel only: a person answers what no script covers


def unload_ipython_extension(ipython: Any) -> None:
    from mcp_lab.magics import await_magic_transformer

    forms.uninstall()

    if await_magic_transformer in ipython.input_transformers_cleanup:
        ipython.input_transformers_cleanup.remove(await_magic_transformer)
