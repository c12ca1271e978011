"""Hostile user code and hostile servers in a real kernel (issue 22: items 1, 4, 5, 9, 11).

One kernel, driven over the kernel protocol as JupyterLab drives it (interrupts through the KernelManager).
Every case checks what a person would: the cell ends with one line (no traceback through the lab or the SDK),
the next cell runs, and `mcp_lab.flows` still holds every flow the kernel started.

- A tool, prompt, resource or answer callback raising SystemExit / KeyboardInterrupt (or any BaseException)
  fails its call like any handler error -- in-process and over loopback HTTP, where the server keeps serving;
  a `%%mcp_server` cell raising one is one line and leaves `mcp` as it was.
- Interrupt while a flow runs in the background ends the awaited call alone, as interrupted.
- A flow still running cannot be resumed (its tool would run twice).
- A round of 1,000 questions, and a saved flow of 100,000 rounds, are refused at a bound, nothing rendered.
- A flow whose token the restarted server no longer accepts says to start over, and resume does.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.kernel.test_forms_kernel import Browser, start_browser, text_of

HOSTILE = """%%mcp_server {name} {flags}
import sys
from typing import Annotated
from mcp.server.mcpserver import Resolve

class Custom(BaseException):
    pass

@mcp.tool()
def exits(code: int = 3) -> str:
    sys.exit(code)

@mcp.tool()
async def interrupts() -> str:
    raise KeyboardInterrupt

@mcp.tool()
async def custom() -> str:
    raise Custom("not an Exception")

@mcp.prompt()
def exit_prompt() -> str:
    raise SystemExit("from a prompt")

@mcp.resource("hostile://{{name}}")
def interrupt_resource(name: str) -> str:
    raise KeyboardInterrupt

async def exit_resolver(city: str) -> str:
    raise SystemExit("from a resolver")

@mcp.tool()
async def resolved(city: str, extra: Annotated[str, Resolve(exit_resolver)]) -> str:
    return city

@mcp.tool()
def fine() -> str:
    return "still fine"
"""

BOOKING = """%%mcp_server fs
from pydantic import BaseModel
from typing import Annotated
from mcp.server.mcpserver import Elicit, ElicitationResult, Resolve
import anyio

booked = []

class Region(BaseModel):
    region: str

async def ask_region(city: str) -> Elicit[Region]:
    return Elicit(f"Which region for {city}?", Region)

@mcp.tool()
async def book(city: str, region: Annotated[ElicitationResult[Region], Resolve(ask_region)]) -> str:
    booked.append(city)  # the tool's body: it must run once per booking
    return f"{city}: {region.data.region if region.data else '-'}"

@mcp.tool()
async def hang(seconds: float) -> str:
    print("the tool is running")
    await anyio.sleep(seconds)
    return "woke up"

@mcp.tool()
def block(seconds: float) -> str:  # a sync tool runs in a worker thread, which no cancellation reaches
    import time
    print("the thread is blocking")
    time.sleep(seconds)
    return "unblocked"
"""

MANY = """%%mcp_server many --lowlevel
import mcp.types as T

async def on_list_tools(ctx, params):
    return T.ListToolsResult(tools=[T.Tool(name="ask", input_schema={"type": "object"})])

async def on_call_tool(ctx, params):
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    question = T.ElicitRequest(params=T.ElicitRequestFormParams(message="and?", requested_schema=schema))
    return T.InputRequiredResult(input_requests={f"q{i}": question for i in range(1000)}, request_state="s")
