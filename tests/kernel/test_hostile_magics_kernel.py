"""Hostile magic lines, names and headless form input in ONE real kernel (issue 22 items 6, 8, 10, 12; issue
26's trailing comment): quoted text and JSON reach the server exactly as typed, `{PORT}` outside quotes still
expands, a trailing comment is a comment, long names and broken input are one line each, `stop` leaves no
server serving, and the SDK's warnings stay out of the cells. After every bad input the next cell runs a real
flow, and at the end every flow the kernel ran is still in `mcp_lab.flows`.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest

from tests.kernel.harness import errors_of, run_cells, text_of
from tests.kernel.test_magics_kernel import SERVER_CELL

ROOT = Path(__file__).resolve().parents[2]

ECHO = """%%mcp_server echo
@mcp.tool()
def say(text: str) -> str:
    return text

@mcp.tool()
def pair(a: str, b: str = "") -> str:
    return a + "|" + b
"""

HEALTH = "_h = await %mcp_call echo say text=ok\nprint('HEALTHY', _h.text)"

PAYLOAD = "costs $5 {len} # not a comment $$ {{x}} \\\" 'q' "
"""Inside double quotes, typed as is: `\\"` is the shell's escaped quote, so the server gets `"`."""
SENT = PAYLOAD.replace('\\"', '"')


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _readme_line() -> str:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    return next(line for line in lines if line.startswith("flow = await %mcp_call demo book city=Paris"))


GOOD: list[tuple[str, str]] = [
    # item 6: quoted values and JSON as typed, on all three ways a call line is run
    ('f = await %mcp_call echo say text="costs $5 today"\nprint(f.text)', "costs $5 today"),
    ('f = await %mcp_call echo say text="{len}"\nprint(f.text)', "{len}"),
    ("f = await %mcp_call echo say text='$PORT and {PORT}'\nprint(f.text)", "$PORT and {PORT}"),
    ('f = await %mcp_call echo say {"text": "costs $5 {len} # x"}\nprint(f.text)', "costs $5 {len} # x"),
    ("f = await %mcp_call echo pair a='{len}' b={msg}\nprint(f.text)", "{len}|hello world # not a comment"),
    ('%mcp_call echo say text="bare $5 {len}"\nprint(mcp_lab.last().text)', "bare $5 {len}"),
    ('run = %mcp_call echo say text="assigned $5 {len}"\nprint((await run).text)', "assigned $5 {len}"),
    ("f = await %mcp_call echo pair a=$NAME b=x{len('ab')}\nprint(f.text)", "shop|x2"),
    ("f = await %mcp_call echo pair a=$$5 b={{x}}\nprint(f.text)", "$5|{x}"),
    (
        "def local_call():\n    word = 'from a function'\n"
        "    return get_ipython().run_line_magic('mcp_call', 'echo say text={word}')\n"
        "print((await local_call()).text)",
        "from a function",
    ),
    # issue 26: a trailing comment, outside quotes
    ("f = await %mcp_call echo say text=Paris     # a comment after the call\nprint(f.text)", "Paris"),
    ('f = await %mcp_call echo say text="#kept" # dropped\nprint(f.text)', "#kept"),
    ('mcp_lab.forms.prearrange(ask_region={"region": "eu-west"})\n' + _readme_line() + "\nprint(flow.text)",
     "Booked Paris in eu-west"),
    # a long line: linear expansion (IPython's took 17 s at 60k characters); timings printed, not asserted
    (
        'import time\n_t = time.perf_counter()\nf = await %mcp_call echo say text="'
        + PAYLOAD * 1500
        + '"\n_dt = time.perf_counter() - _t\nimport hashlib\n'
        "print(len(f.text), hashlib.sha256(f.text.encode()).hexdigest()[:16])\nprint(f'TIMING 60k {_dt:.3f}')",
        f"{len(SENT) * 1500} {_digest(SENT * 1500)}",
    ),
    (
        'import time\n_t = time.perf_counter()\nf = await %mcp_call echo say text="'
        + PAYLOAD * 25000
        + '"\n_dt = time.perf_counter() - _t\nimport hashlib\n'
        "print(len(f.text), hashlib.sha256(f.text.encode()).hexdigest()[:16])\nprint(f'TIMING 1M {_dt:.3f}')",
        f"{len(SENT) * 25000} {_digest(SENT * 25000)}",
    ),
]

