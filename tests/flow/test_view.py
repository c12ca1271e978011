"""Flow views: stable text for nbval, HTML, and the plain data for the labextension; no key material."""

from __future__ import annotations

import json

import mcp_lab
from mcp_lab.flow.record import FlowRecord
from mcp_lab.flow.view import FLOW_MIME, token_brief
from mcp_lab.servers.lab_server import LabServer


async def test_bundle_has_three_renderings_and_no_times_in_text(demo: LabServer) -> None:
    flow = await mcp_lab.call("demo", "handmade", {"x": 1}, answers={"q1": {"n": 2}})
    bundle = flow._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", FLOW_MIME}
    assert bundle["text/plain"] == (
        "Flow tools/call 'handmade' on 'demo' (2026-07-28): done after 2 legs\n"
        "  leg 1 sent the request\n"
        "     <- input_required: asks q1: elicitation (form) 'pick a number'\n"
        '  leg 2 sent q1 = accept {"n": 2} (script); token echoed\n'
        "     <- result: 'x=1 n=2 state={\"x\": 1}'"
    )
    assert "<table>" in bundle["text/html"] and "sealed v1, key " in bundle["text/html"]
    record = FlowRecord.model_validate(json.loads(json.dumps(bundle[FLOW_MIME])))
    assert (record.kind, record.version, record.status, record.id) == ("flow", 1, "done", flow.id)
    assert record.rounds[0].token is not None and record.rounds[0].token.text == flow.rounds[0].request_state
    assert [q.key for q in record.rounds[0].input_requests] == ["q1"]
    assert record.rounds[1].result is not None and record.rounds[1].result.texts == [flow.text]
    secret = demo.ring.secret_keys()[0] if demo.ring else b""
    dumped = json.dumps(bundle, default=str)
    assert secret.hex() not in dumped and secret.decode("latin-1") not in dumped


def test_token_brief_is_keyless() -> None:
    assert token_brief(None) == "no token"
    assert token_brief("round=1").startswith("PLAINTEXT")
    assert token_brief("v1.YWJjZGVm") == "v1 prefix but malformed, 11 chars"  # 6 bytes: too short to be sealed
