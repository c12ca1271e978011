"""Every public function and class, every argument, fourteen wrong values each (issue 22, item 10).

A sweep, not a table: for each entry of `mcp_lab.__all__` that takes arguments, a call that works is
written down once, then each of its arguments in turn gets None, numbers, a bool, NaN, text, bytes, empty
and non-empty containers, an object, a NUL byte and -1. Whatever happens must be the call working or one
`LabError` line -- never an AttributeError, TypeError or ValueError from the lab's (or the SDK's) insides.
The cases a person meets in a notebook are also run in a real kernel (tests/kernel/test_hostile_api_kernel.py).
"""

from __future__ import annotations

import asyncio
import inspect
import traceback
import warnings
from pathlib import Path
from typing import Any

import pytest

import mcp_lab
from mcp_lab import LabError
from mcp_lab.servers.sandbox import sandbox
from tests.conftest import build_demo

BAD: list[Any] = [None, 5, True, 2.5, float("nan"), "x", "", b"x", [], {}, [1], object(), "a\0b", -1]

NOT_SWEPT = {
    # records and report classes: built by the lab from real runs, not by hand
    "AnswerContext", "AuditReport", "Flow", "Round", "ReplayReport", "RotationMatrix", "TamperReport",
    "TokenReport", "LoadReport", "OutsideServer",
    # exceptions and protocols
    "ConnectionFailed", "ExerciseIncomplete", "FlowError", "FlowInterrupted", "LabError", "Unanswered", "Answerer",
    # no arguments, a module, or the extension hooks
    "cancel", "decline", "last", "flows", "forms", "sandbox", "load_ipython_extension", "unload_ipython_extension",
    "__version__", "lab_principal",
    # a fleet of real processes and its report (built by start_fleet / check_deployment); those functions start
    # processes, so their arguments are swept without starting any in tests/deployment/test_wrong_arguments.py
    "ProcessFleet", "DeploymentReport", "start_fleet", "check_deployment", "rolling_rotation", "lying_client",
    "unlisted_call", "live_fleets",
}  # fmt: skip


async def _table(tmp: Path) -> dict[str, tuple[Any, list[Any], dict[str, Any]]]:
    """name -> (callable, positional arguments and keyword arguments of a call that works)."""
    sandbox.register(build_demo("demo"))
    flow = await mcp_lab.call("demo", "handmade", {"x": 1}, answers={"q1": {"n": 1}})
    mcp_lab.serve("demo")
    stepper = mcp_lab.RotationStepper(mcp_lab.Fleet("fleet-a", instances=1))
    saved = str(mcp_lab.save_flows(tmp / "c.json", [flow]))
    key = b"k" * 32
    return {
        "adopt": (mcp_lab.adopt, [build_demo("adopted").server], {"name": "adopted"}),
        "audit": (mcp_lab.audit, ["demo", [flow]], {"only": "state-integrity"}),
        "auth_headers": (mcp_lab.auth_headers, ["demo"], {}),
        "call": (mcp_lab.call, ["demo", "handmade", {"x": 1}], {"answers": {"q1": {"n": 1}}}),
        "client_transport": (mcp_lab.client_transport, ["demo"], {}),
        "connect": (mcp_lab.connect, ["conn", "http://127.0.0.1:1/mcp"], {"timeout": 1}),
        "describe": (mcp_lab.describe, ["demo"], {}),
        "disconnect": (mcp_lab.disconnect, ["nope"], {}),
        "exercise_needs": (mcp_lab.exercise_needs, [], {}),
        "get_prompt": (mcp_lab.get_prompt, ["demo", "p"], {}),
        "header": (mcp_lab.header, ["X"], {}),
        "header_principal": (mcp_lab.header_principal, [], {}),
        "header_table": (mcp_lab.header_table, ["demo"], {}),
        "inspect_token": (mcp_lab.inspect_token, ["v1.abc"], {}),
        "key_id": (mcp_lab.key_id, [key], {}),
        "list_first_lab": (mcp_lab.list_first_lab, ["demo"], {}),
        "load_flows": (mcp_lab.load_flows, [saved], {}),
        "mismatch_lab": (mcp_lab.mismatch_lab, ["demo"], {}),
        "read_resource": (mcp_lab.read_resource, ["demo", "doc://1"], {}),
        "replay": (mcp_lab.replay, [[flow]], {}),
        "resume": (mcp_lab.resume, [flow.to_json()], {}),
        "run_rotation_load": (mcp_lab.run_rotation_load, [stepper], {"flows_per_step": 1}),
        "save_flows": (mcp_lab.save_flows, [saved, [flow]], {}),
        "schema_lookup_lab": (mcp_lab.schema_lookup_lab, [], {"calls": 1}),
        "serve": (mcp_lab.serve, ["demo"], {}),
        "server_log": (mcp_lab.server_log, ["demo"], {}),
        "set_principal": (mcp_lab.set_principal, [None], {}),
        "start": (mcp_lab.start, ["demo", "tools/call", "handmade"], {}),
        "tamper_lab": (mcp_lab.tamper_lab, [flow], {}),
        "use_codec": (mcp_lab.use_codec, ["demo", mcp_lab.HMACSignOnlyCodec(key)], {}),
        "Fleet": (mcp_lab.Fleet, ["fleet-x"], {"instances": 1}),
        "KeyRing": (mcp_lab.KeyRing, [[key]], {}),
        "RotationStepper": (mcp_lab.RotationStepper, [mcp_lab.Fleet("fleet-b", instances=1)], {}),
        "StepperWidget": (mcp_lab.StepperWidget, [stepper], {}),
        "ScriptedAnswerer": (mcp_lab.ScriptedAnswerer, [{"q": {}}], {}),
        "ChainAnswerer": (mcp_lab.ChainAnswerer, [[mcp_lab.ScriptedAnswerer({})]], {}),
        "CallbackAnswerer": (mcp_lab.CallbackAnswerer, [], {}),
        "EnvelopeCodec": (mcp_lab.EnvelopeCodec, [key], {}),
        "HMACSignOnlyCodec": (mcp_lab.HMACSignOnlyCodec, [key], {}),
    }