"""


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    for browser in start_browser(tmp_path_factory.mktemp("hostile")):
        for cell in (HOSTILE.format(name="hostile", flags=""), HOSTILE.format(name="remote", flags="--http"), BOOKING):
            reply, outputs = browser.run(cell)
            assert reply["status"] == "ok", text_of(outputs)
        yield browser


def ok(browser: Browser, code: str) -> str:
    reply, outputs = browser.run(code)
    text = text_of(outputs)
    assert reply["status"] == "ok", text
    assert "Traceback" not in text, text
    return text


def one_line_error(browser: Browser, code: str, ename: str = "LabError") -> str:
    """The cell fails with exactly one line of `ename`; that line."""
    reply, outputs = browser.run(code)
    errors = [m["content"] for m in outputs if m["header"]["msg_type"] == "error"]
    assert reply["status"] == "error" and len(errors) == 1, text_of(outputs)
    assert errors[0]["ename"] == ename, errors[0]
    assert len(errors[0]["traceback"]) == 1, errors[0]["traceback"]
    assert "Traceback" not in text_of(outputs)
    return str(errors[0]["traceback"][0])


def flow_count(browser: Browser) -> int:
    return int(ok(browser, "print(len(mcp_lab.flows))").strip())


BASE_EXCEPTIONS = [
    ('await mcp_lab.call("{s}", "exits", {{"code": 3}})', "server logged: SystemExit: 3"),
    ('await mcp_lab.call("{s}", "interrupts")', "server logged: KeyboardInterrupt"),
    ('await mcp_lab.call("{s}", "custom")', "server logged: Custom: not an Exception"),
    ('await mcp_lab.get_prompt("{s}", "exit_prompt")', "server logged: SystemExit: from a prompt"),
    ('await mcp_lab.read_resource("{s}", "hostile://x")', "server logged: KeyboardInterrupt"),
    ('await mcp_lab.call("{s}", "resolved", {{"city": "Oslo"}})', "server logged: SystemExit: from a resolver"),
    ('await mcp_lab.call("{s}", "exits", legacy=True)', "SystemExit: 3"),
]


@pytest.mark.parametrize("server", ["hostile", "remote"])
def test_a_handler_raising_a_base_exception_fails_its_call_and_the_kernel_goes_on(kernel: Browser, server: str) -> None:
    before = flow_count(kernel)
    for call, line in BASE_EXCEPTIONS:
        text = ok(kernel, f"f = {call.format(s=server)}\nprint(f.status, '|', f.summary())")
        assert text.startswith("error |") and line in text, text
        assert len(text.strip().splitlines()) == 1, text
    # The magics show the same flows (their one-line summary heads the view).
    for magic in (
        f"%mcp_call {server} exits code=5",
        f"%mcp_prompt {server} exit_prompt",
        f"%mcp_read {server} hostile://y",
    ):
        text = ok(kernel, magic)
        assert "failed after 1 leg" in text and "server logged:" in text, text
    assert "still fine" in ok(kernel, f'print((await mcp_lab.call("{server}", "fine")).text)')
    assert flow_count(kernel) == before + len(BASE_EXCEPTIONS) + 4  # nothing recorded was lost
    if server == "remote":  # the serving thread survived every one of them
        text = ok(kernel, "from mcp_lab.servers.sandbox import sandbox\nprint(sandbox.get('remote').http.describe())")
        assert "not serving" not in text and "stopped" not in text and "bearer secret" in text, text


def test_an_answer_callback_raising_systemexit_fails_its_flow_only(kernel: Browser) -> None:
    code = (
        "async def leave(ctx, params):\n    raise SystemExit(4)\n"
        'f = await mcp_lab.call("fs", "book", {"city": "Oslo"}, '
        "answers=mcp_lab.CallbackAnswerer(elicitation_callback=leave))\nprint(f.status, '|', f.summary())"
    )
    text = ok(kernel, code)
    assert text.startswith("error |") and "the answer callback raised SystemExit: 4" in text, text
    assert ok(kernel, "print(mcp_lab.last() is f, f.target)").strip() == "True book"


def test_a_server_cell_raising_systemexit_or_keyboardinterrupt_is_one_line_and_mcp_stays(kernel: Browser) -> None:
    assert ok(kernel, "print(mcp.name)").strip() == "fs"  # the last server cell's
    cells = [
        ("%%mcp_server broken\nraise SystemExit(2)", "the cell raised SystemExit: 2"),
        ("%%mcp_server broken\nraise KeyboardInterrupt", "the cell raised KeyboardInterrupt"),
        ("%%mcp_server broken --lowlevel\nimport sys\nsys.exit('bye')", "the cell raised SystemExit: bye"),
        ("%%mcp_server broken --keys __import__('sys').exit(1)\npass", "could not be evaluated: SystemExit"),
    ]
    for cell, line in cells:
        error = one_line_error(kernel, cell)
        assert line in error, error
        text = ok(kernel, "from mcp_lab.servers.sandbox import sandbox\nprint(mcp.name, 'broken' in sandbox.servers)")
        assert text.strip() == "fs False", text  # `mcp` is what it was before the cell; nothing registered
    # A fresh kernel name space: `mcp` was not bound before such a cell, and is not after it.
    text = ok(kernel, "_saved = mcp\ndel mcp")
    one_line_error(kernel, "%%mcp_server broken\nraise SystemExit")
    assert ok(kernel, "print('mcp' in dir())\nmcp = _saved").strip() == "False"


def interrupt_when(browser: Browser, code: str, when: str) -> tuple[dict[str, Any], list[dict[str, Any]], float]:
    """Run `code`, interrupt the kernel once an iopub message contains `when`; seconds from then to the reply."""
    fired: list[float] = []
    replied: list[float] = []

    def on_message(msg: dict[str, Any]) -> None:
        if not fired and when in str(msg["content"]):
            fired.append(time.monotonic())
            browser.manager.interrupt_kernel()
        if msg["header"]["msg_type"] == "error" and not replied:
            replied.append(time.monotonic())

    reply, outputs = browser.run(code, on_message, timeout=60)
    assert fired, f"never saw {when!r}"
    end = replied[0] if replied else time.monotonic()
    return reply, outputs, end - fired[0]


WAIT_FOR_FORM = (
    "import asyncio\nfor _ in range(400):\n"
    "    if run.flow is not None and run.flow.status == 'input_required': break\n"
    "    await asyncio.sleep(0.025)\nprint(run.flow.status, len(run.flow.rounds))"
)


def test_interrupt_ends_the_awaited_call_alone_while_a_flow_runs_in_the_background(kernel: Browser) -> None:
    ok(kernel, "run = %mcp_call fs book city=BG")
    assert ok(kernel, WAIT_FOR_FORM).strip() == "input_required 1"
    before = flow_count(kernel)
    seconds = []
    for call, when in (
        ('hung = await mcp_lab.call("fs", "hang", {"seconds": 600})', "the tool is running"),
        ('f = await mcp_lab.call("quiz", "where", {"city": "Lima"})', "round 1 from 'quiz'"),
        ("f = await %mcp_call fs hang seconds=600", "the tool is running"),
        ('f = await mcp_lab.call("fs", "block", {"seconds": 3})', "the thread is blocking"),
    ):
        reply, outputs, took = interrupt_when(kernel, call, when)
        errors = [m["content"] for m in outputs if m["header"]["msg_type"] == "error"]
        assert reply["status"] == "error" and reply["ename"] == "FlowInterrupted", text_of(outputs)
        assert len(errors) == 1 and len(errors[0]["traceback"]) == 1, errors
        assert "interrupted (Interrupt pressed) after " in errors[0]["traceback"][0], errors
        assert took < 10, f"the interrupt took {took:.1f} s"  # a hang guard only; the report gives the figure
        seconds.append(took)
        text = ok(kernel, "print(mcp_lab.last().status, '|', mcp_lab.last().stop_reason)")
        assert text.strip() == "interrupted | interrupted (Interrupt pressed)", text
        # The background flow was not touched: still waiting on its form, its one round kept.
        text = ok(kernel, "print(run.done(), run.flow.status, run.flow.stop_reason, len(run.flow.rounds))")
        assert text.strip() == "False input_required None 1", text
    print("interrupt to one-line error, seconds:", ", ".join(f"{s:.2f}" for s in seconds))
    assert flow_count(kernel) == before + 4

    # Resuming the background flow while it runs is refused: its tool would run twice.
    for code in ("await mcp_lab.resume(run.flow)", "await mcp_lab.resume(run.flow.to_json())", "await run.flow.run()"):
        error = one_line_error(kernel, code, "FlowError" if code.endswith(".run()") else "LabError")
        assert "is still running" in error, error
    assert ok(kernel, "print(run.flow.status, len(run.flow.rounds), booked)").strip() == "input_required 1 []"

    # Its form still answers it, and the tool ran once.
    answer = (
        "panel = [p for p in mcp_lab.forms.recent() if p.flow_id == run.flow.id][-1]\n"
        "panel.fill(region='eu-south')\npanel.submit()\nf = await run\nprint(f.text, '|', len(f.rounds), booked)"
    )
    assert ok(kernel, answer).strip().endswith("BG: eu-south | 2 ['BG']")
    # An interrupted flow is resumable (not "still running"), and finishes.
    text = ok(
        kernel,
        'lima = [f for f in mcp_lab.flows if f.arguments.get("city") == "Lima"][-1]\n'
        'f = await mcp_lab.resume(lima, answers={"ask_region": {"region": "andes"}})\nprint(f.text)',
    )
    assert "Lima: accept andes" in text, text


PRESS_FROM_ANOTHER_THREAD = """import signal, threading, time
def _press():  # Interrupt's SIGINT as Linux may deliver it: to one of the kernel's other threads
    time.sleep(1)
    signal.pthread_kill(threading.get_ident(), signal.SIGINT)
