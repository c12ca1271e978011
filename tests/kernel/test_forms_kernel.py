"""A real ipykernel, driven over the kernel protocol by a test playing the browser.

A cell awaits `mcp_lab.call(...)` while the form is live; the test reads the round's widget model from iopub
(comm_open) and sends what the form's front end sends (labextension/src/forms/render.ts) -- one custom
message carrying every value of the form -- and the flow must finish with what was answered. (Per-field
`update` messages are exactly what the front end must not rely on: tests/browser types into the real page.) The deferred mode (a kernel that cannot dispatch comms during
a cell) is forced with MCP_LAB_FORMS_MODE and must complete without hanging.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from jupyter_client import KernelManager
from jupyter_client.kernelspec import KernelSpecManager

ROOT = Path(__file__).resolve().parents[2]

SERVER_CELL = """%%mcp_server quiz
from typing import Annotated
from pydantic import BaseModel, Field
from mcp.server.mcpserver import Elicit, ElicitationResult, Resolve

class Region(BaseModel):
    region: str = Field(title="Region", min_length=2)

async def ask_region(city: str) -> Elicit[Region]:
    return Elicit(f"Which region for {city}?", Region)

@mcp.tool()
async def where(city: str, region: Annotated[ElicitationResult[Region], Resolve(ask_region)]) -> str:
    data = getattr(region, "data", None)
    return f"{city}: {region.action} {data.region if data else '-'}"
"""


class Browser:
    """Plays the frontend: runs cells, keeps the widget models' state, sends comm messages."""

    def __init__(self, kc: Any, manager: Any = None) -> None:
        self.kc = kc
        self.manager = manager
        """The KernelManager: interrupts go through it, as JupyterLab's go through the server."""
        self.models: dict[str, dict[str, Any]] = {}
        self.updates: list[dict[str, Any]] = []
        """Every state update the kernel sent, in order."""

    def _track(self, msg: dict[str, Any]) -> None:
        kind, content = msg["header"]["msg_type"], msg["content"]
        if kind == "comm_open":
            self.models[content["comm_id"]] = dict(content.get("data", {}).get("state", {}))
        elif kind == "comm_msg" and content.get("data", {}).get("method") == "update":
            self.models.setdefault(content["comm_id"], {}).update(content["data"].get("state", {}))
            self.updates.append(content["data"].get("state", {}))

    def run(
        self, code: str, on_message: Callable[[dict[str, Any]], None] | None = None, timeout: float = 90
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        msg_id = self.kc.execute(code)
        outputs: list[dict[str, Any]] = []
        reply: dict[str, Any] | None = None
        idle = False
        deadline = time.monotonic() + timeout
        while reply is None or not idle:
            assert time.monotonic() < deadline, f"cell did not finish: {code[:60]!r}"
            try:
                msg = self.kc.get_iopub_msg(timeout=0.02)
            except queue.Empty:
                msg = None
            if msg is not None:
                self._track(msg)
                mine = msg["parent_header"].get("msg_id") == msg_id
                kind = msg["header"]["msg_type"]
                if mine and kind == "status" and msg["content"]["execution_state"] == "idle":
                    idle = True
                elif mine and kind in ("stream", "display_data", "execute_result", "error", "update_display_data"):
                    outputs.append(msg)
                if on_message is not None:
                    on_message(msg)
                continue  # drain iopub first; look at the shell channel only when it is quiet
            try:
                shell = self.kc.get_shell_msg(timeout=0.01)
            except queue.Empty:
                continue
            if shell["parent_header"].get("msg_id") == msg_id:
                reply = shell["content"]
        return reply, outputs

    def drain(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            with contextlib.suppress(queue.Empty):
                self._track(self.kc.get_iopub_msg(timeout=0.05))

    def round_model(self) -> str:
        """The comm id of the newest round widget (its state carries the round record)."""
        for comm_id, state in reversed(list(self.models.items())):
            if state.get("_anywidget_id") == "mcp_lab.forms.widget.RoundWidget":
                return comm_id
        raise AssertionError(f"no round widget among {len(self.models)} widget models")

    def round(self) -> dict[str, Any]:
        return dict(self.models[self.round_model()].get("round") or {})

    def send(self, comm_id: str, data: dict[str, Any]) -> None:
        msg = self.kc.session.msg("comm_msg", {"comm_id": comm_id, "data": data})
        self.kc.shell_channel.send(msg)

    def event(self, event: str, **content: Any) -> None:
        """A button of the form, as the front end sends it: one custom message."""
        round_ = self.round()
        key = round_["forms"][0]["key"]
        self.send(self.round_model(), {"method": "custom", "content": {"event": event, "key": key, **content}})

    def submit(self, **values: Any) -> None:
        self.event("submit", values=values)


def text_of(outputs: list[dict[str, Any]]) -> str:
    parts = []
    for msg in outputs:
        content = msg["content"]
        if msg["header"]["msg_type"] == "stream":
            parts.append(content["text"])
        elif "data" in content:
            parts.append(content["data"].get("text/plain", ""))
        elif msg["header"]["msg_type"] == "error":
            parts.append(f"{content['ename']}: {content['evalue']}")
    return "".join(parts)


def start_browser(tmp: Path, **env: str) -> Iterator[Browser]:
    spec = tmp / "kernels" / "mcplab"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": "mcp_lab", "language": "python"}))
    km = KernelManager(kernel_name="mcplab", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(tmp / "kernels")]))
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    km.start_kernel(env={**os.environ, "PYTHONPATH": path, **env}, cwd=str(tmp))
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        browser = Browser(kc, km)
        reply, outputs = browser.run("%load_ext mcp_lab\nimport mcp_lab")
        assert reply["status"] == "ok", text_of(outputs)
        reply, outputs = browser.run(SERVER_CELL)
        assert reply["status"] == "ok", text_of(outputs)
        yield browser
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    yield from start_browser(tmp_path_factory.mktemp("live"))


