"""Hostile input to the Python API and the key-ring doors, in ONE real ipykernel (issue 22, items 2, 3, 10, 12).

Each bad case is a cell a person could type: its error must be a single output of the lab's own type whose
traceback is one line (nothing on stderr). The cell after it makes a real two-leg call and checks that no
flow recorded so far was lost (`mcp_lab.flows` keeps every earlier flow, and grows by the new one). Then the
good paths the fixes touched run in the same kernel: a replay of a 6,000-character argument (same and
changed, rendered), a NaN argument saved as the null the server received, a save that cannot grow its file
(RLIMIT_FSIZE, as on a full disk) leaving the old collection loadable, and no bad ring ever registered.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.kernel.harness import errors_of, run_cells, text_of
from tests.kernel.test_bad_input_kernel import SETUP as BAD_INPUT_SETUP
from tests.kernel.test_bad_input_kernel import Bad

SETUP = [
    *BAD_INPUT_SETUP,
    """%%mcp_server echo
import json as _json

@mcp.tool()
def echo(text: str) -> str:
    return text

@mcp.tool()
def seen(x: object = None) -> str:
    return _json.dumps(x)
""",
    """import os, tempfile, mcp.server.mcpserver as _sdk
from mcp_lab.audit.runner import CHECKS
from mcp_lab.protocol.keys import KeyRing
workdir = tempfile.mkdtemp()
all_checks = ",".join(CHECKS)
weak_bytes = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
dup_keys = [b"k" * 32, b"k" * 32]
zero_keys = [bytes(32)]
one_key = b"k" * 40
good_keys = [b"g" * 32]
fifo = os.path.join(workdir, "collection.fifo")
os.mkfifo(fifo)
fleet1 = mcp_lab.Fleet("fleet1", instances=2)
stepper1 = mcp_lab.RotationStepper(fleet1)
own_server = _sdk.MCPServer("own")
kept = list(mcp_lab.flows)
seen_count = len(mcp_lab.flows)
print("READY", len(kept))""",
]

HEALTH = (
    "_health = await mcp_lab.call('demo', 'handmade', {'x': 1}, answers={'q1': {'n': 1}})\n"
    "_ids = {id(f) for f in mcp_lab.flows}\n"
    "print('HEALTHY', _health.status, all(id(f) in _ids for f in kept), len(mcp_lab.flows) > seen_count)\n"
    "kept.append(_health); seen_count = len(mcp_lab.flows)"
)

URL = "'http://127.0.0.1:1/mcp'"

KEYRINGS = [
    Bad("api", "mcp_lab.KeyRing(weak_bytes)", "give a list of keys, not one bytes object"),
    Bad("api", "mcp_lab.KeyRing(None)", "no keys given (None)"),
    Bad("api", "mcp_lab.KeyRing('a-text-key-that-is-long-enough-for-a-key')", "give a list of keys, not one str"),
    Bad("api", "mcp_lab.KeyRing(dup_keys)", "keys[1] repeats keys[0]: every key of a ring must be different"),
    Bad("api", "mcp_lab.KeyRing(zero_keys)", "keys[0] is all zeros"),
    Bad("api", "mcp_lab.KeyRing([b'k' * 32, b'short'])", "keys[1] is 5 bytes; each key must be 32 to 1024 bytes"),
    Bad("api", "mcp_lab.KeyRing([b'k' * 32, 5])", "keys[1] is int, not bytes"),
    Bad("api", "mcp_lab.KeyRing({b'k' * 32})", "not set (their order matters"),
    Bad("api", "mcp_lab.KeyRing([])", "a key ring needs at least one key"),
    Bad("api", "mcp_lab.KeyRing([os.urandom(32) for _ in range(65)])", "a key ring holds at most 64 keys"),
    Bad("api", "mcp_lab.KeyRing(good_keys, generated='yes')", "generated= is True or False"),
    Bad("api", "KeyRing(good_keys).rotated(b'g' * 32)", "the new key is already in the ring"),
    Bad("api", "mcp_lab.key_id(5)", "key_id() takes one key"),
    Bad("magic", "%%mcp_server weak1 --keys weak_bytes\npass", "--keys: give a list of keys, not one bytes object"),
    Bad("magic", "%%mcp_server weak2 --keys dup_keys\npass", "--keys: keys[1] repeats keys[0]"),
    Bad("magic", "%%mcp_server weak3 --keys zero_keys\npass", "--keys: keys[0] is all zeros"),
    Bad("magic", "%%mcp_server weak4 --keys None\npass", "--keys: no keys given (None)"),
    Bad("magic", "%%mcp_server weak5 --keys one_key\npass", "--keys: give a list of keys, not one bytes object"),
    Bad("magic", "%%mcp_server weak5 --keys \"'x' * 40\"\npass", "--keys: give a list of keys, not one str"),
    Bad(
        "magic",
        "%%mcp_server weak6 --lowlevel --seal --keys weak_bytes\nprint('BODY RAN')",
        "--keys: give a list of keys",
    ),
    Bad(
        "magic",
        "%mcp_server weak7 --from tests.sample_servers.booking:build --keys zero_keys",
        "--keys: keys[0] is all zeros",
    ),
    Bad("api", "mcp_lab.adopt(own_server, name='weak8', keys=dup_keys)", "keys[1] repeats keys[0]"),
    Bad("api", "mcp_lab.adopt(own_server, name='weak9', take_keys='yes')", "take_keys= is True or False"),
    Bad("api", "mcp_lab.sandbox.new_mcpserver('weak10', keys=b'k' * 40)", "give a list of keys, not one bytes"),
    Bad("api", "mcp_lab.sandbox.new_lowlevel('weak11', {}, keys=zero_keys)", "keys[0] is all zeros"),
    Bad("api", "mcp_lab.Fleet('weak12', instances=1, keys=weak_bytes)", "give a list of keys, not one bytes"),
    Bad("api", "fleet1.set_ring(0, zero_keys)", "keys[0] is all zeros"),
    Bad("api", "fleet1.set_ring(7, good_keys)", "instance 7 does not exist (0..1)"),
    Bad("api", "mcp_lab.RotationStepper(fleet1, old=b'k' * 32, new=b'k' * 32)", "old= and new= are the same key"),
    Bad("api", "mcp_lab.RotationStepper(fleet1, old=bytes(32))", "old= is all zeros"),
    Bad("api", "mcp_lab.RotationStepper(fleet1, new=[b'k' * 32])", "new= is one key (bytes), not a list"),
    Bad("api", "mcp_lab.RotationStepper(5)", "RotationStepper walks a fleet"),
    Bad("api", "mcp_lab.inspect_token('v1.abc', ring=b'k' * 32)", "give a list of keys, not one bytes object"),
    Bad("api", "mcp_lab.inspect_token('v1.abc', ring=dup_keys)", "keys[1] repeats keys[0]"),
    Bad("api", "mcp_lab.HMACSignOnlyCodec(5)", "HMACSignOnlyCodec needs one key"),
    Bad("api", "mcp_lab.HMACSignOnlyCodec(bytes(32))", "the key is all zero bytes"),
    Bad("api", "mcp_lab.EnvelopeCodec(None)", "EnvelopeCodec needs one key"),
    Bad("api", "mcp_lab.EnvelopeCodec(b'k' * 32, prefix=5)", "prefix= is a short word"),
]

API = [
    # item 10 as filed
    Bad("api", f"await mcp_lab.connect(5, {URL})", "a server name is text (str), not int"),
    Bad("api", "mcp_lab.serve('demo', allow_origins=5)", "allow_origins is an origin or a list of them"),
    Bad("api", "mcp_lab.save_flows(None, [done_flow])", "save_flows takes a file path (str or pathlib.Path), not None"),
    Bad("api", "mcp_lab.save_flows(os.path.join(workdir, 'x.json'), None)", "save_flows takes a list of flows"),
    Bad("api", "mcp_lab.save_flows('bad\\0name.json', [done_flow])", "contains a NUL byte"),
    Bad("api", "mcp_lab.load_flows(5)", "load_flows takes a file path (str or pathlib.Path), not 5"),
    Bad("api", "await mcp_lab.replay(None)", "replay takes a collection path or a list of flows, not None"),
    Bad("api", "await mcp_lab.replay([done_flow], server=42)", "server= is a server's name (str) or a connection"),
    Bad("api", "await mcp_lab.audit(42)", "audit takes a server's name (str) or a connection, not 42"),
    Bad("api", "mcp_lab.Fleet('f1', instances='x')", "instances= is a whole number of instances (1 to 16)"),
    Bad("api", "mcp_lab.Fleet('f1', instances=True)", "instances= is a whole number of instances"),
    # connect
    Bad("api", "await mcp_lab.connect(None, stdio='python')", "a server name is text (str), not NoneType"),
    Bad("api", "await mcp_lab.connect('c1', 5)", "the URL is text such as"),
    Bad("api", "await mcp_lab.connect('c1', stdio=5)", "stdio= is a command line"),
    Bad("api", "await mcp_lab.connect('c1', stdio=['python', 5])", "stdio= is a command line"),
    Bad("api", "await mcp_lab.connect('c1', stdio='python', env=5)", "env= maps names to values"),
    Bad("api", "await mcp_lab.connect('c1', stdio='python', env={'A': 1})", "env= maps names to values"),
    Bad("api", f"await mcp_lab.connect('c1', {URL}, headers=[1])", "headers= maps names to values"),
    Bad("api", f"await mcp_lab.connect('c1', {URL}, legacy='yes')", "legacy= is True or False"),
    Bad(
        "api",
        "await mcp_lab.connect('c1', stdio='python -c pass', cwd='/nonexistent/dir')",
        "the working directory '/nonexistent/dir' does not exist",
    ),
    Bad("api", "await mcp_lab.connect('c1', stdio='python', cwd=5)", "cwd= is a directory path"),
    Bad("magic", "await %mcp_connect c2 --stdio 'python -c pass' --cwd /nonexistent/dir", "does not exist"),
    # serve
    Bad("api", "mcp_lab.serve('demo', allow_origins=None)", "allow_origins is an origin or a list of them"),
    Bad("api", "mcp_lab.serve('demo', allow_origins={'http://x.org': 1})", "allow_origins is an origin or a list"),
    # save_flows / load_flows
    Bad("api", "mcp_lab.save_flows(5, [done_flow])", "save_flows takes a file path (str or pathlib.Path), not 5"),
    Bad("api", "mcp_lab.save_flows(b'x.json', [done_flow])", "takes a file path as text"),
    Bad("api", "mcp_lab.save_flows('', [done_flow])", "not an empty one"),
    Bad("api", "mcp_lab.save_flows(os.path.join(workdir, 'x.json'), 5)", "save_flows takes a list of flows"),
    Bad("api", "mcp_lab.save_flows(workdir, [done_flow])", "is a directory"),
    Bad("api", "mcp_lab.save_flows(fifo, [done_flow])", "is not a regular file (a FIFO)"),
    Bad("api", "mcp_lab.load_flows(None)", "load_flows takes a file path"),
    Bad("api", "mcp_lab.load_flows('bad\\0name.json')", "contains a NUL byte"),
    Bad("api", "mcp_lab.load_flows(fifo)", "is a FIFO, not a regular file"),
    Bad("api", "mcp_lab.load_flows(workdir)", "it is a directory"),
    Bad("api", "mcp_lab.load_flows('/dev/zero')", "is a device, not a regular file"),
    # replay
    Bad("api", "await mcp_lab.replay(5)", "replay takes a collection path or a list of flows, not 5"),
    Bad("api", "await mcp_lab.replay({'a': 1})", "replay takes a collection path or a list of flows"),
    Bad("api", "await mcp_lab.replay([1, 2])", "replay takes a collection path or a list of flows"),
    Bad("api", "await mcp_lab.replay(fifo)", "is a FIFO, not a regular file"),
    Bad("api", "await mcp_lab.replay('bad\\0name.json')", "contains a NUL byte"),
    Bad("api", "await mcp_lab.replay([done_flow], timeout='x')", "timeout must be a number of seconds"),
    Bad("api", "(await mcp_lab.replay([done_flow], server='')).entries[0].differences[0].message", "_"),
    # audit
    Bad("api", "await mcp_lab.audit(None)", "audit takes a server's name (str) or a connection, not None"),
    Bad("api", "await mcp_lab.audit('demo', skip=list(CHECKS))", "every check is left out"),
    Bad("api", "await mcp_lab.audit('demo', only='state-integrity', skip='state-integrity')", "every check is left"),
    Bad("magic", "await %mcp_audit demo --skip {all_checks}", "every check is left out"),
    Bad("api", "await mcp_lab.audit('demo', only=5)", "only= and skip= take check ids"),
    Bad("api", "await mcp_lab.audit('demo', flows={})", "flows= takes a collection path or a list of flows"),
    Bad("api", "await mcp_lab.audit('demo', flows=fifo)", "is a FIFO, not a regular file"),
    Bad("api", "await mcp_lab.audit('demo', max_wait=None)", "max_wait must be a positive number"),
    Bad("api", "await mcp_lab.audit('demo', timeout=float('nan'))", "timeout must be a positive number"),
    # Fleet and rotation
    Bad("api", "mcp_lab.Fleet('f1', instances=2.0)", "instances= is a whole number"),
    Bad("api", "mcp_lab.Fleet(5)", "a server name is text (str), not int"),
    Bad("api", "mcp_lab.Fleet('f1', instances=1, ttl=0)", "ttl must be a positive number of seconds"),
    Bad("api", "mcp_lab.Fleet('f1', instances=1, router='random')", "router= is 'round-robin' or 'pinned'"),
    Bad("api", "mcp_lab.Fleet('f1', instances=1, http='yes')", "http= is True or False"),
    Bad("api", "mcp_lab.Fleet('f1', 5, instances=1)", "define= is a function"),
    Bad("api", "fleet1.pin('0')", "instance '0' does not exist"),
    Bad("api", "stepper1.set_phase(7)", "phase is 0..3"),
    Bad("api", "await mcp_lab.run_rotation_load(5)", "run_rotation_load drives a RotationStepper"),
    Bad("api", "await mcp_lab.run_rotation_load(stepper1, [(9, None)])", "step 0 has phase 9"),
    Bad("api", "await mcp_lab.run_rotation_load(stepper1, 'right')", "schedule= is a list of (phase, instance)"),
    Bad("api", "await mcp_lab.run_rotation_load(stepper1, flows_per_step='x')", "flows_per_step is a whole number"),
    Bad("api", "mcp_lab.StepperWidget(5)", "StepperWidget shows a RotationStepper"),
    # the rest of the public API
    Bad("api", "await mcp_lab.call('demo', 'add', {'a': 1, 'b': 2}, legacy='no')", "legacy= is True or False"),
    Bad("api", "await mcp_lab.call('demo', 'add', {'a': object(), 'b': 2})", "the arguments cannot be sent as JSON"),
    Bad("api", "await mcp_lab.get_prompt('demo', 'greet', {'name': 'x'}, legacy=1)", "legacy= is True or False"),
    Bad("api", "mcp_lab.server_log([1])", "a server is named by text (str), not list"),
    Bad("api", "await mcp_lab.disconnect({})", "a server is named by text (str), not dict"),
    Bad("api", "mcp_lab.header_principal(5)", "header_principal takes an HTTP header name"),
    Bad("api", "mcp_lab.header('X', optional='yes')", "optional=) is True or False"),
    Bad("api", "await mcp_lab.list_first_lab(5)", "the header labs take a server's name"),
    Bad("api", "await mcp_lab.mismatch_lab(None)", "the header labs take a server's name"),
    Bad("api", "await mcp_lab.tamper_lab(done_flow, ttl='x')", "ttl is the scratch server's token lifetime"),
    Bad("api", "mcp_lab.use_codec(5, mcp_lab.HMACSignOnlyCodec(b'k' * 32))", "use_codec takes a server the lab"),
    Bad("api", "mcp_lab.use_codec('demo', mcp_lab.HMACSignOnlyCodec(b'k' * 32), ttl=-1)", "ttl must be a positive"),
    Bad("api", "mcp_lab.inspect_token('v1.abc', audience=5)", "audience= is the server name"),
    Bad("api", "mcp_lab.ChainAnswerer(5)", "ChainAnswerer takes a list of answerers"),
    Bad("api", "mcp_lab.CallbackAnswerer(elicitation_callback=5)", "elicitation_callback= is an async function"),
    Bad("api", "mcp_lab.adopt(5)", "adopt() takes an MCPServer, a lowlevel Server or a zero-argument factory, not int"),
]

CASES = KEYRINGS + API

GOOD = [
    # item 3: a 6,000-character recorded argument, replayed unchanged and against a changed server
    "long_flow = await mcp_lab.call('echo', 'echo', {'text': 'X' * 6000})\n"
    "long_path = mcp_lab.save_flows(os.path.join(workdir, 'long.json'), [long_flow])\n"
    "same = await mcp_lab.replay(long_path)\n"
    "bundle = same._repr_mimebundle_()\n"
    "print('SAME', same.ok, sorted(bundle)[0], max(len(line) for line in same.text().splitlines()) < 400)",
    """%%mcp_server echo