DEEP = "[" * 5000 + "]" * 5000
NAME_300 = "n" * 300
NAME_10K = "m" * 10_000

BAD: list[tuple[str, str]] = [
    # item 6: an expansion that fails names itself
    ("%mcp_call echo say text={oops}", "could not expand {oops}: NameError"),
    ("%mcp_call echo say text=$oops", "could not expand $oops: NameError"),
    ("%mcp_server serve echo --port {1/0}", "could not expand {1/0}: ZeroDivisionError"),
    # item 10: unclosed quotes, deep JSON, wrong answer keys, lone surrogates
    ('%mcp_server stop "abc', "could not parse the line: No closing quotation"),
    ("%mcp_server stop 'abc", "could not parse the line: No closing quotation"),
    ('%mcp_call echo say text="abc', "could not parse the line: No closing quotation"),
    ('%mcp_connect x --stdio "python', "could not parse the line: No closing quotation"),
    ("%mcp_describe 'echo", "could not parse the line: No closing quotation"),
    ("%mcp_call echo say text=abc\\", "could not parse the line: No escaped character"),
    (f"%mcp_call echo say {DEEP}", "nested deeper than 100 levels"),
    (f"%mcp_call echo say text={DEEP}", "nested deeper than 100 levels"),
    (f"%mcp_call echo say text='{DEEP}'", "nested deeper than 100 levels"),
    ("%mcp_call demo book city=X --answers " + '{"a":' * 3000 + "1" + "}" * 3000, "--answers is nested deeper"),
    (f"await mcp_lab.resume({DEEP!r})", "the saved flow is nested deeper than 200 levels"),
    ("await mcp_lab.resume('{\"a\": ' * 5000 + '1' + '}' * 5000)", "the saved flow is nested deeper"),
    ("INT_KEYS = {1: {'region': 'x'}}\n%mcp_call demo book city=X --answers INT_KEYS", "not 1 (int)"),
    ("await mcp_lab.call('demo', 'book', {'city': 'X'}, answers={2: {'region': 'x'}})", "not 2 (int)"),
    ("await mcp_lab.call('demo', 'book', {'city': 'X'}, answers={('k',): {}})", "not ('k',) (tuple)"),
    ('%mcp_call echo say {"text": "\\ud800"}', "lone surrogate"),
    ("await mcp_lab.call('echo', 'say', {'text': '\\ud800'})", "lone surrogate"),
    ("await mcp_lab.call('demo', 'book', {'city': 'X'}, answers={'ask_region': {'region': '\\udc00'}})",
     "lone surrogate"),
    # item 8: names are bounded
    (f"%%mcp_server {NAME_300}\npass", "server names are at most 64 characters"),
    (f"%%mcp_server {NAME_10K}\npass", "server names are at most 64 characters"),
    (f"%mcp_server url {NAME_300}", "no server named 'nnnnnnnn"),
    (f"%mcp_server stop {NAME_300}", "(300 characters)"),
    (f"%mcp_server stop {NAME_10K}", "(10000 characters)"),
    (f"%mcp_call {NAME_10K} say text=x", "(10000 characters)"),
    (f"%mcp_connect {NAME_300} http://127.0.0.1:1/mcp", "server names are at most 64 characters"),
    (f"from mcp.server.mcpserver import MCPServer\nmcp_lab.adopt(MCPServer({NAME_300!r}, log_level='WARNING'))", "at most 64 characters"),
    (f"mcp_lab.adopt(MCPServer('ok', log_level='WARNING'), name={NAME_10K!r})", "at most 64 characters"),
]