def answer_when_shown(browser: Browser, act: Callable[[Browser], None]) -> Callable[[dict[str, Any]], None]:
    """Act once the form's panel is displayed (its widget models exist by then)."""
    done = [False]

    def on_message(msg: dict[str, Any]) -> None:
        data = msg["content"].get("data", {})
        if (
            not done[0]
            and msg["header"]["msg_type"] == "display_data"
            and "round 1 from 'quiz'" in data.get("text/plain", "")
        ):
            done[0] = True
            act(browser)

    return on_message


CALL = 'flow = await mcp_lab.call("quiz", "where", {"city": "Paris"})\nprint(flow.text, flow.rounds[-1].answered_by)'


def test_submit_while_the_cell_awaits(browser: Browser) -> None:
    def act(b: Browser) -> None:
        b.submit(region="x")  # too short: refused in the form, the cell keeps waiting
        b.submit(region="eu-west")

    updates: list[str] = []
    shown = answer_when_shown(browser, act)

    def on_message(msg: dict[str, Any]) -> None:
        if msg["header"]["msg_type"] == "update_display_data":
            updates.append(msg["content"]["data"]["text/plain"])
        shown(msg)

    reply, outputs = browser.run(CALL, on_message)
    assert reply["status"] == "ok", text_of(outputs)
    assert "Paris: accept eu-west {'__main__:ask_region': 'form'}" in text_of(outputs)
    # The panel's display became the record of the round: what a saved notebook keeps.
    assert updates == ["round 1 from 'quiz':\n  elicitation form 'ask_region' from 'quiz': answered region='eu-west'"]
    form = browser.round()["forms"][0]
    assert form["state"] == "accepted" and "answered region='eu-west'" in form["summary"]
    errors = [
        u["round"]["forms"][0]["errors"] for u in browser.updates if "round" in u and u["round"]["forms"][0]["errors"]
    ]
    assert errors and "at least 2 characters" in errors[0]["region"]  # the inline message while the cell waited
    reply, outputs = browser.run("print(mcp_lab.forms.last().summary())")
    assert "answered region='eu-west'" in text_of(outputs)


def test_decline_while_the_cell_awaits(browser: Browser) -> None:
    reply, outputs = browser.run(CALL, answer_when_shown(browser, lambda b: b.event("decline")))
    assert reply["status"] == "ok", text_of(outputs)
    assert "Paris: decline -" in text_of(outputs)


def test_cancel_while_the_cell_awaits(browser: Browser) -> None:
    reply, outputs = browser.run(CALL, answer_when_shown(browser, lambda b: b.event("cancel")))
    assert reply["status"] == "ok", text_of(outputs)
    assert "Paris: cancel -" in text_of(outputs)


def test_forced_deferred_mode_continues_after_the_cell(tmp_path: Path) -> None:
    for b in start_browser(tmp_path, MCP_LAB_FORMS_MODE="deferred"):
        reply, outputs = b.run('flow = await mcp_lab.call("quiz", "where", {"city": "Oslo"})\nprint(flow.status)')
        assert reply["status"] == "ok", text_of(outputs)
        assert "input_required" in text_of(outputs)  # the cell returned instead of waiting
        b.submit(region="north")
        code = (
            "import asyncio\nfor _ in range(400):\n    if flow.done: break\n    await asyncio.sleep(0.025)\n"
            "print(flow.text)"
        )
        reply, outputs = b.run(code)
        assert "Oslo: accept north" in text_of(outputs)
        b.drain(0.3)
        sinks = [s for s in b.models.values() if s.get("_model_name") == "OutputModel"]
        shown = json.dumps(sinks[-1].get("outputs", []))
        assert "cannot deliver widget events" in shown  # the one-line notice
        assert "round 1 from 'quiz'" in shown  # the form, shown through the Output widget
        assert "done after 2 legs" in shown  # the finished flow, appended by the background task


def test_prearranged_answers_show_only_the_record_so_nbval_can_compare(browser: Browser) -> None:
    # nbval ignores update_display_data: a headless run must display the final record in the first place.
    updates: list[dict[str, Any]] = []

    def on_message(msg: dict[str, Any]) -> None:
        if msg["header"]["msg_type"] == "update_display_data":
            updates.append(msg)

    reply, outputs = browser.run('mcp_lab.forms.prearrange(ask_region={"region": "eu-north"})\n' + CALL, on_message)
    assert reply["status"] == "ok", text_of(outputs)
    shown = [m["content"]["data"]["text/plain"] for m in outputs if m["header"]["msg_type"] == "display_data"]
    assert shown == ["round 1 from 'quiz':\n  elicitation form 'ask_region' from 'quiz': answered region='eu-north'"]
    assert updates == [] and "Paris: accept eu-north" in text_of(outputs)
