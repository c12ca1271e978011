"""A token report is its record: one shape, whose dump is the vendor JSON and whose views draw it.

Why: the report and the record it was copied into field by field were two shapes of one thing. Now the
inspector fills the record's own fields; the token, the inner state and the claims stay whole in Python and
are clipped only when dumped, and a dump reads back as the record it came from.
"""

from __future__ import annotations

import json

import mcp_lab
from mcp_lab.records.base import CLIP_CHARS
from mcp_lab.servers.lab_server import LabServer
from mcp_lab.tokens.record import TokenRecord
from mcp_lab.tokens.view import TOKEN_MIME, token_bundle


async def test_the_report_is_the_record_its_views_and_json_draw(demo: LabServer) -> None:
    flow = await mcp_lab.start("demo", "tools/call", "book", {"city": "Paris"})
    await flow.step()
    report = mcp_lab.inspect_token(flow)
    assert isinstance(report, TokenRecord) and report.record() is report
    assert report.accepted and report.structure.startswith("SDK AES-256-GCM v1: prefix | key id")
    assert [s.label for s in report.segments][:2] == ["prefix", "key id"] and report.nonce
    assert report.inner_kind == "resolver" and report.questions and report.claim_rows
    assert report.verdict_tone == "ok" and report.verdict_title == "Accepted"
    dumped = report.dump()
    assert report._repr_mimebundle_()[TOKEN_MIME] == dumped == token_bundle(report)[TOKEN_MIME]
    assert report.to_dict() == dumped and json.loads(report.to_json()) == dumped
    assert TokenRecord.model_validate(dumped).dump() == dumped
    assert "_anatomy" not in dumped and "_question_texts" not in dumped


def test_a_huge_token_is_whole_in_python_and_clipped_when_dumped() -> None:
    token = "v1." + "A" * (CLIP_CHARS * 3)
    report = mcp_lab.inspect_token(token)
    assert report.token == token and report.length == len(token)
    dumped = report.dump()
    assert dumped["token"]["clipped"] is True and dumped["token"]["length"] == len(token)
    again = TokenRecord.model_validate(dumped)
    assert again.dump() == dumped and not isinstance(again.token, str)
    html = token_bundle(report)["text/html"]
    assert len(html) < CLIP_CHARS * 2 and "chars, sha256" in html
