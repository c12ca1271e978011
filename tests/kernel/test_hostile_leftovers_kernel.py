"""Hostile user code and careless lines in one real kernel: the leftovers of the bad-input rule.

One kernel, driven over the kernel protocol as JupyterLab drives it (interrupts through the KernelManager).
Every case checks what a person sees: the cell ends with one line (no traceback through the lab, the SDK or
asyncio, nothing on stderr), and the kernel goes on (the next cell runs).

- A task a tool starts (`asyncio.create_task`, an anyio task group) raising SystemExit, KeyboardInterrupt
  or another BaseException fails the call like the tool's own exception would -- in-process and over
  loopback HTTP; a task nobody awaits ends quietly and the tool's result stands.
- Interrupt pressed before the flow's first leg (while the lab lists the server's tools) ends the call with
  the same one-line note as a later Interrupt, and the flow kept is resumable.
- A server the lab did not start, served from this kernel and connected with %mcp_connect, whose tool fails:
  the flow's one line says what the server logged, as for the lab's own servers; no SDK traceback.
- A subcommand given words or options it does not take is refused with one line.
- `repr` of a flow with a 40,000-character argument, and of `mcp_lab.flows`, stays short.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.kernel.test_forms_kernel import Browser, start_browser, text_of
from tests.kernel.test_hostile_engine_kernel import interrupt_when, one_line_error

SPAWNING = """%%mcp_server {name} {flags}
import asyncio
import anyio

class Custom(BaseException):
    pass

async def leave():
    raise SystemExit(7)

async def press():
    raise KeyboardInterrupt

async def custom():
    raise Custom("not an Exception")

@mcp.tool()
async def task_exit() -> str:
    await asyncio.create_task(leave())
    return "never"

@mcp.tool()
async def task_interrupt() -> str:
    task = asyncio.get_running_loop().create_task(press())
    await asyncio.wait({{task}})
    return task.result()

@mcp.tool()
async def group_interrupt() -> str:
    async with anyio.create_task_group() as tg:
        tg.start_soon(press)
    return "never"

@mcp.tool()
async def group_custom() -> str:
    async with anyio.create_task_group() as tg:
        tg.start_soon(custom)
        await anyio.sleep(5)
    return "never"

@mcp.tool()
async def forgotten() -> str:
    asyncio.create_task(leave())  # nobody awaits it
    await asyncio.sleep(0.05)
    return "returned anyway"

@mcp.tool()
def fine() -> str:
    return "still fine"
"""

SLOW_LISTING = """%%mcp_server slow --lowlevel
import anyio
import mcp.types as T

SLOW = []

async def on_list_tools(ctx, params):
    if SLOW:  # the test makes this listing slow while it presses Interrupt
        print("listing the tools slowly")
        await anyio.sleep(30)
    return T.ListToolsResult(tools=[T.Tool(name="t", input_schema={"type": "object"})])

async def on_call_tool(ctx, params):
    return T.CallToolResult(content=[T.TextContent(type="text", text="called")])
"""

OUTSIDE = """from mcp.server.mcpserver import MCPServer
from mcp.server.lowlevel import Server
import mcp.types as T
from tests.sample_servers.loopback import LoopbackServer

own = MCPServer("own", log_level="WARNING")

@own.tool()
def boom() -> str:
    raise ValueError("kaboom outside")

async def on_call_tool(ctx, params):
    raise RuntimeError("lowlevel broke")

async def on_list_tools(ctx, params):
    return T.ListToolsResult(tools=[T.Tool(name="t", input_schema={"type": "object"})])

web_own = await LoopbackServer(own.streamable_http_app()).start()
web_low = await LoopbackServer(Server("low", on_call_tool=on_call_tool, on_list_tools=on_list_tools)
                               .streamable_http_app()).start()