FORMS = [
    # item 10, headless forms: a waiting form refuses bad input in one line and still takes a good answer
    (
        "run = %mcp_call demo book city=Quito\nimport asyncio\n"
        "for _ in range(200):\n    panel = mcp_lab.forms.current()\n    if panel is not None and any(f.open for f in panel):\n"
        "        break\n    await asyncio.sleep(0.05)\nprint(len(panel))",
        "1",
    ),
    ("panel.fill(region='\\ud800')", "lone surrogate"),
    ("panel['ask_region'].fill(region='ok\\udfff')", "lone surrogate"),
    ("panel.submit_all(5)", "submit_all takes a dict of form key"),
    ("panel.submit_all('text')", "submit_all takes a dict of form key"),
    ("panel[7]", "no form 7 in this round"),
    ("panel[None]", "pick a form by its index or name (a str), not NoneType"),
    ("panel['nope']", "no form 'nope' in this round"),
    ("panel[0].submit(5)", "values are a dict of field name -> value, not int"),
    ("panel[0].keep_draft([1])", "a draft is a dict of field name -> value, not list"),
    ("panel[0].fill(nosuch=1)", "has no field 'nosuch'"),
    ("panel.fill(region=10**5000)", "-bit integer; no field shows one that long"),
    ("mcp_lab.forms.prearrange(keyed=5)", "keyed= is a dict of form key"),
    ("mcp_lab.forms.prearrange(keyed={3: 'x'})", "keyed by form key or resolver name"),
    # as a browser's Submit would send pasted text: an inline error, nothing sent
    ("print(panel[0].submit({'region': '\\ud800'}), panel[0].errors, panel[0].open)",
     "False {'region': 'this holds a character no message can carry (a lone surrogate): retype it'} True"),
    ("print(panel.submit_all({'__main__:ask_region': {'region': 'x\\udfff'}}), panel[0].open)", "False True"),
    ("panel.fill(region='north')\nprint(panel.submit())\nprint((await run).text)", "True\nBooked Quito in north"),
]


def _one_line(cell: dict[str, Any], expect: str) -> None:
    streams = [o for o in cell.get("outputs", []) if o["output_type"] == "stream" and o["name"] == "stderr"]
    errors = errors_of(cell)
    source = cell["source"][:120]
    if not errors and len(streams) == 1 and streams[0]["text"].startswith("UsageError: "):
        line = streams[0]["text"].strip()  # IPython prints a UsageError from argument parsing as one line
        assert "\n" not in line and expect in line, (source, line)
        return
    assert len(errors) == 1, (source, text_of(cell))
    error = errors[0]
    assert error["ename"] in ("LabError", "UsageError", "FlowError"), (source, error["ename"], error["evalue"][:300])
    assert expect in error["evalue"], (source, error["evalue"][:300])
    assert len(error["traceback"]) == 1 and "\n" not in error["evalue"].strip(), (source, error["traceback"][:3])
    assert len(error["evalue"]) < 400, (source, len(error["evalue"]))
    assert streams == [], (source, streams)


def _stdout(cell: dict[str, Any]) -> str:
    return "".join(o["text"] for o in cell.get("outputs", []) if o["output_type"] == "stream" and o["name"] == "stdout")


SETUP = [
    "%load_ext mcp_lab\nimport mcp_lab\nfrom mcp.server.mcpserver import MCPServer",
    SERVER_CELL,
    ECHO,
    "import socket\nwith socket.socket() as _s:\n    _s.bind(('127.0.0.1', 0))\n    PORT = _s.getsockname()[1]\n"
    "NAME = 'shop'\nmsg = 'hello world # not a comment'",
]

SERVING = [
    # item 6: `{PORT}` outside quotes expands; item 8: stop ends HTTP serving before the server goes
    "%mcp_server serve echo --port {PORT}   # the port chosen above",
    "%mcp_server url echo",
    "_url = mcp_lab.sandbox.get('echo').http.url\n%mcp_server stop echo\nimport asyncio, threading, socket\n"
    "for _ in range(100):\n    if not [t for t in threading.enumerate() if t.name.startswith('mcp_lab http echo:')]:\n"
    "        break\n    await asyncio.sleep(0.05)\n"
    "print([t.name for t in threading.enumerate() if t.name.startswith('mcp_lab http echo:')])\n"
    "print(socket.socket().connect_ex(('127.0.0.1', PORT)) != 0, 'echo' in mcp_lab.sandbox.servers)",
    ECHO,
]

WARNINGS = [
    # item 12: the SDK's "Tool already exists" and pydantic's serializer warnings never print into a cell
    ECHO.replace("def pair", "def say2") + "\n@mcp.tool()\ndef say(text: str) -> str:\n    return 'second'\n",
    "@mcp.tool()\ndef say(text: str) -> str:\n    return 'third'\n",
    "%%mcp_server sloppy\nimport mcp.types as T\n@mcp.tool()\ndef loose() -> T.CallToolResult:\n"
    "    return T.CallToolResult.model_construct(content=[{'type': 'text', 'text': 'hi'}])\n",
    "f = await %mcp_call sloppy loose\nprint(f.text)",
    "print(mcp_lab.server_log('sloppy').text.splitlines()[-1])",
    "print(sum('already exists' in line for line in mcp_lab.server_log('echo').text.splitlines()))",
]


