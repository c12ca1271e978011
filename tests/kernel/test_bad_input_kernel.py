"""Bad input to the magics and the Python API, in ONE real ipykernel: every case is one clear line, and the
kernel (and its servers) keep working afterwards -- checked by a real flow after every single case.

Each case is a cell a person could type. Its error must be a single output of the lab's own error type
(`LabError` / `FlowError`, or IPython's `UsageError` for argument syntax), whose traceback is one line, and
the cell must print nothing to stderr (no SDK traceback leaking from a server the kernel runs). The cell after
it makes a real two-leg call and must print `HEALTHY done`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from tests.kernel.harness import errors_of, run_cells, text_of
from tests.kernel.test_magics_kernel import SERVER_CELL


@dataclass(frozen=True)
class Bad:
    surface: str  # "magic" or "api"
    source: str
    expect: str
    """A piece of the one-line error."""


SETUP = [
    "%load_ext mcp_lab",
    SERVER_CELL
    + """
import json
import mcp.types as T
from mcp.server.mcpserver import Context

PICK = T.ElicitRequest(params=T.ElicitRequestFormParams(message="pick", requested_schema={
    "type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}))

@mcp.tool()
async def handmade(x: int, ctx: Context) -> str | T.InputRequiredResult:
    if ctx.input_responses is None:
        return T.InputRequiredResult(input_requests={"q1": PICK}, request_state=json.dumps({"x": x}))
    return f"x={x} n={ctx.input_responses['q1'].content['n']}"

@mcp.tool()
def add(a: int, b: int) -> int:
    return a + b

@mcp.tool()
def boom() -> str:
    raise ValueError("kaboom")

@mcp.prompt()
def greet(name: str) -> str:
    return f"Hello {name}"

@mcp.resource("doc://{docid}")
def doc(docid: str) -> str:
    return f"doc {docid}"
""",
    """%%mcp_server nolist --lowlevel
import mcp.types as T

async def on_call_tool(ctx, params):
    return T.CallToolResult(content=[T.TextContent(type="text", text="listed nowhere")])
""",
    "import json, mcp_lab\nnotdict = 5\ndone_flow = await mcp_lab.call('demo', 'add', {'a': 1, 'b': 2})\n"
    "print(done_flow.status)",
]

HEALTH = (
    "_health = await mcp_lab.call('demo', 'handmade', {'x': 1}, answers={'q1': {'n': 1}})\n"
    "print('HEALTHY', _health.status)"
)


def _saved(**changes: object) -> str:
    """`await mcp_lab.resume('<a saved flow with these fields changed>')`."""
    data: dict[str, object] = {"server": "demo", "method": "tools/call", "target": "handmade", "arguments": {"x": 1}}
    data.update(changes)
    return f"await mcp_lab.resume({json.dumps(json.dumps(data))})"


def _round(**fields: object) -> dict[str, object]:
    return {"index": 0, "outcome": "input_required", **fields}


MAGIC = [
    # %%mcp_server: defining a server
    Bad("magic", "%%mcp_server t --ttl nan\npass", "--ttl must be a positive number of seconds"),
    Bad("magic", "%%mcp_server t --ttl inf\npass", "--ttl must be a positive number of seconds"),
    Bad("magic", "%%mcp_server t --ttl -1\npass", "--ttl must be a positive number of seconds"),
    Bad("magic", "%%mcp_server t --ttl 0\npass", "--ttl must be a positive number of seconds"),
    Bad("magic", "%%mcp_server t --ttl abc\npass", "invalid float value: 'abc'"),
    Bad("magic", "%%mcp_server t --keys nosuchvar\npass", "--keys 'nosuchvar' could not be evaluated"),
    Bad("magic", "%%mcp_server t --keys b'short'\npass", "--keys: give a list of keys, not one bytes object"),
    Bad("magic", "%%mcp_server t --keys 42\npass", "--keys: keys must be a list of byte strings, not int"),
    Bad("magic", "%%mcp_server t extra\npass", "unexpected argument 'extra'"),
    Bad("magic", "%%mcp_server a/b\npass", "server names are letters, digits"),
    Bad("magic", "%%mcp_server t\nraise ValueError('oops')", "the cell raised ValueError: oops"),
    Bad("magic", "%%mcp_server t\ndef (:", "the cell raised SyntaxError"),
    Bad("magic", "%%mcp_server t\nundefined_name + 1", "the cell raised NameError"),
    Bad("magic", "%%mcp_server t --seal\npass", "--seal is for --lowlevel servers"),
    Bad("magic", "%%mcp_server t --http --port 70000\npass", "invalid port 70000"),
    Bad("magic", "%%mcp_server t --http --port abc\npass", "invalid port 'abc'"),
    Bad("magic", "%%mcp_server t --http --port -5\npass", "invalid port -5"),
    Bad("magic", "%%mcp_server t --no-auth\npass", "--no-auth and --allow-origin are for serving"),
    Bad("magic", "%%mcp_server t --allow-origin http://localhost:3000\npass", "are for serving"),
    Bad("magic", "%%mcp_server t --http --allow-origin notanorigin\npass", "'notanorigin' is not an origin"),
    Bad("magic", "%%mcp_server t --http --allow-origin http://x.org/path\npass", "is not an origin"),
    Bad("magic", "%%mcp_server t --http --allow-origin ftp://x.org\npass", "is not an origin"),
    Bad("magic", "%%mcp_server t --http --allow-origin http://x.org:99999\npass", "is not an origin"),
    Bad("magic", "%%mcp_server t --frob\npass", "unrecognized arguments: --frob"),
    Bad(
        "magic",
        "%%mcp_server t\nfrom typing import Annotated\nfrom mcp.server.mcpserver import Resolve, Elicit\n"
        "from pydantic import BaseModel\nclass A(BaseModel):\n    a: str\n"
        "async def q() -> Elicit[A]:\n    return Elicit('?', A)\n"
        "@mcp.tool()\nasync def t1(v: Annotated[A, Resolve(q)] | None = None) -> str:\n    return ''",
        "the cell raised InvalidSignature",
    ),
    Bad(
        "magic",
        "%%mcp_server t\nfrom typing import Annotated\nimport mcp_lab\n"
        "@mcp.tool()\ndef f(x: Annotated[float, mcp_lab.header('X')]) -> str:\n    return ''",
        "x-mcp-header is only permitted on integer/string/boolean properties",
    ),
    Bad("magic", "%%mcp_server t --lowlevel\nimport nosuchmodule_xyz", "the cell raised ModuleNotFoundError"),
    # %mcp_server: managing servers
    Bad("magic", "%mcp_server frobnicate", "expected list, serve NAME, url NAME, log NAME, stop NAME or restart NAME"),
    Bad("magic", "%mcp_server log", "usage: %mcp_server log NAME"),
    Bad("magic", "%mcp_server log nope", "no server named 'nope'"),
    Bad(
        "magic", "%mcp_server x --from nosuchmodule_xyz:mcp", "importing 'nosuchmodule_xyz' raised ModuleNotFoundError"
    ),
    Bad("magic", "%mcp_server x --from justamodule", "--from takes module:attribute"),
    Bad("magic", "%mcp_server x --from json:dumps", "json:dumps is neither a server nor a zero-argument factory"),
    Bad("magic", "%mcp_server x --from json:decoder", "that is a module, not an MCPServer or a lowlevel Server"),
    Bad("magic", "%mcp_server x --lab-keys", "--lab-keys goes with --from MODULE:ATTRIBUTE"),
    Bad("magic", "%%mcp_server x --from json:dumps\nprint(1)", "a line magic: it takes no cell body"),
    Bad("magic", "%mcp_describe", "usage: %mcp_describe NAME"),
    Bad("magic", "%mcp_describe nope", "no server named 'nope'"),
    Bad("magic", "%mcp_server stop", "usage: %mcp_server stop NAME"),
    Bad("magic", "%mcp_server stop nope", "no server named 'nope'"),
    Bad("magic", "%mcp_server stop a b", "unrecognized arguments: b"),
    Bad("magic", "%mcp_server restart", "usage: %mcp_server restart NAME"),
    Bad("magic", "%mcp_server restart nope", "no server named 'nope'"),
    Bad("magic", "%mcp_server serve", "usage: %mcp_server serve NAME"),
    Bad("magic", "%mcp_server serve nope", "no server named 'nope'"),
    Bad("magic", "%mcp_server serve demo --port abc", "invalid port 'abc'"),
    Bad("magic", "%mcp_server serve demo --port 65536", "invalid port 65536"),
    Bad("magic", "%mcp_server serve demo --allow-origin x", "'x' is not an origin"),
    Bad("magic", "%mcp_server url", "usage: %mcp_server url NAME"),
    Bad("magic", "%mcp_server url nope", "no server named 'nope'"),
    Bad("magic", "%mcp_server url demo", "'demo' is not served over HTTP"),
    Bad("magic", "%mcp_server", "the following arguments are required: name"),
    # %mcp_call
    Bad("magic", "%mcp_call", "usage: NAME TOOL"),
    Bad("magic", "%mcp_call demo", "usage: NAME TOOL"),
    Bad("magic", "%mcp_call nope add", "no server named 'nope'"),
    Bad("magic", "%mcp_call demo add {not json", "arguments are not valid JSON"),
    Bad("magic", '%mcp_call demo add {"a": 1,', "arguments are not valid JSON: it ends before it is closed"),
    Bad("magic", '%mcp_call demo add {"a": 1}x', "unexpected 'x' right after the JSON"),
    Bad("magic", '%mcp_call demo add {"a": 1} {"b": 2}', "arguments are not valid JSON"),
    Bad("magic", "%mcp_call demo add [1, 2]", "expected key=value or a JSON object, got '[1, 2]'"),
    Bad("magic", '%mcp_call demo add ["a"]', "JSON arguments are one object"),
    Bad("magic", "%mcp_call demo add a=1 b", "expected key=value or a JSON object, got 'b'"),
    Bad("magic", "%mcp_call demo add =1", "expected key=value or a JSON object, got '=1'"),
    Bad("magic", "%mcp_call demo add a={oops}", "could not expand {oops}: NameError"),
    Bad("magic", "%mcp_call demo add a=1 b=2 --timeout", "--timeout needs a value"),
    Bad("magic", "%mcp_call demo add a=1 b=2 --timeout abc", "--timeout takes a number of seconds, not 'abc'"),
    Bad("magic", "%mcp_call demo add a=1 b=2 --timeout 0", "--timeout must be a positive number of seconds"),
    Bad("magic", "%mcp_call demo add a=1 b=2 --timeout -1", "--timeout must be a positive number of seconds"),
    Bad("magic", "%mcp_call demo add a=1 b=2 --timeout nan", "--timeout must be a positive number of seconds"),
    Bad("magic", "%mcp_call demo add a=1 b=2 --timeout=inf", "--timeout must be a positive number of seconds"),
    Bad("magic", "%mcp_call demo add a=1 b=2 --timeout=5 --timeout", "--timeout needs a value"),
    Bad("magic", "%mcp_call demo add a=1 b=2 --max-rounds -1", "--max-rounds must be a whole number >= 0"),
    Bad("magic", "%mcp_call demo add a=1 b=2 --max-rounds x", "--max-rounds takes a whole number, not 'x'"),
    Bad("magic", "%mcp_call demo add a=1 b=2 --max-rounds 1.5", "--max-rounds takes a whole number"),
    Bad("magic", "%mcp_call demo add a=1 b=2 --max-rounds", "--max-rounds needs a value"),
    Bad("magic", "%mcp_call demo add a=1 b=2 --answers", "--answers needs a JSON object or a variable name"),
    Bad("magic", "%mcp_call demo add --answers my_answers_typo", "no variable named 'my_answers_typo'"),
    Bad("magic", "%mcp_call demo add --answers=my_answers_typo", "no variable named 'my_answers_typo'"),
    Bad("magic", "%mcp_call demo add --answers [1]", "--answers must be a JSON object"),
    Bad("magic", "%mcp_call demo add --answers 42", "--answers must be a JSON object"),
    Bad("magic", "%mcp_call demo add --answers {bad", "--answers is not valid JSON"),
    Bad("magic", "%mcp_call demo add --answers notdict", "--answers notdict: expected a dict"),
    Bad("magic", "%mcp_call demo add a=1 b=2 --frob", "unknown option '--frob'"),
    Bad("magic", "%mcp_call demo add a=1 b=2 --timout 5", "unknown option '--timout'"),
    Bad("magic", "%mcp_call demo add a=1 b=2 --step=yes", "--step takes no value"),
    Bad("magic", '%mcp_call demo add a=1 b="unterminated', "could not parse the line: No closing quotation"),
    Bad("magic", "f = await %mcp_call demo boom\nf.raise_for_status()", "server logged: ValueError: kaboom"),
    Bad("magic", "f = await %mcp_call demo add a=x b=2\nf.raise_for_status()", "isError"),
    # %mcp_prompt, %mcp_read
    Bad("magic", "%mcp_prompt", "usage: NAME PROMPT"),
    Bad("magic", "%mcp_prompt nope greet", "no server named 'nope'"),
    Bad("magic", "f = await %mcp_prompt demo nosuch\nf.raise_for_status()", "Unknown prompt: nosuch"),
    Bad("magic", "f = await %mcp_prompt demo greet\nf.raise_for_status()", "Missing required arguments"),
    Bad("magic", "%mcp_prompt demo greet {bad", "arguments are not valid JSON"),
    Bad("magic", "%mcp_prompt demo greet name=x --timeout 0", "--timeout must be a positive number"),
    Bad("magic", "%mcp_read", "usage: NAME URI"),
    Bad("magic", "%mcp_read demo", "usage: NAME URI"),
    Bad("magic", "%mcp_read demo doc://1 extra", "unexpected arguments: extra"),
    Bad("magic", "%mcp_read nope doc://1", "no server named 'nope'"),
    Bad("magic", "f = await %mcp_read demo nosuch://x\nf.raise_for_status()", "nosuch://x"),
    Bad("magic", "%mcp_read demo doc://1 --max-rounds -2", "--max-rounds must be a whole number >= 0"),
    # %mcp_connect, %mcp_disconnect
    Bad("magic", "%mcp_connect", "the following arguments are required: name"),
    Bad("magic", "%mcp_connect x", "usage:"),
    Bad("magic", "%mcp_connect x notaurl", "not an http(s) URL: 'notaurl'"),
    Bad("magic", '%mcp_connect x http://127.0.0.1:1/mcp --stdio "python"', "usage:"),
    Bad("magic", '%mcp_connect x --stdio "python" --header "A: b"', "headers are for Streamable HTTP connections"),
    Bad("magic", "%mcp_connect x http://127.0.0.1:1/mcp --header nocolon", '--header takes "Name: value"'),
    Bad("magic", '%mcp_connect x http://127.0.0.1:1/mcp --header "bad name: v"', '--header takes "Name: value"'),
    Bad("magic", '%mcp_connect x http://127.0.0.1:1/mcp --header "Bearer s3cr3t"', '--header takes "Name: value"'),
    Bad("magic", "%mcp_connect x http://127.0.0.1:1/mcp --env A=b", "--env is for --stdio servers"),
    Bad("magic", '%mcp_connect x --stdio "python" --env noequals', "--env takes KEY=VALUE, not 'noequals'"),
    Bad("magic", "%mcp_connect x http://127.0.0.1:1/mcp --timeout 0", "timeout must be a positive number"),
    Bad("magic", "%mcp_connect x http://127.0.0.1:1/mcp --timeout nan", "timeout must be a positive number"),
    Bad("magic", "%mcp_connect demo http://127.0.0.1:1/mcp", "a server named 'demo' already exists"),
    Bad("magic", "await %mcp_connect gone http://127.0.0.1:1/mcp --timeout 5", "cannot connect 'gone'"),
    Bad("magic", "%mcp_connect log nope", "no stdio connection named 'nope'"),
    Bad("magic", "%mcp_disconnect", "usage: %mcp_disconnect NAME"),
    Bad("magic", "%mcp_disconnect nope", "no server named 'nope'"),
    Bad("magic", "%mcp_disconnect demo", "is a server the lab started, not a connection"),
    Bad("magic", "%mcp_disconnect a b", "usage: %mcp_disconnect NAME"),
]

API = [
    Bad("api", "await mcp_lab.call(42, 'add')", "server must be a server's name (str) or a connection, not int"),
    Bad("api", "await mcp_lab.call(None, 'add')", "server must be a server's name"),
    Bad("api", "await mcp_lab.call('nope', 'add')", "no server named 'nope'"),
    Bad("api", "await mcp_lab.call('demo', 42)", "must be a non-empty str, not 42"),
    Bad("api", "await mcp_lab.call('demo', '')", "must be a non-empty str"),
    Bad("api", "await mcp_lab.call('demo', 'add', [1, 2])", "arguments must be a dict, not list"),
    Bad("api", "await mcp_lab.call('demo', 'add', 'a=1')", "arguments must be a dict, not str"),
    Bad("api", "await mcp_lab.call('demo', 'add', {'a': 1, 'b': 2}, answers=[1])", "answers must be a dict"),
    Bad("api", "await mcp_lab.call('demo', 'add', {'a': 1, 'b': 2}, answers='x')", "answers must be a dict"),
    Bad("api", "await mcp_lab.call('demo', 'add', {'a': 1, 'b': 2}, max_rounds='x')", "max_rounds must be a whole"),
    Bad("api", "await mcp_lab.call('demo', 'add', {'a': 1, 'b': 2}, max_rounds=-1)", "max_rounds must be a whole"),
    Bad("api", "await mcp_lab.call('demo', 'add', {'a': 1, 'b': 2}, max_rounds=1.5)", "max_rounds must be a whole"),
    Bad("api", "await mcp_lab.call('demo', 'add', {'a': 1, 'b': 2}, max_rounds=True)", "max_rounds must be a whole"),
    Bad("api", "await mcp_lab.call('demo', 'add', {'a': 1, 'b': 2}, timeout='x')", "timeout must be a number of"),
    Bad("api", "await mcp_lab.call('demo', 'add', {'a': 1, 'b': 2}, timeout=0)", "timeout must be a positive"),
    Bad("api", "await mcp_lab.call('demo', 'add', {'a': 1, 'b': 2}, timeout=-1)", "timeout must be a positive"),
    Bad("api", "await mcp_lab.call('demo', 'add', {'a': 1, 'b': 2}, timeout=float('nan'))", "must be a positive"),
    Bad("api", "await mcp_lab.call('demo', 'add', {'a': 1, 'b': 2}, timeout=float('inf'))", "must be a positive"),
    Bad("api", "await mcp_lab.call('demo', 'add', {'a': 1, 'b': 2}, timeout=True)", "timeout must be a number of"),
    Bad("api", "(await mcp_lab.call('demo', 'boom')).raise_for_status()", "Error executing tool boom"),
    Bad("api", "(await mcp_lab.call('nolist', 'anything')).raise_for_status()", "-32601 Method not found"),
    Bad("api", "(await mcp_lab.get_prompt('demo', 'nosuch')).raise_for_status()", "Unknown prompt: nosuch"),
    Bad("api", "(await mcp_lab.get_prompt('demo', 'greet')).raise_for_status()", "Missing required arguments"),
    Bad("api", "await mcp_lab.get_prompt('demo', 'greet', 5)", "arguments must be a dict, not int"),
    Bad("api", "await mcp_lab.get_prompt('demo', 'greet', timeout=-5)", "timeout must be a positive"),
    Bad("api", "await mcp_lab.read_resource('demo', 5)", "must be a non-empty str, not 5"),
    Bad("api", "(await mcp_lab.read_resource('demo', 'nosuch://x')).raise_for_status()", "nosuch://x"),
    Bad("api", "await mcp_lab.read_resource('demo', 'doc://1', max_rounds=None)", "max_rounds must be a whole"),
    Bad("api", "await mcp_lab.start('demo', 'tools/frob', 'add')", "method must be one of"),
    Bad("api", "await mcp_lab.resume(12)", "resume takes a Flow, flow.to_dict() or the text of flow.to_json()"),
    Bad("api", "await mcp_lab.resume(None)", "resume takes a Flow"),
    Bad("api", "await mcp_lab.resume('not json')", "not a saved flow (invalid JSON"),
    Bad("api", "await mcp_lab.resume('[1]')", "not a saved flow"),
    Bad("api", _saved(method=None), "flow: 'method' must be str, not null"),
    Bad("api", 'await mcp_lab.resume(\'{"server": "demo"}\')', "not a saved flow: expected a JSON object with"),
    Bad("api", _saved(rounds="abc"), "flow: 'rounds' must be a list, not str"),
    Bad("api", _saved(rounds=[5]), "round 0 must be an object, not int"),
    Bad("api", _saved(rounds=[_round(outcome="frob")]), "round 0: outcome must be one of"),
    Bad("api", _saved(rounds=[_round(input_requests={"q": 5})]), "round 0: its input requests are malformed"),
    Bad("api", _saved(rounds=[_round(input_requests={"q": {"method": "x"}})]), "its input requests are malformed"),
    Bad("api", _saved(rounds=[_round(input_requests=[1])]), "round 0: 'input_requests' must be dict or null"),
    Bad("api", _saved(rounds=[_round(request_state=7)]), "round 0: 'request_state' must be str or null, not int"),
    Bad("api", _saved(rounds=[_round(sent_input_responses={"q": 1})]), "the answer sent for 'q' must be an object"),
    Bad("api", _saved(rounds=[_round(index="0")]), "round 0: 'index' must be int, not str"),
    Bad("api", _saved(status="frob"), "flow: status must be one of"),
    Bad("api", _saved(max_rounds="x"), "flow: 'max_rounds' must be int, not str"),
    Bad("api", _saved(max_rounds=-3), "flow: max_rounds must be >= 0"),
    Bad("api", _saved(era="1999-01-01"), "flow: era must be"),
    Bad("api", _saved(arguments=[]), "flow: 'arguments' must be dict, not list"),
    Bad("api", _saved(start_over="yes"), "flow: 'start_over' must be bool, not str"),
    Bad("api", "await mcp_lab.resume(done_flow)", "already ended (done); nothing to resume"),
    Bad("api", "await mcp_lab.resume(done_flow.to_json(), timeout='x')", "timeout must be a number of"),
    Bad("api", "await done_flow.step()", "has already ended (done); start a new call"),
    Bad("api", "mcp_lab.Flow.from_json('{')", "not a saved flow (invalid JSON"),
    Bad("api", "mcp_lab.inspect_token('v1.abc', now='yesterday')", "now= must be epoch seconds"),
    Bad("api", "mcp_lab.inspect_token('v1.abc', now=float('nan'))", "now= must be epoch seconds"),
    Bad("api", "mcp_lab.inspect_token('v1.abc', server='nope')", "no server named 'nope'"),
    Bad("api", "mcp_lab.serve('nope')", "no server named 'nope'"),
    Bad("api", "mcp_lab.serve(42)", "serve takes a server's name (str), not int"),
    Bad("api", "mcp_lab.serve('demo', port='abc')", "invalid port 'abc'"),
    Bad("api", "mcp_lab.serve('demo', port=70000)", "invalid port 70000"),
    Bad("api", "mcp_lab.serve('demo', allow_origins=['nope'])", "'nope' is not an origin"),
    Bad("api", "mcp_lab.serve('demo', allow_origins=[None])", "an allowed origin is text"),
    Bad("api", "mcp_lab.serve('demo', auth='yes')", "auth must be True or False"),
    Bad("api", "mcp_lab.auth_headers('demo')", "'demo' is not served over HTTP"),
    Bad("api", "mcp_lab.client_transport('nope')", "no server named 'nope'"),
    Bad("api", "mcp_lab.save_flows('/nonexistent-dir/x.json', [done_flow])", "cannot write"),
    Bad("api", "mcp_lab.save_flows('x.json', [1])", "save_flows takes flows, not int"),
    Bad("api", "mcp_lab.load_flows('/nonexistent.json')", "no such collection"),
    Bad("api", "mcp_lab.set_principal(5)", "a principal is a non-empty user name"),
    Bad("api", "mcp_lab.KeyRing([b'short'])", "keys[0] is 5 bytes; each key must be 32 to 1024 bytes"),
    Bad("api", "await mcp_lab.connect('x', 'ftp://nope')", "not an http(s) URL"),
    Bad("api", "await mcp_lab.connect('x', 'http://127.0.0.1:1/mcp', timeout=0)", "timeout must be a positive"),
    Bad("api", "await mcp_lab.connect('gone2', 'http://127.0.0.1:1/mcp', timeout=5)", "cannot connect 'gone2'"),
    Bad("api", "await mcp_lab.header_table(42)", "header_table() takes a server name"),
    Bad("api", "await mcp_lab.mismatch_lab('nope')", "no server named 'nope'"),
    Bad("api", "mcp_lab.Fleet('f', instances=0)", "a fleet has between 1 and 16 instances"),
]

CASES = MAGIC + API


def test_the_table_is_big_enough() -> None:
    assert len(MAGIC) >= 90 and len(API) >= 70
    assert len({c.source for c in CASES}) == len(CASES), "every case is different"


@pytest.fixture(scope="module")
def executed() -> list[dict[str, object]]:
    cells = [*SETUP]
    for case in CASES:
        cells += [case.source, HEALTH]
    return run_cells(*cells, timeout=60)


def test_setup_works(executed: list[dict[str, object]]) -> None:
    for cell in executed[: len(SETUP)]:
        assert errors_of(cell) == [], text_of(cell)
    assert _stdout(executed[len(SETUP) - 1]) == "done"


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{c.surface}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_one_line_and_the_kernel_keeps_working(executed: list[dict[str, object]], index: int) -> None:
    case = CASES[index]
    cell, health = executed[len(SETUP) + 2 * index], executed[len(SETUP) + 2 * index + 1]
    streams = [o for o in cell.get("outputs", []) if o["output_type"] == "stream" and o["name"] == "stderr"]
    errors = errors_of(cell)
    if not errors and len(streams) == 1 and streams[0]["text"].startswith("UsageError: "):
        # IPython prints a UsageError raised by argument parsing as one stderr line instead of an error output.
        line = streams[0]["text"].strip()
        assert "\n" not in line and case.expect in line, (case.source, line)
    else:
        assert len(errors) == 1, (case.source, text_of(cell))
        error = errors[0]
        assert error["ename"] in ("LabError", "UsageError", "FlowError", "ConnectionFailed"), (case.source, error)
        assert case.expect in error["evalue"], (case.source, error["evalue"])
        assert len(error["traceback"]) == 1 and "\n" not in error["evalue"].strip(), (case.source, error["traceback"])
        assert streams == [], (case.source, streams)
    if "s3cr3t" in case.source:  # a header line without its name may be all secret: never echoed
        assert "s3cr3t" not in str(text_of(cell)), (case.source, text_of(cell))
    assert _stdout(health) == "HEALTHY done", (case.source, text_of(health))


def _stdout(cell: dict[str, object]) -> str:
    outputs: list[dict[str, str]] = cell.get("outputs", [])  # type: ignore[assignment]
    return "".join(o["text"] for o in outputs if o["output_type"] == "stream" and o["name"] == "stdout").strip()