@mcp.tool()
def echo(text: str) -> str:
    return text.lower()
""",
    "changed = await mcp_lab.replay(long_path)\n"
    "record = changed.to_dict()\n"
    "diff = record['entries'][0]['differences'][0]\n"
    "changed._repr_mimebundle_()\n"
    "print('CHANGED', changed.ok, isinstance(record['entries'][0]['label'], str), isinstance(diff['message'], str),"
    " diff['recorded']['clipped'], diff['recorded']['length'])",
    # item 12: NaN and infinities are saved as the null the server received
    """%%mcp_server echo
import json as _json

@mcp.tool()
def seen(x: object = None) -> str:
    return _json.dumps(x)
""",
    "nan_flow = await mcp_lab.call('echo', 'seen', {'x': [float('nan'), float('inf'), 1.5]})\n"
    "nan_path = mcp_lab.save_flows(os.path.join(workdir, 'nan.json'), [nan_flow])\n"
    "strict = json.loads(open(nan_path).read(), parse_constant=lambda c: 'BAD ' + c)\n"
    "print('NAN', nan_flow.text.strip(), strict['flows'][0]['arguments'], mcp_lab.load_flows(nan_path)[0].arguments)",
    # item 7: a collection file that cannot grow (RLIMIT_FSIZE, as a full disk) keeps the old collection
    "import resource, signal\n"
    "keep_path = mcp_lab.save_flows(os.path.join(workdir, 'keep.json'), [done_flow])\n"
    "big_flow = await mcp_lab.call('echo', 'seen', {'x': 'y' * 300_000})\n"
    "_limit = resource.getrlimit(resource.RLIMIT_FSIZE)\n"
    "_xfsz = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
    "resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, _limit[1]))\n"
    "try:\n"
    "    mcp_lab.save_flows(keep_path, [done_flow, big_flow])\n"
    "finally:\n"
    "    resource.setrlimit(resource.RLIMIT_FSIZE, _limit)\n"
    "    signal.signal(signal.SIGXFSZ, _xfsz)",
    "print('KEPT', len(mcp_lab.load_flows(keep_path)), big_flow in mcp_lab.flows, sorted(os.listdir(workdir)))",
    # nothing registered from a refused ring; the fleet's rings are still strong
    "print('SERVERS', sorted(n for n in mcp_lab.sandbox.servers if n.startswith('weak')),"
    " [len(set(i.ring.ids)) == len(i.ring.ids) for i in fleet1.instances])",
]


def test_the_table_covers_the_issue() -> None:
    assert len(KEYRINGS) >= 30 and len(API) >= 70
    assert len({c.source for c in CASES}) == len(CASES), "every case is different"


@pytest.fixture(scope="module")
def executed() -> list[dict[str, object]]:
    cells = [*SETUP]
    for case in CASES:
        cells += [case.source, HEALTH]
    return run_cells(*cells, *GOOD, timeout=90)


def test_setup_works(executed: list[dict[str, object]]) -> None:
    for cell in executed[: len(SETUP)]:
        assert errors_of(cell) == [], text_of(cell)
    assert _stdout(executed[len(SETUP) - 1]).startswith("READY")


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{c.surface}-{i}" for i, c in enumerate(CASES)])
def test_bad_input_is_one_line_and_nothing_recorded_is_lost(executed: list[dict[str, object]], index: int) -> None:
    case = CASES[index]
    cell, health = executed[len(SETUP) + 2 * index], executed[len(SETUP) + 2 * index + 1]
    assert _stdout(health) == "HEALTHY done True True", (case.source, text_of(health))
    if case.expect == "_":  # replay(server=''): a failed entry naming the missing server, not the recorded one
        assert "no server named ''" in text_of(cell), text_of(cell)
        return
    streams = [o for o in cell.get("outputs", []) if o["output_type"] == "stream" and o["name"] == "stderr"]
    assert "BODY RAN" not in text_of(cell), "the cell body ran although its ring was refused"
    errors = errors_of(cell)
    if not errors and len(streams) == 1 and streams[0]["text"].startswith("UsageError: "):
        line = streams[0]["text"].strip()  # IPython prints a UsageError from argument parsing as one stderr line
        assert "\n" not in line and case.expect in line, (case.source, line)
        return
    assert len(errors) == 1, (case.source, text_of(cell))
    error = errors[0]
    assert error["ename"] in ("LabError", "UsageError", "ConnectionFailed"), (case.source, error)
    assert case.expect in error["evalue"], (case.source, error["evalue"])
    assert len(error["traceback"]) == 1 and "\n" not in error["evalue"].strip(), (case.source, error["traceback"])
    assert streams == [], (case.source, streams)


def _good(executed: list[dict[str, object]], index: int) -> str:
    cell = executed[len(SETUP) + 2 * len(CASES) + index]
    assert errors_of(cell) == [], text_of(cell)
    return _stdout(cell)


def test_a_long_argument_replays_and_renders(executed: list[dict[str, object]]) -> None:
    assert _good(executed, 0) == "SAME True application/vnd.mcp-lab.replay+json True"
    _good(executed, 1)
    assert _good(executed, 2) == "CHANGED False True True True 6000"


def test_a_nan_argument_is_saved_as_null(executed: list[dict[str, object]]) -> None:
    _good(executed, 3)
    assert _good(executed, 4) == "NAN [null, null, 1.5] {'x': [None, None, 1.5]} {'x': [None, None, 1.5]}"


def test_a_collection_that_cannot_be_written_is_one_line_and_the_old_one_stays(
    executed: list[dict[str, object]],
) -> None:
    cell = executed[len(SETUP) + 2 * len(CASES) + 5]
    (error,) = errors_of(cell)
    assert error["ename"] == "LabError" and len(error["traceback"]) == 1, error
    assert "cannot write" in error["evalue"] and "nothing there was changed" in error["evalue"], error["evalue"]
    assert _good(executed, 6) == "KEPT 1 True ['collection.fifo', 'keep.json', 'long.json', 'nan.json']"


def test_no_refused_ring_left_a_server_behind(executed: list[dict[str, object]]) -> None:
    assert _good(executed, 7) == "SERVERS [] [True, True]"


def test_the_collections_written_are_strict_json(tmp_path: Path) -> None:
    """The same NaN rule outside a kernel: `Flow.to_json` and `save_flows` never write NaN."""
    import mcp_lab
    from mcp_lab.flow.flow import Flow

    flow = Flow(server="s", method="tools/call", target="t", arguments={"x": float("nan")}, status="done")
    path = mcp_lab.save_flows(tmp_path / "n.json", [flow])
    assert json.loads(path.read_text())["flows"][0]["arguments"] == {"x": None}


def _stdout(cell: dict[str, object]) -> str:
    outputs: list[dict[str, str]] = cell.get("outputs", [])  # type: ignore[assignment]
    return "".join(o["text"] for o in outputs if o["output_type"] == "stream" and o["name"] == "stdout").strip()