@pytest.fixture(scope="module")
def executed() -> list[dict[str, Any]]:
    cells = [*SETUP]
    for source, _ in GOOD:
        cells.append(source)
    for source, _ in BAD:
        cells += [source, HEALTH]
    cells += SERVING
    for source, _ in FORMS:
        cells += [source, HEALTH]
    cells += WARNINGS
    cells.append("print(len(mcp_lab.flows), sorted({f.status for f in mcp_lab.flows}))")
    return run_cells(*cells, timeout=180)


def test_setup(executed: list[dict[str, Any]]) -> None:
    for cell in executed[: len(SETUP)]:
        assert errors_of(cell) == [], text_of(cell)


@pytest.mark.parametrize("index", range(len(GOOD)))
def test_values_reach_the_server_as_typed(executed: list[dict[str, Any]], index: int) -> None:
    cell = executed[len(SETUP) + index]
    assert errors_of(cell) == [], text_of(cell)[:500]
    out = [line for line in _stdout(cell).splitlines() if not line.startswith("TIMING")]
    assert "\n".join(out) == GOOD[index][1]
    assert not [o for o in cell["outputs"] if o["output_type"] == "stream" and o["name"] == "stderr"]


BAD_AT = len(SETUP) + len(GOOD)


@pytest.mark.parametrize("index", range(len(BAD)))
def test_bad_input_is_one_line_and_the_next_cell_runs(executed: list[dict[str, Any]], index: int) -> None:
    cell, health = executed[BAD_AT + 2 * index], executed[BAD_AT + 2 * index + 1]
    _one_line(cell, BAD[index][1])
    assert _stdout(health).strip() == "HEALTHY ok", text_of(health)


SERVING_AT = BAD_AT + 2 * len(BAD)


def test_stop_ends_http_serving_before_the_server_goes(executed: list[dict[str, Any]]) -> None:
    serve, url, stop, again = executed[SERVING_AT : SERVING_AT + 4]
    port = re.search(r"127\.0\.0\.1:(\d+)/mcp", _stdout(serve))
    assert port is not None, text_of(serve)
    assert f":{port[1]}/mcp" in _stdout(url)
    assert errors_of(stop) == [], text_of(stop)
    assert _stdout(stop).strip().splitlines()[-2:] == ["[]", "True False"]
    assert errors_of(again) == [], text_of(again)


FORMS_AT = SERVING_AT + len(SERVING)


@pytest.mark.parametrize("index", range(len(FORMS)))
def test_headless_forms_refuse_bad_input_in_one_line(executed: list[dict[str, Any]], index: int) -> None:
    cell, health = executed[FORMS_AT + 2 * index], executed[FORMS_AT + 2 * index + 1]
    expect = FORMS[index][1]
    if expect[:1].isdigit() or expect.startswith(("True", "False")):  # a cell that works: its output is compared
        assert errors_of(cell) == [], text_of(cell)
        assert _stdout(cell).strip() == expect
    else:
        _one_line(cell, expect)
    assert _stdout(health).strip() == "HEALTHY ok", text_of(health)


WARNINGS_AT = FORMS_AT + 2 * len(FORMS)


def test_sdk_warnings_stay_out_of_cells(executed: list[dict[str, Any]]) -> None:
    twice, again, sloppy, call, log, count = executed[WARNINGS_AT : WARNINGS_AT + 6]
    for cell in (twice, again, sloppy, call, log, count):
        assert errors_of(cell) == [], text_of(cell)
        assert not [o for o in cell["outputs"] if o["output_type"] == "stream" and o["name"] == "stderr"], text_of(cell)
    # Defined twice in one cell: one short line says the SDK kept the first; re-running a tool cell says nothing.
    assert _stdout(twice).strip() == (
        "note: 'echo' already has a tool 'say'; the SDK keeps the first definition (give each its own name)"
    )
    assert _stdout(again) == ""
    assert _stdout(call).strip() == "hi"
    assert _stdout(log).startswith("WARNING pydantic: Pydantic serializer warnings:")
    assert _stdout(count).strip() == "2"


def test_nothing_recorded_was_lost(executed: list[dict[str, Any]]) -> None:
    last = executed[-1]
    assert errors_of(last) == [], text_of(last)
    count = int(_stdout(last).split()[0])
    # Every good call, every health check and every flow the forms and warnings cells ran is still there.
    assert count >= len(GOOD) + len(BAD) + len(FORMS) + 2