"""


def stderr_of(outputs: list[dict[str, Any]]) -> str:
    return "".join(
        m["content"]["text"]
        for m in outputs
        if m["header"]["msg_type"] == "stream" and m["content"]["name"] == "stderr"
    )


def ok(browser: Browser, code: str) -> str:
    reply, outputs = browser.run(code)
    text = text_of(outputs)
    assert reply["status"] == "ok", text
    assert "Traceback" not in text and not stderr_of(outputs), text
    return text


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    for browser in start_browser(tmp_path_factory.mktemp("leftovers")):
        for cell in (
            SPAWNING.format(name="spawn", flags=""),
            SPAWNING.format(name="spawn_web", flags="--http"),
            SLOW_LISTING,
            OUTSIDE,
            "await %mcp_connect own {web_own.url}",
            "await %mcp_connect low {web_low.url}",
        ):
            reply, outputs = browser.run(cell)
            assert reply["status"] == "ok", text_of(outputs)
        yield browser


SPAWNED = [
    ("task_exit", "SystemExit: 7"),
    ("task_interrupt", "KeyboardInterrupt"),
    ("group_interrupt", "KeyboardInterrupt"),
    ("group_custom", "Custom: not an Exception"),
]


@pytest.mark.parametrize("server", ["spawn", "spawn_web"])
def test_a_task_a_tool_starts_raising_a_base_exception_fails_the_call_and_the_kernel_goes_on(
    kernel: Browser, server: str
) -> None:
    for tool, reason in SPAWNED:
        text = ok(kernel, f"f = await mcp_lab.call({server!r}, {tool!r})\nprint(f.status, '|', f.summary())")
        assert text.startswith("error |") and f"'Error executing tool {tool}'" in text, text
        assert len(text.strip().splitlines()) == 1, text
        # The leg keeps the server's one-line reason: the task's exit, contained, named.
        logged = ok(kernel, "print(mcp_lab.last().rounds[-1].server_log)")
        assert reason in logged, logged
    text = ok(kernel, f"f = await mcp_lab.call({server!r}, 'forgotten')\nprint(f.status, f.text)")
    assert text.strip() == "done returned anyway", text
    # The task nobody awaited is one line in the server's log (asyncio printed a traceback, when it got so far).
    text = ok(kernel, f"from mcp_lab.servers.log_book import log_lines\nprint(log_lines({server!r}), f.rounds[-1].server_log)")
    assert "a task the tools/call handler started raised SystemExit: 7" in text, text
    text = ok(kernel, f"f = await %mcp_call {server} fine\nprint(f.text)")
    assert text.strip() == "still fine", text
    if server == "spawn_web":  # the serving thread survived every one of them
        text = ok(kernel, "print(mcp_lab.sandbox.get('spawn_web').http.describe())")
        assert "not serving" not in text and "stopped" not in text, text


def test_interrupt_before_the_first_leg_is_the_one_line_note_and_the_flow_resumes(kernel: Browser) -> None:
    for call in ("f = await mcp_lab.call('slow', 't')", "f = await %mcp_call slow t"):
        ok(kernel, "SLOW.append(1)")
        reply, outputs, took = interrupt_when(kernel, call, "listing the tools slowly")
        errors = [m["content"] for m in outputs if m["header"]["msg_type"] == "error"]
        assert reply["status"] == "error" and reply["ename"] == "FlowInterrupted", text_of(outputs)
        assert len(errors) == 1 and len(errors[0]["traceback"]) == 1, errors
        line = errors[0]["traceback"][0]
        assert "(tools/call t on 'slow') interrupted (Interrupt pressed) after 0 legs" in line, line
        assert "CancelledError" not in text_of(outputs) and not stderr_of(outputs)
        assert took < 10, f"the interrupt took {took:.1f} s"  # a hang guard only (the listing sleeps 30 s)
        text = ok(kernel, "print(mcp_lab.last().status, '|', mcp_lab.last().stop_reason, len(mcp_lab.last().rounds))")
        assert text.strip() == "interrupted | interrupted (Interrupt pressed) 0", text
        text = ok(kernel, "SLOW.clear()\nr = await mcp_lab.resume(mcp_lab.last())\nprint(r.status, r.text)")
        assert text.strip() == "done called", text


OUTSIDE_FAILURES = [
    ("own", "boom", "", "result (isError): 'Error executing tool boom'"),
    ("own", "boom", ", legacy=True", "result (isError): 'Error executing tool boom'"),
    ("low", "t", "", "-32603 Internal server error — server logged: RuntimeError: lowlevel broke"),
    ("low", "t", ", legacy=True", "lowlevel broke — server logged: RuntimeError: lowlevel broke"),
]


def test_a_failing_tool_of_a_connected_server_in_this_kernel_is_the_flows_one_line(kernel: Browser) -> None:
    for server, tool, extra, line in OUTSIDE_FAILURES:
        text = ok(kernel, f"f = await mcp_lab.call({server!r}, {tool!r}{extra})\nprint(f.status, '|', f.summary())")
        assert text.startswith("error |") and line in text, text
        assert len(text.strip().splitlines()) == 1, text
    text = ok(kernel, "print(mcp_lab.flows[-3].rounds[-1].server_log)")
    assert "ValueError: kaboom outside" in text, text
    text = ok(kernel, "await %mcp_call low t")
    assert "failed after 1 leg" in text and "server logged: RuntimeError: lowlevel broke" in text, text


EXTRA_WORDS = [
    ("%mcp_server list extra", "%mcp_server list takes no server name ('extra'); usage: %mcp_server list"),
    ("%mcp_server list --http", "--http: not an option here; usage: %mcp_server list"),
    ("%mcp_server list --ttl 5 --lowlevel", "--ttl --lowlevel: not an option here"),
    ("%mcp_server stop quiz --port 9", "--port: not an option here; usage: %mcp_server stop NAME"),
    ("%mcp_server log quiz --keep-secret", "--keep-secret: not an option here; usage: %mcp_server log NAME"),
    ("%mcp_server url quiz --keys K", "--keys: not an option here; usage: %mcp_server url NAME"),
    ("%mcp_server restart quiz --no-auth", "--no-auth: not an option here; usage: %mcp_server restart NAME"),
    ("%mcp_server serve quiz --keep-secret", "--keep-secret: not an option here; usage: %mcp_server serve NAME"),
    ("%mcp_connect log own --legacy", "--legacy: not an option here; usage: %mcp_connect log NAME"),
]


def test_a_subcommand_refuses_words_and_options_it_does_not_take(kernel: Browser) -> None:
    for line, expect in EXTRA_WORDS:
        error = one_line_error(kernel, line)
        assert expect in error, error
        # Nothing was done: quiz is still there, and the kernel still calls tools.
        text = ok(kernel, "print('quiz' in mcp_lab.sandbox.servers, (await mcp_lab.call('spawn', 'fine')).text)")
        assert text.strip() == "True still fine", text
    assert "quiz: mcpserver" in ok(kernel, "%mcp_server list")
    ok(kernel, "%mcp_server log quiz")


def test_repr_of_a_flow_with_a_long_argument_stays_short(kernel: Browser) -> None:
    text = ok(
        kernel,
        "f = await mcp_lab.call('spawn', 'fine', {'x': 'y' * 40_000})\n"
        "print(len(repr(f)), len(repr(f.rounds[0])), len(repr(mcp_lab.flows)) // len(mcp_lab.flows))",
    )
    flow, leg, each = (int(n) for n in text.split())
    assert flow <= 400 and leg <= 200 and each <= 400, text
    shown = ok(kernel, "mcp_lab.flows[-3:]")  # a list shows each flow's repr
    assert len(shown) <= 1500, len(shown)