threading.Thread(target=_press, daemon=True).start()
f = await mcp_lab.call("fs", "hang", {"seconds": 40})"""


def test_interrupt_landing_in_another_thread_still_ends_the_waiting_call_at_once(kernel: Browser) -> None:
    # Python runs signal handlers in the main thread only, when it runs: asleep in the event loop's select
    # with nothing to wake it, the call used to end only when the tool did (here after 40 s).
    before = flow_count(kernel)
    began = time.monotonic()
    reply, outputs = kernel.run(PRESS_FROM_ANOTHER_THREAD)
    took = time.monotonic() - began
    errors = [m["content"] for m in outputs if m["header"]["msg_type"] == "error"]
    assert reply["status"] == "error" and reply["ename"] == "FlowInterrupted", text_of(outputs)
    assert len(errors) == 1 and len(errors[0]["traceback"]) == 1, errors
    assert "(tools/call hang on 'fs') interrupted (Interrupt pressed) after 0 legs" in errors[0]["traceback"][0], errors
    assert took < 20, f"the interrupt took {took:.1f} s"  # a hang guard only (the tool sleeps 40 s)
    assert flow_count(kernel) == before + 1
    assert ok(kernel, 'print((await mcp_lab.call("fs", "hang", {"seconds": 0})).status)').strip().endswith("done")


def test_a_call_the_code_around_it_cancels_is_kept_as_interrupted_and_the_cancellation_goes_on(
    kernel: Browser,
) -> None:
    # Not the person's Interrupt: a timeout around the call. The flow is kept (interrupted, resumable), and
    # the code around it gets the cancellation it expects (here wait_for's TimeoutError), not a FlowInterrupted.
    before = flow_count(kernel)
    code = (
        "import asyncio\n"
        "try:\n"
        '    await asyncio.wait_for(mcp_lab.call("fs", "hang", {"seconds": 600}), 0.5)\n'
        "except asyncio.TimeoutError:\n"
        "    print('timed out |', mcp_lab.last().status, '|', mcp_lab.last().stop_reason, '|', mcp_lab.last().target)"
    )
    assert ok(kernel, code).strip().splitlines()[-1] == "timed out | interrupted | cancelled | hang"
    assert flow_count(kernel) == before + 1
    assert ok(kernel, 'print((await mcp_lab.call("fs", "hang", {"seconds": 0})).status)').strip().endswith("done")


def test_a_round_of_a_thousand_questions_stops_at_the_bound_and_renders_nothing(kernel: Browser) -> None:
    ok(kernel, MANY)
    forms_before = sum(1 for s in kernel.models.values() if "RoundWidget" in str(s.get("_anywidget_id")))
    before = flow_count(kernel)
    for code in ('f = await mcp_lab.call("many", "ask", timeout=3)\nf', "await %mcp_call many ask --timeout 3"):
        reply, outputs = kernel.run(code)
        text = text_of(outputs)
        assert reply["status"] == "ok", text
        assert "the server asked 1000 questions at once, more than a round may ask (64); nothing was shown" in text
        assert sum(len(str(m["content"])) for m in outputs) < 60_000, "the view of a refused round stays small"
    forms_after = sum(1 for s in kernel.models.values() if "RoundWidget" in str(s.get("_anywidget_id")))
    assert forms_after == forms_before  # no form was built
    text = ok(kernel, "print(f.status, len(f.rounds[0].input_requests), len(mcp_lab.flows))")
    assert text.strip() == f"stopped 1000 {before + 2}", text  # the round is recorded whole


HUGE = (
    "import json\nq = {{'method': 'elicitation/create', 'params': {{'message': 'm', 'requestedSchema': "
    "{{'type': 'object', 'properties': {{}}}}}}}}\n"
    "rounds = [{{'index': i, 'outcome': 'input_required', 'input_requests': {{f'k{{j}}': q for j in range({asks})}}, "
    "'request_state': 's'}} for i in range({rounds})]\n"
    "saved = json.dumps({{'server': 'many', 'method': 'tools/call', 'target': 'ask', 'status': 'input_required', "
    "'max_rounds': {max_rounds}, 'rounds': rounds}})"
)


def test_a_hostile_saved_flow_is_refused_at_a_bound(kernel: Browser) -> None:
    before = flow_count(kernel)
    for rounds, asks, max_rounds, line in (
        (100_000, 1, 10, "it has 100000 rounds, more than a flow may hold (1000)"),
        (1000, 65, 10, "its rounds ask 65000 questions in all, more than a flow may hold (64000)"),
        (1, 1, 10**9, "max_rounds must be at most 1000"),
    ):
        ok(kernel, HUGE.format(rounds=rounds, asks=asks, max_rounds=max_rounds))
        for call in ("await mcp_lab.resume(saved)", "await mcp_lab.resume(json.loads(saved))"):
            error = one_line_error(kernel, call)
            assert line in error, error
    # A saved round asking too many is loaded but never answered.
    ok(kernel, HUGE.format(rounds=1, asks=200, max_rounds=10))
    text = ok(kernel, "f = await mcp_lab.resume(saved)\nprint(f.status, '|', f.stop_reason)")
    assert "stopped | round 1: the server asked 200 questions at once" in text, text
    assert "at most 1000;" in one_line_error(
        kernel, 'await mcp_lab.call("fs", "hang", {"seconds": 1}, max_rounds=1001)'
    )
    assert "at most 1000;" in one_line_error(kernel, "%mcp_call fs hang seconds=1 --max-rounds 5000")
    assert flow_count(kernel) == before + 1


def test_a_flow_whose_token_a_restarted_server_refuses_says_to_start_over_and_resume_does(kernel: Browser) -> None:
    text = ok(kernel, "f = await %mcp_call quiz where city=Rome --step\nprint(f.status)")
    assert text.strip().endswith("input_required"), text
    ok(kernel, "%mcp_server restart quiz\nimport asyncio\nawait asyncio.sleep(0.3)")
    text = ok(kernel, "f = await mcp_lab.resume(f, answers={'ask_region': {'region': 'eu'}})\nprint(f.summary())")
    assert "-32602 Invalid or expired requestState" in text and "server logged: unknown key" in text, text
    assert text.strip().endswith("server logged: unknown key; start it over with `await mcp_lab.resume(flow)`")
    assert len(text.strip().splitlines()) == 1
    one_line_error(kernel, "f.raise_for_status()", "FlowError")
    code = "f = await mcp_lab.resume(f, answers={'ask_region': {'region': 'eu'}})\nprint(f.text, '|', f.rounds[2].started_over, len(f.rounds))"
    text = ok(kernel, code)
    assert text.strip() == "Rome: accept eu | True 4", text