def test_the_sweep_covers_the_public_api() -> None:
    table = asyncio.run(_names())
    assert sorted(set(mcp_lab.__all__) - NOT_SWEPT) == sorted(table)


async def _names() -> list[str]:
    import tempfile

    try:
        return list(await _table(Path(tempfile.mkdtemp())))
    finally:
        await sandbox.stop_all()


async def test_no_wrong_argument_escapes_as_anything_but_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a bad value such as "x" is a fine file name for save_flows
    warnings.simplefilter("ignore")  # serve(auth=False) warns, as it should
    keep = {"demo", "fleet-a", "fleet-b"}
    escaped: list[str] = []
    calls = 0
    try:
        for name, (function, args, kwargs) in (await _table(tmp_path)).items():
            parameters = inspect.signature(function).parameters.values()
            named = [p for p in parameters if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
            for position, parameter in enumerate(named):
                for bad in BAD:
                    a, k = list(args), dict(kwargs)
                    if parameter.kind is not parameter.KEYWORD_ONLY and position < len(a):
                        a[position] = bad
                    else:
                        k[parameter.name] = bad
                    calls += 1
                    try:
                        result = function(*a, **k)
                        if inspect.isawaitable(result):
                            await asyncio.wait_for(result, 30)
                    except LabError as exc:
                        if "\n" in str(exc).strip():
                            escaped.append(f"{name}({parameter.name}={bad!r}): a LabError of several lines")
                    except BaseException as exc:  # the failures this test exists for
                        where = traceback.extract_tb(exc.__traceback__)[-1]
                        escaped.append(
                            f"{name}({parameter.name}={bad!r}): {type(exc).__name__}: {str(exc)[:100]} "
                            f"at {Path(where.filename).name}:{where.lineno}"
                        )
                    finally:
                        for other in [n for n in list(sandbox.servers) if n not in keep]:
                            await sandbox.stop(other)
    finally:
        await sandbox.stop_all()
    assert calls > 1000
    assert escaped == []


async def test_a_refused_header_or_environment_never_shows_its_values() -> None:
    """A bearer token or an API key in `headers=` / `env=` is a secret: the refusal names types only."""
    secret = "Bearer sekrit-7f3a9c"
    cases = [
        {"url": "http://127.0.0.1:1/mcp", "headers": {"Authorization": secret, "X-Count": 5}},
        {"url": "http://127.0.0.1:1/mcp", "headers": [("Authorization", secret)]},
        {"stdio": "python -c pass", "env": {"API_KEY": secret, "N": 1}},
        {"stdio": "python -c pass", "env": ("API_KEY=" + secret,)},
    ]
    for kwargs in cases:
        with pytest.raises(LabError) as refused:
            await mcp_lab.connect("secretive", **kwargs)
        assert "maps names to values" in str(refused.value) and "sekrit" not in str(refused.value)
    assert "secretive" not in sandbox.servers
