"""Every wait can be ended by the person: Interrupt (■), the Stop button, and the side panel's comm.

A real ipykernel, driven over the kernel protocol: the test interrupts the kernel the way JupyterLab does
(`KernelManager.interrupt_kernel`, SIGINT) while a cell awaits an unanswered form or a hung tool, and then
checks what a person would: the cell ended with one line, the flow is kept (`mcp_lab.last()`), the next cell
runs, and the flow resumes. The comm test plays the JupyterLab side panel after a page reload.
"""

from __future__ import annotations

import contextlib
import queue
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.kernel.test_forms_kernel import CALL, Browser, start_browser, text_of

HUNG_TOOL = """%%mcp_server slow
import anyio

@mcp.tool()
async def hang(seconds: float) -> str:
    print("the tool is running")  # in-process: this reaches the waiting cell's output
    await anyio.sleep(seconds)
    return "woke up"
"""


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Browser, Any]]:
    for browser in start_browser(tmp_path_factory.mktemp("interrupt")):
        reply, outputs = browser.run(HUNG_TOOL)
        assert reply["status"] == "ok", text_of(outputs)
        yield browser, browser.kc


def run_and_interrupt(browser: Browser, code: str, when: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run `code`; once an iopub message containing `when` appears, interrupt the kernel."""
    fired: list[float] = []
    manager = browser.manager

    def on_message(msg: dict[str, Any]) -> None:
        if not fired and when in str(msg["content"]):
            fired.append(time.monotonic())
            manager.interrupt_kernel()

    reply, outputs = browser.run(code, on_message, timeout=60)
    assert fired, f"never saw {when!r}"
    return reply, outputs


def test_interrupt_while_a_form_waits_ends_the_flow_in_one_line(session: tuple[Browser, Any]) -> None:
    browser, _ = session
    reply, outputs = run_and_interrupt(browser, CALL, "round 1 from 'quiz'")
    assert reply["status"] == "error" and reply["ename"] == "FlowInterrupted"
    errors = [m["content"] for m in outputs if m["header"]["msg_type"] == "error"]
    assert len(errors) == 1 and len(errors[0]["traceback"]) == 1  # one line, no traceback through the SDK
    assert "interrupted (Interrupt pressed) after 1 leg" in errors[0]["traceback"][0]
    # The form's display became its record (what a saved notebook keeps).
    updates = [m for m in outputs if m["header"]["msg_type"] == "update_display_data"]
    assert updates and "abandoned" in updates[-1]["content"]["data"]["text/plain"]
    # The kernel is usable, the flow is kept, and it resumes (the question is asked again).
    reply, outputs = browser.run(
        "f = mcp_lab.last()\nprint(f.status, len(f.rounds), f.stop_reason)\n"
        "f = await mcp_lab.resume(f, answers={'ask_region': {'region': 'eu-west'}})\nprint(f.text)"
    )
    assert reply["status"] == "ok", text_of(outputs)
    assert "interrupted 1 interrupted (Interrupt pressed)" in text_of(outputs)
    assert "Paris: accept eu-west" in text_of(outputs)


def test_interrupt_while_a_tool_hangs(session: tuple[Browser, Any]) -> None:
    browser, _ = session
    code = 'hung = await mcp_lab.call("slow", "hang", {"seconds": 600})'
    reply, outputs = run_and_interrupt(browser, code, "the tool is running")
    assert reply["status"] == "error" and reply["ename"] == "FlowInterrupted", text_of(outputs)
    reply, outputs = browser.run("print(mcp_lab.last().status, mcp_lab.last().target, 'hung' in dir())")
    assert "interrupted hang False" in text_of(outputs)  # `hung` was never assigned; the flow was not lost


def test_the_stop_button_ends_the_flow(session: tuple[Browser, Any]) -> None:
    browser, _ = session
    done = [False]

    def on_message(msg: dict[str, Any]) -> None:
        if not done[0] and "round 1 from 'quiz'" in str(msg["content"]):
            done[0] = True
            browser.event("stop")

    reply, outputs = browser.run(CALL, on_message)
    assert reply["status"] == "error" and reply["ename"] == "FlowInterrupted"
    assert "stopped (Stop flow pressed)" in text_of(outputs)
    reply, outputs = browser.run("print(mcp_lab.last().status, mcp_lab.flows[-1] is mcp_lab.last())")
    assert "interrupted True" in text_of(outputs)


class Panel:
    """Plays the JupyterLab side panel: a comm with target mcp_lab.waiting."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.comm_id = "side-panel-" + str(time.monotonic_ns())
        self.snapshots: list[list[dict[str, Any]]] = []

    def track(self, msg: dict[str, Any]) -> None:
        content = msg["content"]
        if msg["header"]["msg_type"] == "comm_msg" and content.get("comm_id") == self.comm_id:
            self.snapshots.append(content["data"]["rounds"])

    def send(self, kind: str, content: dict[str, Any]) -> None:
        msg = self.browser.kc.session.msg(kind, content)
        self.browser.kc.shell_channel.send(msg)

    def open(self) -> None:
        self.send("comm_open", {"comm_id": self.comm_id, "target_name": "mcp_lab.waiting", "data": {}})

    def event(self, data: dict[str, Any]) -> None:
        self.send("comm_msg", {"comm_id": self.comm_id, "data": data})


def test_after_a_reload_the_side_panel_answers_the_waiting_form(session: tuple[Browser, Any]) -> None:
    browser, _ = session
    panel = Panel(browser)
    state = {"opened": False, "answered": False}

    def on_message(msg: dict[str, Any]) -> None:
        panel.track(msg)
        if not state["opened"] and "round 1 from 'quiz'" in str(msg["content"]):
            state["opened"] = True
            panel.open()  # the page reloaded: the cell's output is gone, the panel connects
        waiting = panel.snapshots[-1] if panel.snapshots else []
        if waiting and not state["answered"]:
            state["answered"] = True
            form = waiting[0]["forms"][0]
            flow, round_ = waiting[0]["flow"]["id"], waiting[0]["round"]
            panel.event(
                {"event": "submit", "flow": flow, "round": round_, "key": form["key"], "values": {"region": "y"}}
            )
            panel.event(
                {"event": "submit", "flow": flow, "round": round_, "key": form["key"], "values": {"region": "apac"}}
            )

    reply, outputs = browser.run(CALL, on_message)
    assert reply["status"] == "ok", text_of(outputs)
    assert "Paris: accept apac" in text_of(outputs)
    assert any(s and s[0]["forms"][0]["errors"] for s in panel.snapshots)  # "y" was refused, in the panel
    assert panel.snapshots[-1] == []  # nothing waits any more


def test_the_cancel_every_waiting_flow_command(session: tuple[Browser, Any]) -> None:
    browser, _ = session
    panel = Panel(browser)
    sent = [False]

    def on_message(msg: dict[str, Any]) -> None:
        panel.track(msg)
        if not sent[0] and "round 1 from 'quiz'" in str(msg["content"]):
            sent[0] = True
            panel.open()
            panel.event({"event": "cancel_all"})

    reply, outputs = browser.run(CALL, on_message)
    assert reply["status"] == "error" and reply["ename"] == "FlowInterrupted"
    assert "cancel every waiting flow" in text_of(outputs)
    with contextlib.suppress(queue.Empty):
        browser.drain(0.2)
    reply, outputs = browser.run("print(mcp_lab.last().status)")
    assert "interrupted" in text_of(outputs)
